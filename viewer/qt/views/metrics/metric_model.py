"""The table under the "Every metric" view: one kernel's metrics, or two kernels' full diff.

`MetricModel` holds plain rows (viewer.analysis.metric_table's MetricRow or MetricDiff) with their
cells made once, filters them on a precomputed lower-case text and a minimum change in Python, and
sorts on precomputed keys, so two thousand rows and more stay quick. `read_everything` is the
plain job the view runs off the GUI thread: every metric and ncu's words on each, per kernel.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from viewer.analysis import metric_table
from viewer.analysis.metric_table import MetricDiff, MetricRow, OneSided
from viewer.core import formatting as fmt
from viewer.core.model import Kernel
from viewer.qt.kit.plain_text import plain_tip
from viewer.readers.extras import MetricAbout

Index = QModelIndex | QPersistentModelIndex
ROW_COLUMNS = ("Metric", "Value", "Unit", "Description")
KNOWN_UNITS = {"%", "ns", "byte", "byte/s"}


def value_text(value: float, unit: str | None) -> str:
    """A metric's value for the table: formatted by its base unit where the view knows it."""
    if unit in KNOWN_UNITS:
        return fmt.by_unit(value, unit)
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:,.4g}" if abs(value) < 1e6 else f"{value:.4g}"


def change_text(pct: float) -> str:
    if math.isinf(pct):
        return "from 0"
    return f"{pct:+,.1f} %"


def diff_columns(names: Sequence[str]) -> tuple[str, ...]:
    return ("Metric", names[0], names[1], "Change", "B/A", "Better when", "Verdict", "Unit")


@dataclass(frozen=True)
class Line:
    """One table row: the plain row, its cells, sort keys, search text and change."""

    item: MetricRow | MetricDiff | OneSided
    cells: tuple[str, ...]
    keys: tuple[float | str, ...]
    search: str
    change: float  # |relative change| in percent; 0 for a single kernel's row


def row_line(row: MetricRow) -> Line:
    """A metric's row; one printed in a unit not understood shows as printed ('2.1 zorks')."""
    about = " ".join((row.description or "").split())  # one line in the cell
    shown = (row.printed or "") if row.value is None else value_text(row.value, row.unit)
    cells = (row.name, shown, row.unit or "", about)
    keys = (row.name, -math.inf if row.value is None else row.value, row.unit or "",
            row.description or "")
    search = " ".join((row.name, row.label or "", row.description or "")).lower()
    return Line(row, cells, keys, search, 0.0)


def diff_line(d: MetricDiff) -> Line:
    better = "" if d.higher_is_better is None else ("higher" if d.higher_is_better else "lower")
    cells = (d.name, value_text(d.first, d.unit), value_text(d.second, d.unit),
             change_text(d.change_pct), fmt.ratio(d.ratio) if d.ratio is not None else "",
             better, d.verdict or "", d.unit or "")
    change = abs(d.change_pct)
    keys = (d.name, d.first, d.second, change, d.ratio if d.ratio is not None else math.inf,
            better, d.verdict or "", d.unit or "")
    return Line(d, cells, keys, " ".join((d.name, d.label or "")).lower(), change)


def one_sided_line(one: OneSided) -> Line:
    """A metric only one kernel holds, in the diff's columns: the other's cell says so."""
    held, lacking = value_text(one.value, one.unit), fmt.NOT_IN_REPORT
    first, second = (held, lacking) if one.side == "A" else (lacking, held)
    cells = (one.name, first, second, f"only in {one.side}", "", "", "", one.unit or "")
    keys = (one.name, one.value if one.side == "A" else -math.inf,
            one.value if one.side == "B" else -math.inf, math.inf, math.inf, "", "",
            one.unit or "")
    return Line(one, cells, keys, " ".join((one.name, one.label or "")).lower(), math.inf)


def diff_lines(a: Kernel, b: Kernel, about: Mapping[str, MetricAbout],
               one_sided: bool) -> tuple[list[Line], int, int]:
    """A diff's lines, largest change first (and, with `one_sided`, what one kernel holds
    after them); how many metrics both hold, and one."""
    diffs = metric_table.diff(a, b, about)
    only = metric_table.one_sided(a, b, about)
    lines = [diff_line(d) for d in diffs] + ([one_sided_line(o) for o in only] if one_sided
                                             else [])
    return lines, len(diffs), len(only)


class MetricModel(QAbstractTableModel):
    """Lines shown after the search text and the minimum change; `shown()` in table order."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.columns: tuple[str, ...] = ROW_COLUMNS
        self._all: list[Line] = []
        self._shown: list[Line] = []
        self._words: tuple[str, ...] = ()
        self._min_change = 0.0
        self._sort: tuple[int, bool] | None = None
        self.colors = {"better": QColor("#2a7a2a"), "worse": QColor("#c2185b")}
        self.shown_titles: dict[int, str] = {}  # a header as its width lets it show (the table's)

    def set_lines(self, lines: Sequence[Line], columns: Sequence[str]) -> None:
        self.beginResetModel()
        self.columns = tuple(columns)
        self.shown_titles = {}
        self._all = list(lines)
        self._sort = None
        self._shown = self._filtered()
        self.endResetModel()

    def set_filter(self, text: str, min_change: float = 0.0) -> None:
        words = tuple(text.lower().split())
        if (words, min_change) == (self._words, self._min_change):
            return
        self.beginResetModel()
        self._words, self._min_change = words, min_change
        self._shown = self._filtered()
        self.endResetModel()

    def _filtered(self) -> list[Line]:
        words, least = self._words, self._min_change
        shown = [line for line in self._all
                 if (not least or line.change > least)
                 and all(w in line.search for w in words)]
        if self._sort is not None:
            column, descending = self._sort
            shown.sort(key=lambda line: line.keys[column], reverse=descending)
        return shown

    def shown(self) -> list[MetricRow | MetricDiff | OneSided]:
        return [line.item for line in self._shown]

    def total(self) -> int:
        return len(self._all)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._shown)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        line = self._shown[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return line.cells[index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            numeric = 0 < index.column() < (5 if self.is_diff else 3)
            horizontal = Qt.AlignmentFlag.AlignRight if numeric else Qt.AlignmentFlag.AlignLeft
            return int(horizontal | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and isinstance(line.item, MetricDiff):
            return self.colors.get(line.item.verdict or "")
        if role == Qt.ItemDataRole.ToolTipRole:
            item = line.item
            about = item.description if isinstance(item, MetricRow) else None
            return plain_tip("\n".join(s for s in (item.name, item.label, about) if s))
        return None

    def title(self, section: int) -> str:
        """A column's header: a diff's kernels as 'A name' and 'B name' (a long name cut at
        the right keeps its letter), the others their title."""
        title = self.columns[section]
        return f"{'AB'[section - 1]} {title}" if self.is_diff and section in (1, 2) else title

    @property
    def is_diff(self) -> bool:
        return len(self.columns) > len(ROW_COLUMNS)

    def texts(self, column: int, most: int = 40) -> list[str]:
        """The longest texts of every line (searched away or not) in `column`, `most` of them:
        the widths are made once for the table, not for a search."""
        cells = {line.cells[column] for line in self._all}
        return sorted(cells, key=len)[-most:]

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.columns):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.shown_titles.get(section, self.title(section))
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tip(self.title(section))
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self.columns):
            return
        self.layoutAboutToBeChanged.emit()
        self._sort = (column, order == Qt.SortOrder.DescendingOrder)
        self._shown = self._filtered()
        self.layoutChanged.emit()
