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
from PySide6.QtWidgets import QSplitter, QVBoxLayout, QWidget

from viewer.analysis.source_shown import (
    NO_SELECTION,
    compared,
    function_shown,
    hottest_global_load,
    marked_keys,
    reading_text,
)
from viewer.core.model import Kernel, Report
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.session_reads import SessionReads
from viewer.qt.kit.style import Style
from viewer.qt.kit.view import ShowsReports
from viewer.qt.kit.view_reads import ViewReads
from viewer.qt.kit.workers import Worker
from viewer.qt.views.source.load_rows import LoadRows
from viewer.qt.views.source.loads_area import LoadsArea
from viewer.qt.views.source.source_panes import Shown, SourcePanes
from viewer.qt.views.source.source_view_names import Names
from viewer.readers.source import KernelSource, read_source
from viewer.session import Need
from viewer.session.shown import State

NEED = Need.of(source=True)


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
        self.question.setObjectName(Names.QUESTION)
        self.question.setWordWrap(True)
        self.status = plain_label("", self)
        self.status.setObjectName(Names.STATUS)
        self.status.setWordWrap(True)
        self.progress_bar = self.wanted.progress_bar(self)
        self.loads_area = LoadsArea(self)
        self.splitter = SourcePanes(self._style, self)
        self.panes = self.splitter.panes
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
    def loads(self) -> LoadRows | None:
        """Naive against tiled's load rows, where a pair with counters is shown."""
        return self.loads_area.rows

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

    def _reads_changed(self, whole: bool) -> None:
        """A read of the kernels shown moved on (`whole`: arrived or failed)."""
        if whole:
            self._show()
        else:
            self._progress()

    def _progress(self) -> None:
        self.wanted.paint(self.progress_bar)
        self.status.setText(reading_text(self.wanted.message))

    def functions(self) -> list[KernelSource | None]:
        """Each kernel's function with its source counters (None: none to show)."""
        if self._page is not None:
            return list(self._page)
        return [function_shown(self.reads.session, r, k)[0] for r, k in self.wanted.pairs]

    def _show(self) -> None:
        """Everything from what is read now."""
        reading = bool(self.kernels) and not self.ready
        self.progress_bar.setVisible(reading and self.isVisible())
        if reading:
            self._progress()
        self.status.setVisible(reading or not (self.kernels or self._page))
        if not (self.kernels or self._page):
            self.status.setText(NO_SELECTION)
        shown: list[Shown] = []
        if self._page is not None:
            shown = [(n, f, "") for n, f in zip(self.names, self._page, strict=False)]
        elif not reading:
            shown = [(n, *function_shown(self.reads.session, r, k))
                     for n, (r, k) in zip(self.names, self.wanted.pairs, strict=False)]
        self.splitter.show_functions(shown)
        self.stack.setVisible(bool(shown))
        self._defaults = [hottest_global_load([f]) for _, f, _ in shown]
        if not self._chosen_mark:
            self._marked = self._defaults[0] if self._defaults else None
        self._compare([f for _, f, _ in shown])
        self._mark()

    def _compare(self, functions: list[KernelSource | None]) -> None:
        marked = {self._marked} if self._chosen_mark else set(self._defaults)
        self.loads_area.show_comparison(self._style, compared(functions), self.names, marked)

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
        keys = marked_keys(self._marked, self._chosen_mark, self._defaults, len(self.panes))
        return self.splitter.mark(keys, self)

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
        self.splitter.set_style(style)
        self._compare(self.functions() if (self.kernels or self._page) else [])
