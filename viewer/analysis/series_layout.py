"""The Series view's layout as plain data: how many rows its tables draw, what it says of the
rest, and how a table's columns are split into parts that each fit the width."""

from __future__ import annotations

from collections.abc import Sequence

from viewer.analysis import series

DRAWN_ROWS = 40
"""The tables draw at most this many rows (a series of a many-kernel report is no lesson's
series); the rest are said to be left out, and `python -m viewer series` prints them all."""


def left_out(s: series.Series) -> str:
    """'Rows 40 to 399 are not drawn here...' where the series has more rows than are drawn."""
    if len(s.rows) <= DRAWN_ROWS:
        return ""
    return (f"Rows {DRAWN_ROWS} to {len(s.rows) - 1} of {len(s.rows)} are not drawn here "
            "(the plot has them all); `python -m viewer series FILE...` prints every row.")


def packed(widths: Sequence[int], room: int, spacing: int) -> list[list[int]]:
    """The columns 1.. of a table whose columns' least widths are `widths` (the row labels'
    first, repeated in every part) in parts that each fit `room` pixels, in order; a column
    wider than the room has a part of its own."""
    parts: list[list[int]] = [[]]
    used = widths[0] if widths else 0
    for column, width in enumerate(widths[1:], start=1):
        if parts[-1] and used + spacing + width > room:
            parts.append([])
            used = widths[0]
        parts[-1].append(column)
        used += spacing + width
    return [p for p in parts if p]


def sentence(note: str) -> str:
    """A note as a sentence: its first letter upper case, a full stop at its end."""
    return note[:1].upper() + note[1:] + ("" if note.endswith(".") else ".")
