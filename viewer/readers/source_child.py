"""The source reader's child process: `python -m viewer.readers.source_child PATH --request R`.

Like viewer.readers.ncu_rep_child (whose start, memory limit and protocol stream it shares), it
runs NVIDIA's ncu_report in a process of its own. For each wanted result it walks the SASS of
every function the result launched (`launch__function_pcs`: one for a kernel, one per kernel node
of a graph or range), instruction by instruction (`IAction.sass_by_pc`, 16 bytes apart, until ncu
has no more), and sends, one JSON object per line:

    {"results": N, "first": F, "count": C}          as ncu_rep_child does
    {"function": {...}}                             one per function: its name, threads, kind,
                                                    the counters it holds, its source files
    {"instructions": [[pc, sass, file, line, {counter: value}, {stall: samples}], ...]}
                                                    that function's instructions, in chunks
    {"skipped": {"position": P, "kind": K}}         a result that launched no function
    {"done": true, "peak_bytes": P}  /  {"error": "reason"}

A counter is an instanced metric whose correlation ids are instruction addresses (COUNTERS, and
each stall reason's `smsp__pcsamp_warps_issue_stalled_<reason>`); an instruction it has no
instance for reads 0, as on ncu's Source page; a counter the result lacks is not sent at all.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from viewer.readers.ncu_rep_child import (
    Results,
    child_arguments,
    die_with_parent,
    json_lines,
    limit_memory,
    peak_bytes,
    protocol_stream,
    slice_count,
    workload_kind,
)

COUNTERS: dict[str, str] = {
    "inst_executed": "inst_executed",
    "threads_executed": "derived__avg_thread_executed",
    "l2_theoretical_sectors": "memory_l2_theoretical_sectors_global",
    "l2_theoretical_sectors_ideal": "memory_l2_theoretical_sectors_global_ideal",
    "l2_theoretical_sectors_excessive": "derived__memory_l2_theoretical_sectors_global_excessive",
    "samples": "smsp__pcsamp_sample_count",
}
"""Our name of each per-instruction counter -> the ncu metric that holds it (warp level;
`threads_executed` is the average threads a warp executed it with)."""

STALL_PREFIX = "smsp__pcsamp_warps_issue_stalled_"
NOT_ISSUED = "_not_issued"
INSTRUCTION_BYTES = 16
# Bounds on what one function sends: instructions, characters of one source file, of all files.
MAX_INSTRUCTIONS = 500_000
MAX_FILE_CHARS = 4 << 20
MAX_FILES_CHARS = 16 << 20
CHUNK = 2_000


def per_pc(action: Any, name: str) -> dict[int, float] | None:
    """An instanced metric's values by instruction address; None when the result lacks it."""
    metric = action.metric_by_name(name)
    if metric is None or not metric.has_correlation_ids():
        return None
    ids = metric.correlation_ids()
    count = min(int(metric.num_instances()), int(ids.num_instances()))
    return {int(ids.as_uint64(i)): float(metric.as_double(i)) for i in range(count)}


def stall_names(action: Any) -> list[str]:
    """The sampled stall reasons the result holds ('long_scoreboard', ...), issued or not."""
    return sorted(n[len(STALL_PREFIX):] for n in action.metric_names()
                  if n.startswith(STALL_PREFIX) and not n.endswith(NOT_ISSUED))


def _instances(action: Any, name: str) -> list[Any]:
    metric = action.metric_by_name(name)
    if metric is None:
        return []
    return [metric.value(i) for i in range(int(metric.num_instances()))]


def functions(action: Any) -> list[dict[str, Any]]:
    """The functions a result launched: start address, name, threads (None where unsaid)."""
    starts = [int(v) for v in _instances(action, "launch__function_pcs") if v is not None]
    names = _instances(action, "launch__kernel_name")
    threads = _instances(action, "launch__thread_count")
    single = len(starts) == 1
    found = []
    for i, start in enumerate(starts):
        found.append({
            "start": start,
            # ncu_report lists a range's kernel names in an order its addresses need not follow
            # (ncu's Source page of workloads-ranges.ncu-rep names them the other way round)
            "name": (action.name() or "") if single else "",
            "names": [] if single else sorted(str(n) for n in names),
            "demangled": (action.name(action.NameBase_DEMANGLED) or "") if single else "",
            "threads": int(threads[i]) if i < len(threads) and threads[i] is not None else None,
        })
    return found


def _walk(action: Any, start: int) -> Iterator[tuple[int, str]]:
    pc = start
    for _ in range(MAX_INSTRUCTIONS):
        text = action.sass_by_pc(pc)
        if not text:
            return
        yield pc, str(text)
        pc += INSTRUCTION_BYTES


def _files(action: Any) -> dict[str, str]:
    found, left = {}, MAX_FILES_CHARS
    for name, text in sorted((action.source_files() or {}).items()):
        body = str(text or "")[:min(MAX_FILE_CHARS, left)]
        left -= len(body)
        found[str(name)] = body
    return found


def read_function(action: Any, function: dict[str, Any], counters: dict[str, dict[int, float]],
                  stalls: dict[str, dict[int, float]], emit: Callable[[dict[str, Any]], None]
                  ) -> None:
    """Send one function's record, then its instructions in chunks."""
    rows: list[list[Any]] = []
    walked = list(_walk(action, function["start"]))
    emit({"function": {**function, "counters": sorted(counters), "stalls": sorted(stalls),
                       "files": _files(action), "cut": len(walked) >= MAX_INSTRUCTIONS}})
    for pc, text in walked:
        info = action.source_info(pc)
        file = str(info.file_name()) if info is not None else None
        line = int(info.line()) if info is not None else None
        rows.append([pc, text, file or None, line if file else None,
                     {k: v.get(pc, 0.0) for k, v in counters.items()},
                     {k: v[pc] for k, v in stalls.items() if v.get(pc)}])
        if len(rows) >= CHUNK:
            emit({"instructions": rows})
            rows = []
    if rows:
        emit({"instructions": rows})


def read_result(action: Any, position: int, emit: Callable[[dict[str, Any]], None]) -> None:
    """Every function one result launched; a result that launched none is skipped."""
    found = functions(action)
    if not found:
        emit({"skipped": {"position": position, "kind": workload_kind(action) or "kernel"}})
        return
    counters = {k: v for k, name in COUNTERS.items() if (v := per_pc(action, name)) is not None}
    stalls = {r: v for r in stall_names(action)
              if (v := per_pc(action, STALL_PREFIX + r)) is not None}
    kind = workload_kind(action)
    for part, function in enumerate(found):
        read_function(action, {**function, "position": position, "kind": kind, "part": part},
                      counters, stalls, emit)


def run(path: str, emit: Callable[[dict[str, Any]], None], positions: Sequence[int] | None,
        first: int = 0, slice_bytes: int = 0) -> int:
    """Read one slice of the wanted results of the report at `path`; the exit status."""
    try:
        import ncu_report

        results = Results(ncu_report.load_report(path))
    except Exception as exc:
        emit({"error": f"ncu_report could not open it ({type(exc).__name__}: {exc})"})
        return 1
    total = len(results)
    wanted = range(total) if positions is None else positions
    if any(not 0 <= p < total for p in wanted):
        emit({"error": f"the report holds {total} results, not those asked for: it changed"})
        return 1
    count = slice_count(total, len(wanted) - first, os.path.getsize(path), slice_bytes)
    emit({"results": total if positions is None else len(wanted), "first": first,
          "count": count})
    for position in wanted[first:first + count]:
        try:
            read_result(results[position], position, emit)
        except MemoryError:
            emit({"error": f"ncu_report ran out of memory reading result #{position}"})
            return 1
        except Exception as exc:
            emit({"error": f"result #{position} cannot be read: the report looks corrupt"
                           f" (ncu_report: {type(exc).__name__}: {exc})"})
            return 1
    emit({"done": True, "peak_bytes": peak_bytes()})
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = child_arguments("python -m viewer.readers.source_child")
    parser.add_argument("--positions", default="", help="the results to read, by comma (all)")
    args = parser.parse_args(argv)
    die_with_parent(args.parent_pid)
    out = protocol_stream()
    emit = json_lines(out)

    positions = [int(p) for p in args.positions.split(",") if p] if args.positions else None
    limit_memory(args.memory_limit)
    status = run(args.path, emit, positions, args.first, args.slice_bytes)
    out.flush()
    return status


if __name__ == "__main__":
    status = main()
    sys.stderr.flush()
    os._exit(status)
