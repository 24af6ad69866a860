"""Time by kernel: the kernel list grouped by kernel name, the largest total duration first.

Each row is one name (per file, when several are open): its launches, total and mean duration
and share of its report's kernel time (viewer.analysis.time_by_kernel.group_by_name, vectorised: ten
thousand kernels group in milliseconds on the GUI thread). Picking a group picks its longest
launch; Ctrl+click a second group to compare the two longest launches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from viewer.analysis.time_by_kernel import KernelGroup, group_by_name
from viewer.core import formatting as fmt
from viewer.qt.kernel_list.kernel_table import NAME_ROOM, stepped_aside
from viewer.qt.kernel_list.name_delegate import NameDelegate
from viewer.qt.kit.plain_text import plain_tip

if TYPE_CHECKING:
    from viewer.qt.kernel_list.kernel_table import KernelEntry

GROUP_COLUMNS = ("Kernel", "Launches", "Total", "Mean", "Share", "File")
GROUP_FILE_COLUMN = 5
# What steps aside where the view is too narrow for its numbers and NAME_ROOM characters of the
# name, first to last: the mean (the total over the launches), the file, the launches (the
# row's tooltip gives all three).
GROUP_STEP_ASIDE = ((3,), (GROUP_FILE_COLUMN,), (1,))
Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class GroupRow:
    """One group of one report, its cells, and the entry of its longest launch (None when no
    launch has a duration)."""

    group: KernelGroup
    file_name: str
    longest: KernelEntry | None
    cells: tuple[str, ...]
    search: str


def group_rows(entries: Sequence[KernelEntry]) -> list[GroupRow]:
    """`entries` grouped by kernel name, each report on its own, the largest total first."""
    by_report: dict[int, list[KernelEntry]] = {}
    for entry in entries:
        by_report.setdefault(entry.report_index, []).append(entry)
    rows: list[GroupRow] = []
    for members in by_report.values():
        by_index = {e.kernel.index: e for e in members}
        for group in group_by_name([e.kernel for e in members]):
            longest = by_index.get(group.longest) if group.longest is not None else None
            cells = (group.name, f"{group.launches:,}",
                     fmt.duration(group.total_ns),
                     fmt.duration(group.mean_ns), fmt.percent(group.share_pct),
                     members[0].file_name)
            rows.append(GroupRow(group, members[0].file_name, longest, cells,
                                 " ".join((group.name, members[0].file_name)).lower()))
    rows.sort(key=lambda r: (r.group.total_ns is None, -(r.group.total_ns or 0.0)))
    return rows


class GroupModel(QAbstractTableModel):
    """Group rows, filtered on every word of a text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._all: list[GroupRow] = []
        self._names: list[str] = []
        self._shown: list[GroupRow] = []
        self._words: tuple[str, ...] = ()

    def set_rows(self, rows: Sequence[GroupRow]) -> None:
        self.beginResetModel()
        self._all = list(rows)
        self._names = list(dict.fromkeys(r.group.name for r in self._all))
        self._shown = self._filtered()
        self.endResetModel()

    def set_filter_text(self, text: str) -> None:
        words = tuple(text.lower().split())
        if words == self._words:
            return
        self.beginResetModel()
        self._words = words
        self._shown = self._filtered()
        self.endResetModel()

    def _filtered(self) -> list[GroupRow]:
        return [r for r in self._all if all(w in r.search for w in self._words)]

    def row(self, number: int) -> GroupRow:
        return self._shown[number]

    def rows(self) -> list[GroupRow]:
        return list(self._shown)

    def names(self) -> list[str]:
        """Every group's name, each once (filtered out or not)."""
        return self._names

    def total(self) -> int:
        return len(self._all)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._shown)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(GROUP_COLUMNS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        row = self._shown[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return row.cells[index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            right = 0 < index.column() < GROUP_FILE_COLUMN
            flag = Qt.AlignmentFlag.AlignRight if right else Qt.AlignmentFlag.AlignLeft
            return int(flag | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            longest = row.longest.kernel.label if row.longest else "no timed launch"
            return plain_tip(f"{row.group.name} ({row.file_name}): {row.group.launches:,} "
                             f"launches, {row.cells[3]} mean; picks {longest}")
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return GROUP_COLUMNS[section]
        return None


class GroupView(QTableView):
    """The groups table; `picked` carries the longest launches of the one or two groups
    selected (most recent last)."""

    picked = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.groups = GroupModel(self)
        self.setModel(self.groups)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.names = NameDelegate(self.groups.names, self)
        self.setItemDelegateForColumn(0, self.names)
        header = self.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self._order: list[int] = []
        self._whole: dict[int, int] = {}  # each number's column whole
        self._several_files = False
        self.selectionModel().selectionChanged.connect(self._on_selection)

    def set_rows(self, rows: Sequence[GroupRow], several_files: bool) -> None:
        self._order = []
        self.groups.set_rows(rows)
        self._several_files = several_files
        self.setColumnHidden(GROUP_FILE_COLUMN, not several_files)
        self.fit_columns()

    def fit_columns(self) -> None:
        """The numbers as wide as their header and first rows, whole; the name takes what is
        left (elided in the middle where that is less than the name)."""
        metrics = self.fontMetrics()
        sample = self.groups.rows()[:100]
        for column, title in enumerate(GROUP_COLUMNS[1:], 1):
            widest = max([metrics.horizontalAdvance(title) + 24]
                         + [metrics.horizontalAdvance(r.cells[column]) + 16 for r in sample])
            self._whole[column] = widest
            self.horizontalHeader().resizeSection(column, widest)
        self._fit_room()

    def _fit_room(self) -> None:
        """Step the mean, the file and the launches aside, in turn, where the numbers would
        leave less than NAME_ROOM characters of the name (once on screen)."""
        if not self.isVisible():
            return
        wanted = {c: w for c, w in self._whole.items()
                  if c != GROUP_FILE_COLUMN or self._several_files}
        aside = stepped_aside(wanted, GROUP_STEP_ASIDE,
                              NAME_ROOM * self.fontMetrics().averageCharWidth(),
                              self.viewport().width())
        for column in (c for group in GROUP_STEP_ASIDE for c in group if c in wanted):
            self.setColumnHidden(column, column in aside)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_room()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fit_room()

    def _on_selection(self, *_args: object) -> None:
        selected = sorted(i.row() for i in self.selectionModel().selectedRows())
        self._order = [r for r in self._order if r in selected] + [
            r for r in selected if r not in self._order]
        picks = [self.groups.row(r).longest for r in self._order[-2:]]
        chosen = [p for p in picks if p is not None]
        if chosen:
            self.picked.emit(chosen)
