"""The Source view's table: a kernel's source lines, each opening to its SASS instructions, with
ncu's counters (viewer.analysis.source) in the same columns; where the report has no line info,
the SASS alone. Sorting by any column sorts the lines and, under each, its instructions; the
hottest rows are marked, and one row can be highlighted (the line the room is asked about).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePath

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from viewer.analysis import source as analysis
from viewer.analysis.source import GLOBAL_LOADS, L2_EXCESSIVE, SHARED_LOADS, Row, row_key
from viewer.analysis.stalls import REASONS
from viewer.core import formatting as fmt
from viewer.qt.kit.plain_text import plain_tip
from viewer.readers.source import INST_EXECUTED, L2_SECTORS, SAMPLES

Index = QModelIndex | QPersistentModelIndex
NO_INDEX = QModelIndex()
HOT = "\u25b2 "  # marks the hottest rows
TOP = Qt.ItemDataRole.UserRole + 1  # the plain Row of an index

REASON_LABELS = {r.sampled_key or r.key: r.label.removeprefix("Stall ") for r in REASONS}
"""A sampled stall reason (as its metric spells it) -> its name in ncu's chart."""


@dataclass(frozen=True)
class Column:
    """One column: its header, the value it sorts by, the text it shows and its header's tip."""

    title: str
    key: Callable[[Row], float | str | None]
    text: Callable[[Row], str]
    numeric: bool = True
    tip: str = ""


def place_text(row: Row) -> str:
    if row.address is None:
        return f"{PurePath(row.file or '').name}:{row.line}"
    return f"{row.address:x}"


def reasons_text(row: Row, n: int = 2) -> str:
    """'Long Scoreboard 1,431, Selected 7': its top sampled stall reasons, '' where none."""
    return ", ".join(f"{REASON_LABELS.get(r, r)} {fmt.count(v)}"
                     for r, v in analysis.stall_reasons(row, n))


_WARP = "counted once per warp that executed it (ncu's warp-level count)"
_TITLES = {
    INST_EXECUTED: ("Warp inst.", f"Instructions executed, each {_WARP}: inst_executed"),
    GLOBAL_LOADS: ("Global loads", f"Global load instructions (LDG) executed, each {_WARP}"),
    SHARED_LOADS: ("Shared loads", f"Shared load instructions (LDS) executed, each {_WARP}"),
    L2_SECTORS: ("L2 sectors", "The sectors the global accesses ask of L2: "
                 "memory_l2_theoretical_sectors_global"),
    L2_EXCESSIVE: ("L2 excess", "The sectors beyond the ideal: "
                   "derived__memory_l2_theoretical_sectors_global_excessive"),
    SAMPLES: ("Stall samples", "Warp stall samples on the row: smsp__pcsamp_sample_count"),
}
_PER_THREAD = {
    INST_EXECUTED: ("inst. / thread", "Every instruction executed on the row, per thread"),
    GLOBAL_LOADS: ("global loads / thread", "Global load instructions executed, per thread"),
    SHARED_LOADS: ("shared loads / thread", "Shared load instructions executed, per thread"),
}


def _value(column: str) -> Column:
    title, tip = _TITLES[column]
    return Column(title, lambda r: r.value(column), lambda r: fmt.count(r.value(column)),
                  tip=tip)


def _per_thread(column: str) -> Column:
    title, tip = _PER_THREAD[column]
    return Column(title, lambda r: r.per_thread(column), lambda r: fmt.count(
        None if (v := r.per_thread(column)) is None else round(v, 2)),
        tip=f"{tip}: the warp-level count times the threads each warp ran it with, over the "
            "kernel's threads")


COLUMNS: tuple[Column, ...] = (
    Column("Line", lambda r: (r.line if r.address is None else r.address) or 0,
           lambda r: str(r.line) if r.address is None else f"{r.address:x}"),
    Column("Source", lambda r: r.text or "", lambda r: r.text or fmt.MISSING, numeric=False),
    _value(INST_EXECUTED), _per_thread(INST_EXECUTED),
    _value(GLOBAL_LOADS), _per_thread(GLOBAL_LOADS),
    _value(SHARED_LOADS), _per_thread(SHARED_LOADS),
    _value(L2_SECTORS), _value(L2_EXCESSIVE), _value(SAMPLES),
    Column("Top stall reasons", lambda r: reasons_text(r), reasons_text, numeric=False),
)
PROJECTOR_HIDDEN = ("Warp inst.", "inst. / thread", "Global loads", "Shared loads", "L2 excess")
"""What the projector leaves out: the warp-level counts and instructions per thread (the loads
per thread stay)."""
PROJECTOR_OPTIONAL = ("Top stall reasons", "L2 sectors", "Stall samples")
"""What the projector leaves out next, in this order, where the table would not fit its width."""


def compact_text(text: str) -> str:
    """A line of source as the projector shows it: each level of indentation two spaces."""
    body = text.lstrip(" ")
    return " " * ((len(text) - len(body)) // 2) + body


def compact_title(title: str) -> str:
    """A column's title a word a line, so narrow ('global\nloads\n/ thread', 'Stall\nsamples')."""
    if " / " in title:
        head, _, tail = title.partition(" / ")
        return "\n".join(head.split()) + f"\n/ {tail}"
    head, _, tail = title.rpartition(" ")
    return f"{head}\n{tail}" if head else title


def _sorted(rows: Sequence[Row], column: int, descending: bool) -> list[Row]:
    spec = COLUMNS[column]
    if spec.numeric:
        present = [r for r in rows if spec.key(r) is not None]
        missing = [r for r in rows if spec.key(r) is None]
        return sorted(present, key=lambda r: spec.key(r) or 0, reverse=descending) + missing
    return sorted(rows, key=lambda r: str(spec.key(r)), reverse=descending)


class SourceTree(QAbstractItemModel):
    """Top rows (lines, else SASS) and, under a line, its instructions."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tops: list[Row] = []
        self._children: list[list[Row]] = []
        self.hot: set[str] = set()
        self.marked: str | None = None
        self.compact = False  # the projector's: titles on two lines, shallow indents, offsets
        self._base = 0  # the function's first address, which offsets count from
        self.highlight = QColor("#fff1c2")
        self.bold = QFont()
        self.bold.setBold(True)

    def set_table(self, table: analysis.SourceTable | None) -> None:
        """Show `table`'s lines with their SASS (its SASS alone where it has no lines)."""
        self.beginResetModel()
        if table is None:
            self._tops, self._children = [], []
        elif table.lines:
            by_line: dict[tuple[str | None, int | None], list[Row]] = {}
            for row in table.sass:
                by_line.setdefault((row.file, row.line), []).append(row)
            self._tops = list(table.lines)
            self._children = [by_line.get((r.file, r.line), []) for r in self._tops]
        else:
            self._tops, self._children = list(table.sass), [[] for _ in table.sass]
        tops = self._tops
        self.hot = {row_key(r) for r in analysis.hottest(tops)} if tops else set()
        self._base = min((r.address for r in table.sass if r.address is not None), default=0) \
            if table is not None else 0
        self.endResetModel()

    @property
    def rows(self) -> list[Row]:
        return list(self._tops)

    def children_of(self, top: int) -> list[Row]:
        return list(self._children[top])

    def row_of(self, key: str) -> QModelIndex:
        """The index of the row named `key` (row_key, or 'matmul.py:75' with the file's name
        alone), top rows first; invalid if none."""
        for number, row in enumerate(self._tops):
            if key in (row_key(row), place_text(row)):
                return self.index(number, 0)
        for number, children in enumerate(self._children):
            for child, row in enumerate(children):
                if key in (row_key(row), place_text(row)):
                    return self.index(child, 0, self.index(number, 0))
        return QModelIndex()

    def plain(self, index: Index) -> Row | None:
        if not index.isValid():
            return None
        parent = index.internalId()
        if parent == 0:
            return self._tops[index.row()]
        return self._children[parent - 1][index.row()]

    # ------------------------------------------------------------ the model

    def index(self, row: int, column: int, parent: Index = NO_INDEX) -> QModelIndex:
        if parent.isValid():
            if parent.internalId() != 0 or not 0 <= row < len(self._children[parent.row()]):
                return QModelIndex()
            return self.createIndex(row, column, parent.row() + 1)
        if not 0 <= row < len(self._tops):
            return QModelIndex()
        return self.createIndex(row, column, 0)

    def parent(self, index: Index = NO_INDEX) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == 0:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, 0)

    def rowCount(self, parent: Index = NO_INDEX) -> int:
        if not parent.isValid():
            return len(self._tops)
        if parent.internalId() != 0:
            return 0
        return len(self._children[parent.row()])

    def columnCount(self, parent: Index = NO_INDEX) -> int:
        return len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            title = COLUMNS[section].title
            return compact_title(title) if self.compact else title
        if role == Qt.ItemDataRole.ToolTipRole and COLUMNS[section].tip:
            return plain_tip(COLUMNS[section].tip + ".")
        return None

    def shown_text(self, row: Row, column: int) -> str:
        """The cell's text: an instruction's offset in the function and the source's indents
        made shallow where compact (the tooltips keep the address and the text)."""
        if self.compact and column == 0 and row.address is not None:
            return f"+{row.address - self._base:x}"
        text = COLUMNS[column].text(row)
        return compact_text(text) if self.compact and column == 1 else text

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        row = self.plain(index)
        if row is None:
            return None
        spec = COLUMNS[index.column()]
        key = row_key(row)
        if role == Qt.ItemDataRole.DisplayRole:
            text = self.shown_text(row, index.column())
            return HOT + text if index.column() == 0 and key in self.hot else text
        if role == Qt.ItemDataRole.TextAlignmentRole and spec.numeric and index.column():
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        marked = self.marked in (key, place_text(row))
        if role == Qt.ItemDataRole.BackgroundRole and marked:
            return self.highlight
        if role == Qt.ItemDataRole.FontRole and (key in self.hot or marked):
            return self.bold
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == 0:
            return plain_tip(place_text(row) if row.address is None else row_key(row))
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == 1:
            return plain_tip(" ".join(row.opcodes) if row.address is None else row.text or "")
        if role == TOP:
            return row
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Any column: the lines, and each line's instructions; missing values last."""
        descending = order == Qt.SortOrder.DescendingOrder
        self.layoutAboutToBeChanged.emit()
        pairs = list(zip(self._tops, self._children, strict=True))
        order_of = {id(r): n for n, r in enumerate(_sorted(self._tops, column, descending))}
        pairs.sort(key=lambda p: order_of[id(p[0])])
        self._tops = [p[0] for p in pairs]
        self._children = [_sorted(p[1], column, descending) for p in pairs]
        for old in self.persistentIndexList():
            self.changePersistentIndex(old, QModelIndex())
        self.layoutChanged.emit()
