"""The frame every reading-order tab shares: its question on top, its answer in a scroll area.

A tab shows one kernel, or two side by side (compare mode). Subclasses fill `_build` from
`self.kernels` and `self.names`; the frame rebuilds the answer whenever the kernels or the style
change, and `clear()` leaves only the question and a line saying nothing is selected.

Rows are pickable (viewer.qt.kit.row_pick): while `set_picking(True)` (the exercise is open) a click
or Enter on one emits `row_picked(key)`; `mark_row(key)` frames the row the exercise jumped to.
The misreads of viewer.lesson.misreads sit under the row they are about (`misread_rows`), with
any `set_notes` the window adds; `report_of(kernel)` is the report the selection says the
kernel came from, for the misreads only a report shows.

A tab with `REFLOWS` lays its answer out again, narrower, where the width it is given is less
than the answer needs (beside the exercise on a laptop, in projector type): at `reflow` 1 each
grid's labels go over their rows (viewer.qt.kit.reflow) and the kernels' explanations one under
the other; a tab may have further steps of its own. It scrolls down, never sideways.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from PySide6.QtCore import QEvent, QMetaMethod, QObject, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from viewer.analysis.launch_size import launch_text
from viewer.core.elide import wrappable_names
from viewer.core.model import Kernel, Report
from viewer.core.names import kernel_names
from viewer.lesson.misreads import Misread, misreads
from viewer.qt.kit.elided_name import ElidedName
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.reading_tab_names import Names
from viewer.qt.kit.reflow import LayoutFit, stack_labels
from viewer.qt.kit.row_pick import RowLabel, RowPicks, same_row
from viewer.qt.kit.style import Role, Style
from viewer.qt.kit.value_bar import ValueBar
from viewer.qt.kit.view import Selection
from viewer.qt.kit.wrapped_column import WrappedColumn

NOTHING_SELECTED = "No kernel selected."


class ReadingTab(QWidget):
    """A view of one kernel or two (viewer.qt.kit.view.View): `VIEW` (a step's key in
    viewer.analysis.reading.READING_ORDER, or the view's name), `KEY`, `TITLE`, `QUESTION`,
    `show_selection`, `set_style`; and a row target (viewer.qt.kit.view.RowTarget):
    `row_picked(key)` when the student picks a row, `mark_row(key)` to frame one.
    `navigate(view, row)` asks the window for another view."""

    navigate = Signal(str, str)
    VIEW: ClassVar[str] = ""
    KEY: ClassVar[str] = ""
    TITLE: ClassVar[str] = ""
    QUESTION: ClassVar[str] = ""
    REFLOWS: ClassVar[int] = 0  # the narrower layouts the tab has (0: one layout, any width)

    row_picked = Signal(str)

    def __init__(self, style: Style | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._style = style or Style()
        self._kernels: list[Kernel] = []
        self._names: list[str] = []
        self._alike: list[str] = []
        self._picks = RowPicks(self.row_picked)
        self._notes: list[Misread] = []
        self._misreads: list[list[Misread]] = []
        self._reports: list[Report] = []
        self._stale = False
        self._reflow = 0
        self._fits = LayoutFit(self.REFLOWS)
        self.setAutoFillBackground(True)
        layout = self._outer = QVBoxLayout(self)
        self._question = plain_label(self.QUESTION)
        self._question.setObjectName(Names.QUESTION)
        self._question.setWordWrap(True)
        self._question.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        layout.addWidget(self._question)
        layout.addWidget(self.scroll_area, 1)
        self.scroll_area.installEventFilter(self)
        self._render()

    @property
    def kernels(self) -> list[Kernel]:
        return list(self._kernels)

    @property
    def names(self) -> list[str]:
        return list(self._names)

    @property
    def style_(self) -> Style:
        """The style in use (named so as not to shadow QWidget.style())."""
        return self._style

    @property
    def compare_mode(self) -> bool:
        return len(self._kernels) == 2

    def show_selection(self, selection: Selection) -> None:
        """The window's one call (viewer.qt.kit.view): the selection's kernels, or nothing."""
        self._alike = list(selection.alike)
        if selection.kernels:
            self.set_kernels(selection.kernels, selection.names, selection.reports)
        else:
            self.clear()

    @property
    def look_alikes(self) -> list[str]:
        """The names a heading reads apart from: the other kernel's, and the selection's."""
        return [*self._names, *self._alike]

    def set_kernels(self, kernels: Sequence[Kernel], names: Sequence[str] | None = None,
                    reports: Sequence[Report] = ()) -> None:
        """Show one kernel, or two side by side; `names` label them (default: function names);
        `reports`, where given, are the reports they came from, one per kernel."""
        kernels = list(kernels)
        if not kernels:
            self.clear()
            return
        if len(kernels) > 2:
            raise ValueError(f"a tab shows one or two kernels, not {len(kernels)}")
        chosen = list(names) if names else kernel_names(kernels)
        if len(chosen) != len(kernels):
            raise ValueError("one name per kernel")
        if reports and len(reports) != len(kernels):
            raise ValueError("one report per kernel")
        if [id(k) for k in kernels] != [id(k) for k in self._kernels]:
            self._picks.marked = None  # a row framed for other kernels
        self._kernels, self._names, self._reports = kernels, chosen, list(reports)
        self._render()

    def set_style(self, style: Style) -> None:
        self._style = style
        self._render()

    def clear(self) -> None:
        self._kernels, self._names, self._reports = [], [], []
        self._render()

    @property
    def reports(self) -> list[Report]:
        """The reports the kernels came from, one per kernel ([] where not given)."""
        return list(self._reports)

    def thresholds(self) -> str:
        """The thresholds this tab judges by, in its own words, for the status bar ('' for
        none)."""
        return ""

    @property
    def navigable(self) -> bool:
        """Whether a window listens to `navigate` (a link to another view can go somewhere)."""
        return self.isSignalConnected(QMetaMethod.fromSignal(self.navigate))

    def report_of(self, kernel: Kernel) -> Report | None:
        """The report `kernel` (the very object) came from, where the selection said."""
        return next((r for r, k in zip(self._reports, self._kernels, strict=False)
                     if k is kernel), None)

    def set_notes(self, notes: Sequence[Misread]) -> None:
        """Misreads that hold for every kernel shown (the window's, such as durations from a
        profiled run), placed like the kernels' own."""
        self._notes = list(notes)
        self._render()

    # ------------------------------------------------------------ rows to pick

    def row_keys(self) -> list[str]:
        """The rows shown that can be picked, each once, in the order they are shown."""
        self._ensure_rendered()
        return self._picks.keys()

    def row_widgets(self, key: str) -> list[QWidget]:
        """The widgets that show row `key` (a summary key or its metric name)."""
        self._ensure_rendered()
        return list(self._picks.widgets(key))

    @property
    def marked_row(self) -> str | None:
        return self._picks.marked

    def mark_row(self, key: str | None) -> bool:
        """Frame the row `key` (None: no row) and scroll it into view; False when not shown."""
        self._picks.marked = key
        if key is not None:
            self._ensure_rendered()
        found = self._picks.mark(key)
        if found:
            self.scroll_area.ensureWidgetVisible(found[0])
        return bool(found)

    @property
    def picking(self) -> bool:
        return self._picks.picking

    def set_picking(self, on: bool) -> None:
        """Let the student pick rows (the exercise is open: focus, cursor, cues), or stop."""
        self._picks.set_picking(on)

    def _build(self, layout: QVBoxLayout) -> None:
        """Add the answer for `self.kernels` to `layout`."""
        raise NotImplementedError

    def _render(self) -> None:
        """Build the answer now; a tab hidden in a window builds it when next shown (picking two
        kernels must not rebuild every tab on the GUI thread at once)."""
        self._stale = self._hidden_in_window()
        if not self._stale:
            self._render_now()

    def _hidden_in_window(self) -> bool:
        return not self.isVisible() and self.window() is not self

    def _ensure_rendered(self) -> None:
        if self._stale:
            self._stale = False
            self._render_now()

    def showEvent(self, event: QShowEvent) -> None:
        self._ensure_rendered()
        super().showEvent(event)
        self._refit()

    @property
    def reflow(self) -> int:
        """The layout in use: 0 the widest, up to `REFLOWS` the narrowest."""
        return self._reflow

    def _room(self) -> int | None:
        """The width the answer may take, a vertical scroll bar left room for; None while the
        tab is not shown (its width is not yet the one it will be shown at)."""
        if not self.isVisible():
            return None
        return self.scroll_area.width() - self.scroll_area.verticalScrollBar().sizeHint().width()

    def _refit(self) -> None:
        """Lay the answer out again where the width given now calls for another layout."""
        busy = self._stale or self._fits.fitting
        if (self.REFLOWS and self._kernels and not busy
                and self._fits.widest(self._room()) != self._reflow):
            self._fits.fit(self._room(), self._fill)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.scroll_area and event.type() == QEvent.Type.Resize:
            self._refit()
        return super().eventFilter(watched, event)

    def _render_now(self) -> None:
        self._fits.forget()
        self._fits.fit(self._room(), self._fill)

    def _fill(self, reflow: int) -> int:
        """Build the answer in layout `reflow` (LayoutFit's build); returns the width it needs."""
        self._reflow = reflow
        style = self._style
        style.apply_palette(self)
        self._question.setFont(style.font("heading", bold=True))
        margin = style.px(10)
        self._outer.setContentsMargins(margin, margin, margin, margin)
        self._outer.setSpacing(style.px(8))
        content = WrappedColumn()
        content.setObjectName(Names.ANSWER)
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, style.px(6), 0)
        layout.setSpacing(style.px(8))
        self._picks.clear()
        self._misreads = [misreads(k, self.report_of(k)) for k in self._kernels]
        if self._kernels:
            self._build(layout)
            if self._reflow:
                grids = [item.layout() for item in map(layout.itemAt, range(layout.count()))
                         if item is not None]
                for grid in grids:
                    if isinstance(grid, QGridLayout):
                        stack_labels(grid)
        else:
            layout.addWidget(self.label(NOTHING_SELECTED, "body", color="secondary",
                                        name=Names.PLACEHOLDER))
        layout.addStretch(1)
        old = self.scroll_area.takeWidget()
        if old is not None:
            old.deleteLater()
        self.scroll_area.setWidget(content)
        if self._picks.marked is not None:
            self.mark_row(self._picks.marked)
        return content.minimumSizeHint().width()

    # ------------------------------------------------------------ helpers for subclasses

    def label(self, text: str, role: Role = "body", *, bold: bool = False, color: str = "text",
              name: str = "", wrap: bool = False, highlight: bool = False,
              row: str | None = None) -> QLabel:
        """A label in this tab's style; `name` becomes its objectName for tests and styling;
        `row` makes it pick that row (a summary key or an ncu metric name)."""
        if row is None:
            widget = self._style.label(text, role, bold=bold, color=color, name=name,
                                       wrap=wrap, highlight=highlight)
        else:
            widget = RowLabel(text, self._style, row, role, bold=bold, color=color,
                              highlight=highlight)
            widget.setObjectName(name)
            widget.setWordWrap(wrap)
            self._picks.add(widget)
        if wrap:
            widget.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        return widget

    def bar(self, name: str, value: float | None, full: float, text: str,
            **options: Any) -> ValueBar:
        """A ValueBar in this tab's style, named `name` for tests (options as ValueBar's; with
        `row_key` it is a row to pick)."""
        widget = ValueBar(self._style, value, full, text, **options)
        widget.setObjectName(name)
        if widget.row_key is not None:
            self._picks.add(widget)
        return widget

    def misreads_of(self, column: int, key: str) -> list[Misread]:
        """The misreads of kernel `column` (1, 2) that sit next to row `key`."""
        return [m for m in self._misreads[column - 1] if same_row(m.key, key)]

    def misread_rows(self, grid: QGridLayout, row: int, key: str, *, span: bool = False) -> int:
        """Each kernel's misreads of row `key` under its value (`span`: one line across the
        grid, each led by its kernel's name in compare mode), then the window's notes on the
        row once across the kernels ('note_<key>'); returns the next free row."""
        texts = [(column, m.text) for column in range(1, len(self._kernels) + 1)
                 for m in self.misreads_of(column, key)]
        if texts and span:
            lead = [f"{self._names[c - 1]}: " if self.compare_mode else "" for c, _ in texts]
            words = "\n".join(prefix + text for prefix, (_, text) in zip(lead, texts,
                                                                         strict=True))
            grid.addWidget(self.misread_label(words, one_of(Names.MISREAD, key)), row, 0, 1, -1)
            row += 1
        elif texts:
            for column in sorted({c for c, _ in texts}):
                words = "\n".join(text for c, text in texts if c == column)
                grid.addWidget(self.misread_label(words, one_of(Names.MISREAD, key, column)), row,
                               column)
            row += 1
        notes = [m.text for m in self._notes if same_row(m.key, key)]
        if notes:
            grid.addWidget(self.misread_label("\n".join(notes), one_of(Names.NOTE, key)), row,
                           0 if span else 1, 1, -1)
            row += 1
        return row

    def misread_label(self, text: str, name: str) -> QLabel:
        """A misread in words, in the warning colour, wrapped (inside a long elided name too)."""
        return self.label(wrappable_names(text), color="warning", name=name, wrap=True)

    def explanations(self, layout: QVBoxLayout, texts: Sequence[str]) -> None:
        """Each kernel's reading in words, side by side (one under the other when reflowed);
        in compare mode led by its name."""
        row: QBoxLayout = QVBoxLayout() if self._reflow else QHBoxLayout()
        row.setSpacing(self._style.px(14))
        for column, (text, name) in enumerate(zip(texts, self._names, strict=True), 1):
            prefix = f"{name}: " if self.compare_mode else ""
            row.addWidget(self.label(prefix + text, name=one_of(Names.EXPLANATION, column),
                                     wrap=True), 1)
        layout.addLayout(row)

    def grid(self) -> QGridLayout:
        """A grid of rows: a label column, then one column per kernel, sharing the width."""
        grid = QGridLayout()
        grid.setHorizontalSpacing(self._style.px(14))
        grid.setVerticalSpacing(self._style.px(5))
        for column in range(1, len(self._kernels) + 1):
            grid.setColumnStretch(column, 1)
        return grid

    def header_row(self, grid: QGridLayout, row: int) -> int:
        """Kernel names (elided in the middle to their column, whole on hover) and launch
        shapes over the kernel columns; returns the next row."""
        for column, (kernel, name) in enumerate(zip(self._kernels, self._names, strict=True), 1):
            heading = ElidedName(name, self.look_alikes, kernel.display_name or kernel.name)
            heading.setObjectName(one_of(Names.KERNEL_NAME, column))
            self._style.paint_label(heading, "heading", bold=True)
            grid.addWidget(heading, row, column)
            grid.addWidget(self.label(launch_text(kernel), "small", color="secondary",
                                      wrap=True), row + 1, column)
        return row + 2
