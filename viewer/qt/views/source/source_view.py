"""Source (C): the kernel's source lines, each opening to its SASS, with ncu's per-instruction
counters (warp instructions, global and shared loads, also per thread, L2 theoretical sectors and
their excess over ideal, warp stall samples and their top reasons); the hottest lines marked,
sorting by any column. With two kernels, naive against tiled: the rows that issue global and
shared loads lined up, their loads per thread against the lesson's derivation where the kernel
is the lesson's at the lesson's layout (viewer.analysis.source.compare), then the two tables side
by side.

The counters are read when the view is shown, off the GUI thread, through the session
(`Need.source`: one read per report serves every view; viewer.qt.kit.view_reads). A report
without line info shows its SASS alone, a basic set says which capture option adds the
counters, an export says what holds them; ncu's source page export opens here too
(`open_source_page`). `mark_row("file:line")` highlights the line the room is asked about: by
default the hottest global-load line.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QFrame,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from viewer.analysis import source as analysis
from viewer.analysis.source import GLOBAL_LOADS, row_key
from viewer.core.model import Kernel, Report
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.session_reads import SessionReads
from viewer.qt.kit.style import Style
from viewer.qt.kit.view import ShowsReports
from viewer.qt.kit.view_reads import ViewReads
from viewer.qt.kit.workers import Worker
from viewer.qt.views.source.load_rows import LoadRows
from viewer.qt.views.source.source_pane import SourcePane
from viewer.readers import sniff
from viewer.readers.source import KernelSource, read_source
from viewer.session import Need
from viewer.session.shown import State

NEED = Need.of(source=True)
READING = "Reading the source counters from the report…"
EXPORT = ("this file is an export ({format}), which holds no per-instruction counters: open "
          "the .ncu-rep, or its `--page source --csv --print-source sass` export")
NO_SASS = "the report holds no SASS for this kernel"
NO_SELECTION = "Open a report and pick a kernel to read its source lines."


def hottest_global_load(functions: Sequence[KernelSource | None]) -> str | None:
    """The key of the first function's hottest row that issues global loads (lines, else
    SASS); None where none does."""
    for function in functions:
        if function is None:
            continue
        table = analysis.table(function)
        rows = [r for r in (table.lines or table.sass) if r.value(GLOBAL_LOADS)]
        hot = analysis.hottest(rows, 1)
        if hot:
            return row_key(hot[0])
    return None


class SourceView(ShowsReports, QWidget):
    """One kernel's source lines and SASS, or naive against tiled (A first)."""

    navigate = Signal(str, str)
    VIEW: ClassVar[str] = "source"
    KEY: ClassVar[str] = "C"
    TITLE: ClassVar[str] = "Source"
    QUESTION: ClassVar[str] = ("Which lines issue the loads, how many per thread, and where "
                               "do the warps wait?")

    def __init__(self, style: Style | None = None, parent: QWidget | None = None,
                 reads: SessionReads | None = None) -> None:
        super().__init__(parent)
        self._style = style or Style()
        self.kernels: list[Kernel] = []
        self.names: list[str] = []
        self.reports: list[Report] = []
        self._page: list[KernelSource] | None = None  # a source page export, opened here
        self._marked: str | None = None
        self._chosen_mark = False
        self._defaults: list[str | None] = []  # each side's hottest global-load row
        self.wanted = ViewReads(NEED, self, reads)
        self.wanted.changed.connect(self._reads_changed)
        self.page_worker = Worker(self, max_threads=1)
        self.page_worker.done.connect(self._page_read)
        self.page_worker.failed.connect(self._page_failed)

        self.question = plain_label(self.QUESTION, self)
        self.question.setObjectName("question")
        self.question.setWordWrap(True)
        self.status = plain_label("", self)
        self.status.setObjectName("status")
        self.status.setWordWrap(True)
        self.progress_bar = self.wanted.progress_bar(self)
        self.loads: LoadRows | None = None
        self.loads_area = QScrollArea(self)
        self.loads_area.setWidgetResizable(True)
        self.loads_area.setFrameShape(QFrame.Shape.NoFrame)
        self.loads_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.panes = [SourcePane(self._style, 1, self), SourcePane(self._style, 2, self)]
        for pane in self.panes:
            self.splitter.addWidget(pane)
        self.stack = QSplitter(Qt.Orientation.Vertical, self)  # the comparison over the tables
        self.stack.addWidget(self.loads_area)
        self.stack.addWidget(self.splitter)
        self.stack.setStretchFactor(0, 2)
        self.stack.setStretchFactor(1, 3)
        self._layout = QVBoxLayout(self)
        for widget in (self.question, self.status, self.progress_bar):
            self._layout.addWidget(widget)
        self._layout.addWidget(self.stack, 1)
        self.set_style(self._style)
        self.clear()

    # ------------------------------------------------------------ what is shown

    @property
    def compare_mode(self) -> bool:
        return len(self.functions()) == 2

    def set_kernels(self, kernels: Sequence[Kernel], names: Sequence[str],
                    reports: Sequence[Report]) -> None:
        if [id(k) for k in kernels] != [id(k) for k in self.kernels]:
            self._marked, self._chosen_mark = None, False
        self.kernels, self.names, self.reports = list(kernels), list(names), list(reports)
        self._page = None
        self.wanted.show(self.reports, self.kernels)
        self._show()

    def clear(self) -> None:
        self.kernels, self.names, self.reports, self._page = [], [], [], None
        self._marked, self._chosen_mark = None, False
        self.wanted.show((), ())
        self._show()

    def show_functions(self, functions: Sequence[KernelSource], names: Sequence[str]) -> None:
        """Show functions read apart (a source page export's): one, or two to compare."""
        self.kernels, self.reports = [], []
        self.wanted.show((), ())
        self._page, self.names = list(functions)[:2], list(names)[:2]
        self._marked, self._chosen_mark = None, False
        self._show()

    def open_source_page(self, path: str | Path) -> None:
        """Read ncu's source page export at `path` off the GUI thread, then show its first
        kernels (two: naive against tiled)."""
        self.status.setText(f"Reading {Path(path).name}…")
        self.status.show()
        self.page_worker.submit(read_source, path)

    def _page_read(self, functions: list[KernelSource]) -> None:
        self.show_functions(functions, [f.function for f in functions])

    def _page_failed(self, message: str) -> None:
        self.status.setText(message)
        self.status.show()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._show()
        QTimer.singleShot(0, self._mark)  # again once the tables have their size

    @property
    def reads(self) -> SessionReads:
        return self.wanted.reads

    @property
    def loading(self) -> bool:
        return self.wanted.reading

    @property
    def ready(self) -> bool:
        """Whether every kernel shown has its source counters read (or its file holds none;
        a read that failed says so in its kernel's table)."""
        return self._page is not None or self.wanted.state in (State.READY, State.ERROR)

    def _pairs(self) -> list[tuple[Report, Kernel]]:
        return self.wanted.pairs

    def _reads_changed(self, whole: bool) -> None:
        """A read of the kernels shown moved on (`whole`: arrived or failed)."""
        if whole:
            self._show()
        else:
            self._progress()

    def _progress(self) -> None:
        message = self.wanted.message
        self.progress_bar.setValue(self.wanted.steps)
        self.status.setText(f"{READING} {message}" if message else READING)

    def functions(self) -> list[KernelSource | None]:
        """Each kernel's function with its source counters (None: none to show)."""
        if self._page is not None:
            return list(self._page)
        return [self._function(r, k)[0] for r, k in self._pairs()]

    def _function(self, report: Report, kernel: Kernel) -> tuple[KernelSource | None, str]:
        """The kernel's function, and what is said where there is none (or more than one)."""
        if report.format not in sniff.SOURCE_FORMATS:
            return None, EXPORT.format(format=report.format)
        error = self.reads.session.source_error(report) or self.reads.session.error(report)
        found = self.reads.session.source(report, kernel)
        if found is None:
            return None, error or ""
        if not found:
            return None, error or NO_SASS
        more = f"function 1 of {len(found)} this result ran" if len(found) > 1 else ""
        return found[0], more

    def _show(self) -> None:
        """Everything from what is read now."""
        reading = bool(self.kernels) and not self.ready
        self.progress_bar.setVisible(reading and self.isVisible())
        if reading:
            self._progress()
        self.status.setVisible(reading or not (self.kernels or self._page))
        if not (self.kernels or self._page):
            self.status.setText(NO_SELECTION)
        shown: list[tuple[str, KernelSource | None, str]] = []
        if self._page is not None:
            shown = [(n, f, "") for n, f in zip(self.names, self._page, strict=False)]
        elif not reading:
            shown = [(n, *self._function(r, k))
                     for n, (r, k) in zip(self.names, self._pairs(), strict=False)]
        pair = [f for _, f, _ in shown if f is not None and f.has_counters]
        for number, pane in enumerate(self.panes):
            pane.quiet = len(pair) == 2  # the comparison's sentences say each one's notes
            if number < len(shown):
                pane.show_function(*shown[number])
            pane.setVisible(number < len(shown))
        self.splitter.setVisible(bool(shown))  # a splitter hides itself when its panes are
        self.stack.setVisible(bool(shown))
        self._defaults = [hottest_global_load([f]) for _, f, _ in shown]
        if not self._chosen_mark:
            self._marked = self._defaults[0] if self._defaults else None
        self._compare([f for _, f, _ in shown])
        self._mark()

    def _compare(self, functions: list[KernelSource | None]) -> None:
        old = self.loads_area.takeWidget()
        if old is not None:
            old.deleteLater()
        self.loads = None
        pair = [f for f in functions if f is not None and f.has_counters]
        if len(functions) == 2 and len(pair) == 2:
            comparison = analysis.compare(pair[0], pair[1])
            marked = {self._marked} if self._chosen_mark else set(self._defaults)
            self.loads = LoadRows(self._style, comparison, self.names, marked)
            self.loads.setObjectName("loads")
            self.loads_area.setWidget(self.loads)
        self.loads_area.setVisible(self.loads is not None)

    # ------------------------------------------------------------ the row the room is asked about

    @property
    def marked_row(self) -> str | None:
        return self._marked

    def mark_row(self, key: str | None) -> bool:
        """Highlight the row `key` names ('file:line', or an instruction's '0x…' address) in
        every table that shows it (None: none); False where none shows it."""
        self._marked, self._chosen_mark = key, True
        self._compare(self.functions())
        return self._mark()

    def _mark(self) -> bool:
        """Mark the row chosen, else each side's hottest global-load row, in its table."""
        found = False
        for number, pane in enumerate(self.panes):
            key = self._marked if self._chosen_mark or number >= len(self._defaults) \
                else self._defaults[number]
            found = (pane.mark(key) if pane.isVisibleTo(self) else False) or found
        return found

    # ------------------------------------------------------------ looks

    @property
    def style_(self) -> Style:
        """The style in use (named so as not to shadow QWidget.style())."""
        return self._style

    def set_style(self, style: Style) -> None:
        self._style = style
        style.apply_palette(self)
        style.paint_label(self.question, "heading", bold=True)
        style.paint_label(self.status, "body", color="secondary")
        self.progress_bar.setFont(style.font("body"))
        margin = style.px(10)
        self._layout.setContentsMargins(margin, margin, margin, margin)
        self._layout.setSpacing(style.px(8))
        for pane in self.panes:
            pane.set_style(style)
        self._compare(self.functions() if (self.kernels or self._page) else [])
