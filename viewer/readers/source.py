"""Source counters: every SASS instruction of a kernel with ncu's per-instruction counters, and the
source line it was compiled from, as ncu's Source page shows them.

`read_source(path, job)` reads them from a .ncu-rep (in a child process, viewer.readers
.source_child, bounded as the .ncu-rep reader's children are: its memory, its wall time, cancel
through `job`) or from ncu's source page export (`--page source --csv --print-source sass`,
viewer.readers.source_csv); any other file is a ReportError saying what holds them.

Each function a result launched is one `KernelSource` (a kernel launches one; a graph or a range
one per kernel node). Its counters are warp level, ncu's own (COUNTERS); a counter the report
lacks is missing (None), never zero. What a capture lacks is said in `KernelSource.notes`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from viewer.core.jobs import Job
from viewer.core.model import ReportError
from viewer.readers import _opened, ncu_rep, ncu_rep_file
from viewer.readers._child import Child
from viewer.readers.source_child import COUNTERS
from viewer.readers.source_model import (
    CAPTURE_COUNTERS,
    INST_EXECUTED,
    L2_SECTORS,
    NO_COUNTERS,
    NO_LINE_INFO,
    SAMPLES,
    THREADS_EXECUTED,
    Instruction,
    KernelSource,
    clean_sass,
)

__all__ = ["CAPTURE_COUNTERS", "INST_EXECUTED", "L2_SECTORS", "NO_COUNTERS", "NO_LINE_INFO",
           "SAMPLES", "THREADS_EXECUTED", "Instruction", "KernelSource", "read_ncu_rep",
           "read_source"]

CHILD = ("-S", "-m", "viewer.readers.source_child")
WHAT = "the source counters reader"


def read_source(path: str | Path, job: Job | None = None, *,
                positions: Iterable[int] | None = None) -> list[KernelSource]:
    """Every function's source counters in the file at `path` (a .ncu-rep: the results at
    `positions`, `Kernel.position`, else all; a source page export: all); ReportError (one line,
    naming the file) when it cannot, or holds none; Cancelled when `job` is."""
    from viewer.readers import _opened, sniff

    path = Path(path)
    with _opened.opened(path) as source:
        fmt = sniff.identify_opened(source)
        if fmt == sniff.NCU_REP:
            return read_ncu_rep(path, job, positions=positions, source=source)
    if fmt == sniff.SOURCE_PAGE:
        from viewer.readers import source_csv

        return source_csv.read(path)
    raise ReportError(path, f"is a {fmt} export, which holds no per-instruction counters: open"
                      " the .ncu-rep, or its `--page source --csv --print-source sass` export")


def read_ncu_rep(path: Path, job: Job | None = None, *, positions: Iterable[int] | None = None,
                 timeout_s: float | None = None, memory_limit: int | None = None,
                 slice_bytes: int = ncu_rep.SLICE_BYTES, source: _opened.Opened | None = None
                 ) -> list[KernelSource]:
    """The functions of a .ncu-rep's results (`positions`, else all), read child after child
    as `ncu_rep.read` reads: each child reads a slice of the results, then exits. `source`: the
    file already opened (viewer.readers._opened), else it is opened here."""
    path = Path(path)
    wanted = None if positions is None else sorted(set(positions))
    with contextlib.ExitStack() as stack:
        if source is None:
            source = stack.enter_context(_opened.opened(path))
        plain = stack.enter_context(ncu_rep_file.plain(source)).file
        opened = stack.enter_context(ncu_rep_file.child_name(plain))
        limits = ncu_rep._Limits(plain.size, timeout_s, memory_limit, slice_bytes)
        if job is not None:
            job.progress(0.0, f"reading the source counters of {path.name}")
        kernels: list[KernelSource] = []
        kernel_results: set[int] = set()
        done, total = 0, None if wanted is None else len(wanted)
        while total is None or done < total:
            source.check()
            command = [sys.executable, *CHILD, opened, "--parent-pid", str(os.getpid()),
                       "--memory-limit", str(limits.memory), "--first", str(done),
                       "--slice-bytes", str(limits.slice_bytes)]
            if wanted is not None:
                command += ["--positions", ",".join(map(str, wanted))]
            with Child(command, path, what=WHAT, timeout_s=limits.timeout_s,
                       deadline=limits.deadline, job=job, env=ncu_rep._env(),
                       cwd=ncu_rep.PACKAGE_ROOT, pass_fds=(plain.fd,)) as child:
                total, got = _slice(child, limits.memory, done, kernels, job, kernel_results)
            done += got
        source.check()
    if wanted is not None:  # some results only: which number each kernel has is not known
        return kernels
    number = {p: i for i, p in enumerate(sorted(kernel_results))}
    return [dataclasses.replace(k, index=number.get(k.position or 0)) if k.kind is None else k
            for k in kernels]


def _slice(child: Child, memory: int, done: int, kernels: list[KernelSource], job: Job | None,
           kernel_results: set[int]) -> tuple[int, int]:
    """Take in one child's functions, and into `kernel_results` the positions of the results
    that are kernels (launching a function or not); (results wanted in all, results this
    child read)."""
    total = count = None
    record: dict[str, Any] | None = None
    rows: list[Instruction] = []
    started = time.monotonic()

    def close() -> None:
        if record is not None:
            kernels.append(_kernel(record, rows))

    for message in child.messages():
        if "error" in message:
            raise child.refuse(str(message["error"]))
        if "results" in message:
            total, count = int(message["results"]), int(message["count"])
            if int(message["first"]) != done or (count < 1 and total > done):
                raise child.refuse(f"{WHAT} lost its place in the report")
        elif total is None:
            raise child.refuse(f"{WHAT} answered out of order")
        elif "function" in message and isinstance(message["function"], dict):
            close()
            record, rows = message["function"], []
            if not record.get("kind"):
                kernel_results.add(int(record.get("position") or 0))
            if job is not None:
                job.progress(min(1.0, (done + len(kernels)) / max(1, total)),
                             f"reading {record.get('name') or 'a kernel'}")
        elif "skipped" in message and isinstance(message["skipped"], dict):
            if message["skipped"].get("kind") == "kernel":
                kernel_results.add(int(message["skipped"].get("position") or 0))
        elif "instructions" in message and record is not None:
            rows.extend(_instruction(row) for row in message["instructions"])
        elif "done" in message:
            child.check_peak(message.get("peak_bytes"), memory)
    close()
    status = child.wait()
    if status != 0 or total is None or count is None:
        raise child.refuse(child.crash_reason(status, memory) if status
                           else f"{WHAT} ended early ({time.monotonic() - started:.1f} s)")
    return total, count


def _number_map(value: object) -> dict[str, float]:
    if not isinstance(value, dict):
        return {}
    return {str(k): float(v) for k, v in value.items() if isinstance(v, int | float)}


def _instruction(row: Sequence[Any]) -> Instruction:
    pc, text, file, line, counters, stalls = row
    return Instruction(address=int(pc), text=clean_sass(str(text)),
                       file=str(file) if file else None,
                       line=int(line) if isinstance(line, int) and file else None,
                       counters=_number_map(counters), stalls=_number_map(stalls))


def _kernel(record: dict[str, Any], rows: list[Instruction]) -> KernelSource:
    files = record.get("files")
    threads = record.get("threads")
    name = str(record.get("demangled") or record.get("name") or "")
    if not name:  # one of a range's or graph's kernels: which one is not said, only the set
        names = ", ".join(str(n) for n in record.get("names") or ())
        name = f"{record.get('kind') or 'result'} #{record.get('position')}, function" \
               f" {int(record.get('part') or 0) + 1}" + (f" (one of {names})" if names else "")
    return KernelSource(
        name=name, instructions=tuple(rows), position=int(record.get("position") or 0),
        kind=str(record["kind"]) if record.get("kind") else None, part=int(record.get("part") or 0),
        threads=threads if isinstance(threads, int) else None,
        files={str(k): str(v) for k, v in files.items()} if isinstance(files, dict) else {},
        held=frozenset(str(c) for c in record.get("counters") or () if c in COUNTERS),
        stalls=tuple(str(s) for s in record.get("stalls") or ()),
        cut=bool(record.get("cut")))

