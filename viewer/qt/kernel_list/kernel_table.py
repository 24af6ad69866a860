"""The kernel list's table: one row a kernel, its cells made once, sorted and filtered on
precomputed keys.

`kernel_entries` turns reports into rows of ready-made text and sort keys; it is plain Python, so
the loading job builds them off the GUI thread and the model only hands them out. Sorting happens in
the model on those keys (one Python sort, not a comparison per pair through Qt), and the proxy
filters on a precomputed lower-case search text, so ten thousand kernels stay smooth.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtWidgets import QWidget

from viewer.analysis import reading
from viewer.core import formatting as fmt
from viewer.core.model import Kernel, Report
from viewer.qt.kit.plain_text import plain_tip

COLUMNS: tuple[str, ...] = ("#", "Kernel", "Duration", "Compute %", "Memory %", "Verdict", "File")
NUMERIC_COLUMNS = frozenset({0, 2, 3, 4})
FILE_COLUMN = 6
NAME_COLUMN = 1
# The name column's width, in characters, where the list is wide enough: a longer name is
# elided in the middle to the column, keeping what tells it apart (kernel_list.name_delegate;
# the full name is in the row's tooltip).
NAME_CHARS = 32
# The least of a kernel's name, in characters, a list keeps in view beside its other columns.
NAME_ROOM = 16

SortKey = float | str | tuple[int, int] | None  # None: the value is missing
Index = QModelIndex | QPersistentModelIndex


def stepped_aside(widths: dict[int, int], order: Sequence[Sequence[int]], name: int,
                  room: int) -> set[int]:
    """The columns that step aside so that the others (`widths`, each whole) and `name` pixels
    of the name fit `room`: the fewest groups of `order`, first to last (all of them where even
    that is not enough)."""
    aside: set[int] = set()
    for group in order:
        if sum(w for c, w in widths.items() if c not in aside) + name <= room:
            break
        aside |= {c for c in group if c in widths}
    return aside


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


def kernel_entry(report_index: int, report: Report, kernel: Kernel,
                 shown_name: str | None = None) -> KernelEntry:
    """One row; `shown_name` is the name as the list shows it (the whole name by default)."""
    sol = reading.speed_of_light(kernel)
    cells = (str(kernel.index), shown_name or kernel.name, fmt.duration(sol.duration_ns),
             fmt.percent(sol.compute_pct), fmt.percent(sol.memory_pct),
             sol.verdict or fmt.MISSING, report.file_name)
    keys = ((report_index, kernel.index), kernel.name.lower(), sol.duration_ns, sol.compute_pct,
            sol.memory_pct, sol.verdict, report.file_name.lower())
    search = " ".join((f"#{kernel.index}", kernel.name, kernel.display_name,
                       *cells[2:])).lower()
    return KernelEntry(report_index, report.source, kernel, cells, keys, search)


def kernel_entries(reports: Sequence[Report]) -> list[KernelEntry]:
    """Every kernel of `reports`, in file then launch order, each name whole (the list elides
    it to its column as it paints it)."""
    return [kernel_entry(i, report, kernel)
            for i, report in enumerate(reports) for kernel in report.kernels]


class KernelTableModel(QAbstractTableModel):
    """The entries in the current sort order; `entry(row)` gives a row's KernelEntry."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._entries: list[KernelEntry] = []
        self._sort: tuple[int, Qt.SortOrder] | None = None
        self._rows: dict[int, int] | None = None  # id(entry) -> row, rebuilt when needed
        self._names: list[str] = []

    def set_entries(self, entries: Sequence[KernelEntry]) -> None:
        self.beginResetModel()
        self._entries = list(entries)
        self._names = list(dict.fromkeys(e.cells[NAME_COLUMN] for e in self._entries))
        if self._sort is not None:
            self._entries = self._sorted(self._entries, *self._sort)
        self._rows = None
        self.endResetModel()

    def entries(self) -> list[KernelEntry]:
        return list(self._entries)

    def names(self) -> list[str]:
        """Every name the list holds, each once."""
        return self._names

    def entry(self, row: int) -> KernelEntry:
        return self._entries[row]

    def row_of(self, entry: KernelEntry) -> int | None:
        """The row showing `entry` (this very object), or None."""
        return self._row_map().get(id(entry))

    def _row_map(self) -> dict[int, int]:
        """id(entry) -> its row, built when first asked for after a change."""
        if self._rows is None:
            self._rows = {id(e): row for row, e in enumerate(self._entries)}
        return self._rows

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
            compute, memory = entry.cells[3], entry.cells[4]  # whole here where hidden
            return plain_tip(f"{entry.kernel.display_name}\n{entry.source}\n"
                             f"Compute {compute}, Memory {memory}")
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
        rows = self._row_map()
        after = [self.index(rows[id(e)], i.column()) for e, i in zip(held, before, strict=True)]
        self.changePersistentIndexList(before, after)
        self.layoutChanged.emit()

    @staticmethod
    def _sorted(entries: list[KernelEntry], column: int,
                order: Qt.SortOrder) -> list[KernelEntry]:
        """Sorted on the column's key; rows missing the value stay last either way."""
        present = [(key, e) for e in entries if (key := e.keys[column]) is not None]
        missing = [e for e in entries if e.keys[column] is None]
        descending = order == Qt.SortOrder.DescendingOrder
        present.sort(key=lambda pair: pair[0], reverse=descending)
        return [e for _, e in present] + missing


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
