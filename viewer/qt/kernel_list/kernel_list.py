"""The kernel list: every kernel of the open reports, searchable and sortable, pick one or two;
or grouped by kernel name, where the time goes (viewer.qt.kernel_list.kernel_groups).

The rows, model and filter live in viewer.qt.kernel_list.kernel_table (re-exported here): cells and
sort keys made once, off the GUI thread, so ten thousand kernels stay smooth.

Picking: select one row to read one kernel, two rows (Ctrl/Shift+click) to compare them; the
first picked is A. Selecting a third drops the oldest pick, so the selection always shows what is
compared.

The columns fit the list's width, as the group view's do: each number whole, the name taking
what is left; where that would leave less than NAME_ROOM characters of the name, the two
percentages the verdict is worded from step aside (the row's tooltip and the Speed Of Light tab
still give them), then the file where several are open (the tooltip gives it too), and come back
when the list is widened. The group view steps aside the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import (
    QEvent,
    QItemSelection,
    QItemSelectionModel,
    QMargins,
    QModelIndex,
    QObject,
    Qt,
    Signal,
)
from PySide6.QtGui import QAction, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHeaderView,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from viewer.core.elide import distinct_elisions
from viewer.core.model import Report
from viewer.core.names import distinct_names
from viewer.qt.kernel_list.kernel_groups import GroupView, group_rows
from viewer.qt.kernel_list.kernel_table import (
    COLUMNS,
    FILE_COLUMN,
    NAME_CHARS,
    NAME_COLUMN,
    NAME_ROOM,
    NUMERIC_COLUMNS,
    Index,
    KernelEntry,
    KernelFilterProxy,
    KernelTableModel,
    SortKey,
    kernel_entries,
    kernel_entry,
    stepped_aside,
)
from viewer.qt.kernel_list.name_delegate import NameDelegate
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.style import Style, check_sheet

__all__ = ["COLUMNS", "FILE_COLUMN", "NAME_ROOM", "NUMERIC_COLUMNS", "Index", "KernelEntry",
           "KernelFilterProxy", "KernelList", "KernelTableModel", "SortKey", "compare_names",
           "kernel_entries", "kernel_entry"]


# The picked kernels' names in every view, elided in the middle past this many characters.
COMPARE_CHARS = 40
# Compute % and Memory %: what steps aside first where the list is too narrow for its columns
# and NAME_ROOM characters of the name; then the file (several open), which the tooltip gives.
PERCENT_COLUMNS = (3, 4)
STEP_ASIDE = (PERCENT_COLUMNS, (FILE_COLUMN,))


def compare_names(entries: Sequence[KernelEntry], chars: int | None = COMPARE_CHARS,
                  among: Sequence[str] = ()) -> list[str]:
    """Short names for the picked kernels: function names, else file stems, else '#3 name'
    (lettered (A), (B) when even those repeat); past `chars` elided in the middle, keeping what
    tells them apart from each other and from the names `among` (the other kernels of the
    reports open, for a kernel shown alone) (None: whole)."""
    names = distinct_names([e.kernel.name for e in entries],
                           [e.file_name.rsplit(".", 1)[0] for e in entries],
                           [e.kernel.label for e in entries])
    if chars is None:
        return names
    others = [n for n in dict.fromkeys(among) if n not in names]
    return distinct_elisions([*names, *others], chars)[:len(names)]


def look_alikes(reports: Sequence[Report], entries: Sequence[KernelEntry]) -> list[str]:
    """The names a kernel shown alone must read apart from: every kernel's of `reports`
    (none where two are compared: they read apart from each other)."""
    return [k.name for r in reports for k in r.kernels] if len(entries) == 1 else []


def kernel_table_view(proxy: KernelFilterProxy, parent: QWidget) -> QTableView:
    """The table of kernels: whole rows picked, never edited, sorted by any column, the name
    taking what the other columns leave."""
    view = QTableView(parent)
    view.setModel(proxy)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.setCornerButtonEnabled(False)
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    view.verticalHeader().hide()
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setSectionResizeMode(NAME_COLUMN, QHeaderView.ResizeMode.Stretch)
    header.setStretchLastSection(False)
    header.setSortIndicatorShown(True)
    header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
    view.setSortingEnabled(True)
    return view


class KernelList(QWidget):
    """Filter box, table and count; `picked` carries the one or two entries picked, A first."""

    picked = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.filter_box = QLineEdit(self)
        self.filter_box.setPlaceholderText("Filter kernels: name, file, verdict  (Ctrl+F)")
        self.filter_box.setClearButtonEnabled(True)
        self.model = KernelTableModel(self)
        self.proxy = KernelFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.view = kernel_table_view(self.proxy, self)
        self.names = NameDelegate(self.model.names, self.view)
        self.view.setItemDelegateForColumn(NAME_COLUMN, self.names)
        self._whole: dict[int, int] = {}  # each column's width, its header and cells whole
        self._several_files = False
        self.count_label = plain_label("", self)
        self.hint = plain_label("", self)
        self.hint.setWordWrap(True)
        self.group_box = QCheckBox("Group by name (G): where the time goes", self)
        self.group_view = GroupView(self)
        self.group_view.hide()
        self.group_action = QAction("Group by name", self)
        self.group_action.setShortcut("G")
        self.group_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.group_action.triggered.connect(self.toggle_grouped)
        for table in (self.view, self.group_view):
            table.addAction(self.group_action)
        self._groups_stale = True
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.filter_box)
        layout.addWidget(self.group_box)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.group_view, 1)
        layout.addWidget(self.count_label)
        layout.addWidget(self.hint)
        self.view.viewport().installEventFilter(self)
        self.view.installEventFilter(self)

        self._picks: list[KernelEntry] = []
        self._syncing = False
        self.filter_box.textChanged.connect(self.set_filter_text)
        self.view.selectionModel().selectionChanged.connect(self._on_selection)
        self.group_box.toggled.connect(self.set_grouped)
        self.group_view.picked.connect(self._pick_group)
        self._apply_metrics()
        self._update_count()

    # ---------------------------------------------------------------- content

    def set_entries(self, entries: Sequence[KernelEntry],
                    picks: Sequence[KernelEntry] = ()) -> None:
        """Show `entries`; select `picks` (no `picked` signal: the caller already knows)."""
        self._syncing = True
        try:
            self.model.set_entries(entries)
        finally:
            self._syncing = False
        self._several_files = len({e.source for e in entries}) > 1
        self.view.setColumnHidden(FILE_COLUMN, not self._several_files)
        self._fit_columns(entries)
        self._groups_stale = True
        if self.grouped:
            self._show_groups()
        self.set_picks(picks)
        self._update_count()

    # ---------------------------------------------------------------- grouping

    @property
    def grouped(self) -> bool:
        return self.group_box.isChecked()

    def toggle_grouped(self) -> None:
        self.set_grouped(not self.grouped)

    def set_grouped(self, on: bool) -> None:
        """Show the kernels grouped by name (launches, total, mean, share) or one a row."""
        if self.group_box.isChecked() != on:
            self.group_box.setChecked(on)  # comes back here through toggled
            return
        focused = self.view.hasFocus() or self.group_view.hasFocus()
        if on:
            self._show_groups()
        self.group_view.setVisible(on)
        self.view.setVisible(not on)
        if not on:
            self._select_picks()
        if focused:
            (self.group_view if on else self.view).setFocus()
        self._update_count()

    def _show_groups(self) -> None:
        if self._groups_stale:
            entries = self.model.entries()
            self.group_view.set_rows(group_rows(entries),
                                     len({e.source for e in entries}) > 1)
            self._groups_stale = False
        self.group_view.groups.set_filter_text(self.filter_box.text())

    def _pick_group(self, longest: list[KernelEntry]) -> None:
        """A group picked: read its longest launch (two groups: compare theirs)."""
        if [id(e) for e in longest] == [id(e) for e in self._picks]:
            return
        self._picks = list(longest)[-2:]
        self.picked.emit(list(self._picks))

    def entries(self) -> list[KernelEntry]:
        return self.model.entries()

    def picks(self) -> list[KernelEntry]:
        return list(self._picks)

    def set_picks(self, picks: Sequence[KernelEntry]) -> None:
        """Select `picks` (A first) without emitting `picked`."""
        self._picks = list(picks)[-2:]
        self._select_picks()

    def set_filter_text(self, text: str) -> None:
        if self.filter_box.text() != text:
            self.filter_box.setText(text)  # comes back here through textChanged
            return
        self._syncing = True
        try:
            self.proxy.set_filter_text(text)
        finally:
            self._syncing = False
        if self.grouped:
            self.group_view.groups.set_filter_text(text)
        self._select_picks()
        self._update_count()

    def visible_entries(self) -> list[KernelEntry]:
        """The entries the filter lets through, in the order shown."""
        rows = (self.proxy.mapToSource(self.proxy.index(r, 0)).row()
                for r in range(self.proxy.rowCount()))
        return [self.model.entry(row) for row in rows]

    def focus_filter(self) -> None:
        self.filter_box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter_box.selectAll()

    # ---------------------------------------------------------------- picking

    def _on_selection(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        if self._syncing:
            return
        chosen = [self.model.entry(self.proxy.mapToSource(i).row())
                  for i in self.view.selectionModel().selectedRows()]
        if not chosen:
            return
        ids = {id(e) for e in chosen}
        kept = [p for p in self._picks if id(p) in ids]
        kept_ids = {id(p) for p in kept}
        picks = kept + [e for e in chosen if id(e) not in kept_ids]
        trimmed = picks[-2:]
        if [id(p) for p in trimmed] == [id(p) for p in self._picks]:
            if len(picks) != len(trimmed):
                self._select_picks()
            return
        self._picks = trimmed
        if len(picks) != len(trimmed):
            self._select_picks()
        self.picked.emit(list(self._picks))

    def _select_picks(self) -> None:
        selection = QItemSelection()
        current = QModelIndex()
        for pick in self._picks:
            row = self.model.row_of(pick)
            if row is None:
                continue
            index = self.proxy.mapFromSource(self.model.index(row, 0))
            if index.isValid():
                selection.select(index, index.siblingAtColumn(len(COLUMNS) - 1))
                current = index
        model = self.view.selectionModel()
        self._syncing = True
        try:
            model.select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)
            if current.isValid():
                model.setCurrentIndex(current, QItemSelectionModel.SelectionFlag.NoUpdate)
                self.view.scrollTo(current)
        finally:
            self._syncing = False

    # ---------------------------------------------------------------- looks

    def _update_count(self) -> None:
        total, shown = self.model.rowCount(), self.proxy.rowCount()
        noun = "kernel" if total == 1 else "kernels"
        text = f"{total:,} {noun}" if shown == total else f"{shown:,} of {total:,} {noun}"
        if self.grouped:
            groups = self.group_view.groups
            names = f"{groups.total():,} names" if groups.rowCount() == groups.total() else \
                f"{groups.rowCount():,} of {groups.total():,} names"
            text = f"{names}, {total:,} {noun}"
        self.count_label.setText(text)
        self.hint.setText("Click a name to read its longest launch; Ctrl+click a second name to "
                          "compare." if self.grouped else
                          "Click a kernel to read it; Ctrl+click a second to compare them.")

    def _apply_metrics(self) -> None:
        rows = self.view.fontMetrics().height() + 8
        for table in (self.view, self.group_view):
            table.verticalHeader().setDefaultSectionSize(rows)
            table.verticalHeader().setMinimumSectionSize(rows)

    def _fit_columns(self, entries: Sequence[KernelEntry]) -> None:
        """Widths from the header and a sample of cells (never all ten thousand); the name
        takes what the others leave."""
        metrics = self.view.fontMetrics()
        header = self.view.horizontalHeader()
        sample = list(entries[:200])
        pad = 24
        most = (NAME_CHARS + 2) * metrics.averageCharWidth()
        for column, title in enumerate(COLUMNS):
            if column == NAME_COLUMN:
                continue
            widest = max([metrics.horizontalAdvance(title) + pad]
                         + [metrics.horizontalAdvance(e.cells[column]) + 12 for e in sample])
            self._whole[column] = min(widest, most)
            header.resizeSection(column, self._whole[column])
        self._fit_room()

    def whole_width(self) -> int:
        """The list's width with every column whole, the widest name too (NAME_CHARS at least)."""
        view, metrics = self.view, self.view.fontMetrics()
        columns = sum(self._wanted().values())
        name = max([(NAME_CHARS + 2) * metrics.averageCharWidth()] + [
            metrics.horizontalAdvance(n) + 24 for n in self.model.names()])
        layout = self.layout()
        margins = layout.contentsMargins() if layout is not None else QMargins()
        return (columns + name + 2 * view.frameWidth() + view.verticalScrollBar().sizeHint().width()
                + margins.left() + margins.right())

    def _wanted(self) -> dict[int, int]:
        """The whole width of each column the list would show (the file where several are)."""
        return {column: width for column, width in self._whole.items()
                if column != FILE_COLUMN or self._several_files}

    def _fit_room(self) -> None:
        """Show the percentages, then the file, where they fit whole beside NAME_ROOM
        characters of the name; a list not on screen yet is fitted once it is shown."""
        if not self.view.isVisible():
            return
        wanted = self._wanted()
        aside = stepped_aside(wanted, STEP_ASIDE,
                              NAME_ROOM * self.view.fontMetrics().averageCharWidth(),
                              self.view.viewport().width())
        for column in (c for group in STEP_ASIDE for c in group if c in wanted):
            self.view.setColumnHidden(column, column in aside)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (watched is self.view.viewport() and event.type() == QEvent.Type.Resize) or (
                watched is self.view and event.type() == QEvent.Type.Show):
            self._fit_room()
        return super().eventFilter(watched, event)

    def set_style(self, style: Style) -> None:
        """The list's type: the app's own at the desk, the projector's smallest in a room."""
        font = style.font("small") if style.projector else QFont()
        self.setFont(font)
        self.group_box.setStyleSheet(check_sheet(style))  # its box as large as its words
        for table in (self.view, self.group_view):  # a header not yet shown keeps its own
            table.horizontalHeader().setFont(font)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._apply_metrics()
            self._fit_columns(self.model.entries()[:200])
            self.group_view.fit_columns()
