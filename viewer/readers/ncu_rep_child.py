"""The .ncu-rep reader's child process: `python -m viewer.readers.ncu_rep_child PATH`.

NVIDIA's ncu_report reads the report here, in a process of its own under an address-space limit,
so a corrupt or hostile file can crash or exhaust only this process. It dies with the process that
started it (`--parent-pid`: Linux's parent-death signal, and a check that the parent still lives).
It prints one JSON object per line on its standard output (anything the library itself prints goes
to standard error):

    {"results": N, "first": F, "count": C}   once the report is open: N results (kernels, ranges,
                                              graphs...) in the report; items F to F + C - 1 of
                                              the wanted positions follow
    {"kernel": {...}}                        one per kernel, in order (see `kernel_record`; with
                                              the "extras" a request asks for: ncu_rep_extras)
    {"skipped": {"position": P, "kind": K}}  a result that is not a kernel (K: "range", "graph"...)
    {"done": true, "peak_bytes": P}          after the last: the most address space it held
    {"error": "reason"}                      when the report cannot be read

The wanted positions are every result, or those a `--request` file lists (with the metric names
to read: every numeric metric by default, viewer.core.metrics.KNOWN_METRICS with `--known-only`).

ncu_report decodes a result when it is first touched and keeps it until its process ends (about
9 MB a kernel of a `--set full` report), so one child reads one slice of the positions: as many
results as `--slice-bytes` of the file hold on average. The parent starts a child per slice.

ncu_report does not always fail when memory runs out: under a tight limit it can load a report as
zero kernels. The peak lets the parent tell that apart from a report that really holds none.

The parent, viewer.readers.ncu_rep, enforces the wall-time limit and judges what came back.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import math
import os
import signal
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TextIO

from viewer.core.metrics import KNOWN_METRICS
from viewer.core.units import unit_scale
from viewer.readers import ncu_rep_extras

GRID = ("launch__grid_dim_x", "launch__grid_dim_y", "launch__grid_dim_z")
BLOCK = ("launch__block_dim_x", "launch__block_dim_y", "launch__block_dim_z")
DEVICE_NAME = "device__attribute_display_name"
DEVICE_ID = "device__attribute_device_index"
CC_MAJOR = "device__attribute_compute_capability_major"
CC_MINOR = "device__attribute_compute_capability_minor"
# ncu_report's IAction.WorkloadType_* constants, in words; KERNEL is the one kind read.
WORKLOAD_KINDS = {"RANGE": "range", "GRAPH": "graph", "CMDLIST": "command list",
                  "SUBGRID_SCHEDULE": "subgrid schedule"}
PR_SET_PDEATHSIG = 1
# How the dynamic loader says a library did not fit under the address-space limit.
_NO_ROOM_TO_LOAD = ("failed to map segment", "Cannot allocate memory")


def die_with_parent(parent_pid: int) -> None:
    """Have the kernel kill this process when its parent ends (Linux), and end now if it has.

    The parent-death signal follows the thread that started the child, which waits for the child
    until it ends, so it fires only when the parent's process goes.
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if parent_pid > 0 and os.getppid() != parent_pid:  # the parent went before prctl took hold
        os._exit(1)


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
    metric's unit is the same for every kernel of a report, so it is kept per metric name; so are
    its unit, label and description as ncu spells them (`about`), which are the metric's, not
    the kernel's.
    """

    def __init__(self, ncu_report: Any) -> None:
        kinds = ncu_report.IMetric
        self._integer = {kinds.ValueKind_UINT32, kinds.ValueKind_UINT64}
        self._numeric = self._integer | {kinds.ValueKind_FLOAT, kinds.ValueKind_DOUBLE}
        self._scale: dict[str, float] = {}
        self._units: dict[str, str] = {}
        self._about: dict[str, list[str]] = {}
        self._devices: dict[float | None, dict[str, str | None]] = {}

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
            scaled = unit_scale(self.unit(name, metric))  # None: a unit not understood
            scale = self._scale[name] = math.nan if scaled is None else scaled[0]
        value = raw * scale
        return value if math.isfinite(value) else None

    def unit(self, name: str, metric: Any) -> str:
        """The unit of metric `name` as ncu spells it ('' where it has none)."""
        unit = self._units.get(name)
        if unit is None:
            unit = self._units[name] = str(metric.unit() or "")
        return unit

    def about(self, name: str, metric: Any) -> list[str]:
        """[unit as ncu spells it, label, description] of metric `name`, each cut at
        ncu_rep_extras.MAX_TEXT characters."""
        known = self._about.get(name)
        if known is None:
            known = self._about[name] = [str(text or "")[:ncu_rep_extras.MAX_TEXT] for text in (
                self.unit(name, metric), metric.label(), metric.description())]
        return known

    def device(self, action: Any, device_id: float | None) -> dict[str, str | None]:
        """The device's name and compute capability; looked up once per device of the report."""
        known = self._devices.get(device_id)
        if known is None:
            major, minor = self.value(action, CC_MAJOR), self.value(action, CC_MINOR)
            known = {"device_name": self.text(action, DEVICE_NAME),
                     "cc": None if major is None or minor is None else f"{major:.0f}.{minor:.0f}"}
            if device_id is not None:
                self._devices[device_id] = known
        return known

    def text(self, action: Any, name: str) -> str | None:
        metric = action.metric_by_name(name)
        if metric is None or not metric.has_value():
            return None
        value = metric.value()
        return None if value is None else str(value).strip() or None

    def metrics(self, action: Any, names: Iterable[str]) -> dict[str, float]:
        found = {}
        for name in names:
            value = self.value(action, name)
            if value is not None:
                found[name] = value
        return found


def kernel_record(action: Any, reader: MetricReader, names: Sequence[str] | None,
                  extras: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Identity and metrics (`names`; None: every numeric one) of one kernel, for the parent;
    "held" is not 0 when the kernel holds metrics (none: the report looks truncated). Listing a
    kernel's metric names costs a sixth of reading it, so that is done only when needed.
    `extras` asks for more (ncu_rep_extras: rules, instances, about).

    ncu_report settles a derived metric's unit when it is first asked, and its answer depends
    on what was read before ('byte' once the values were read, 'sector' as ncu prints it when
    the units are walked first): the extras are read before the metrics, right after the
    kernel's identity, as a pass that reads only them always read them."""
    found: dict[str, float] = {}

    def dims(keys: tuple[str, str, str]) -> list[int] | None:
        got = [found[k] if k in found else reader.value(action, k) for k in keys]
        whole = [int(v) for v in got if v is not None]
        return whole if len(whole) == len(got) else None

    def identity() -> dict[str, Any]:
        device_id = reader.value(action, DEVICE_ID)
        return {"name": action.name() or "",
                "demangled": action.name(action.NameBase_DEMANGLED) or "",
                "grid": dims(GRID), "block": dims(BLOCK),
                "device_id": None if device_id is None else int(device_id),
                **reader.device(action, device_id)}

    record = identity() if extras else {}
    more = ncu_rep_extras.extras(action, extras, reader.about) if extras else {}
    held = action.metric_names() if names is None else ()
    found.update(reader.metrics(action, held if names is None else names))
    if not found and names is not None:  # rare: none of those asked for; does it hold any?
        held = action.metric_names()
    return {**(record or identity()), "held": len(held) or len(found), "metrics": found,
            **more}


def workload_kind(action: Any) -> str | None:
    """None for a kernel; else what the result is in words ("range", "graph", ...).

    An ncu_report too old to tell workload types apart profiled kernels only.
    """
    kind = getattr(action, "workload_type", None)
    if kind is None:
        return None
    value = kind()
    if value == getattr(action, "WorkloadType_KERNEL", value):
        return None
    for name, words in WORKLOAD_KINDS.items():
        if value == getattr(action, f"WorkloadType_{name}", object()):
            return words
    return f"workload type {value}"


class Results:
    """The report's results (kernels, ranges, graphs) by position, across its ranges, each
    decoded only when it is first touched."""

    def __init__(self, context: Any) -> None:
        self._ranges = [context.range_by_idx(r) for r in range(context.num_ranges())]
        self._counts = [r.num_actions() for r in self._ranges]

    def __len__(self) -> int:
        return sum(self._counts)

    def __getitem__(self, position: int) -> Any:
        if position < 0:
            raise IndexError(position)
        for profiled_range, count in zip(self._ranges, self._counts, strict=True):
            if position < count:
                return profiled_range.action_by_idx(position)
            position -= count
        raise IndexError(position)


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


def slice_count(total: int, left: int, size: int, slice_bytes: int) -> int:
    """How many of the `left` wanted results one child reads: those `slice_bytes` of a file of
    `size` bytes and `total` results hold on average."""
    left = max(0, left)
    if slice_bytes <= 0 or total == 0:
        return left
    return min(left, max(1, slice_bytes * total // max(1, size)))


def run(path: str, names: Sequence[str] | None, emit: Callable[[dict[str, Any]], None],
        first: int = 0, slice_bytes: int = 0, positions: Sequence[int] | None = None,
        extras: Mapping[str, Any] | None = None) -> int:
    """Read one slice of the report at `path`, emitting the protocol; the exit status."""
    try:
        import ncu_report

        results = Results(ncu_report.load_report(path))
        total = len(results)
    except MemoryError:
        emit({"error": "ncu_report ran out of memory opening it"})
        return 1
    except Exception as exc:
        if isinstance(exc, ImportError) and any(sign in str(exc) for sign in _NO_ROOM_TO_LOAD):
            emit({"error": "ncu_report ran out of memory opening it (its library did not fit)"})
        else:
            emit({"error": f"ncu_report could not open it ({type(exc).__name__}: {exc})"})
        return 1
    wanted = range(total) if positions is None else positions
    if any(not 0 <= p < total for p in wanted):
        emit({"error": f"the report holds {total} results, not those asked for: it changed"})
        return 1
    count = slice_count(total, len(wanted) - first, os.path.getsize(path), slice_bytes)
    emit({"results": total, "first": first, "count": count})
    reader = MetricReader(ncu_report)
    for position in wanted[first:first + count]:
        try:
            action = results[position]
            kind = workload_kind(action)
            record = None if kind else kernel_record(action, reader, names, extras)
        except MemoryError:
            emit({"error": f"ncu_report ran out of memory reading result #{position}"})
            return 1
        except Exception as exc:
            emit({"error": f"result #{position} cannot be read: the report looks corrupt"
                           f" (ncu_report: {type(exc).__name__}: {exc})"})
            return 1
        if record is None:
            emit({"skipped": {"position": position, "kind": kind}})
        else:
            emit({"kernel": {"position": position, **record}})
    emit({"done": True, "peak_bytes": peak_bytes()})
    return 0


def protocol_stream() -> TextIO:
    """The real standard output for the protocol; file descriptor 1 then points at stderr."""
    stream = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    sys.stdout.flush()
    os.dup2(2, 1)
    return stream


def child_arguments(prog: str) -> argparse.ArgumentParser:
    """The arguments every reader child takes: the file, the parent to die with, the memory cap,
    and the slice of results to read (the first wanted one, how many bytes' worth)."""
    parser = argparse.ArgumentParser(prog=prog)
    parser.add_argument("path")
    parser.add_argument("--parent-pid", type=int, default=0, help="die when this process ends")
    parser.add_argument("--memory-limit", type=int, default=0, help="address-space cap, bytes")
    parser.add_argument("--first", type=int, default=0, help="the first wanted result to read")
    parser.add_argument("--slice-bytes", type=int, default=0,
                        help="read the results this much of the file holds (0: all)")
    return parser


def json_lines(out: TextIO) -> Callable[[dict[str, Any]], None]:
    """The protocol's writer: each message one JSON line on `out`."""

    def emit(message: dict[str, Any]) -> None:
        out.write(json.dumps(message, allow_nan=False, separators=(",", ":")) + "\n")

    return emit


def main(argv: list[str] | None = None) -> int:
    parser = child_arguments("python -m viewer.readers.ncu_rep_child")
    parser.add_argument("--known-only", action="store_true",
                        help="only the metrics the app reads (viewer.core.metrics.KNOWN_METRICS)")
    parser.add_argument("--request", help='a JSON file: {"positions": [...], "names": [...],'
                        ' "extras": {...}} (positions or names may be null: every result, every'
                        " numeric metric; extras: see viewer.readers.ncu_rep_extras)")
    args = parser.parse_args(argv)
    die_with_parent(args.parent_pid)
    out = protocol_stream()
    emit = json_lines(out)

    names: Sequence[str] | None = sorted(KNOWN_METRICS) if args.known_only else None
    positions: Sequence[int] | None = None
    extras: Mapping[str, Any] | None = None
    if args.request:
        with open(args.request, encoding="utf-8") as f:
            request = json.load(f)
        positions = request.get("positions")
        names = request.get("names", names)
        extras = request.get("extras")
    limit_memory(args.memory_limit)
    status = run(args.path, names, emit, args.first, args.slice_bytes, positions, extras)
    out.flush()
    return status


if __name__ == "__main__":
    # No clean-up at exit: freeing what ncu_report decoded (hundreds of MB) only delays the end.
    status = main()
    sys.stderr.flush()
    os._exit(status)
