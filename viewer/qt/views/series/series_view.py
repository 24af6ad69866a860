"""The Series view (X): every report open as one series (viewer.analysis.series), as a table and a
plot.

The window hands it every report open (`Selection.series`), whichever kernels are picked: one row
per report and kernel, by N where N is read from the launch, else in the order opened; the lesson's
rows with each report's value, the derivation where the kernel is the lesson's, and each value
against the baseline row the user picks in `baseline_box` (the first by default), worded as the
terminal's `series` words them. Under the table each step's change, then what the series shows
and cannot (one report, unrelated kernels, a report without the lesson's values: the plain half's
sentences); then the plot (series_plot). The values are the first read's: nothing more is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import ClassVar

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from viewer.analysis import series
from viewer.analysis.reading import SERIES_VIEW
from viewer.analysis.series_layout import packed
from viewer.core.model import Report
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.style import Style
from viewer.qt.kit.view import FramesNoRow, Selection
from viewer.qt.kit.wrapped_column import WrappedColumn
from viewer.qt.views.series import series_answer as answer
from viewer.qt.views.series.series_plot import SeriesPlot
from viewer.qt.views.series.series_table import SeriesTable, file_names


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    ANSWER = "answer"
    BASELINE = "baseline"


BASELINE_WORDS = "Ratios against row"


def baseline_items(s: series.Series) -> list[str]:
    """The baseline box's words, one a row: '0  matmul_naive at N = 512 (naive.ncu-rep)', each
    file by the shortest end of its path that tells it apart."""
    names = file_names(s)
    return [f"{i}  {r.name} ({' + '.join(names.get(f, f) for f in r.files)})"
            for i, r in enumerate(s.rows)]


class SeriesView(FramesNoRow, QWidget):
    """`series` (the one shown, None before a report), `reports`, `baseline_box`, `tables` (a
    SeriesTable a band, with its cells) and `cell(family, row, key)`, `plot` (the SeriesPlot).
    `set_reports(reports)` shows them, `set_baseline(i)` picks the row the ratios are
    against."""

    navigate = Signal(str, str)  # a View's signal; the Series asks for no other view
    VIEW: ClassVar[str] = SERIES_VIEW
    KEY: ClassVar[str] = "X"
    TITLE: ClassVar[str] = "Series"
    QUESTION: ClassVar[str] = ("Series: do the derivation's counts hold at every N, and which "
                               "ratio stays while the other moves?")

    def __init__(self, style: Style | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._style = style or Style()
        self.reports: list[Report] = []
        self.series: series.Series | None = None
        self.tables: list[SeriesTable] = []
        self._widths: list[list[int]] | None = None  # each band's column widths, measured
        self._parts: list[list[list[int]]] = []  # each band's columns as laid out
        self._repack = QTimer(self, singleShot=True, interval=0)
        self._repack.timeout.connect(self._refit)
        self._behind = False  # drawn when next shown: asked for while hidden in a window
        self.setAutoFillBackground(True)
        outer = self._outer = QVBoxLayout(self)
        self.question = plain_label(self.QUESTION)
        self.question.setWordWrap(True)
        self.baseline_words = plain_label(BASELINE_WORDS)
        self.baseline_box = QComboBox()
        self.baseline_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.baseline_box.setMinimumContentsLength(12)
        self.baseline_box.setObjectName(Names.BASELINE)
        self.baseline_box.currentIndexChanged.connect(self._baseline_picked)
        pick = QHBoxLayout()
        pick.addWidget(self.baseline_words)
        pick.addWidget(self.baseline_box, 1)
        self.plot = SeriesPlot(self._style)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        outer.addWidget(self.question)
        outer.addLayout(pick)
        outer.addWidget(self.scroll_area, 1)
        self.scroll_area.viewport().installEventFilter(self)
        self._render()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._behind:
            self._render()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.scroll_area.viewport() and event.type() == QEvent.Type.Resize:
            self._repack.start()  # once the resizing is over, not inside Qt's layout pass
        return super().eventFilter(watched, event)

    def _room(self) -> int:
        """The width a table may take: the viewport's, less the column's right margin."""
        return self.scroll_area.viewport().width() - self._style.px(8)

    def _fitted(self) -> list[list[list[int]]]:
        widths = self._widths or []
        spacing = self._style.px(14)
        return [packed(w, self._room(), spacing) for w in widths]

    def _refit(self) -> None:
        if self._widths is not None and self._fitted() != self._parts:
            self._render(measured=True)

    @property
    def style_(self) -> Style:
        return self._style

    def cell(self, family: str, row: int, key: str) -> QLabel | None:
        """The label of a table's cell (series_table.Names: value, ratio, derived), None where
        none is shown."""
        return next((t.cells[(family, row, key)] for t in self.tables
                     if (family, row, key) in t.cells), None)

    def show_selection(self, selection: Selection) -> None:
        """Every report open (the selection's own where the window names no series)."""
        reports = list(selection.series or selection.reports)
        if [id(r) for r in reports] != [id(r) for r in self.reports]:
            self.set_reports(reports)

    def set_reports(self, reports: Sequence[Report], baseline: int = 0) -> None:
        self.reports = list(reports)
        self._widths = None
        self.series = series.build(self.reports, baseline) if self.reports else None
        if self.series is not None and not self.series.rows:
            self.series = None if not self.series.notes else self.series
        self._fill_box()
        self._render()

    def set_baseline(self, index: int) -> None:
        """Ratios against row `index` of the series (numbered as the table numbers them)."""
        if self.series is None or not 0 <= index < len(self.series.rows):
            return
        if index != self.series.baseline:
            self.series = series.build(self.reports, index)
            self._widths = None
            self._fill_box()
            self._render()

    def _baseline_picked(self, index: int) -> None:
        if index >= 0:
            self.set_baseline(index)

    def _fill_box(self) -> None:
        box = self.baseline_box
        box.blockSignals(True)
        box.clear()
        s = self.series
        if s is not None and s.rows:
            box.addItems(baseline_items(s))
            box.setCurrentIndex(s.baseline)
        box.blockSignals(False)
        box.setEnabled(s is not None and len(s.rows) > 1)

    def set_style(self, style: Style) -> None:
        self._style = style
        self._widths = None
        self.plot.set_style(style)
        self._render()

    # ------------------------------------------------------------ drawing

    def _render(self, measured: bool = False) -> None:
        """Everything drawn again; the tables' columns measured first (each band whole) unless
        `measured`, then laid out in parts that fit the width. Hidden in a window (another
        tab shown), it is drawn when next shown."""
        self._behind = self.parentWidget() is not None and not self.isVisible()
        if self._behind:
            return
        if not measured:
            self._widths = None
            self._draw()
            if self.series is None or not self.series.rows:
                return
            self._widths = [t.widths() for t in self.tables]
            if self._fitted() == self._parts:
                return
        self._draw()

    def _draw(self) -> None:
        style = self._style
        style.apply_palette(self)
        self.question.setFont(style.font("heading", bold=True))
        style.paint_label(self.baseline_words, "body", color="secondary")
        self.baseline_box.setFont(style.font("body"))
        margin = style.px(10)
        self._outer.setContentsMargins(margin, margin, margin, margin)
        old = self.scroll_area.takeWidget()
        self.plot.setParent(None)  # kept: it is drawn again, not made again
        content = WrappedColumn()
        content.setObjectName(Names.ANSWER)
        column = QVBoxLayout(content)
        column.setContentsMargins(0, 0, style.px(6), 0)
        column.setSpacing(style.px(10))
        if self._widths is None:
            self._parts = answer.whole()
        else:
            self._parts = self._fitted()
        self.tables = answer.fill(column, style, self.series, self._parts, self.plot)
        column.addStretch(1)
        if old is not None:
            old.deleteLater()
        self.scroll_area.setWidget(content)
