"""The lesson's published Tesla T4 table beside the open reports: what moved across GPUs and what
did not, in words computed from the values.

The table is profiles/t4-reference.toml, read through viewer.readers like any report (so it can be
opened, compared and exported too). `cross_gpu` sets its rows beside the same metrics of two open
kernels; a value "did not move" when it is within TOLERANCE of the T4's (relative), and
`summary_words` says what moved, what did not, and whether the order between the two kernels held
on each row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from viewer.analysis import reading
from viewer.core import formatting as fmt
from viewer.core import shipped
from viewer.core.metrics import SUMMARY_METRICS, unit
from viewer.core.model import Kernel, Report
from viewer.lesson import pair
from viewer.readers.reference import PublishedKernel, ReferenceRow

# Within this share of the T4's value, a value did not move.
TOLERANCE = 0.01
_WITHIN = f"{TOLERANCE * 100:g} %"
_KEY_OF = {metric: key for key, metric in SUMMARY_METRICS.items()}
_UNITS = {pair.DRAM_BYTES: "byte"}


def reference_report() -> Report:
    """The shipped T4 table as a Report (kernels 'naive' and 'tiled')."""
    from viewer.readers import read_report

    return read_report(shipped.reference())


SAME_TABLE = ("The file open is the lesson's T4 table itself: set beside itself every row would "
              "match, so its rows stand alone. Open a report of the two kernels from another GPU "
              "to see what moved.")


def is_reference(kernels: Sequence[Kernel]) -> bool:
    """The kernels are a published reference's (the T4 table opened as a report)."""
    return bool(kernels) and all(isinstance(k, PublishedKernel) and k.published is not None
                                 for k in kernels)


def provenance_text(report: Report | None = None) -> str:
    """Where the T4 values come from, in one line, read from the reference file."""
    report = report or reference_report()
    first = report.kernels[0]
    if not isinstance(first, PublishedKernel) or first.published is None:
        raise ValueError(f"{report.source} is not a published reference")
    p = first.published
    note = f"; {p.note}" if p.note else ""
    return f"Published, entered by hand from the lesson's Results: {p.line()}{note}."


@dataclass(frozen=True)
class CrossRow:
    """One row of the T4 table beside the same metric of the open pair."""

    label: str  # as the lesson spells it
    metric: str  # the ncu metric, or the summary key of a derived row
    t4: tuple[float | None, float | None]  # (naive, tiled)
    here: tuple[float | None, float | None]
    moved: bool | None  # None: a value is missing
    words: str

    @property
    def unit(self) -> str:
        return _unit(self.metric)

    def order(self, values: tuple[float | None, float | None]) -> str | None:
        """'>' where naive is higher, '<' where tiled is, '=' where they are equal."""
        a, b = values
        if a is None or b is None:
            return None
        return "=" if a == b else ">" if a > b else "<"


def _unit(metric: str) -> str:
    key = _KEY_OF.get(metric, metric)
    if metric in _UNITS:
        return _UNITS[metric]
    try:
        return unit(key)
    except KeyError:
        return ""


def _value(kernel: Kernel, row: ReferenceRow) -> float | None:
    if row.derived == "sectors_per_request":
        return reading.sectors_per_request(kernel)
    if row.metric == pair.DRAM_BYTES:
        return pair.dram_bytes(kernel)
    return kernel.metric(row.metric) if row.metric else None


def _moved(before: float | None, after: float | None) -> bool | None:
    if before is None or after is None:
        return None
    if before == after:
        return False
    return abs(after - before) > TOLERANCE * max(abs(before), abs(after))


def cross_gpu(t4_pair: Sequence[Kernel], here_pair: Sequence[Kernel]) -> list[CrossRow]:
    """The T4 table's rows, in its order, beside the open naive and tiled kernels."""
    t4_naive, t4_tiled = t4_pair
    if not isinstance(t4_naive, PublishedKernel) or t4_naive.published is None:
        raise ValueError("the first pair must be the published reference's kernels")
    rows = []
    for row in t4_naive.published.rows:
        metric = row.metric or row.derived or ""
        t4 = (_value(t4_naive, row), _value(t4_tiled, row))
        here = (_value(here_pair[0], row), _value(here_pair[1], row))
        changes = [_moved(a, b) for a, b in zip(t4, here, strict=True)]
        moved = None if None in changes else any(changes)
        rows.append(CrossRow(row.label, metric, t4, here, moved,
                             _row_words(row.label, metric, t4, here, moved)))
    return rows


def _figure(metric: str, value: float | None) -> str:
    return fmt.by_unit(value, _unit(metric))


def _row_words(label: str, metric: str, t4: tuple[float | None, float | None],
               here: tuple[float | None, float | None], moved: bool | None) -> str:
    pairs = ", ".join(f"{role} {_figure(metric, a)} -> {_figure(metric, b)}"
                      for role, a, b in zip(pair.ROLES, t4, here, strict=True))
    if moved is None:
        return f"{label}: {pairs}; {fmt.NOT_IN_REPORT} on one side, so it cannot be told"
    verdict = "moved" if moved else f"did not move (within {_WITHIN})"
    return f"{label}: {verdict}: {pairs} (T4 -> here)"


def summary_words(rows: Sequence[CrossRow]) -> list[str]:
    """What moved across GPUs, what did not, and whether the order between the kernels held."""
    moved = [r.label for r in rows if r.moved]
    held = [r.label for r in rows if r.moved is False]
    unknown = [r.label for r in rows if r.moved is None]
    words = []
    if moved:
        words.append(f"Moved across GPUs (beyond {_WITHIN} of the T4's value): "
                     f"{'; '.join(moved)}.")
    if held:
        words.append(f"Did not move (within {_WITHIN}): {'; '.join(held)}.")
    if unknown:
        words.append(f"Not in both, so not compared: {'; '.join(unknown)}.")
    orders = [(r, r.order(r.t4), r.order(r.here)) for r in rows]
    told = [(r, a, b) for r, a, b in orders if a is not None and b is not None]
    flipped = [f"{r.label} ({_side(a)} on the T4, {_side(b)} here)" for r, a, b in told
               if a != b]
    if told:
        words.append(
            f"The order between the two kernels held on {len(told) - len(flipped)} of "
            f"{len(told)} rows" + (f"; it changed on {'; '.join(flipped)}." if flipped else "."))
    separation = _separation(rows)
    if separation:
        words.append(separation)
    return words


def _side(order: str | None) -> str:
    return {">": "naive higher", "<": "tiled higher", "=": "equal"}.get(order or "", "unknown")


def _separation(rows: Sequence[CrossRow]) -> str:
    """Whether the sector ratio separates the kernels more than Duration does, on both GPUs."""
    by_metric = {r.metric: r for r in rows}
    duration = by_metric.get(SUMMARY_METRICS["duration_ns"])
    sectors = by_metric.get(SUMMARY_METRICS["global_load_sectors"])
    if duration is None or sectors is None:
        return ""
    ratios = []
    for side in ("t4", "here"):
        d, s = getattr(duration, side), getattr(sectors, side)
        if None in d or None in s or 0 in (d[1], s[1]):
            return ""
        ratios.append((d[0] / d[1], s[0] / s[1]))
    (d4, s4), (dh, sh) = ratios
    both = all(s > d for d, s in ratios)
    verb = "separate the kernels more than Duration does on both GPUs" if both else \
        "do not separate the kernels more than Duration does on both GPUs"
    return (f"Sectors moved {verb}: {s4:.2f}x against {d4:.2f}x on the T4, {sh:.2f}x against "
            f"{dh:.2f}x here.")
