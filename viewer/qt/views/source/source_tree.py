"""The Source view's table: a kernel's source lines, each opening to its SASS instructions, with
ncu's counters (viewer.analysis.source) in the same columns (viewer.analysis.source_columns);
where the report has no line info, the SASS alone. Sorting by any column sorts the lines and,
under each, its instructions; the hottest rows are marked, and one row can be highlighted (the
line the room is asked about).
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from viewer.analysis import source as analysis
from viewer.analysis.source import Row, row_key
from viewer.analysis.source_columns import (
    COLUMNS,
    HOT,
    compact_text,
    compact_title,
    first_address,
    line_groups,
    place_text,
    sorted_rows,
)
from viewer.qt.kit.plain_text import plain_tip

Index = QModelIndex | QPersistentModelIndex
NO_INDEX = QModelIndex()
TOP = Qt.ItemDataRole.UserRole + 1  # the plain Row of an index


class SourceTree(QAbstractItemModel):
    """Top rows (lines, else SASS) and, under a line, its instructions."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tops: list[Row] = []
        self._children: list[list[Row]] = []
        self.hot: set[str] = set()
        self.marked: str | None = None
        self.compact = False  # the projector's: shallow indents, offsets
        self._base = 0  # the function's first address, which offsets count from
        self.highlight = QColor("#fff1c2")
        self.bold = QFont()
        self.bold.setBold(True)

    def set_table(self, table: analysis.SourceTable | None) -> None:
        """Show `table`'s lines with their SASS (its SASS alone where it has no lines)."""
        self.beginResetModel()
        self._tops, self._children = line_groups(table)
        tops = self._tops
        self.hot = {row_key(r) for r in analysis.hottest(tops)} if tops else set()
        self._base = first_address(table)
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
            return compact_title(COLUMNS[section].title)  # a word a line: narrow columns
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
        order_of = {id(r): n for n, r in enumerate(sorted_rows(self._tops, column, descending))}
        pairs.sort(key=lambda p: order_of[id(p[0])])
        self._tops = [p[0] for p in pairs]
        self._children = [sorted_rows(p[1], column, descending) for p in pairs]
        for old in self.persistentIndexList():
            self.changePersistentIndex(old, QModelIndex())
        self.layoutChanged.emit()
