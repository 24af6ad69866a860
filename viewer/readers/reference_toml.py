"""Reader for a published reference table (profiles/t4-reference.toml): a Report like any other.

A reference is a table someone measured and printed, entered by hand in TOML: its kernels, one row
per report row or metric with a value per kernel, and the provenance of the capture (GPU, driver,
CUDA, ncu, clock control, launch, size). It is told by its content, the line
`format = "ncu-reader reference 1"`, never by its name. The reader guesses nothing: a file that is
not valid TOML, lacks a field or one of the lesson's rows, holds a value that is not a finite
number, or contradicts itself (a label that viewer.core.metrics reads as another metric, a printed
value that is not its value, a derived row its counters disagree with) is refused with one line
naming the file.

Each kernel is a PublishedKernel: a Kernel with the reference's provenance and, per metric, how
precise the printed value is (half a unit of its last printed digit: 1.18 ms is 1.18 ms +- 5 us).
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from viewer.core import metrics, units
from viewer.core.model import Dim3, Kernel, Report, ReportError, Session

FORMAT = "reference"
MARK = "ncu-reader reference 1"
# Blanks within the line only: `\s*` after `^` would run across newlines, and a file of blank
# lines would cost time quadratic in its length.
_MARK_LINE = re.compile(r'(?m)^[ \t]*format[ \t]*=[ \t]*"ncu-reader reference \d+"[ \t]*(#.*)?$')

# The lesson's table: every reference holds these metrics (the reveal and the cross-GPU view read
# them), and may hold more rows.
REQUIRED_METRICS: tuple[str, ...] = (
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__time_duration.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "dram__bytes.sum",
    "l1tex__t_sector_hit_rate.pct",
    "lts__t_sector_hit_rate.pct",
    "sm__maximum_warps_per_active_cycle_pct",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
)
REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
# Derived rows the app computes itself: the summary key -> (numerator, denominator) metrics.
DERIVED: dict[str, tuple[str, str]] = {"sectors_per_request": (SECTORS, REQUESTS)}
_TEXT_FIELDS = ("gpu", "cc", "driver", "cuda", "ncu", "clock_control", "captured")
_PRINTED_UNITS = {"B": "byte"}  # the lesson prints bytes as "4,741,440 B"
_Bad = Callable[[str], ReportError]  # the reason -> the error to raise, naming the file


@dataclass(frozen=True)
class ReferenceRow:
    """One row as the reference spells it: a metric's values, or a derived row (`derived` is the
    summary key the app computes it by; `metric` is None)."""

    label: str
    metric: str | None
    derived: str | None = None


@dataclass(frozen=True)
class LessonReading:
    """What the lesson itself reads off its table (the file's [reading]): the busiest memory
    unit of kernel `kernel`, as the lesson names it, and where the lesson says so."""

    kernel: str
    busiest_memory_unit: str
    said: str


@dataclass(frozen=True)
class Published:
    """Where a reference's values come from (every field as the file says it)."""

    source: str
    gpu: str
    cc: str
    driver: str
    cuda: str
    ncu: str
    clock_control: str
    captured: str
    launch_skip: int
    dim: int
    tile: int
    rows: tuple[ReferenceRow, ...]
    note: str = ""
    reading: LessonReading | None = None

    def line(self) -> str:
        """'Tesla T4 (CC 7.5), driver 595.84, CUDA 12.6 (V12.6.85), Nsight Compute 2024.3.2,
        --clock-control base, captured 2026-09-01'."""
        return (f"{self.gpu} (CC {self.cc}), driver {self.driver}, CUDA {self.cuda}, {self.ncu}, "
                f"--clock-control {self.clock_control}, captured {self.captured}")


@dataclass
class PublishedKernel(Kernel):
    """A kernel of a published reference: `spread` is, per metric, half a unit of the printed
    value's last digit (how far the true value may sit from the printed one)."""

    published: Published | None = None
    spread: Mapping[str, float] = field(default_factory=dict)


def looks_like(head: str) -> bool:
    """Whether a file's first part (decoded text) is a published reference."""
    return bool(_MARK_LINE.search(head))


def read(path: str | Path) -> Report:
    """The reference at `path` as a Report of PublishedKernels; ReportError (one line) if bad."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"), parse_float=Decimal)
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportError(path, f"cannot be read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ReportError(path, f"is not valid TOML ({exc})") from None
    return _report(path, data)


def _report(path: Path, data: dict[str, object]) -> Report:
    def bad(reason: str) -> ReportError:
        return ReportError(path, f"is not a usable reference: {reason}")

    if data.get("format") != MARK:
        raise bad(f'format must be "{MARK}", not {data.get("format")!r}')
    names = data.get("kernels")
    if (not isinstance(names, list) or not names or not all(isinstance(n, str) and n.strip()
                                                            for n in names)
            or len(set(names)) != len(names)):
        raise bad("kernels must be a list of distinct kernel names")
    prov = data.get("provenance")
    if not isinstance(prov, dict):
        raise bad("the [provenance] table is missing")
    rows_data = data.get("row")
    if not isinstance(rows_data, list) or not rows_data:
        raise bad("it holds no [[row]]")

    values: list[dict[str, float]] = [{} for _ in names]
    spread: list[dict[str, float]] = [{} for _ in names]
    rows: list[ReferenceRow] = []
    derived_rows: list[tuple[ReferenceRow, list[tuple[float, float]]]] = []
    for number, raw in enumerate(rows_data, 1):
        row, numbers = _row(number, raw, len(names), bad)
        rows.append(row)
        if row.metric is None:
            derived_rows.append((row, numbers))
            continue
        if row.metric in values[0]:
            raise bad(f"two rows hold {row.metric}")
        for i, (value, half) in enumerate(numbers):
            values[i][row.metric] = value
            spread[i][row.metric] = half
    missing = [m for m in REQUIRED_METRICS if m not in values[0]]
    if missing:
        raise bad(f"rows missing: {', '.join(missing)}")
    _check_derived(names, values, derived_rows, bad)

    published = replace(_published(path, prov, tuple(rows), bad),
                        reading=_reading(data, names, bad))
    grid, block = _dim3(prov, "grid", bad), _dim3(prov, "block", bad)
    if (grid[0] * block[0], grid[1] * block[1]) != (published.dim, published.dim):
        raise bad(f"grid {grid} of blocks {block} does not cover {published.dim} x "
                  f"{published.dim}")
    if block[:2] != (published.tile, published.tile):
        raise bad(f"block {block} is not the {published.tile} x {published.tile} tile")
    kernels = [PublishedKernel(index=i, name=name, display_name=name, grid=grid, block=block,
                               device_name=published.gpu, cc=published.cc, metrics=values[i],
                               published=published, spread=spread[i])
               for i, name in enumerate(names)]
    # The table's clock control is how its capture ran, as the lesson prints it.
    session = Session(clock_control=published.clock_control,
                      clock_source="the published provenance's clock_control")
    return Report(source=str(path), format=FORMAT, kernels=list(kernels), session=session)


def _check_derived(names: list[str], values: list[dict[str, float]],
                   derived_rows: list[tuple[ReferenceRow, list[tuple[float, float]]]],
                   bad: _Bad) -> None:
    """Each derived row's printed ratio, against its two counters' (to half a printed unit)."""
    for row, numbers in derived_rows:
        num, den = DERIVED[row.derived or ""]
        for name, kernel_values, (printed, half) in zip(names, values, numbers, strict=True):
            if num not in kernel_values or den not in kernel_values or kernel_values[den] == 0:
                raise bad(f"row {row.label!r} needs {num} and {den}")
            computed = kernel_values[num] / kernel_values[den]
            if abs(computed - printed) > half * (1 + 1e-9):
                raise bad(f"row {row.label!r} prints {printed:g} for {name}, but its counters "
                          f"give {computed:.4f}")


def _row(number: int, raw: object, count: int,
         bad: _Bad) -> tuple[ReferenceRow, list[tuple[float, float]]]:
    """One [[row]]: the row and its (value in base units, half a printed unit) per kernel."""
    if not isinstance(raw, dict) or not isinstance(raw.get("label"), str) or not raw["label"]:
        raise bad(f"row {number} has no label")
    label = raw["label"]
    metric, derived = raw.get("metric"), raw.get("derived")
    if (metric is None) == (derived is None):
        raise bad(f"row {label!r} must name either a metric or the value it is derived as")
    if derived is not None:
        if derived not in DERIVED:
            raise bad(f"row {label!r}: the app derives no {derived!r}")
        row = ReferenceRow(label, None, derived)
    else:
        if not isinstance(metric, str) or not metrics.is_metric_name(metric):
            raise bad(f"row {label!r}: {metric!r} is not an ncu metric name")
        read_as = {m for (_, text), m in metrics.LABELS.items() if text == label}
        contradicts = metrics.is_metric_name(label) and label != metric
        if contradicts or (read_as and metric not in read_as):
            raise bad(f"row {label!r} names {metric}, but that label is "
                      f"{' or '.join(sorted(read_as or {label}))}")
        row = ReferenceRow(label, metric)
    numbers = [_number(label, v, bad) for v in _list(raw, "values", label, count, bad)]
    if "printed" in raw:
        for i, text in enumerate(_list(raw, "printed", label, count, bad)):
            value, half = _printed(label, text, bad)
            if not math.isclose(value, numbers[i][0], rel_tol=1e-9, abs_tol=1e-9):
                raise bad(f"row {label!r} prints {text!r} but holds {numbers[i][0]:g}")
            numbers[i] = (numbers[i][0], half)
    return row, numbers


def _list(raw: dict[str, object], key: str, label: str, count: int, bad: _Bad) -> list[object]:
    items = raw.get(key)
    if not isinstance(items, list) or len(items) != count:
        raise bad(f"row {label!r} needs {key} = a list of {count} (one per kernel)")
    return items


def _number(label: str, value: object, bad: _Bad) -> tuple[float, float]:
    """A value as TOML wrote it, and half a unit of its last digit."""
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise bad(f"row {label!r} holds {value!r}, not a number")
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise bad(f"row {label!r} holds {value}, not a finite number")
        return float(value), _half_unit(value)
    return float(value), 0.5


def _half_unit(value: Decimal) -> float:
    exponent = value.as_tuple().exponent
    return 0.5 * 10.0 ** int(exponent) if isinstance(exponent, int) else 0.0


def _printed(label: str, text: object, bad: _Bad) -> tuple[float, float]:
    """'1.18 ms' -> (1180000.0, 5000.0): the value in base units and half a printed unit."""
    match = re.fullmatch(r"\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*(\S*)\s*", str(text))
    if not isinstance(text, str) or match is None:
        raise bad(f"row {label!r} prints {text!r}, not a number and a unit")
    try:
        number = Decimal(match.group(1).replace(",", ""))
    except InvalidOperation:
        raise bad(f"row {label!r} prints {text!r}, not a number") from None
    unit = _PRINTED_UNITS.get(match.group(2), match.group(2))
    scaled = units.unit_scale(unit)
    if scaled is None:
        raise bad(f"row {label!r} prints {text!r}, in a unit not understood")
    factor = scaled[0]
    return float(number) * factor, _half_unit(number) * factor


def _published(path: Path, prov: dict[str, object], rows: tuple[ReferenceRow, ...],
               bad: _Bad) -> Published:
    text = {}
    for key in _TEXT_FIELDS:
        value = prov.get(key)
        if not isinstance(value, str) or not value.strip():
            raise bad(f"provenance.{key} is missing")
        text[key] = value.strip()
    whole = {}
    for key, least in (("launch_skip", 0), ("dim", 1), ("tile", 1)):
        value = prov.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise bad(f"provenance.{key} must be a whole number, {least} or more")
        whole[key] = value
    note = prov.get("note", "")
    if not isinstance(note, str):
        raise bad("provenance.note must be text")
    checked: dict[str, Any] = {**text, **whole}  # each of Published's fields, typed above
    return Published(source=str(path), rows=rows, note=note, **checked)


def _reading(data: dict[str, object], names: list[str], bad: _Bad) -> LessonReading | None:
    """The [reading] table, where the file has one: every field text, its kernel one of the
    file's."""
    raw = data.get("reading")
    if raw is None:
        return None
    fields = ("kernel", "busiest_memory_unit", "said")
    if not isinstance(raw, dict) or not all(isinstance(raw.get(f), str) and raw[f].strip()
                                            for f in fields):
        raise bad(f"[reading] must give {', '.join(fields)} as text")
    if raw["kernel"] not in names:
        raise bad(f"[reading] names kernel {raw['kernel']!r}, which the file does not hold")
    return LessonReading(*(raw[f].strip() for f in fields))


def _dim3(prov: dict[str, object], key: str, bad: _Bad) -> Dim3:
    value = prov.get(key)
    if (not isinstance(value, list) or len(value) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)):
        raise bad(f"provenance.{key} must be three whole numbers")
    return (value[0], value[1], value[2])
