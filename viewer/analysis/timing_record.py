"""The kernel timings recorded on another machine (profiles/timing-h200.toml), and their words.

The timing tab shows the record until a run here replaces it, labelled as recorded: the GPU, the
date, and where it comes from (the README section, the script and its command). The figures are
the file's; a value it lacks is shown as missing, never as zero.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from viewer.core import formatting as fmt
from viewer.core.shipped import timing_record

RECORD_COLUMNS = ("implementation", "median", "GFLOP/s", "vs twin", "rel. error")


class RecordError(ValueError):
    """The record file cannot be read; the text says why."""


@dataclass(frozen=True)
class RecordedRow:
    """One implementation at one size, as recorded."""

    dim: int
    implementation: str
    kernel: str | None = None  # "naive" or "tiled" for the app's own kernels
    ms: float | None = None
    gflops: float | None = None
    vs_twin: float | None = None
    vs: str = ""  # what vs_twin sets it against, when not its own twin
    rel_error: float | None = None
    dispatch_ms: float | None = None


@dataclass(frozen=True)
class TimingRecord:
    """Where and how the times were recorded, and the rows."""

    gpu: str
    date: str
    rows: tuple[RecordedRow, ...]
    gpu_detail: str = ""
    driver: str = ""
    cuda: str = ""
    software: str = ""
    source: str = ""
    section: str = ""
    script: str = ""
    command: str = ""
    method: str = ""

    def at(self, dim: int) -> list[RecordedRow]:
        """The rows recorded at size `dim`, in the record's order."""
        return [row for row in self.rows if row.dim == dim]

    def kernel(self, dim: int, kernel: str) -> RecordedRow | None:
        return next((r for r in self.at(dim) if r.kernel == kernel), None)


def _number(row: Mapping[str, object], key: str) -> float | None:
    value = row.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RecordError(f"{key} must be a number, got {value!r}")
    return float(value)


def _text(data: Mapping[str, object], key: str) -> str:
    value = data.get(key, "")
    return value if isinstance(value, str) else str(value)


def parse_record(data: Mapping[str, object]) -> TimingRecord:
    """A TimingRecord from the TOML's tables; RecordError for a shape it cannot be."""
    rows = data.get("row", [])
    if not isinstance(rows, list):
        raise RecordError("row must be an array of tables")
    parsed = []
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("dim"), int) \
                or not isinstance(row.get("implementation"), str):
            raise RecordError(f"a row needs a whole dim and an implementation: {row!r}")
        kernel = row.get("kernel")
        parsed.append(RecordedRow(
            dim=row["dim"], implementation=row["implementation"],
            kernel=kernel if isinstance(kernel, str) else None,
            ms=_number(row, "ms"), gflops=_number(row, "gflops"),
            vs_twin=_number(row, "vs_twin"), vs=_text(row, "vs"),
            rel_error=_number(row, "rel_error"), dispatch_ms=_number(row, "dispatch_ms")))
    return TimingRecord(
        gpu=_text(data, "gpu"), date=_text(data, "date"), rows=tuple(parsed),
        **{key: _text(data, key) for key in ("gpu_detail", "driver", "cuda", "software",
                                             "source", "section", "script", "command",
                                             "method")})


def load_record(path: Path | None = None) -> TimingRecord:
    """The shipped record (or the one at `path`); RecordError when it cannot be read."""
    path = path or timing_record()
    try:
        with open(path, "rb") as f:
            return parse_record(tomllib.load(f))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RecordError(f"{path}: {exc}") from None


def read_record_or_none(path: Path | None = None) -> TimingRecord | None:
    try:
        return load_record(path)
    except RecordError:
        return None


# ---------------------------------------------------------------- what the tab says


def _or_missing(text: str) -> str:
    return text or fmt.MISSING


def recorded_heading(record: TimingRecord) -> str:
    """'Recorded on NVIDIA H200 (...), 2026-11-29: not run on this machine.'"""
    detail = f" ({record.gpu_detail})" if record.gpu_detail else ""
    return (f"Recorded on {_or_missing(record.gpu)}{detail}, {_or_missing(record.date)}: "
            "not run on this machine.")


def provenance_text(record: TimingRecord) -> str:
    """Where the figures come from: the README section, the script and its command."""
    section = f", section '{record.section}'" if record.section else ""
    return (f"From {_or_missing(record.source)}{section}: {_or_missing(record.script)}, run as "
            f"`{_or_missing(record.command)}`; driver {_or_missing(record.driver)}, CUDA "
            f"{_or_missing(record.cuda)}, {_or_missing(record.software)}. Each time is the "
            f"{_or_missing(record.method)}.")


def _ms(value: float | None) -> str:
    return fmt.MISSING if value is None else fmt.milliseconds(value)


def vs_text(row: RecordedRow) -> str:
    """'1.02x', or '0.38x of tiled' where it is set against another kernel than its twin."""
    if row.vs_twin is None:
        return fmt.MISSING
    return fmt.ratio(row.vs_twin) + (f" of {row.vs}" if row.vs else "")


def recorded_cells(row: RecordedRow) -> tuple[str, ...]:
    """The row in RECORD_COLUMNS' order."""
    gflops = fmt.MISSING if row.gflops is None else f"{row.gflops:,.0f}"
    error = fmt.MISSING if row.rel_error is None else f"{row.rel_error:.1e}"
    return (row.implementation, _ms(row.ms), gflops, vs_text(row), error)


def recorded_ratio_text(record: TimingRecord, dim: int) -> str:
    """'naive / tiled: 1.47x' from the recorded medians (n/a where one is missing)."""
    naive, tiled = record.kernel(dim, "naive"), record.kernel(dim, "tiled")
    if naive is None and tiled is None:
        return ""
    ratio = (naive.ms / tiled.ms if naive is not None and tiled is not None
             and naive.ms is not None and tiled.ms else None)
    return f"naive / tiled: {fmt.ratio(ratio)}"


def recorded_dispatch_text(record: TimingRecord, dim: int) -> str:
    """numba's launch call's host time at `dim`, recorded apart from the kernel times."""
    parts = [f"{_ms(row.dispatch_ms)} ({row.kernel})"
             for row in (record.kernel(dim, "naive"), record.kernel(dim, "tiled"))
             if row is not None]
    if not parts:
        return ""
    return ("Timed without dispatch; numba's launch call took " + " and ".join(parts) +
            " of host time, measured apart.")


def no_record_text(dim: int, record: TimingRecord | None) -> str:
    """Why nothing recorded is shown at `dim`."""
    if record is None:
        return "No recorded timings ship with this copy of ncu-reader."
    return (f"Nothing was recorded at {dim} x {dim} x {dim}; the record holds "
            f"{', '.join(str(d) for d in sorted({r.dim for r in record.rows})) or 'no size'}.")
