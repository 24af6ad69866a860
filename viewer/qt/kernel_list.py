"""The kernel list: every kernel of the open reports, searchable and sortable, pick one or two.

`kernel_entries` turns reports into rows of ready-made text and sort keys; it is plain Python, so
the loading job builds them off the GUI thread and the model only hands them out. Sorting happens in
the model on those keys (one Python sort, not a comparison per pair through Qt), and the proxy
filters on a precomputed lower-case search text, so ten thousand kernels stay smooth.

Picking: select one row to read one kernel, two rows (Ctrl/Shift+click) to compare them; the
first picked is A. Selecting a third drops the oldest pick, so the selection always shows what is
compared.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import (
    QAbstractTableModel,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from viewer import formatting as fmt
from viewer import reading
from viewer.model import Kernel, Report
from viewer.names import distinct_names

COLUMNS: tuple[str, ...] = ("#", "Kernel", "Duration", "Compute %", "Memory %", "Verdict", "File")
NUMERIC_COLUMNS = frozenset({0, 2, 3, 4})
FILE_COLUMN = 6

SortKey = float | str | tuple[int, int] | None  # None: the value is missing
Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class KernelEntry:
    """One row of the list: a kernel, where it came from, and its cells as text."""

    report_index: int
    source: str
    kernel: Kernel
    cells: tuple[str, ...]
    keys: tuple[SortKey, ...]  # one sort key per column, None where the value is missing
    search: str  # lower-case text the filter looks in

    @property
    def file_name(self) -> str:
        return self.cells[FILE_COLUMN]


def kernel_entry(report_index: int, report: Report, kernel: Kernel) -> KernelEntry:
    sol = reading.speed_of_light(kernel)
    cells = (str(kernel.index), kernel.name, fmt.duration(sol.duration_ns),
             fmt.percent(sol.compute_pct), fmt.percent(sol.memory_pct),
             sol.verdict or fmt.MISSING, report.file_name)
    keys = ((report_index, kernel.index), kernel.name.lower(), sol.duration_ns, sol.compute_pct,
            sol.memory_pct, sol.verdict, report.file_name.lower())
    search = " ".join((f"#{kernel.index}", kernel.display_name, *cells[1:])).lower()
    return KernelEntry(report_index, report.source, kernel, cells, keys, search)


def kernel_entries(reports: Sequence[Report]) -> list[KernelEntry]:
    """Every kernel of `reports`, in file then launch order."""
    return [kernel_entry(i, report, kernel) for i, report in enumerate(reports)
            for kernel in report.kernels]


class KernelTableModel(QAbstractTableModel):
    """The entries in the current sort order; `entry(row)` gives a row's KernelEntry."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._entries: list[KernelEntry] = []
        self._sort: tuple[int, Qt.SortOrder] | None = None
        self._rows: dict[int, int] | None = None  # id(entry) -> row, rebuilt when needed

    def set_entries(self, entries: Sequence[KernelEntry]) -> None:
        self.beginResetModel()
        self._entries = list(entries)
        if self._sort is not None:
            self._entries = self._sorted(self._entries, *self._sort)
        self._rows = None
        self.endResetModel()

    def entries(self) -> list[KernelEntry]:
        return list(self._entries)

    def entry(self, row: int) -> KernelEntry:
        return self._entries[row]

    def row_of(self, entry: KernelEntry) -> int | None:
        """The row showing `entry` (this very object), or None."""
        if self._rows is None:
            self._rows = {id(e): row for row, e in enumerate(self._entries)}
        return self._rows.get(id(entry))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._entries)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.DisplayRole:
            return self._entries[index.row()].cells[index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if index.column() in NUMERIC_COLUMNS:
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            entry = self._entries[index.row()]
            return f"{entry.kernel.display_name}\n{entry.source}"
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(COLUMNS):
            return
        self._sort = (column, order)
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        held = [self._entries[i.row()] for i in before]
        self._entries = self._sorted(self._entries, column, order)
        self._rows = None
        after = [self.index(self.row_of(e), i.column()) for e, i in zip(held, before, strict=True)]
        self.changePersistentIndexList(before, after)
        self.layoutChanged.emit()

    @staticmethod
    def _sorted(entries: list[KernelEntry], column: int,
                order: Qt.SortOrder) -> list[KernelEntry]:
        """Sorted on the column's key; rows missing the value stay last either way."""
        present = [e for e in entries if e.keys[column] is not None]
        missing = [e for e in entries if e.keys[column] is None]
        descending = order == Qt.SortOrder.DescendingOrder
        present.sort(key=lambda e: e.keys[column], reverse=descending)
        return present + missing


class KernelFilterProxy(QSortFilterProxyModel):
    """Keeps the rows whose search text holds every word of the filter (case-insensitive).

    Sorting is handed to the source model, which sorts on precomputed keys.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._words: tuple[str, ...] = ()
        self.setDynamicSortFilter(False)

    def set_filter_text(self, text: str) -> None:
        words = tuple(text.lower().split())
        if words == self._words:
            return
        self.beginFilterChange()
        self._words = words
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        if not self._words:
            return True
        model = self.sourceModel()
        assert isinstance(model, KernelTableModel)
        search = model.entry(source_row).search
        return all(word in search for word in self._words)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.sourceModel().sort(column, order)


def compare_names(entries: Sequence[KernelEntry]) -> list[str]:
    """Short names for the picked kernels: function names, else file stems, else '#3 name'
    (lettered (A), (B) when even those repeat)."""
    return distinct_names([e.kernel.name for e in entries],
                          [e.file_name.rsplit(".", 1)[0] for e in entries],
                          [e.kernel.label for e in entries])


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
        self.view = QTableView(self)
        self.view.setModel(self.proxy)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setAlternatingRowColors(True)
        self.view.setWordWrap(False)
        self.view.setCornerButtonEnabled(False)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        header.setSortIndicatorShown(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.view.setSortingEnabled(True)
        self.count_label = QLabel(self)
        self.hint = QLabel("Click a kernel to read it; Ctrl+click a second to compare them.", self)
        self.hint.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.filter_box)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.count_label)
        layout.addWidget(self.hint)

        self._picks: list[KernelEntry] = []
        self._syncing = False
        self.filter_box.textChanged.connect(self.set_filter_text)
        self.view.selectionModel().selectionChanged.connect(self._on_selection)
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
        self.view.setColumnHidden(FILE_COLUMN, len({e.source for e in entries}) <= 1)
        self._fit_columns(entries)
        self.set_picks(picks)
        self._update_count()

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
        self.count_label.setText(text)

    def _apply_metrics(self) -> None:
        rows = self.view.fontMetrics().height() + 8
        self.view.verticalHeader().setDefaultSectionSize(rows)
        self.view.verticalHeader().setMinimumSectionSize(rows)

    def _fit_columns(self, entries: Sequence[KernelEntry]) -> None:
        """Widths from the header and a sample of cells (never all ten thousand)."""
        metrics = self.view.fontMetrics()
        header = self.view.horizontalHeader()
        sample = list(entries[:200])
        pad = 24
        for column, title in enumerate(COLUMNS[:-1]):
            widest = max([metrics.horizontalAdvance(title) + pad]
                         + [metrics.horizontalAdvance(e.cells[column]) + 12 for e in sample])
            header.resizeSection(column, min(widest, 28 * metrics.averageCharWidth()))

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._apply_metrics()
            self._fit_columns(self.model.entries()[:200])
