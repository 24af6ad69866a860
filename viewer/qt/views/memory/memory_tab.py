"""Step 2, the memory chart: what crossed each arrow from the kernel out to DRAM.

One band per kernel, one above the other in compare mode, followed by the comparison rows (sectors
moved, load requests, ...) each saying which kernel has more and by how much. The chart's type is
never drawn smaller than the style's smallest: where the width cannot hold a band on one row at
that size, the band wraps onto more rows and the page scrolls down, never sideways.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QSizePolicy, QVBoxLayout

from viewer.analysis.chart_layout import chart_band, memory_ratios, memory_values
from viewer.analysis.memory_words import (
    HEADLINE_ROWS,
    WHICH_HAS_MORE,
    floor_sentence,
    legend_text,
)
from viewer.lesson import derivation_check
from viewer.qt.kit.elided_name import ElidedName
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.reading_tab import ReadingTab
from viewer.qt.kit.style import Role
from viewer.qt.views.memory.memory_chart_item import MemoryChartItem
from viewer.qt.views.memory.memory_chart_view import MemoryChartView


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    CHART = "chart"
    DERIVATION = "derivation"
    DERIVATION_NOTE = "derivation_note"
    DERIVATION_TITLE = "derivation_title"
    FLOOR_NOTE = "floor_note"
    LEGEND = "legend"
    RATIO = "ratio"
    RATIO_NAME = "ratio_name"
    VALUE = "value"


_NAME_COLUMN = 180  # the widest a kernel's name takes over its column of the table (desk px)


class MemoryTab(ReadingTab):
    VIEW = "memory"
    TITLE = "2  Memory chart"
    QUESTION = ("Memory chart: what crossed each arrow from the kernel out to DRAM, and how "
                "many sectors did each request pull?")
    REFLOWS = 2  # then the words of which has more under the two values, not beside them

    def _build(self, layout: QVBoxLayout) -> None:
        bands = [chart_band(k, n) for k, n in zip(self.kernels, self.names, strict=True)]
        chart = MemoryChartView(bands, self.style_)
        chart.setObjectName(Names.CHART)
        chart.item.picked.connect(self.row_picked)
        chart.item.set_picking(self.picking)
        layout.addWidget(chart)
        layout.addWidget(self.label(legend_text(self.compare_mode), "small", color="secondary",
                                    name=Names.LEGEND, wrap=True))
        layout.addLayout(self._ratio_table() if self.compare_mode else self._value_table())
        checks = [(name, derivation_check.predictions(k))
                  for k, name in zip(self.kernels, self.names, strict=True)]
        if any(rows for _, rows in checks):
            layout.addLayout(self._prediction_table(checks))
        self._floor_notes(layout)  # below the reading, which fits a 1280x800 window

    def _floor_notes(self, layout: QVBoxLayout) -> None:
        """Each kernel's DRAM bytes against the compulsory floor, in words from its two counters
        (the boxes show only the ratio), named in compare mode."""
        for kernel, name in zip(self.kernels, self.names, strict=True):
            text = floor_sentence(kernel, name, self.compare_mode)
            if not text:
                continue
            layout.addWidget(self.label(text, "small", color="secondary", wrap=True,
                                        name=one_of(Names.FLOOR_NOTE, name)))

    def _value_table(self) -> QGridLayout:
        """The chart's numbers as the rows a text export prints them in."""
        grid = self.grid()
        grid.setVerticalSpacing(self.style_.px(2))
        grid.setColumnStretch(1, 0)
        grid.setColumnStretch(2, 1)
        row = 0
        for number, (key, label, text) in enumerate(memory_values(self.kernels[0])):
            headline = number < HEADLINE_ROWS
            role: Role = "heading" if headline else "body"
            grid.addWidget(self.label(label, role, bold=headline, row=key), row, 0)
            grid.addWidget(self.label(text, role, bold=headline, name=one_of(Names.VALUE, key),
                                      row=key), row, 1, Qt.AlignmentFlag.AlignRight)
            row = self._misread_rows(grid, row + 1, key)
        return grid

    def _misread_rows(self, grid: QGridLayout, row: int, key: str) -> int:
        """The misreads of a compared row, across the table; Duration's are Speed Of Light's."""
        return row if key == "duration_ns" else self.misread_rows(grid, row, key, span=True)

    def _ratio_table(self) -> QGridLayout:
        """Each compared row: both kernels' values and which has more, by how much."""
        grid = self.grid()
        grid.setVerticalSpacing(self.style_.px(2))
        grid.setColumnStretch(0, 2)
        grid.setColumnStretch(1, 0)
        grid.setColumnStretch(2, 0)
        grid.setColumnStretch(3, 3)
        for column, name in enumerate(self.names, 1):
            heading = ElidedName(name, self.look_alikes)  # a long name never widens the table
            self.style_.paint_label(heading, bold=True)
            heading.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            heading.setObjectName(one_of(Names.RATIO_NAME, column))
            whole = heading.fontMetrics().horizontalAdvance(name) + self.style_.px(2)
            heading.setMinimumWidth(min(whole, self.style_.px(_NAME_COLUMN)))
            heading.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
            grid.addWidget(heading, 0, column)
        beside = self.reflow < 2
        if beside:
            grid.addWidget(self.label(WHICH_HAS_MORE, bold=True), 0, 3)
        row = 1
        ratios = memory_ratios(self.kernels[0], self.kernels[1], self.names[0], self.names[1])
        for number, ratio in enumerate(ratios):
            headline = number < HEADLINE_ROWS
            role: Role = "heading" if headline else "body"
            key = ratio.key
            grid.addWidget(self.label(ratio.label, role, bold=headline, wrap=True, row=key),
                           row, 0)
            for column, text in enumerate((ratio.first, ratio.second), 1):
                grid.addWidget(self.label(text, role, bold=headline, row=key), row, column,
                               Qt.AlignmentFlag.AlignRight)
            direction = self.label(ratio.direction, role, bold=headline,
                                   name=one_of(Names.RATIO, key), wrap=True, row=key)
            if beside:
                grid.addWidget(direction, row, 3)
            else:  # on a line of its own, set in from the row's label over it
                direction.setIndent(self.style_.px(16))
                row += 1
                grid.addWidget(direction, row, 1, 1, -1)
            row = self._misread_rows(grid, row + 1, key)
        return grid

    def _prediction_table(
        self, checks: Sequence[tuple[str, Sequence[derivation_check.PredictionCheck]]]
    ) -> QGridLayout:
        """The lesson's derivation for this size and tile, against the counters."""
        grid = QGridLayout()
        grid.setHorizontalSpacing(self.style_.px(14))
        grid.setVerticalSpacing(self.style_.px(2))
        grid.setColumnStretch(4, 1)  # the numbers stay together at the left
        grid.addWidget(self.label(derivation_check.TITLE, "heading", bold=True,
                                  name=Names.DERIVATION_TITLE), 0, 0, 1, 5)
        for column, head in enumerate(derivation_check.HEADINGS, 1):
            grid.addWidget(self.label(head, bold=True), 1, column, Qt.AlignmentFlag.AlignRight)
        row = 2
        fewer_shared = False
        for name, rows in checks:
            if not rows:
                continue
            grid.addWidget(self.label(name, bold=True), row, 0, 1, 4)
            row += 1
            for check in rows:
                grid.addWidget(self.label("    " + check.label, row=check.key), row, 0)
                key = one_of(Names.DERIVATION, name, check.label.replace(" ", "_"))
                texts = (check.derived_text, check.measured_text, check.ratio_text)
                for column, text in enumerate(texts, 1):
                    grid.addWidget(self.label(text, name=one_of(key, column + 1), row=check.key),
                                   row, column, Qt.AlignmentFlag.AlignRight)
                fewer_shared |= check.fewer_shared_loads
                row += 1
        if fewer_shared:
            grid.addWidget(self.label(derivation_check.SHARED_LOAD_NOTE, "small", color="secondary",
                                      wrap=True,
                                      name=Names.DERIVATION_NOTE), row, 0, 1, 5)
        return grid

    def set_picking(self, on: bool) -> None:
        super().set_picking(on)
        item = self.chart_item()
        if item is not None:
            item.set_picking(on)

    def mark_row(self, key: str | None) -> bool:
        """Frame row `key` in the tables and on the chart; False when neither shows it."""
        in_tables = super().mark_row(key)
        item = self.chart_item()
        on_chart = item.mark(key) if item is not None else False
        if on_chart and not in_tables:
            view = self.findChild(MemoryChartView)
            if view is not None:
                self.scroll_area.ensureWidgetVisible(view)
        return in_tables or on_chart

    def chart_item(self) -> MemoryChartItem | None:
        """The drawn chart, or None when no kernel is shown."""
        self._ensure_rendered()
        view = self.findChild(MemoryChartView)
        return view.item if view is not None else None
