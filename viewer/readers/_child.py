"""A reader's child process: its own process group, its wall-time limit, its bounded output.

The child speaks one JSON object per line on its standard output. Whatever it does, this side
holds at most MAX_LINE_BYTES of an unfinished line and the last STDERR_TAIL_BYTES of its standard
error, refuses a child that writes more than MAX_STDERR_BYTES of diagnostics, and kills the
child's whole process group when it runs past its deadline, is cancelled, or misbehaves. Both
pipes are read as they fill, so a child never blocks on a full one.
"""

from __future__ import annotations

import collections
import json
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from viewer.core.jobs import Cancelled, Job
from viewer.core.model import ReportError

_MIB = 1 << 20
# A child whose peak address space came within this share of its limit (at most 64 MiB) may have
# been starved: ncu_report then loads fewer kernels, or none, instead of failing.
MEMORY_HEADROOM = 0.1
MAX_MEMORY_HEADROOM = 64 * _MIB
MAX_LINE_BYTES = 32 * _MIB
MAX_STDERR_BYTES = 16 * _MIB
STDERR_TAIL_BYTES = 4096
READ_BYTES = 1 << 16
POLL_S = 0.1


class Child:
    """A running child; use it as a context manager, so that it ends with the block."""

    def __init__(self, command: list[str], path: Path, *, what: str, timeout_s: float,
                 deadline: float, job: Job | None, env: dict[str, str], cwd: Path,
                 pass_fds: tuple[int, ...] = ()) -> None:
        self.path = path
        self.what = what
        self.timeout_s = timeout_s
        self.deadline = deadline
        self.job = job
        self._lines: collections.deque[bytes] = collections.deque()
        self._partial: list[bytes] = []
        self._partial_bytes = 0
        self._stderr_tail = b""
        self._stderr_bytes = 0
        try:
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, cwd=cwd, env=env, start_new_session=True,
                pass_fds=pass_fds)
        except OSError as exc:
            raise ReportError(path, f"cannot start {what} ({exc})") from None
        assert self.process.stdout is not None and self.process.stderr is not None
        self._stdout = self.process.stdout.fileno()
        self._stderr = self.process.stderr.fileno()
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._stdout, selectors.EVENT_READ)
        self._selector.register(self._stderr, selectors.EVENT_READ)

    @property
    def pid(self) -> int:
        return self.process.pid

    def __enter__(self) -> Child:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.process.poll() is None:
            self.kill()
        self.process.wait()
        self._selector.close()
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

    def kill(self) -> None:
        """Kill the child and anything it started (its process group)."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            self.process.kill()

    def messages(self) -> Iterator[dict[str, Any]]:
        """The child's messages as they arrive, until it closes its standard output."""
        while True:
            while self._lines:
                yield self._decode(self._lines.popleft())
            if not self._is_open(self._stdout):
                break
            self._pump()
        if self._partial_bytes:
            line, self._partial, self._partial_bytes = b"".join(self._partial), [], 0
            if line.strip():
                yield self._decode(line)

    def wait(self) -> int:
        """The child's exit status, once it has closed both pipes and ended."""
        while self._is_open(self._stdout) or self._is_open(self._stderr):
            self._pump()
        while True:
            self._check_time()
            try:
                return self.process.wait(timeout=POLL_S)
            except subprocess.TimeoutExpired:
                continue

    def stderr_tail(self) -> str:
        """The last line the child wrote on its standard error (at most 200 characters)."""
        lines = self._stderr_tail.decode("utf-8", "replace").strip().splitlines()
        return lines[-1][:200] if lines else ""

    def check_peak(self, peak: object, limit: int) -> None:
        """ReportError when the child's `peak` address space came so close to its `limit` that
        it may have starved."""
        headroom = min(MAX_MEMORY_HEADROOM, MEMORY_HEADROOM * limit)
        if limit > 0 and isinstance(peak, int) and peak > limit - headroom:
            raise self.refuse(f"reading it needs more than the {limit / _MIB:,.0f} MiB of memory"
                              f" {self.what} may use")

    def crash_reason(self, status: int, memory_limit: int) -> str:
        """Why a child that ended with a failing `status` failed, in words."""
        limit = f"{memory_limit / _MIB:,.0f} MiB"
        if status < 0:
            try:
                name = signal.Signals(-status).name
            except ValueError:
                name = f"signal {-status}"
            return (f"{self.what} crashed on it ({name}): the report looks corrupt, or needs more"
                    f" than the {limit} the reader may use")
        last = self.stderr_tail()
        return f"{self.what} failed on it (exit status {status}" + (f": {last})" if last else ")")

    def refuse(self, reason: str) -> ReportError:
        """Kill the child; the ReportError to raise for `reason`."""
        self.kill()
        return ReportError(self.path, reason)

    def _is_open(self, fd: int) -> bool:
        return fd in self._selector.get_map()

    def _pump(self) -> None:
        """Wait (at most POLL_S) for output and take in what came."""
        self._check_time()
        timeout = min(POLL_S, max(0.0, self.deadline - time.monotonic()))
        for key, _ in self._selector.select(timeout):
            fd = int(key.fd)
            chunk = os.read(fd, READ_BYTES)
            if not chunk:
                self._selector.unregister(fd)
            elif fd == self._stdout:
                self._take_stdout(chunk)
            else:
                self._take_stderr(chunk)

    def _take_stdout(self, chunk: bytes) -> None:
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            line = b"".join([*self._partial, chunk[start:end]])
            self._partial, self._partial_bytes = [], 0
            if line.strip():
                self._lines.append(line)
            start = end + 1
        if start < len(chunk):
            self._partial.append(chunk[start:])
            self._partial_bytes += len(chunk) - start
            if self._partial_bytes > MAX_LINE_BYTES:
                raise self.refuse(f"{self.what} sent a line longer than"
                                  f" {MAX_LINE_BYTES // _MIB} MiB")

    def _take_stderr(self, chunk: bytes) -> None:
        self._stderr_bytes += len(chunk)
        self._stderr_tail = (self._stderr_tail + chunk)[-STDERR_TAIL_BYTES:]
        if self._stderr_bytes > MAX_STDERR_BYTES:
            raise self.refuse(f"{self.what} wrote more than {MAX_STDERR_BYTES // _MIB} MiB of"
                              " diagnostics")

    def _check_time(self) -> None:
        if self.job is not None and self.job.cancelled:
            self.kill()
            raise Cancelled()
        if time.monotonic() > self.deadline:
            raise self.refuse(f"reading took longer than {self.timeout_s:.0f} s: the report looks"
                              " corrupt, or is too large to read here")

    def _decode(self, line: bytes) -> dict[str, Any]:
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            raise self.refuse(f"{self.what} answered with something unreadable")
        return message
