"""Reader for binary Nsight Compute reports (.ncu-rep), through NVIDIA's ncu_report package.

ncu_report runs in a child process (viewer.readers.ncu_rep_child) under an address-space limit,
and this side kills it when it runs past its wall-time limit or the job is cancelled, so a corrupt
or hostile report can never take the app down. ncu_report accepts garbage silently: a random file
loads as zero kernels and a report cut in half as a kernel with no name and no metrics. So the
magic is checked first and what comes back is judged: no kernel, a nameless kernel or a kernel
without metrics means the report looks truncated or corrupt.

ncu_report keeps every kernel it decodes in memory until its process ends, so a child reads one
slice of the kernels and exits; the next child reads on. A 400-kernel `--set full` report then
peaks at about half the memory of one process reading it all.

Every metric whose value is a number is kept, in base units (the metrics the app reads,
viewer.metrics.KNOWN_METRICS, among them); `known_only=True` keeps only those.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from viewer.jobs import Cancelled, Job
from viewer.model import Kernel, Report, ReportError, function_name
from viewer.readers.sniff import NCU_REP, NCU_REP_MAGIC

FORMAT = NCU_REP
CHILD_MODULE = "viewer.readers.ncu_rep_child"
PACKAGE_ROOT = Path(__file__).resolve().parents[2]

_MIB = 1 << 20
# One child reads the kernels this much of the file holds (ncu_report keeps what it decoded until
# its process ends: about 7 bytes of memory per byte of report in a `--set full` capture).
SLICE_BYTES = 256 * _MIB
# The limits grow with the report: a base, plus so much per MiB of file (the time, for the whole
# read) or per byte of the slice one child reads (the memory, for each child).
BASE_TIMEOUT_S = 60.0
TIMEOUT_S_PER_MIB = 0.25
BASE_MEMORY_LIMIT = 2048 * _MIB
MEMORY_LIMIT_PER_BYTE = 10
# A child whose peak address space came within this share of its limit (at most 64 MiB) may have
# been starved: ncu_report then loads fewer kernels, or none, instead of failing.
MEMORY_HEADROOM = 0.1
MAX_MEMORY_HEADROOM = 64 * _MIB
POLL_S = 0.1


def default_timeout_s(size: int) -> float:
    """The wall-time limit for reading a report of `size` bytes."""
    return BASE_TIMEOUT_S + TIMEOUT_S_PER_MIB * size / _MIB


def default_memory_limit(size: int, slice_bytes: int = SLICE_BYTES) -> int:
    """A child's address-space limit for a report of `size` bytes read in `slice_bytes` slices."""
    share = size if slice_bytes <= 0 else min(size, slice_bytes)
    return BASE_MEMORY_LIMIT + MEMORY_LIMIT_PER_BYTE * share


def read(path: Path, job: Job | None = None, *, timeout_s: float | None = None,
         memory_limit: int | None = None, known_only: bool = False,
         slice_bytes: int = SLICE_BYTES) -> Report:
    """Read a .ncu-rep: kernels in launch order, metrics in base units.

    One child reads the kernels `slice_bytes` of the file hold, then exits, freeing what
    ncu_report decoded; the next child reads on. `timeout_s` bounds the whole read, and
    `memory_limit` each child. `job` gets progress per kernel; cancelling it kills the child and
    raises Cancelled. Every other failure is a ReportError naming the file.
    """
    path = Path(path)
    size = _check_magic(path)
    timeout_s = default_timeout_s(size) if timeout_s is None else timeout_s
    memory_limit = default_memory_limit(size, slice_bytes) if memory_limit is None else memory_limit
    deadline = time.monotonic() + timeout_s
    if job is not None:
        job.progress(0.0, f"opening {path.name}")
    records: list[dict[str, Any]] = []
    total: int | None = None
    while total is None or len(records) < total:
        command = [sys.executable, "-m", CHILD_MODULE, str(path.resolve()),
                   "--memory-limit", str(memory_limit), "--first", str(len(records)),
                   "--slice-bytes", str(slice_bytes)] + (["--known-only"] if known_only else [])
        with tempfile.TemporaryFile() as stderr, _Child(
            command, path, timeout_s, deadline, memory_limit, job, stderr
        ) as child:
            total = _read_slice(child, path, records, job)
        if total == 0:
            break
    return Report(source=str(path), format=FORMAT, kernels=_kernels(path, records))


def _read_slice(child: _Child, path: Path, records: list[dict[str, Any]], job: Job | None) -> int:
    """Append one child's kernels to `records`; the number of kernels in the report."""
    total = count = None
    got = 0
    for message in child.messages():
        if "error" in message:
            raise ReportError(path, str(message["error"]))
        if "done" in message:
            child.check_peak(message.get("peak_bytes"))
        elif "kernels" in message:
            total, count = int(message["kernels"]), int(message["count"])
            if int(message["first"]) != len(records) or (count < 1 and total > len(records)):
                raise ReportError(path, "the .ncu-rep reader lost its place in the report")
        elif "kernel" in message and total is not None:
            records.append(message["kernel"])
            got += 1
            if job is not None:
                job.progress(len(records) / max(total, 1), f"kernel {len(records)} of {total}")
    child.finish(expected=count, got=got)
    assert total is not None
    return total


def _check_magic(path: Path) -> int:
    try:
        with path.open("rb") as f:
            magic = f.read(len(NCU_REP_MAGIC))
            size = os.fstat(f.fileno()).st_size
    except IsADirectoryError:
        raise ReportError(path, "is a directory, not a report file") from None
    except OSError as exc:
        raise ReportError(path, f"cannot be read ({exc.strerror or exc})") from None
    if magic != NCU_REP_MAGIC:
        raise ReportError(path, "not a .ncu-rep report (it does not start with NVR)")
    return size


def _kernels(path: Path, records: list[dict[str, Any]]) -> list[Kernel]:
    """Kernels from the child's records, refusing the signs of a truncated or corrupt report."""
    if not records:
        raise ReportError(path, "no kernel found: the report looks truncated or corrupt")
    kernels = []
    for index, record in enumerate(records):
        shown = str(record.get("demangled") or record.get("name") or "").strip()
        if not shown:
            raise ReportError(
                path, f"kernel #{index} has no name: the report looks truncated or corrupt")
        found = record.get("metrics")
        if not isinstance(found, dict) or not found:
            raise ReportError(
                path, f"kernel #{index} holds no metrics: the report looks truncated or corrupt")
        kernels.append(Kernel(
            index=index,
            name=function_name(str(record.get("name") or shown)),
            display_name=shown,
            grid=_dim3(record.get("grid")),
            block=_dim3(record.get("block")),
            device=record.get("device") or None,
            cc=record.get("cc") or None,
            metrics=found,
        ))
    return kernels


def _dim3(value: Any) -> tuple[int, int, int] | None:
    if isinstance(value, list) and len(value) == 3 and all(isinstance(v, int) for v in value):
        return (value[0], value[1], value[2])
    return None


class _Child:
    """The child process: its protocol messages, its limits, and its certain end."""

    def __init__(self, command: list[str], path: Path, timeout_s: float, deadline: float,
                 memory_limit: int, job: Job | None, stderr: IO[bytes]) -> None:
        self.path = path
        self.timeout_s = timeout_s
        self.deadline = deadline
        self.memory_limit = memory_limit
        self.job = job
        self.stderr = stderr
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(PACKAGE_ROOT), env.get("PYTHONPATH", "")) if p)
        try:
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.stderr,
                cwd=PACKAGE_ROOT, env=env,
            )
        except OSError as exc:
            raise ReportError(path, f"cannot start the .ncu-rep reader ({exc})") from None

    def __enter__(self) -> _Child:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        assert self.process.stdout is not None
        self.process.stdout.close()

    def messages(self) -> Iterator[dict[str, Any]]:
        """The child's messages as they arrive, until it closes its output."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        buffer = b""
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while True:
                self._check_time()
                if not selector.select(min(POLL_S, max(0.0, self.deadline - time.monotonic()))):
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if line.strip():
                        yield self._decode(line)
        if buffer.strip():
            yield self._decode(buffer)

    def finish(self, expected: int | None, got: int) -> None:
        """Wait for the child's exit; ReportError when it crashed or stopped short."""
        while True:
            self._check_time()
            try:
                status = self.process.wait(timeout=POLL_S)
                break
            except subprocess.TimeoutExpired:
                continue
        if status != 0:
            raise ReportError(self.path, self._crash_reason(status))
        if expected is None or got != expected:
            raise ReportError(self.path, "the .ncu-rep reader stopped before it read every kernel")

    def check_peak(self, peak: object) -> None:
        """ReportError when the child came so close to its memory limit that it may have starved."""
        headroom = min(MAX_MEMORY_HEADROOM, MEMORY_HEADROOM * self.memory_limit)
        if isinstance(peak, int) and peak > self.memory_limit - headroom:
            raise ReportError(
                self.path, f"reading it needs more than the {self.memory_limit / _MIB:,.0f} MiB"
                " of memory the .ncu-rep reader may use")

    def _check_time(self) -> None:
        if self.job is not None and self.job.cancelled:
            self.process.kill()
            raise Cancelled()
        if time.monotonic() > self.deadline:
            self.process.kill()
            raise ReportError(
                self.path, f"reading took longer than {self.timeout_s:.0f} s: the report looks"
                " corrupt, or is too large to read here")

    def _decode(self, line: bytes) -> dict[str, Any]:
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            self.process.kill()
            raise ReportError(self.path, "the .ncu-rep reader answered with something unreadable")
        return message

    def _crash_reason(self, status: int) -> str:
        limit = f"{self.memory_limit / _MIB:,.0f} MiB"
        if status < 0:
            try:
                name = signal.Signals(-status).name
            except ValueError:
                name = f"signal {-status}"
            return (f"the .ncu-rep reader crashed on it ({name}): the report looks corrupt,"
                    f" or needs more than the {limit} the reader may use")
        last = self._stderr_tail()
        return f"the .ncu-rep reader failed on it (exit status {status}" + (
            f": {last})" if last else ")")

    def _stderr_tail(self) -> str:
        try:
            self.stderr.seek(0, os.SEEK_END)
            size = self.stderr.tell()
            self.stderr.seek(max(0, size - 2000))
            lines = self.stderr.read().decode("utf-8", "replace").strip().splitlines()
        except OSError:
            return ""
        return lines[-1][:200] if lines else ""
