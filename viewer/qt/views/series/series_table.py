"""The Series view's tables: one row per report and kernel (viewer.analysis.series, by N where N is
read, else in the order given), a column per lesson's row, in two bands so that each fits the
window: the rows the derivation predicts (`DERIVED_BAND`), then those measured beside them. Each
cell holds the report's value and,
under it, the value against the baseline row as the terminal words it ('8.00x fewer'); a row of
the lesson's kernels has a 'derived' line under it with the derivation's count ('(exact)' only
where the report's value equals it, else both: series_words.derived_words) and the DRAM traffic
row's compulsory floor. A value the report lacks is
written as missing, in the missing colour, never as zero."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import cast

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QGridLayout, QLabel

from viewer.analysis import series, series_words
from viewer.core import formatting as fmt
from viewer.core.names import distinct_paths
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.plain_text import plain_tip
from viewer.qt.kit.style import Role, Style


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names);
    a cell is one_of(family, row, metric key)."""

    ROW = "row"
    VALUE = "value"
    RATIO = "ratio"
    DERIVED = "derived"
    HEADER = "header"


DERIVED_BAND = (series.REQUESTS, series.SECTORS, series.SECTORS_PER_REQUEST,
                series.SHARED_PER_THREAD, series.DRAM_TOTAL)
BANDS = (("What the derivation counts", tuple(ln for ln in series.LINES if ln.key in DERIVED_BAND)),
         ("Measured beside it", tuple(ln for ln in series.LINES if ln.key not in DERIVED_BAND)))
"""Each table's heading and its columns."""
BASELINE = "baseline"
RATIO_WIDTH = 96
"""A ratio's words wrap at this width (desk pixels), so that no column is wider than its
numbers need."""
BOTH_WIDTH = 150
"""A derived line that says both values ('1,024 derived loads; the report counts 640
instructions') wraps at this width."""
DERIVED_LABEL = "derived"


def file_names(s: series.Series) -> dict[str, str]:
    """Each file of the series by the shortest end of its path that tells it apart."""
    files = list(dict.fromkeys(f for r in s.rows for f in r.files))
    return dict(zip(files, distinct_paths(files), strict=True))


def row_words(s: series.Series, i: int, names: dict[str, str],
              name: Callable[[str], str] = str) -> str:
    """'0  matmul_naive at N = 512' then its files, and '(baseline)' for the baseline's; the
    kernel's name and its files' as `name` shortens them."""
    r = s.rows[i]
    files = " + ".join(name(names.get(f, f)) for f in r.files)
    return f"{i}  {name(r.name)}\n{files}" + ("  (baseline)" if i == s.baseline else "")


class SeriesTable:
    """Fills `grid` with the series' `lines` (a band, or the part of one that fits the width)
    in `style`; `cells` maps (family, row, key) to each label; table `band`'s row labels are
    one_of(Names.ROW, row, band). A kernel's name is elided in the middle to `name_width`
    pixels where that is given (the whole name in the row's tooltip)."""

    def __init__(self, grid: QGridLayout, style: Style, lines: tuple[series.Line, ...],
                 band: int = 0, name_width: int | None = None) -> None:
        self.grid = grid
        self.style = style
        self.lines = lines
        self.band = band
        self.name_width = name_width
        self.cells: dict[tuple[str, int, str], QLabel] = {}
        self.names: dict[str, str] = {}

    def widths(self) -> list[int]:
        """Each grid column's least width (the row labels' first): the widest least width of
        the labels in it."""
        widths = [0] * (len(self.lines) + 1)
        for at in range(self.grid.count()):
            item = self.grid.itemAt(at)
            widget = item.widget() if item is not None else None
            if widget is None:
                continue
            column = cast(tuple[int, int, int, int], self.grid.getItemPosition(at))[1]
            if column < len(widths):
                widths[column] = max(widths[column], widget.minimumSizeHint().width())
        return widths

    def _short(self, name: str) -> str:
        if self.name_width is None:
            return name
        metrics = QFontMetrics(self.style.font("small", bold=True))
        return metrics.elidedText(name, Qt.TextElideMode.ElideMiddle, self.name_width)

    def label(self, text: str, name: str, *, bold: bool = False, color: str = "text",
              role: Role = "small") -> QLabel:
        label = self.style.label(text, role, bold=bold, color=color, name=name)
        label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        return label

    def fill(self, s: series.Series, rows: int | None = None) -> None:
        """The header and the first `rows` rows of `s` (every row where None)."""
        grid, style = self.grid, self.style
        grid.setHorizontalSpacing(style.px(14))
        grid.setVerticalSpacing(style.px(2))
        head = self.label("Report (row, kernel at N, file)", Names.HEADER, bold=True,
                          color="secondary")
        head.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom)
        grid.addWidget(head, 0, 0)
        self.names = file_names(s)
        for column, line in enumerate(self.lines, start=1):
            header = self.label(line.label, one_of(Names.HEADER, line.key), bold=True,
                                color="secondary")
            header.setWordWrap(True)
            header.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom)
            grid.addWidget(header, 0, column)
        at = 1
        for i in range(len(s.rows) if rows is None else min(rows, len(s.rows))):
            at = self._row(s, i, at)
        grid.setColumnStretch(len(self.lines) + 1, 1)

    def _row(self, s: series.Series, i: int, at: int) -> int:
        """Row `i`'s lines from grid row `at`; the next free grid row."""
        r, base = s.rows[i], i == s.baseline
        derived = any(line.key in r.derived for line in self.lines)
        name = self.label(row_words(s, i, self.names, self._short),
                          one_of(Names.ROW, i, self.band), bold=base)
        name.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        name.setToolTip(plain_tip(f"{r.name}\n" + " + ".join(r.files)))
        self.grid.addWidget(name, at, 0, 2, 1)
        for column, line in enumerate(self.lines, start=1):
            value = r.values.get(line.key)
            both = r.disagree.get(line.key)
            text = fmt.by_unit(value, line.unit) if both is None else \
                f"{fmt.by_unit(both[0], line.unit)} / {fmt.by_unit(both[1], line.unit)}"
            self._cell(Names.VALUE, i, line.key, text, at, column, bold=True,
                       color="missing" if value is None else "text")
            words = BASELINE if base else series.against(r, s.base, line.key,
                                                         f"row {s.baseline}")
            self._cell(Names.RATIO, i, line.key, words, at + 1, column, color="secondary")
            if derived:
                self._cell(Names.DERIVED, i, line.key, series_words.derived_words(line, r),
                           at + 2, column, color="secondary")
        if derived:
            label = self.label(DERIVED_LABEL, one_of(Names.DERIVED, i), color="secondary")
            label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
            self.grid.addWidget(label, at + 2, 0)
        self.grid.setRowMinimumHeight(at + (3 if derived else 2), self.style.px(6))
        return at + (4 if derived else 3)

    def _cell(self, family: str, i: int, key: str, text: str, row: int, column: int, *,
              bold: bool = False, color: str = "text") -> None:
        label = self.label(text, one_of(family, i, key), bold=bold, color=color)
        if family == Names.RATIO:  # '640 where row 0 has 0' wraps, not widens
            label.setWordWrap(True)
            label.setMinimumWidth(self.style.px(RATIO_WIDTH))
        elif family == Names.DERIVED and ";" in text:  # a derivation and the report's value
            label.setWordWrap(True)
            label.setMinimumWidth(self.style.px(BOTH_WIDTH))
        self.cells[(family, i, key)] = label
        self.grid.addWidget(label, row, column)
