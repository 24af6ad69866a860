"""The memory chart's columns and the arithmetic of laying them out, in pixels measured by the
painter: a band's width, where each column starts, the rows a wrapped band takes, and where a
row's lanes lie.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# Columns left to right; shared memory sits above L1/TEX, on a lane of its own.
COLUMNS = (("kernel",), ("shared", "l1tex"), ("l2",), ("dram",))
# The arrows of each gap between two columns.
GAP_ARROWS = (("shared", "global"), ("l1_to_l2",), ("dram_read", "dram_write"))


def path_box(column: int) -> str:
    """The box of column `column` on the path of global loads (L1/TEX, not shared memory)."""
    return COLUMNS[column][-1]


def span_width(columns: Sequence[float], gaps: Sequence[float], first: int, last: int,
               margin: float) -> float:
    """The width of columns `first` to `last`, the gaps between them and a margin each side."""
    return sum(columns[first:last + 1]) + sum(gaps[first:last]) + 2 * margin


def spread(columns: Sequence[float], gaps: Sequence[float], wanted: float,
           margin: float) -> tuple[list[float], float]:
    """The left of each column on one row `wanted` wide (its room past the natural width shared
    out among the gaps; 0: the natural width), and the row's width."""
    natural = span_width(columns, gaps, 0, len(columns) - 1, margin)
    extra = max(0.0, wanted - natural) / len(gaps)
    lefts: list[float] = [margin]
    for column, gap in zip(columns, (gap + extra for gap in gaps), strict=False):
        lefts.append(lefts[-1] + column + gap)
    return lefts, lefts[-1] + columns[-1] + margin


def spans(columns: Sequence[float], gaps: Sequence[float], wanted: float,
          margin: float) -> list[tuple[int, int]]:
    """The columns of each row of a wrapped band, first and last: each row as long as `wanted`
    holds (two columns at least), the next starting on the column this one ended on."""
    rows, first = [], 0
    while first < len(columns) - 1:
        last = first + 1
        while (last < len(columns) - 1
               and span_width(columns, gaps, first, last + 1, margin) <= wanted):
            last += 1
        rows.append((first, last))
        first = last
    return rows


def row_lefts(columns: Sequence[float], gaps: Sequence[float], first: int, last: int,
              margin: float) -> dict[int, float]:
    """The left of each column `first` to `last` of a wrapped band's row, by column."""
    lefts = {first: margin}
    for column in range(first, last):
        lefts[column + 1] = lefts[column] + columns[column] + gaps[column]
    return lefts


@dataclass(frozen=True)
class Lanes:
    """Where a row of a wrapped band lies: its top and bottom, the centre lines of the shared
    memory lane and of the path's, and the shared memory note's (left, top, width) if drawn."""

    top: float
    shared_mid: float
    main_mid: float
    bottom: float
    note: tuple[float, float, float] | None = None
