"""The lesson's published Tesla T4 table beside the open reports: what moved across GPUs and what
did not, in words computed from the values.

The table is profiles/t4-reference.toml, read through viewer.readers like any report (so it can be
opened, compared and exported too). `cross_gpu` sets its rows beside the same metrics of two open
kernels; a value "did not move" when it is within TOLERANCE of the T4's (relative), and
`summary_words` says what moved, what did not, and whether the order between the two kernels held
on each row.

The T4 table is N = 512; a pair at another size (its N read from its launch: grid x block) has
its counts set beside the T4's scaled to its size ((N/512)^3 for load requests and sectors,
(N/512)^2 for DRAM bytes, whose compulsory floor is 3 N^2 floats), and the words say so first;
ratios (sectors per request, naive against tiled) are compared as they stand. A pair whose N is
not known, or not one (kernels other than the lesson's, or naive and tiled at two sizes), is set
beside the T4 unscaled, and where its launches differ from the T4's the words name every size
first (viewer.analysis.launch_size).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from viewer.analysis import launch_size, reading
from viewer.core import formatting as fmt
from viewer.core import shipped
from viewer.core.metrics import SUMMARY_METRICS, unit
from viewer.core.model import Kernel, Report
from viewer.core.names import kernel_names
from viewer.lesson import lesson_kernels
from viewer.readers.reference_toml import PublishedKernel, ReferenceRow

# Within this share of the T4's value, a value did not move.
TOLERANCE = 0.01
_WITHIN = f"{TOLERANCE * 100:g} %"
_KEY_OF = {metric: key for key, metric in SUMMARY_METRICS.items()}
_UNITS = {lesson_kernels.DRAM_BYTES: "byte"}
# How a row's value grows with the size N: loads per thread grow with N over N^2 threads, the
# compulsory DRAM floor with N^2. A row not named here is not scaled (a ratio, a percentage, a
# time).
_GROWTH = {SUMMARY_METRICS["global_load_requests"]: 3, SUMMARY_METRICS["global_load_sectors"]: 3,
           lesson_kernels.DRAM_BYTES: 2}
# The lesson prints the derived sectors per request to one decimal ("2.0 4.0").
LESSON_DECIMALS = {"sectors_per_request": 1}
# The lesson's own figures for the T4 pair's separation, as its Results print them.
LESSON_SEPARATION = "Duration differs by 1.59x, sectors moved by 8.05x"


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
    sizes: tuple[int | None, int | None] = (None, None)  # N of the T4 table, N of the pair
    scale: float | None = None  # the T4's values times this compare with the pair's; None: as is
    launches: str = ""  # the launch sizes in words, where they differ and no N scales the rows

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
    if row.metric == lesson_kernels.DRAM_BYTES:
        return lesson_kernels.dram_bytes(kernel)
    return kernel.metric(row.metric) if row.metric else None


def t4_figure(row: CrossRow, value: float | None) -> str:
    """A T4 value as the lesson prints it (a derived row at the lesson's precision)."""
    decimals = LESSON_DECIMALS.get(row.metric)
    if decimals is not None and value is not None:
        return f"{value:.{decimals}f}"
    return fmt.by_unit(value, row.unit)


def sizes(t4_pair: Sequence[Kernel], here_pair: Sequence[Kernel]) -> tuple[int | None, int | None]:
    """N of the T4 table and N of the open pair (None where a launch does not say, or the two
    kernels of one side differ)."""
    def one(kernels: Sequence[Kernel]) -> int | None:
        dims = {lesson_kernels.lesson_dim(k) for k in kernels}
        return dims.pop() if len(dims) == 1 else None
    return one(t4_pair), one(here_pair)


def _scale(metric: str, n: tuple[int | None, int | None]) -> float | None:
    """What the T4's value of `metric` is multiplied by to compare with the pair's size."""
    t4_n, here_n = n
    growth = _GROWTH.get(metric)
    if growth is None or t4_n is None or here_n is None or t4_n == here_n:
        return None
    return float((here_n / t4_n) ** growth)


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
    n = sizes(t4_pair, here_pair)
    launches = "" if None not in n else launch_size.size_words(
        [t4_naive, *here_pair], ["the T4 table", *kernel_names(list(here_pair))])
    rows = []
    for row in t4_naive.published.rows:
        metric = row.metric or row.derived or ""
        t4 = (_value(t4_naive, row), _value(t4_tiled, row))
        here = (_value(here_pair[0], row), _value(here_pair[1], row))
        scale = _scale(metric, n)
        scaled = tuple(None if a is None else a * (scale or 1.0) for a in t4)
        changes = [_moved(a, b) for a, b in zip(scaled, here, strict=True)]
        moved = None if None in changes else any(changes)
        rows.append(CrossRow(row.label, metric, t4, here, moved,
                             _row_words(row.label, metric, t4, here, moved, n, scale), n, scale,
                             launches))
    return rows


def _figure(metric: str, value: float | None) -> str:
    return fmt.by_unit(value, _unit(metric))


def _row_words(label: str, metric: str, t4: tuple[float | None, float | None],
               here: tuple[float | None, float | None], moved: bool | None,
               n: tuple[int | None, int | None] = (None, None),
               scale: float | None = None) -> str:
    t4_n, here_n = n
    differ = t4_n is not None and here_n is not None and t4_n != here_n
    if scale is not None:
        pairs = ", ".join(
            f"{role} {_figure(metric, a)} x {scale:g} = "
            f"{_figure(metric, None if a is None else a * scale)} -> {_figure(metric, b)}"
            for role, a, b in zip(lesson_kernels.ROLES, t4, here, strict=True))
        what = "bytes" if metric == lesson_kernels.DRAM_BYTES else "counts"
        power = _GROWTH[metric]
        how = (f" (T4 at N = {t4_n} scaled by ({here_n}/{t4_n})^{power} = {scale:g}, "
               f"since {what} grow as N^{power}, -> here at N = {here_n})")
    else:
        pairs = ", ".join(f"{role} {_figure(metric, a)} -> {_figure(metric, b)}"
                          for role, a, b in zip(lesson_kernels.ROLES, t4, here, strict=True))
        how = (f" (T4 at N = {t4_n} -> here at N = {here_n})" if differ else " (T4 -> here)")
    if moved is None:
        return f"{label}: {pairs}; {fmt.NOT_IN_REPORT} on one side, so it cannot be told"
    verdict = "moved" if moved else f"did not move (within {_WITHIN})"
    return f"{label}: {verdict}: {pairs}{how}"


def size_words(rows: Sequence[CrossRow]) -> str:
    """Where the pair's size is not the T4 table's: the two sizes and what follows; else ''."""
    if not rows:
        return ""
    t4_n, here_n = rows[0].sizes
    if t4_n is None or here_n is None or t4_n == here_n:
        return ""
    cube, square = (here_n / t4_n) ** 3, (here_n / t4_n) ** 2
    return (f"Sizes differ: the T4 table is N = {t4_n}, this pair N = {here_n} (read from its "
            f"launch: grid x block), so load requests and sectors grow by ({here_n}/{t4_n})^3 = "
            f"{cube:g}x and the compulsory DRAM floor by ({here_n}/{t4_n})^2 = {square:g}x with "
            "the size alone, whatever the GPU. Those rows are compared with the T4's scaled to "
            f"N = {here_n}; the table beside it holds each report's own values, the T4's at "
            f"N = {t4_n}.")


def summary_words(rows: Sequence[CrossRow]) -> list[str]:
    """What moved across GPUs, what did not, and whether the order between the kernels held."""
    moved = [r.label for r in rows if r.moved]
    held = [r.label for r in rows if r.moved is False]
    unknown = [r.label for r in rows if r.moved is None]
    words = []
    sized = size_words(rows)
    launches = "" if sized or not rows else rows[0].launches
    if sized:
        words.append(sized)
    elif launches:
        words.append(f"{launches} No N scales these rows: each is set beside the T4's as it "
                     "stands.")
    across = "across GPUs and sizes" if sized or launches else "across GPUs"
    scaled = ", scaled to this size where it grows with N" if sized else ""
    if moved:
        words.append(f"Moved {across} (beyond {_WITHIN} of the T4's value{scaled}): "
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
    return (f"Sectors moved {verb}: {s4:.2f}x against {d4:.2f}x on the T4 by its table (the "
            f"lesson: \"{LESSON_SEPARATION}\"), {sh:.2f}x against {dh:.2f}x here.")
