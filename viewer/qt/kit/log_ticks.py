"""Ticks for a pyqtgraph axis in log mode (it takes log10 positions): each power of ten written
plainly, and each value of a few written as itself (the sizes of a series)."""

from __future__ import annotations

import math
from collections.abc import Iterable


def decade_ticks(low: float, high: float) -> list[list[tuple[float, str]]]:
    """Major ticks at each power of ten from `low` to `high` written plainly ('0.1', '10'),
    minor ones unlabelled at 2..9 of each decade (axes in log mode take log10 positions)."""
    major: list[tuple[float, str]] = []
    minor: list[tuple[float, str]] = []
    for exponent in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1):
        value = 10.0**exponent
        major.append((float(exponent), f"{value:g}" if -4 <= exponent <= 5 else f"1e{exponent}"))
        minor.extend((math.log10(k * value), "") for k in range(2, 10))
    return [major, minor]


def value_ticks(values: Iterable[int]) -> list[list[tuple[float, str]]]:
    """A tick at each of `values` (log10 place), written plainly."""
    return [[(math.log10(v), str(v)) for v in sorted(set(values))]]
