"""What the Series plot draws, as plain data: each row's requests and sectors against N, the
derivation's exact lines through them, and the naive-over-tiled ratios of sectors and duration
at each N where both kernels were read (viewer.analysis.series).

A point is a row of a size read (N from the launch); a row without N, or a value the report
lacks, is no point (never drawn at zero). A line is the derivation's count at every N of its
kernel's rows, reached from a little below the smallest to a little above the largest (half and
twice, where the tile divides them), so a single size still shows its line. Naive and tiled rows
of one N pair up in the order of the series (the first naive with the first tiled, and so on);
each pair is one ratio point of each kind, and a line joins the first pairs of each N, another
the second pairs, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass

from viewer.analysis.predict import DerivationError, derive
from viewer.analysis.reading import lesson_role
from viewer.analysis.series import DURATION, LINE_LABELS, REQUESTS, SECTORS, UNITS, Row, Series
from viewer.core import formatting as fmt

COUNTS = (REQUESTS, SECTORS)
"""The two counts drawn against N."""
RATIOS = (SECTORS, DURATION)
"""The two ratios drawn against N: naive over tiled."""


@dataclass(frozen=True)
class Point:
    """One value drawn: row `row` of the series (its place), the value's key, N and the value,
    and the words a hover shows (the report and the value)."""

    row: int
    key: str
    dim: int
    value: float
    words: str
    pair: int = 0  # a ratio's pair among those of its N (its line joins the same pair's)


@dataclass(frozen=True)
class DerivedLine:
    """The derivation's count `key` of kernel `role` ('naive', 'tiled') at tile `tile`, at each
    N of `dims`: `values`."""

    role: str
    key: str
    tile: int
    dims: tuple[int, ...]
    values: tuple[float, ...]


def role(row: Row) -> str | None:
    """'naive' or 'tiled' for a row of the lesson's kernels with the derivation, else None."""
    return lesson_role(row.kernel.name) if row.derived else None


def _tile(row: Row) -> int:
    block = row.kernel.block
    assert block is not None, "a row with the derivation has a square block"
    return block[0]


def count_points(series: Series) -> list[Point]:
    """Each row's requests and sectors at its N, where both are read."""
    out = []
    for i, r in enumerate(series.rows):
        for key in COUNTS:
            value = r.values.get(key)
            if r.dim is None or value is None or value <= 0:
                continue
            wanted = r.derived.get(key)
            derived = "" if wanted is None else \
                f" (derived {fmt.count(wanted)}{', exact' if wanted == value else ''})"
            words = f"row {i} {r.name}, {r.file}: {LINE_LABELS[key]} {fmt.count(value)}{derived}"
            out.append(Point(i, key, r.dim, value, words))
    return out


def derivation_lines(series: Series) -> list[DerivedLine]:
    """The derivation's requests and sectors of each of the lesson's kernels (and tile) in the
    series, at its rows' sizes and half the smallest and twice the largest."""
    sizes: dict[tuple[str, int], set[int]] = {}
    for r in series.rows:
        kind = role(r)
        if kind is not None and r.dim is not None:
            sizes.setdefault((kind, _tile(r)), set()).add(r.dim)
    out = []
    for (kind, tile), dims in sorted(sizes.items()):
        reach = sorted(dims | {d for d in (min(dims) // 2, max(dims) * 2)
                               if d >= tile and d % tile == 0})
        for key in COUNTS:
            values = []
            for n in reach:
                try:
                    found = derive(n, tile)
                except DerivationError:  # a tile that makes no whole warps: no line
                    break
                part = found.tiled if kind == "tiled" else found.naive
                values.append(float(part.global_load_requests if key == REQUESTS
                                    else part.global_load_sectors))
            else:
                out.append(DerivedLine(kind, key, tile, tuple(reach), tuple(values)))
    return out


def ratio_points(series: Series) -> list[Point]:
    """Naive over tiled sectors and duration at each N where both were read, a point per pair
    (`row` is the naive row's place)."""
    by_dim: dict[int, dict[str, list[int]]] = {}
    for i, r in enumerate(series.rows):
        kind = role(r)
        if kind is not None and r.dim is not None:
            by_dim.setdefault(r.dim, {}).setdefault(kind, []).append(i)
    out = []
    for dim, kinds in sorted(by_dim.items()):
        pairs = zip(kinds.get("naive", []), kinds.get("tiled", []), strict=False)
        for pair, (n, t) in enumerate(pairs):
            naive, tiled = series.rows[n], series.rows[t]
            for key in RATIOS:
                a, b = naive.values.get(key), tiled.values.get(key)
                if a is None or b is None or a <= 0 or b <= 0:
                    continue
                words = (f"N = {dim}: naive over tiled {LINE_LABELS[key]} {fmt.ratio(a / b)} "
                         f"(row {n} {naive.file} {fmt.by_unit(a, UNITS[key])}, row {t} "
                         f"{tiled.file} {fmt.by_unit(b, UNITS[key])})")
                out.append(Point(n, key, dim, a / b, words, pair))
    return out
