"""The Predict step, before Speed Of Light: commit to numbers first, then read the counters.

For the naive and tiled matmuls of one size and tile (the app's own kernels, whose launch gives
the size, or a size typed in), the student types what each kernel's global loads will cost
(requests, sectors, sectors per request), the compulsory DRAM bytes, and which kernel is faster
by how much. Nothing derived or measured is on the page until Reveal; then beside each entry the
derivation, the counter, the differences in percent and the lesson's reading, all from
viewer.lesson.reveal. Reveal uncovers every row at the desk and one row at a time in projector
mode; Space or Enter (the window's "Reveal the next row") always uncovers one, so a room predicts
aloud first, and in projector mode so does Enter in the field where the room's guess was typed
(at the desk it moves on to the next field). A revealed row is locked, and clicking it asks the
window for its counter's row. Once the requests are revealed, where the reports hold line info,
the lines of code whose global loads make them are named (viewer.lesson.exercise_source), with a
button to the first in the Source view.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from viewer.analysis.launch_size import launch_text
from viewer.core.metrics import SUMMARY_METRICS
from viewer.core.model import Kernel, Report
from viewer.lesson import predict_text as text
from viewer.lesson.exercise_source import LoadLines, request_lines
from viewer.lesson.lesson_pair import LessonPair, lesson_pair
from viewer.lesson.predict_text import PredictState
from viewer.qt.kit.reading_tab import ReadingTab
from viewer.qt.kit.style import Style
from viewer.qt.lesson.exercise_lines import SourceLines, line_button
from viewer.qt.lesson.predict_grid import (
    ORDER,
    RowCells,
    build_grid,
    faster_box,
    fill_row,
    guess_edit,
)
from viewer.qt.lesson.predict_grid import mark_next as mark_next_row
from viewer.qt.lesson.sticky_header import StickyHeader
from viewer.readers.source import KernelSource


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    HOW_TO = "how_to"
    MESSAGE = "message"
    NEEDS_PAIR = "needs_pair"
    ORDER_NOTE = "order_note"
    REVEAL = "reveal"
    SHAPE = "shape"
    SOURCE_LINES = "source_lines"
    START_OVER = "start_over"


__all__ = ["ORDER", "PredictState", "PredictTab"]

REQUESTS = SUMMARY_METRICS["global_load_requests"]
REQUESTS_SHOWN = "tiled.requests"  # both kernels' requests are on the page from this row on


class _Clicks(QObject):
    """A left click on a revealed row's labels: the tab's `navigate('', metric)` (the reading
    tab that shows that counter's row)."""

    def __init__(self, tab: PredictTab) -> None:
        super().__init__(tab)
        self.tab = tab

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.MouseButtonRelease and isinstance(event, QMouseEvent)
                and event.button() == Qt.MouseButton.LeftButton and watched.property("metric")):
            self.tab.navigate.emit("", str(watched.property("metric")))
            return True
        return False


class PredictTab(ReadingTab):
    """Signals: `navigate('', metric)` when a revealed row is clicked; `revealed(shown)` after
    rows are uncovered."""

    VIEW = "predict"
    KEY = "P"
    TITLE = "Predict"
    QUESTION = ("Predict before you read: how many global load requests and sectors will each "
                "kernel make, how many DRAM bytes at the least, and which kernel is faster, by "
                "how much?")

    REFLOWS = 1  # narrow (a laptop in projector type): the quantities over their rows
    revealed = Signal(int)

    def __init__(self, style: Style | None = None, parent: QWidget | None = None) -> None:
        self.state = PredictState()
        self.rows: dict[str, RowCells] = {}
        self.pair: LessonPair | None = None
        self.message: QLabel | None = None
        self.reveal_button: QPushButton | None = None
        self.shape_inputs: list[QLineEdit] = []
        self.sticky: StickyHeader | None = None
        self.lines_box: QVBoxLayout | None = None  # the requests' lines of code, once revealed
        self.lines: SourceLines | None = None  # made once the widget is
        super().__init__(style, parent)
        self._clicks = _Clicks(self)
        self.lines = SourceLines(parent=self)
        self.lines.changed.connect(self._show_lines)

    def set_kernels(self, kernels: Sequence[Kernel], names: Sequence[str] | None = None,
                    reports: Sequence[Report] = ()) -> None:
        """As ReadingTab's; predictions survive a swap of the same two kernels, not a change."""
        ids = tuple(sorted(id(k) for k in kernels))
        if ids != self.state.kernels:
            self.state = PredictState(kernels=ids)
        super().set_kernels(kernels, names, reports)

    def clear(self) -> None:
        self.state = PredictState()
        self._drop_sticky()
        super().clear()

    # ------------------------------------------------------------------ building

    def _build(self, layout: QVBoxLayout) -> None:
        self.rows, self.message, self.reveal_button, self.shape_inputs = {}, None, None, []
        self._drop_sticky()
        self.pair = pair = lesson_pair(self.kernels, self.names)
        if pair is None:
            layout.addWidget(self.label(text.NEEDS_PAIR, wrap=True, name=Names.NEEDS_PAIR))
            return
        layout.addLayout(self._shape_row(pair))
        if pair.order_note:
            layout.addWidget(self.label(pair.order_note, color="secondary", wrap=True,
                                        name=Names.ORDER_NOTE))
        layout.addWidget(self.label(text.how_to(self.style_.projector), color="secondary",
                                    wrap=True, name=Names.HOW_TO))
        box = faster_box(self.style_, pair, self.state.faster,
                         lambda role: setattr(self.state, "faster", role))
        grid, self.rows, headings = build_grid(self.label, self.style_, pair, self.state.texts,
                                               box, self._enter)
        layout.addLayout(grid)
        self.sticky = StickyHeader(self.scroll_area, headings, self.style_)  # Derived, Measured
        self.lines_box = QVBoxLayout()
        layout.addLayout(self.lines_box)
        layout.addLayout(self._buttons())
        shown = ORDER[:self.state.shown]
        if shown:
            results = text.results(pair, self.state, shown)
            for key in shown:
                fill_row(self.rows[key], results[key], self.style_, self._clicks)
        self._show_progress()
        self._show_lines()

    def _show_lines(self) -> None:
        """The requests' lines of code under the grid, once both requests rows are shown."""
        box, pair, lines = self.lines_box, self.pair, self.lines
        if box is None or pair is None or lines is None:
            return
        while box.count():
            item = box.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        if REQUESTS_SHOWN not in ORDER[:self.state.shown]:
            return
        requests = (pair.naive.metric(REQUESTS), pair.tiled.metric(REQUESTS))

        def words(naive: KernelSource, tiled: KernelSource, p: LessonPair) -> LoadLines | None:
            return request_lines(naive, tiled, (p.naive_name, p.tiled_name), requests)

        found = lines.of(pair, self.kernels, self.reports, words)
        if found is None:
            return
        if isinstance(found, str):
            box.addWidget(self.label(found, "small", color="secondary", wrap=True,
                                     name=Names.SOURCE_LINES))
            return
        box.addWidget(self.label(f"In the source: {found.text}", wrap=True,
                                 name=Names.SOURCE_LINES))
        button = line_button(found, self.style_, self.navigate.emit) if self.navigable else None
        if button is not None:
            box.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)

    def _drop_sticky(self) -> None:
        """The last table's heading copies go with it."""
        if self.sticky is not None:
            self.sticky.unpin()
            self.sticky.setParent(None)
            self.sticky.deleteLater()
            self.sticky = None

    def _shape_row(self, pair: LessonPair) -> QHBoxLayout:
        """The size and tile the derivation uses: from the launch, or typed in."""
        row = QHBoxLayout()
        row.setSpacing(self.style_.px(8))
        if pair.dim is not None:
            words = text.shape_text(pair.dim, pair.tile, launch_text(pair.naive))
            row.addWidget(self.label(words, bold=True, wrap=True, name=Names.SHAPE), 1)
            return row
        row.addWidget(self.label(text.SIZE_PROMPT, bold=True, wrap=True, name=Names.SHAPE), 1)
        for key, hint in (("size", "N"), ("tile", str(pair.tile))):
            row.addWidget(self.label(key, bold=True))
            edit = guess_edit(self.style_, self.state.texts, key, hint, "00000")
            edit.setReadOnly(self.state.shown > 0)  # the revealed rows were derived for it
            self.shape_inputs.append(edit)
            row.addWidget(edit)
        return row

    def _buttons(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.setSpacing(self.style_.px(10))
        self.reveal_button = QPushButton()
        self.reveal_button.setObjectName(Names.REVEAL)
        self.reveal_button.clicked.connect(self.press_reveal)
        again = QPushButton("Start over")
        again.setObjectName(Names.START_OVER)
        again.clicked.connect(self.start_over)
        for button in (self.reveal_button, again):
            button.setFont(self.style_.font("body", bold=True))
            row.addWidget(button)
        self.message = self.label("", wrap=True, name=Names.MESSAGE)
        row.addWidget(self.message, 1)
        return row

    # ------------------------------------------------------------------ revealing

    @property
    def row_count(self) -> int:
        """How many rows there are to reveal (0 when no lesson pair is open)."""
        return len(ORDER) if self.pair is not None else 0

    @property
    def shown(self) -> int:
        return self.state.shown

    def press_reveal(self) -> None:
        """The Reveal button: every row at the desk, the next one in projector mode."""
        if self.style_.projector:
            self.reveal_next()
        else:
            self.reveal_to(len(ORDER))

    def reveal_next(self) -> bool:
        """Uncover the next row (Space or Enter); False when none is left or a prediction is
        not a number."""
        return self.reveal_to(self.state.shown + 1)

    def reveal_to(self, shown: int) -> bool:
        """Uncover rows until `shown` are; False, with a sentence why, when none is."""
        shown = min(shown, self.row_count)
        if self.pair is None or shown <= self.state.shown:
            return False
        try:
            results = text.results(self.pair, self.state, ORDER[:shown])
        except ValueError as exc:  # a number that is not one, a size the derivation refuses
            self._say(str(exc), "warning")
            return False
        for key in ORDER[self.state.shown:shown]:
            fill_row(self.rows[key], results[key], self.style_, self._clicks)
        for edit in self.shape_inputs:
            edit.setReadOnly(True)
        self.state.shown = shown
        self._show_progress()
        self._show_lines()
        QTimer.singleShot(0, lambda: self._follow(shown))  # once the rows are laid out
        self.revealed.emit(shown)
        return True

    def _enter(self, edit: QLineEdit) -> None:
        """Enter in a prediction reveals the next row, as the page says, and goes on to the
        field of the one after; a field that is not a number says why and keeps the focus."""
        problem = edit.property("problem")
        if problem:
            self._say(str(problem), "warning")
            return
        if self.reveal_next() and self.state.shown < len(ORDER):
            self.rows[ORDER[self.state.shown]].inputs[0].setFocus()

    def _follow(self, shown: int) -> None:
        """Scroll the last row revealed, and the one asked about next, into view."""
        keys = [k for k in ORDER[max(0, shown - 1):shown + 1] if k in self.rows]
        for key in keys:
            self.scroll_area.ensureWidgetVisible(self.rows[key].cells[-1]
                                             if self.rows[key].cells[-1].isVisible()
                                             else self.rows[key].name)

    def start_over(self) -> None:
        """Forget the predictions and hide every row again."""
        self.state = PredictState(kernels=self.state.kernels)
        self._render()

    def _show_progress(self) -> None:
        if self.reveal_button is None:
            return
        self.reveal_button.setText(text.reveal_button_text(self.style_.projector))
        self.reveal_button.setEnabled(self.state.shown < len(ORDER))
        self._say(text.progress_text(self.state.shown, len(ORDER)), "secondary")
        mark_next_row(self.rows, self.state.shown, self.style_)

    def _say(self, words: str, color: str) -> None:
        if self.message is not None:
            self.message.setText(words)
            self.style_.paint_label(self.message, color=color, bold=color == "warning")
