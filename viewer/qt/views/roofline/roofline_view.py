"""The hierarchical roofline (key O): where each kernel sits under the FP32 ceiling at DRAM, L2
and L1, and, beside the chart, the lesson's day-30 flaw.

The metrics come from viewer.analysis.roofline; those the first read left out are read when the
view is shown, off the GUI thread (through the session: viewer.qt.kit.view_reads), with
progress here. What the report lacks is said (roofline.MISSING_TEXT names the section set that
has it), never drawn as zeros. The answer under the question is built by
viewer.qt.views.roofline.roofline_answer, its words computed from the values drawn
(viewer.analysis.roofline_words).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import ClassVar

from PySide6.QtCore import Signal
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

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
from viewer.qt.views.roofline.roofline_answer import RooflineAnswer, answer_label
from viewer.qt.views.roofline.roofline_chart import RooflineChart
from viewer.session import Need
from viewer.session.shown import State


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    ANSWER = "answer"
    PLACEHOLDER = "placeholder"
    READING = "reading"


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
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        for widget in (self.question, self.progress):
            layout.addWidget(widget)
        layout.addWidget(self.scroll_area, 1)
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
        return answer_label(self._style, text, role, bold=bold, color=color, name=name)

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
        content.setObjectName(Names.ANSWER)
        column = QVBoxLayout(content)
        column.setContentsMargins(0, 0, style.px(6), 0)
        column.setSpacing(style.px(8))
        self.chart = None
        self.rooflines = [roofline.roofline(k) for k in self.kernels]
        reading = self.wanted.state is State.READING
        self.progress.setVisible(reading)
        self.progress.setValue(self.wanted.steps)
        if not self.kernels:
            column.addWidget(self.label(NOTHING_SELECTED, color="secondary",
                                        name=Names.PLACEHOLDER))
        elif reading:
            column.addWidget(self.label(words.reading_words(self.reports), color="secondary",
                                        name=Names.READING))
        else:
            answer = RooflineAnswer(style, self.kernels, self.names, self.rooflines)
            answer.build(column, self.error)
            self.chart, self.key_label = answer.chart, answer.key_label
            self._fit_chart()
        column.addStretch(1)
        old = self.scroll_area.takeWidget()
        if old is not None:
            old.deleteLater()
        self.scroll_area.setWidget(content)

    def _fit_chart(self) -> None:
        """In projector mode the chart and its key fill what the view shows below its question,
        so the room sees the axes, the lines and the key at once; the words follow below."""
        if self.chart is None or self.key_label is None or not self._style.projector:
            return
        viewport = self.scroll_area.viewport()
        key = self.key_label.heightForWidth(viewport.width() - self._style.px(6))
        spare = viewport.height() - max(key, self.key_label.sizeHint().height())
        self.chart.setFixedHeight(max(self._style.px(120), spare - self._style.px(30)))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_chart()
