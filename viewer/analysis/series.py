"""A series of reports: one row per report and kernel, the lesson's rows of each, the derivation
where the kernel is the lesson's, and ratios against a baseline row.

Rows come in the order given, or by size where every row's size can be read (N from the launch
for the lesson's matmuls: grid times block, viewer.analysis.reading.problem_dim). A series of one
kernel across sizes shows the derivation holding at each N; reports of different kernels in the
order given (naive, tiled, a third step) are steps, each step's change named by the rows that
moved most. Ratios are worded as the comparison words them ("8.00x fewer", never "0.12x":
comparison.Difference.against).

Merge: a `--metrics` capture and a details capture of the same launch (the same kernel name,
grid, block and launch id: its place in its report, ncu's ID) are one row, each value taken from
the first report that holds it; where both hold a row and disagree beyond a printed value's
rounding, both are kept and said (`Row.disagree`, `Series.notes`).

A row's values are keyed by ncu's metric names, and three computed rows: `sectors_per_request`
(sectors over requests) and `shared_loads_per_thread` (shared-load instructions over the
launch's warps: each warp instruction is one load per thread), the summary's words, and
`DRAM_TOTAL`, keyed 'dram__bytes_read.sum + dram__bytes_write.sum' as the lesson writes it: the
total DRAM traffic, against the compulsory floor 3·N²·4 (A, B and C once each). A value the
report lacks is None, never zero, and has no ratio; the total is None where either part is.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from viewer.analysis import launch_size
from viewer.analysis.comparison import Difference
from viewer.analysis.predict import WARP_SIZE, DerivationError, derive
from viewer.analysis.reading import lesson_role, sectors_per_request
from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.core.metrics import SUMMARY_METRICS
from viewer.core.model import Kernel, Report

SCHEMA = 1
"""series --json's layout."""

REQUESTS = SUMMARY_METRICS["global_load_requests"]
SECTORS = SUMMARY_METRICS["global_load_sectors"]
SECTORS_PER_REQUEST = "sectors_per_request"
SHARED_PER_THREAD = "shared_loads_per_thread"
SHARED_LOADS = SUMMARY_METRICS["shared_load_instructions"]
DRAM_READ = SUMMARY_METRICS["dram_bytes_read"]
DRAM_WRITE = SUMMARY_METRICS["dram_bytes_write"]
DRAM_TOTAL = f"{DRAM_READ} + {DRAM_WRITE}"
DRAM_PARTS = (DRAM_READ, DRAM_WRITE)
"""The total's parts: shown, but no step names them beside the total."""
DURATION = SUMMARY_METRICS["duration_ns"]

# Two values of one row agree within this share: the rounding of a value an export prints with
# three digits ('2.10 Mbyte' is 2,095,000 to 2,105,000 bytes).
AGREE_SHARE = 0.005
# A step's change names at most this many rows, those that moved by the largest factor.
MOVED_MOST = 3


@dataclass(frozen=True)
class Line:
    """One of the lesson's rows: its key (an ncu metric name, or a computed row's), its label in
    the reading order's words and its unit (viewer.core.formatting.by_unit)."""

    key: str
    label: str
    unit: str


def _summary_line(summary_key: str) -> Line:
    return Line(SUMMARY_METRICS.get(summary_key, summary_key), metrics.row_label(summary_key),
                metrics.unit(summary_key))


LINES: tuple[Line, ...] = (
    _summary_line("global_load_requests"),
    _summary_line("global_load_sectors"),
    _summary_line("sectors_per_request"),
    Line(SHARED_PER_THREAD, "Shared loads per thread", "load/thread"),
    Line(DRAM_TOTAL, "DRAM traffic (read + write)", "byte"),
    _summary_line("duration_ns"),
    _summary_line("l1tex_hit_rate_pct"),
    _summary_line("l2_hit_rate_pct"),
    _summary_line("achieved_occupancy_pct"),
    _summary_line("dram_bytes_read"),
    _summary_line("dram_bytes_write"),
)
LINE_LABELS = {line.key: line.label for line in LINES}
UNITS = {line.key: line.unit for line in LINES}


class SeriesError(ValueError):
    """A series that cannot be made as asked (a baseline that is no row); str() says why."""


@dataclass(frozen=True)
class Row:
    """One report's kernel (or one launch read from several reports: `files`, merged)."""

    files: tuple[str, ...]
    kernel: Kernel
    dim: int | None
    values: Mapping[str, float | None]
    derived: Mapping[str, float]
    disagree: Mapping[str, tuple[float, float]] = field(default_factory=dict)

    @property
    def file(self) -> str:
        return self.files[0]

    @property
    def name(self) -> str:
        """'matmul_naive at N = 512', or the kernel's name alone where N is not read."""
        return self.kernel.name + (f" at N = {self.dim}" if self.dim is not None else "")


def shared_per_thread(kernel: Kernel) -> float | None:
    """Shared-load instructions over the launch's warps: the loads each thread executed."""
    loads, threads = kernel.metric(SHARED_LOADS), launch_size.size(kernel).threads
    if loads is None or not threads:
        return None
    return loads / math.ceil(threads / WARP_SIZE)


def values(kernel: Kernel) -> dict[str, float | None]:
    """The lesson's rows of one kernel, each None where the report lacks it."""
    out: dict[str, float | None] = {line.key: kernel.metric(line.key) for line in LINES}
    out[SECTORS_PER_REQUEST] = sectors_per_request(kernel)
    out[SHARED_PER_THREAD] = shared_per_thread(kernel)
    read, written = out[DRAM_READ], out[DRAM_WRITE]
    out[DRAM_TOTAL] = None if read is None or written is None else read + written
    return out


def derived(kernel: Kernel) -> dict[str, float]:
    """The derivation's rows for the lesson's matmuls (size from the launch, square tile x tile
    blocks): requests, sectors, sectors per request, shared loads per thread, and the
    compulsory DRAM floor under the DRAM traffic row; {} for any other kernel."""
    role, dim, block = lesson_role(kernel.name), launch_size.size(kernel).dim, kernel.block
    if role is None or dim is None or block is None or block[0] != block[1] or block[2] != 1:
        return {}
    try:
        found = derive(dim, block[0])
    except DerivationError:
        return {}
    p = found.tiled if role == "tiled" else found.naive
    return {REQUESTS: p.global_load_requests, SECTORS: p.global_load_sectors,
            SECTORS_PER_REQUEST: p.sectors_per_request,
            SHARED_PER_THREAD: p.shared_loads_per_thread, DRAM_TOTAL: found.compulsory_dram_bytes}


def row(file: str, kernel: Kernel) -> Row:
    return Row((file,), kernel, launch_size.size(kernel).dim, values(kernel), derived(kernel))


def launch_words(kernel: Kernel) -> str:
    """'matmul_naive, grid 32x32x1, block 16x16x1, launch 0': what names one launch."""
    dims = [f"{what} {'x'.join(map(str, d)) if d else fmt.MISSING}"
            for what, d in (("grid", kernel.grid), ("block", kernel.block))]
    return ", ".join([kernel.name, *dims, f"launch {kernel.index}"])


def same_launch(a: Kernel, b: Kernel) -> str:
    """'' where `a` and `b` are one launch (name, grid, block and launch id alike), else what
    differs, in words."""
    differs = [what for what, x, y in (("kernel", a.name, b.name), ("grid", a.grid, b.grid),
                                       ("block", a.block, b.block),
                                       ("launch id", a.index, b.index)) if x != y]
    if not differs:
        return ""
    return f"not the same launch ({launch_words(a)} against {launch_words(b)}: " \
           f"the {' and '.join(differs)} differ)"


def agree(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=AGREE_SHARE, abs_tol=1e-12)


def merge(first: Row, second: Row) -> Row:
    """One row of two rows of the same launch: each value from the first that holds it, both
    kept in `disagree` where they differ; SeriesError saying why for different launches."""
    why = same_launch(first.kernel, second.kernel)
    if why:
        raise SeriesError(f"{first.file} and {second.file}: {why}")
    kernel = dataclasses.replace(first.kernel,
                                 metrics={**second.kernel.metrics, **first.kernel.metrics})
    disagree = dict(first.disagree)
    for key, a in first.values.items():
        b = second.values.get(key)
        if a is not None and b is not None and not agree(a, b):
            disagree.setdefault(key, (a, b))
    joined = row(first.file, kernel)
    return dataclasses.replace(joined, files=first.files + second.files, disagree=disagree)


def ratios(of: Row, base: Row) -> dict[str, float | None]:
    """Each row's value over the baseline's; None where either lacks it or the baseline is 0."""
    out: dict[str, float | None] = {}
    for key, value in of.values.items():
        b = base.values.get(key)
        out[key] = None if value is None or b is None or b == 0 else value / b
    return out


def against(of: Row, base: Row, key: str, base_name: str = "the baseline") -> str:
    """'8.00x fewer', 'equal', 'not in both reports', '640 where row 0 has 0' (`base_name`
    names the baseline's row): one row against the baseline's."""
    return Difference(key, LINE_LABELS[key], of.values.get(key), base.values.get(key)).against(
        UNITS[key], base_name)


@dataclass(frozen=True)
class Series:
    """The rows in their order (`by_size`: sorted by N, else as given), the baseline's place
    among them, and what the series shows and cannot, one sentence each (`notes`)."""

    rows: tuple[Row, ...]
    baseline: int = 0
    by_size: bool = False
    notes: tuple[str, ...] = ()

    @property
    def base(self) -> Row:
        return self.rows[self.baseline]

    @property
    def heading(self) -> str:
        """'2 rows by N, baseline row 0 (matmul_naive at N = 512)'."""
        order = "by N" if self.by_size else "in the order given"
        count = f"{len(self.rows)} row{'s' if len(self.rows) != 1 else ''}"
        return f"{count} {order}, baseline row {self.baseline} ({self.base.name})"


def build(reports: Sequence[Report], baseline: int = 0, merge_launches: bool = False) -> Series:
    """The series of `reports`' kernels; `merge_launches` joins the rows of one launch read from
    different reports. SeriesError where `baseline` is no row."""
    rows = [row(r.source, k) for r in reports for k in r.kernels]
    notes: list[str] = []
    if merge_launches:
        rows, said = merge_rows(rows)
        notes += said
    by_size = bool(rows) and all(r.dim is not None for r in rows)
    if by_size:
        rows.sort(key=lambda r: r.dim or 0)
    if rows and not 0 <= baseline < len(rows):
        raise SeriesError(f"baseline {baseline} is no row: the series has rows 0 to "
                          f"{len(rows) - 1}")
    series = Series(tuple(rows), baseline, by_size)
    return dataclasses.replace(series, notes=(*notes, *said_of(series)))


def merge_rows(rows: list[Row]) -> tuple[list[Row], list[str]]:
    """Rows of one launch from different reports joined into the first's place, and the notes:
    which were joined, where they disagree, or why none could be."""
    out: list[Row] = []
    notes: list[str] = []
    refused = ""
    for r in rows:
        for i, kept in enumerate(out):
            why = same_launch(kept.kernel, r.kernel)
            if not why and r.file not in kept.files:
                out[i] = merge(kept, r)
                notes.append(f"{' and '.join(out[i].files)}: one launch "
                             f"({launch_words(r.kernel)}), one row")
                break
            refused = refused or f"{kept.file} and {r.file}: {why}"
        else:
            out.append(r)
    for r in out:
        notes += [f"{' and '.join(r.files)} disagree on {LINE_LABELS[key]}: "
                  f"{fmt.by_unit(a, UNITS[key])} against {fmt.by_unit(b, UNITS[key])}; "
                  "both kept, the row shows the first" for key, (a, b) in r.disagree.items()]
    if len(out) == len(rows) and refused:
        notes.append(f"nothing merged: {refused}")
    return out, notes


def said_of(series: Series) -> list[str]:
    """What a series that is not the lesson's full one shows and cannot, one sentence each:
    no row, one row, rows without the lesson's values, kernels that cannot be matched."""
    rows = series.rows
    if not rows:
        return ["no kernel in these reports: nothing to show"]
    notes = [_lacking(r) for r in rows if any(v is None for v in r.values.values())]
    if len(rows) == 1:
        notes.append(f"one row ({rows[0].name}, {rows[0].file}): it shows that report's "
                     "values; it cannot show a series, a ratio or a step without a second "
                     "report (the same kernel at another size, or the next step)")
    elif unrelated(rows):
        names = ", ".join(sorted({r.kernel.name for r in rows}))
        notes.append(f"unrelated kernels ({names}: different kernels whose sizes cannot be "
                     "matched): the rows show each report's own values; the ratios and steps "
                     "cannot say what a change did, the kernels do different work")
    return [n for n in notes if n]


def _lacking(r: Row) -> str:
    missing = [LINE_LABELS[k] for k, v in r.values.items() if v is None]
    if len(missing) == len(r.values):
        return (f"{r.file} ({r.kernel.name}) holds none of the lesson's rows: its row shows "
                f"{fmt.MISSING} throughout, and no ratio")
    return (f"{r.file} ({r.kernel.name}) lacks {', '.join(missing)}: "
            f"{'that row shows' if len(missing) == 1 else 'those rows show'} {fmt.MISSING}, "
            "with no ratio")


def unrelated(rows: Sequence[Row]) -> bool:
    """Kernels of different names that are not steps of the lesson: no row is the lesson's
    matmul of a size read, or some row is neither of a size read nor of a lesson row's launch
    size in threads (a third step of the same problem launches as many)."""
    if len({r.kernel.name for r in rows}) == 1:
        return False
    sized = [r for r in rows if r.dim is not None]
    threads = {launch_size.size(r.kernel).threads for r in sized}
    return not sized or any(r.dim is None and launch_size.size(r.kernel).threads not in threads
                            for r in rows)


def step_pairs(series: Series) -> list[tuple[int, int]]:
    """The (before, after) rows of each step: where some N has several rows (a sweep of the
    lesson's kernels), each row after the row before it of the same N, so that a step is the
    kernel's change at one size and never one size's tiled against the next size's naive; else
    each row after the row before it (steps in the order given, or one kernel over sizes)."""
    dims = [r.dim for r in series.rows]
    if not any(d is not None and dims.count(d) > 1 for d in dims):
        return [(i - 1, i) for i in range(1, len(dims))]
    last: dict[int | None, int] = {}
    out = []
    for i, dim in enumerate(dims):
        if dim in last:
            out.append((last[dim], i))
        last[dim] = i
    return out


def steps(series: Series) -> list[str]:
    """Each step's change (step_pairs; rows numbered from 0, as --baseline and the JSON number
    them), naming the rows that moved most (by factor)."""
    out = []
    for b, i in step_pairs(series):
        before, now = series.rows[b], series.rows[i]
        moved = sorted(((_factor(now, before, key), key) for key in now.values
                        if key not in DRAM_PARTS), reverse=True)
        named = [f"{LINE_LABELS[key]} {against(now, before, key, f'row {b}')}"
                 for factor, key in moved
                 if factor > 1][:MOVED_MOST]
        out.append(f"row {i} {now.name} against row {b} {before.name}: "
                   + ("; ".join(named) if named else "no row moved"))
    return out


def _factor(a: Row, b: Row, key: str) -> float:
    x, y = a.values.get(key), b.values.get(key)
    if x is None or y is None or x <= 0 or y <= 0:
        return 0.0
    return max(x / y, y / x)


def as_json(series: Series) -> dict[str, object]:
    """The series as `series --json` prints it (SCHEMA); a merged row also names the files it
    joined (`merged`) and the values they disagree on (`disagree`: the first's, then the
    other's)."""
    rows = []
    for r in series.rows:
        out: dict[str, object] = {"file": r.file, "kernel": r.kernel.name, "dim": r.dim,
                                  "metrics": dict(r.values), "derived": dict(r.derived),
                                  "ratio": ratios(r, series.base)}
        if len(r.files) > 1:
            out["merged"] = list(r.files)
            out["disagree"] = {k: list(v) for k, v in r.disagree.items()}
        rows.append(out)
    return {"schema": SCHEMA, "baseline": series.baseline, "rows": rows}
