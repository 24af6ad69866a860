"""The roofline view's answer under its question: what each report lacks, the pair's levels in
words, the chart and its key, the day-30 count beside it, and each kernel's FP32 work; every
sentence from viewer.analysis.roofline_words.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from enum import StrEnum

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from viewer.analysis import roofline
from viewer.analysis import roofline_words as words
from viewer.core.model import Kernel
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.style import Role, Style
from viewer.qt.views.roofline.roofline_chart import RooflineChart


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    CEILINGS_NOTE = "ceilings_note"
    CHANGE = "change"
    CHART = "chart"
    DAY_THIRTY = "day_thirty"
    DAY_THIRTY_NONE = "day_thirty_none"
    ERROR = "error"
    HIDDEN = "hidden"
    KERNEL = "kernel"
    KEY = "key"
    MISSING = "missing"



def answer_label(style: Style, text: str, role: Role = "body", *, bold: bool = False,
                 color: str = "text", name: str = "") -> QLabel:
    """A wrapped label of the answer, as tall as its lines at the column's width."""
    widget = style.label(text, role, bold=bold, color=color, name=name, wrap=True)
    widget.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
    return widget


class RooflineAnswer:
    """Builds the answer for `kernels` (named `names`, with their `rooflines`) in `style`;
    `chart` and `key_label` are the chart and its key once built, None where none is drawn."""

    def __init__(self, style: Style, kernels: Sequence[Kernel], names: Sequence[str],
                 rooflines: Sequence[roofline.Roofline]) -> None:
        self._style = style
        self.kernels, self.names, self.rooflines = list(kernels), list(names), list(rooflines)
        self.chart: RooflineChart | None = None
        self.key_label: QLabel | None = None

    @property
    def compare_mode(self) -> bool:
        return len(self.kernels) == 2

    def label(self, text: str, role: Role = "body", *, bold: bool = False,
              color: str = "text", name: str = "") -> QLabel:
        return answer_label(self._style, text, role, bold=bold, color=color, name=name)

    def build(self, column: QVBoxLayout, error: str) -> None:
        """Lay the answer out in `column`; `error`: the line that stopped reading, if any."""
        if error:  # the metrics could not be read: nothing to say of what the file holds
            column.addWidget(self.label(error, color="warning", name=Names.ERROR))
            return
        missing = [(name, rf.missing_text) for name, rf in zip(self.names, self.rooflines,
                                                               strict=True) if rf.missing_text]
        for number, (name, text) in enumerate(missing):
            column.addWidget(self.label(words.missing_words(text, name, self.compare_mode),
                                        "heading", bold=True, color="warning",
                                        name=one_of(Names.MISSING, number)))
        drawn = [(rf, n) for rf, n in zip(self.rooflines, self.names, strict=True)
                 if not rf.empty]
        if not drawn:
            return
        words_first = not self._style.projector  # in a room, the chart first and whole
        if words_first:
            self._pair_words(column, drawn)
        body = QBoxLayout(QBoxLayout.Direction.TopToBottom if self._style.projector
                          else QBoxLayout.Direction.LeftToRight)
        body.setSpacing(self._style.px(14))
        self.chart = RooflineChart(self._style)
        self.chart.setObjectName(Names.CHART)
        day30 = roofline.shown_day_thirty(self.kernels, self.rooflines)
        shown = [rf for rf, _ in drawn]
        self.chart.show_rooflines(shown, [n for _, n in drawn], day30[0] if day30 else None,
                                  shown.index(day30[1]) if day30 else 0)
        plot = QVBoxLayout()
        plot.addWidget(self.chart, 1)
        self.key_label = self._key(self.chart)
        plot.addWidget(self.key_label)
        body.addLayout(plot, 3)
        if not words_first:
            self._pair_words(body, drawn)
        body.addWidget(self._day_thirty_panel(day30), 2)
        column.addLayout(body)
        for number, (rf, name) in enumerate(drawn):
            column.addWidget(self.label(words.kernel_words(rf, name),
                                        name=one_of(Names.KERNEL, number)))
        column.addWidget(self.label(words.ceilings_words(drawn[0][1]), "small",
                                    color="secondary", name=Names.CEILINGS_NOTE))

    def _pair_words(self, layout: QBoxLayout, drawn: list[tuple[roofline.Roofline, str]]
                    ) -> None:
        """What the pair's levels say (compare mode): what a DRAM-only roofline hides, and each
        level's change."""
        if not (self.compare_mode and len(drawn) == 2):
            return
        pair = (self.names[0], self.names[1])
        hidden = words.hidden_words(self.rooflines[0], self.rooflines[1], pair)
        if hidden:
            role: Role = "body" if self._style.projector else "heading"
            layout.addWidget(self.label(hidden, role, bold=True, name=Names.HIDDEN))
        changes = words.level_changes(self.rooflines[0], self.rooflines[1], pair)
        for number, line in enumerate(changes):
            layout.addWidget(self.label(line, name=one_of(Names.CHANGE, number)))

    def _key(self, chart: RooflineChart) -> QLabel:
        """The chart's key as coloured glyphs and words, wrapping to the width."""
        parts = [f'<span style="color:{color}">{glyph}</span>&nbsp;'
                 + html.escape(text).replace(" ", "&nbsp;")
                 for color, glyph, text in chart.key]
        key = self.label(" &nbsp; ".join(parts), "small", name=Names.KEY)
        key.setTextFormat(Qt.TextFormat.RichText)
        return key

    def _day_thirty_panel(self, day30: tuple[roofline.DayThirty, roofline.Roofline] | None
                          ) -> QWidget:
        panel = QWidget()
        panel.setObjectName(Names.DAY_THIRTY)
        box = QVBoxLayout(panel)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.label(words.DAY_THIRTY_TITLE, "heading", bold=True))
        if day30 is None:
            box.addWidget(self.label(words.NO_DAY_THIRTY, color="secondary",
                                     name=Names.DAY_THIRTY_NONE))
        else:
            lines = words.day_thirty_words(*day30)
            for number, line in enumerate(lines):
                box.addWidget(self.label(line, bold=number == len(lines) - 1,
                                         name=one_of(Names.DAY_THIRTY, number)))
        box.addStretch(1)
        return panel
