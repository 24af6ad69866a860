"""The hierarchical roofline (key O): where each kernel sits under the FP32 ceiling at DRAM, L2
and L1, and, beside the chart, the lesson's day-30 flaw.

The metrics come from viewer.analysis.roofline; those the first read left out are read when the
view is shown, off the GUI thread (through the session: viewer.qt.kit.view_reads), with
progress here. What the report lacks is said (roofline.MISSING_TEXT names the section set that
has it), never drawn as zeros. The words under the chart are computed from the values drawn
(viewer.analysis.roofline_words).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import ClassVar

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from viewer.analysis import roofline
from viewer.analysis import roofline_words as words
from viewer.core.model import Kernel, Report
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.reading_tab import NOTHING_SELECTED
from viewer.qt.kit.session_reads import SessionReads
from viewer.qt.kit.style import Role, Style
from viewer.qt.kit.view import FramesNoRow, ShowsReports
from viewer.qt.kit.view_reads import ViewReads
from viewer.qt.kit.wrapped_column import WrappedColumn
from viewer.qt.views.roofline.roofline_chart import RooflineChart
from viewer.session import Need
from viewer.session.shown import State

READING_TEXT = "Reading the roofline's metrics from {files}..."
NO_DAY_THIRTY = ("The day-30 count is made for the lesson's naive matmul: open it (the app opens "
                 "the shipped pair when no file is named) to set the hand count beside the "
                 "measured DRAM bytes.")
CEILINGS_NOTE = "Ceilings: {name}'s peaks at its measured clocks."

NEED = Need.of(roofline.ROOFLINE_METRICS)


class RooflineView(FramesNoRow, ShowsReports, QWidget):
    navigate = Signal(str, str)
    VIEW: ClassVar[str] = "roofline"
    TITLE: ClassVar[str] = "Roofline"
    QUESTION: ClassVar[str] = ("Roofline: how far below the FP32 ceiling is each kernel, and what "
                               "does each memory level say about it?")
    KEY: ClassVar[str] = "O"

    def __init__(self, style: Style | None = None, parent: QWidget | None = None,
                 reads: SessionReads | None = None) -> None:
        super().__init__(parent)
        self._style = style or Style()
        self.kernels: list[Kernel] = []
        self.names: list[str] = []
        self.reports: list[Report] = []
        self.rooflines: list[roofline.Roofline] = []
        self.chart: RooflineChart | None = None
        self.key_label: QLabel | None = None
        self._stale = False  # drawn while hidden in a window: draw when shown
        self.wanted = ViewReads(NEED, self, reads)
        self.wanted.changed.connect(self._reads_changed)
        self.setAutoFillBackground(True)
        layout = self._outer = QVBoxLayout(self)
        self.question = plain_label(self.QUESTION)
        self.question.setWordWrap(True)
        self.progress = self.wanted.progress_bar()
        self.progress.hide()
        self._scroll_area = QScrollArea()
        self._scroll_area.setWidgetResizable(True)
        self._scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        for widget in (self.question, self.progress):
            layout.addWidget(widget)
        layout.addWidget(self._scroll_area, 1)
        self._render()

    @property
    def style_(self) -> Style:
        return self._style

    @property
    def compare_mode(self) -> bool:
        return len(self.kernels) == 2

    @property
    def reading(self) -> bool:
        """Whether the roofline's metrics of the kernels shown are being read."""
        return self.wanted.reading

    @property
    def error(self) -> str:
        """The one line that stopped reading a report shown, or ''."""
        return self.wanted.error

    def set_kernels(self, kernels: Sequence[Kernel], names: Sequence[str],
                    reports: Sequence[Report]) -> None:
        self.kernels, self.names, self.reports = list(kernels), list(names), list(reports)
        self.wanted.show(self.reports, self.kernels)
        self._render()

    def clear(self) -> None:
        self.kernels, self.names, self.reports = [], [], []
        self.wanted.show((), ())
        self._render()

    def set_style(self, style: Style) -> None:
        self._style = style
        self._render()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self._render()

    def _reads_changed(self, whole: bool) -> None:
        """A read of the kernels shown moved on (`whole`: arrived or failed)."""
        if whole:
            self._render()
        else:
            self.progress.setValue(self.wanted.steps)

    # ------------------------------------------------------------ drawing

    def label(self, text: str, role: Role = "body", *, bold: bool = False,
              color: str = "text", name: str = "") -> QLabel:
        widget = self._style.label(text, role, bold=bold, color=color, name=name, wrap=True)
        widget.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        return widget

    def _render(self) -> None:
        """Draw now; hidden in a window, draw when next shown (as viewer.qt.kit.reading_tab
        does)."""
        self._stale = not self.isVisible() and self.window() is not self
        if not self._stale:
            self._render_now()

    def _render_now(self) -> None:
        style = self._style
        style.apply_palette(self)
        self.question.setFont(style.font("heading", bold=True))
        margin = style.px(10)
        self._outer.setContentsMargins(margin, margin, margin, margin)
        content = WrappedColumn()
        content.setObjectName("answer")
        column = QVBoxLayout(content)
        column.setContentsMargins(0, 0, style.px(6), 0)
        column.setSpacing(style.px(8))
        self.chart = None
        self.rooflines = [roofline.roofline(k) for k in self.kernels]
        reading = self.wanted.state is State.READING
        self.progress.setVisible(reading)
        self.progress.setValue(self.wanted.steps)
        if not self.kernels:
            column.addWidget(self.label(NOTHING_SELECTED, color="secondary", name="placeholder"))
        elif reading:
            files = ", ".join(dict.fromkeys(r.file_name for r in self.reports))
            column.addWidget(self.label(READING_TEXT.format(files=files), color="secondary",
                                        name="reading"))
        else:
            self._build(column)
        column.addStretch(1)
        old = self._scroll_area.takeWidget()
        if old is not None:
            old.deleteLater()
        self._scroll_area.setWidget(content)

    def _build(self, column: QVBoxLayout) -> None:
        if self.error:  # the metrics could not be read: nothing to say of what the file holds
            column.addWidget(self.label(self.error, color="warning", name="error"))
            return
        missing = [(name, rf.missing_text) for name, rf in zip(self.names, self.rooflines,
                                                               strict=True) if rf.missing_text]
        for number, (name, text) in enumerate(missing):
            lead = f"{name}: " if self.compare_mode else ""
            column.addWidget(self.label(lead + text[0].upper() + text[1:] + ".", "heading",
                                        bold=True, color="warning", name=f"missing_{number}"))
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
        self.chart.setObjectName("chart")
        day30 = self._day_thirty()
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
            column.addWidget(self.label(words.kernel_words(rf, name), name=f"kernel_{number}"))
        column.addWidget(self.label(CEILINGS_NOTE.format(name=drawn[0][1]), "small",
                                    color="secondary", name="ceilings_note"))
        self._fit_chart()

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
            layout.addWidget(self.label(hidden, role, bold=True, name="hidden"))
        changes = words.level_changes(self.rooflines[0], self.rooflines[1], pair)
        for number, line in enumerate(changes):
            layout.addWidget(self.label(line, name=f"change_{number}"))

    def _fit_chart(self) -> None:
        """In projector mode the chart and its key fill what the view shows below its question,
        so the room sees the axes, the lines and the key at once; the words follow below."""
        if self.chart is None or self.key_label is None or not self._style.projector:
            return
        viewport = self._scroll_area.viewport()
        key = self.key_label.heightForWidth(viewport.width() - self._style.px(6))
        spare = viewport.height() - max(key, self.key_label.sizeHint().height())
        self.chart.setFixedHeight(max(self._style.px(120), spare - self._style.px(30)))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_chart()

    def _key(self, chart: RooflineChart) -> QLabel:
        """The chart's key as coloured glyphs and words, wrapping to the width."""
        parts = [f'<span style="color:{color}">{glyph}</span>&nbsp;'
                 + html.escape(text).replace(" ", "&nbsp;")
                 for color, glyph, text in chart.key]
        key = self.label(" &nbsp; ".join(parts), "small", name="key")
        key.setTextFormat(Qt.TextFormat.RichText)
        return key

    def _day_thirty(self) -> tuple[roofline.DayThirty, roofline.Roofline] | None:
        """The day-30 count of the lesson's naive kernel, when it is shown with a roofline."""
        for kernel, rf in zip(self.kernels, self.rooflines, strict=True):
            day = roofline.day_thirty(kernel)
            if day is not None and not rf.empty:
                return day, rf
        return None

    def _day_thirty_panel(self, day30: tuple[roofline.DayThirty, roofline.Roofline] | None
                          ) -> QWidget:
        panel = QWidget()
        panel.setObjectName("day_thirty")
        box = QVBoxLayout(panel)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.label("Day 30: DRAM bytes counted by hand", "heading", bold=True))
        if day30 is None:
            box.addWidget(self.label(NO_DAY_THIRTY, color="secondary", name="day_thirty_none"))
        else:
            lines = words.day_thirty_words(*day30)
            for number, line in enumerate(lines):
                box.addWidget(self.label(line, bold=number == len(lines) - 1,
                                         name=f"day_thirty_{number}"))
        box.addStretch(1)
        return panel
