"""One kernel's side of the Source view: its name, what its capture lacks, how its per-thread
counts were made, and its lines (each opening to its SASS) in a sortable tree.

The columns take what their titles (a word a line) and values need, the source text the rest. In
projector mode the tree fits its width, never scrolling sideways: the PROJECTOR_OPTIONAL columns
step aside, in order, until the source has SOURCE characters (at least MIN_SOURCE). At the desk
every column stays and the load columns (LOAD_TITLES, first after the source) are kept in view
beside the source text; the columns after them scroll sideways."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from viewer.analysis import source as analysis
from viewer.analysis.source import SourceTable
from viewer.analysis.source_columns import (
    COLUMNS,
    HOT,
    LOAD_TITLES,
    PROJECTOR_HIDDEN,
    PROJECTOR_OPTIONAL,
)
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.style import Style
from viewer.qt.views.source.source_tree import SourceTree
from viewer.readers.source import KernelSource

MIN_SOURCE, SOURCE = 12, 24
"""The fewest characters of source text the projector shows, and the number it makes room for
by leaving the PROJECTOR_OPTIONAL columns out."""


class SourcePane(QWidget):
    """`show(name, function, said)`: the function's table, or `said` alone where it has none."""

    def __init__(self, style: Style, side: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.function: KernelSource | None = None
        self.quiet = False  # the notes said elsewhere (the comparison's sentences)
        self.table: SourceTable | None = None
        self._widest_of: SourceTable | None = None  # the table _widest_at was measured of
        self._widest_key: tuple[object, ...] = ()
        self._widest_at: dict[int, int] = {}
        self.heading = plain_label("", self)
        self.heading.setObjectName(f"name_{side}")
        self.notes = plain_label("", self)
        self.notes.setObjectName(f"notes_{side}")
        self.per_thread = plain_label("", self)
        self.per_thread.setObjectName(f"per_thread_{side}")
        for label in (self.heading, self.notes, self.per_thread):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.model = SourceTree(self)
        self.tree = QTreeView(self)
        self.tree.setObjectName(f"tree_{side}")
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.setSortingEnabled(True)
        self.tree.header().setSortIndicator(-1, Qt.SortOrder.DescendingOrder)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.tree.header().setStretchLastSection(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.heading, self.notes, self.per_thread):
            layout.addWidget(widget)
        layout.addWidget(self.tree, 1)
        self.set_style(style)

    def show_function(self, name: str, function: KernelSource | None, said: str = "") -> None:
        """Show `function` under `name` (None: `said` alone, the tree empty)."""
        self.heading.setText(name)
        if function is not self.function or function is None:
            self.function = function
            self.table = None if function is None else analysis.table(function)
            self.model.set_table(self.table)
            self.tree.setRootIsDecorated(self.table is not None and bool(self.table.lines))
        table = self.table
        notes = [said] if said else []
        if table is not None:
            notes += [n[0].upper() + n[1:] + "." for n in table.notes]
        self.notes.setText("\n".join(notes))
        self.notes.setVisible(bool(notes) and not (self.quiet and not said))
        has_table = table is not None and bool(table.sass)
        self.per_thread.setText(table.per_thread_note[0].upper() + table.per_thread_note[1:] + "."
                                if table is not None else "")
        self.per_thread.setVisible(has_table and not self._style.projector)
        self.tree.setVisible(has_table)
        self._fit()

    def mark(self, key: str | None) -> bool:
        """Highlight the row named `key` (its line opened where it is an instruction) and
        scroll to it; False where it is not shown."""
        self.model.marked = key
        index = self.model.row_of(key) if key else QModelIndex()
        self.tree.viewport().update()
        if not index.isValid():
            return False
        if index.parent().isValid():
            self.tree.expand(index.parent())
        self.tree.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        return True

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Keep the marked row in view as the table takes its size."""
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit()
        index = self.model.row_of(self.model.marked) if self.model.marked else QModelIndex()
        if index.isValid():
            self.tree.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)

    def set_style(self, style: Style) -> None:
        self._style = style
        style.paint_label(self.heading, "heading", bold=True)
        style.paint_label(self.notes, "body", color="warning")
        style.paint_label(self.per_thread, "small", color="secondary")
        font = style.font("body")
        self.tree.setFont(font)
        self.tree.header().setFont(style.font("body", bold=True))
        self.model.highlight = style.color("highlight")
        self.model.bold = style.font("body", bold=True)
        self.model.compact = style.projector
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)
        self._fit()

    def _fit(self) -> None:
        """Every column the width its title and values need, the source text the rest: of the
        whole width in projector mode, beside the load columns at the desk."""
        projector = self._style.projector
        bold = QFontMetrics(self.model.bold)
        pad = bold.averageCharWidth()
        header = self.tree.header()
        widest = self._widest(bold)
        needs = {n: widest[n] + pad for n, c in enumerate(COLUMNS)
                 if not (projector and c.title in PROJECTOR_HIDDEN) and c.title != "Source"}
        source = COLUMNS.index(next(c for c in COLUMNS if c.title == "Source"))
        # the room inside the frame, a vertical scroll bar's width kept whether it shows or not
        bar = self.tree.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None,
                                            self.tree)
        room = self.tree.width() - 2 * self.tree.frameWidth() - bar - 2
        least = MIN_SOURCE * bold.averageCharWidth()
        for title in PROJECTOR_OPTIONAL if projector else ():
            if sum(needs.values()) + SOURCE * bold.averageCharWidth() <= room:
                break
            needs.pop(next(n for n, c in enumerate(COLUMNS) if c.title == title), None)
        last = max(n for n, c in enumerate(COLUMNS) if c.title in LOAD_TITLES)
        beside = needs if projector else {n: w for n, w in needs.items() if n <= last}
        header.setStretchLastSection(False)  # before hiding: a stretched section hidden keeps
        for column in range(len(COLUMNS)):  # its place in the header's length
            self.tree.setColumnHidden(column, column != source and column not in needs)
            if column in needs:
                header.resizeSection(column, needs[column])
        header.resizeSection(source, max(least, room - sum(beside.values())))

    def _widest(self, metrics: QFontMetrics) -> dict[int, int]:
        """Each column's `_need` but the source text's, measured again only when the table,
        the type or the indent changed (a resize refits with the widths measured before)."""
        key = (self.model.compact, self.model.bold.key(), self.tree.indentation())
        if self._widest_of is not self.table or self._widest_key != key:
            self._widest_of, self._widest_key = self.table, key
            self._widest_at = {n: self._need(n, metrics) for n, c in enumerate(COLUMNS)
                               if c.title != "Source"}
        return self._widest_at

    def _need(self, column: int, metrics: QFontMetrics) -> int:
        """The widest of the column's title lines and of its values (the lines and the
        instructions; in the first column with the tree's indents, and a line's mark)."""
        title = max(metrics.horizontalAdvance(line)
                    for line in str(self.model.headerData(column, Qt.Orientation.Horizontal))
                    .splitlines())
        tops = self.model.rows
        rows = [(r, 1) for r in tops]
        rows += [(c, 2) for n in range(len(tops)) for c in self.model.children_of(n)]
        shown = {(self.model.shown_text(r, column), depth) for r, depth in rows}
        indent, hot = self.tree.indentation(), metrics.horizontalAdvance(HOT)
        values = [metrics.horizontalAdvance(text) + (
            depth * indent + (hot if depth == 1 else 0) if column == 0 else 0)
            for text, depth in shown]
        return max([title, *values])
