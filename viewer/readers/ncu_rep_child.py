"""The .ncu-rep reader's child process: `python -m viewer.readers.ncu_rep_child PATH`.

NVIDIA's ncu_report reads the report here, in a process of its own under an address-space limit,
so a corrupt or hostile file can crash or exhaust only this process. It prints one JSON object per
line on its standard output (anything the library itself prints goes to standard error):

    {"kernels": N, "first": F, "count": C}   once the report is open: N kernels in the report,
                                              kernels F to F + C - 1 follow
    {"kernel": {...}}                        one per kernel, in launch order (see `kernel_record`)
    {"done": true, "peak_bytes": P}          after the last: the most address space it held
    {"error": "reason"}                      when the report cannot be read

ncu_report keeps every kernel it has decoded in memory until the process ends (about 9 MB a kernel
of a `--set full` report), so one child reads one slice of the kernels: as many as `--slice-bytes`
of the file hold on average. The parent starts a child per slice.

ncu_report does not always fail when memory runs out: under a tight limit it can load a report as
zero kernels. The peak lets the parent tell that apart from a report that really holds none.

The parent, viewer.readers.ncu_rep, enforces the wall-time limit and judges what came back.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from viewer.metrics import KNOWN_METRICS
from viewer.units import unit_scale

GRID = ("launch__grid_dim_x", "launch__grid_dim_y", "launch__grid_dim_z")
BLOCK = ("launch__block_dim_x", "launch__block_dim_y", "launch__block_dim_z")
DEVICE = "device__attribute_display_name"
CC_MAJOR = "device__attribute_compute_capability_major"
CC_MINOR = "device__attribute_compute_capability_minor"


def limit_memory(limit_bytes: int) -> None:
    """Cap this process's address space at `limit_bytes` (never above the current hard limit).

    Where the system has no such limit (no `resource` module), the wall-time limit remains.
    """
    try:
        import resource
    except ImportError:
        return
    if limit_bytes <= 0:
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit_bytes = min(limit_bytes, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, hard))


class MetricReader:
    """Numeric metric values of actions in base units; each metric's unit is looked up once.

    `IMetric.unit()` costs about 40 us, more than everything else a metric needs together, and a
    metric's unit is the same for every kernel of a report, so it is kept per metric name.
    """

    def __init__(self, ncu_report: Any) -> None:
        kinds = ncu_report.IMetric
        self._integer = {kinds.ValueKind_UINT32, kinds.ValueKind_UINT64}
        self._numeric = self._integer | {kinds.ValueKind_FLOAT, kinds.ValueKind_DOUBLE}
        self._scale: dict[str, float] = {}

    def value(self, action: Any, name: str) -> float | None:
        """The metric's value in base units; None when absent, not a number, or not collected.

        `IMetric.value()` answers 0 for a metric that has no value, so `has_value()` decides.
        """
        metric = action.metric_by_name(name)
        if metric is None or not metric.has_value():
            return None
        kind = metric.kind()
        if kind not in self._numeric:
            return None
        raw = float(metric.as_uint64()) if kind in self._integer else metric.as_double()
        scale = self._scale.get(name)
        if scale is None:
            scale = self._scale[name] = unit_scale(metric.unit() or "")[0]
        value = raw * scale
        return value if math.isfinite(value) else None

    def text(self, action: Any, name: str) -> str | None:
        metric = action.metric_by_name(name)
        if metric is None or not metric.has_value():
            return None
        value = metric.value()
        return None if value is None else str(value).strip() or None

    def metrics(self, action: Any, names: Iterator[str]) -> dict[str, float]:
        found = {}
        for name in names:
            value = self.value(action, name)
            if value is not None:
                found[name] = value
        return found


def kernel_record(action: Any, reader: MetricReader, every_metric: bool) -> dict[str, Any]:
    """Identity and metrics of one action (kernel), as sent to the parent."""
    names = action.metric_names() if every_metric else sorted(KNOWN_METRICS)
    found = reader.metrics(action, iter(names))

    def dims(keys: tuple[str, str, str]) -> list[int] | None:
        got = [found.get(k) for k in keys]
        return [int(v) for v in got] if all(v is not None for v in got) else None

    major, minor = reader.value(action, CC_MAJOR), reader.value(action, CC_MINOR)
    return {
        "name": action.name() or "",
        "demangled": action.name(action.NameBase_DEMANGLED) or "",
        "grid": dims(GRID),
        "block": dims(BLOCK),
        "device": reader.text(action, DEVICE),
        "cc": f"{int(major)}.{int(minor)}" if major is not None and minor is not None else None,
        "metrics": found,
    }


class Kernels:
    """The report's actions (kernels) by launch index, across its ranges, decoded only on demand."""

    def __init__(self, context: Any) -> None:
        self._ranges = [context.range_by_idx(r) for r in range(context.num_ranges())]
        self._counts = [r.num_actions() for r in self._ranges]

    def __len__(self) -> int:
        return sum(self._counts)

    def __getitem__(self, index: int) -> Any:
        for profiled_range, count in zip(self._ranges, self._counts, strict=True):
            if index < count:
                return profiled_range.action_by_idx(index)
            index -= count
        raise IndexError(index)


def peak_bytes() -> int | None:
    """The most address space this process has held (VmPeak), where the system says."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmPeak:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def slice_count(total: int, first: int, size: int, slice_bytes: int) -> int:
    """How many kernels from `first` one child reads: those `slice_bytes` of the file hold."""
    left = max(0, total - first)
    if slice_bytes <= 0 or total == 0:
        return left
    return min(left, max(1, slice_bytes * total // max(1, size)))


def run(path: str, every_metric: bool, emit: Callable[[dict[str, Any]], None], first: int = 0,
        slice_bytes: int = 0) -> int:
    """Read one slice of the report at `path`, emitting the protocol; the exit status."""
    try:
        import ncu_report

        kernels = Kernels(ncu_report.load_report(path))
        total = len(kernels)
    except MemoryError:
        emit({"error": "ncu_report ran out of memory opening it"})
        return 1
    except Exception as exc:
        emit({"error": f"ncu_report could not open it ({type(exc).__name__}: {exc})"})
        return 1
    count = slice_count(total, first, os.path.getsize(path), slice_bytes)
    emit({"kernels": total, "first": first, "count": count})
    reader = MetricReader(ncu_report)
    for index in range(first, first + count):
        try:
            record = kernel_record(kernels[index], reader, every_metric)
        except MemoryError:
            emit({"error": f"ncu_report ran out of memory reading kernel #{index}"})
            return 1
        except Exception as exc:
            emit({"error": f"kernel #{index} cannot be read: the report looks corrupt"
                           f" (ncu_report: {type(exc).__name__}: {exc})"})
            return 1
        emit({"kernel": record})
    emit({"done": True, "peak_bytes": peak_bytes()})
    return 0


def protocol_stream() -> TextIO:
    """The real standard output for the protocol; file descriptor 1 then points at stderr."""
    stream = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    sys.stdout.flush()
    os.dup2(2, 1)
    return stream


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m viewer.readers.ncu_rep_child")
    parser.add_argument("path")
    parser.add_argument("--memory-limit", type=int, default=0, help="address-space cap, bytes")
    parser.add_argument("--known-only", action="store_true",
                        help="only the metrics the app reads (viewer.metrics.KNOWN_METRICS)")
    parser.add_argument("--first", type=int, default=0, help="launch index of the first kernel")
    parser.add_argument("--slice-bytes", type=int, default=0,
                        help="read the kernels this much of the file holds (0: all)")
    args = parser.parse_args(argv)
    out = protocol_stream()

    def emit(message: dict[str, Any]) -> None:
        out.write(json.dumps(message, allow_nan=False) + "\n")

    limit_memory(args.memory_limit)
    status = run(args.path, not args.known_only, emit, args.first, args.slice_bytes)
    out.flush()
    return status


if __name__ == "__main__":
    sys.exit(main())
