"""The small progress/cancel object that long plain functions take.

Kernel timing, report loading and captures are plain functions `run(..., job: Job)` that call
`job.progress(...)` now and then and stop early (raising `Cancelled`) once `job.cancelled` is set.
viewer/qt/kit/workers.py gives them a Job whose progress goes to the GUI thread; the terminal gives
them `Job()`, which only remembers the last message.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from viewer.core.model import ReportError


def one_line(exc: BaseException) -> str:
    """A failure as one line: a ReportError's own text, anything else prefixed by its type."""
    text = " ".join(str(exc).split())
    if isinstance(exc, ReportError):
        return text
    name = type(exc).__name__
    return f"{name}: {text}" if text else name


class Cancelled(Exception):
    """The job was cancelled before it finished."""


class Job:
    """Progress reporting and cancellation for one run of a long function. Thread-safe."""

    def __init__(self, on_progress: Callable[[float, str], None] | None = None) -> None:
        self._on_progress = on_progress
        self._cancel = threading.Event()
        self.fraction = 0.0
        self.message = ""

    def progress(self, fraction: float, message: str = "") -> None:
        """Report `fraction` (0..1) done; raise Cancelled if the job was cancelled."""
        self.fraction = min(1.0, max(0.0, fraction))
        self.message = message
        if self._on_progress is not None:
            self._on_progress(self.fraction, message)
        self.check()

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def check(self) -> None:
        """Raise Cancelled if the job was cancelled."""
        if self._cancel.is_set():
            raise Cancelled()

    def part(self, low: float, high: float) -> Job:
        """A job for the share [low, high] of this one: its progress maps into that range, and
        cancelling either cancels both."""
        return _Inner(self, lambda f, m: self.progress(low + f * (high - low), m))

    def shares(self, n: int) -> list[Job]:
        """`n` jobs that run at once: this one's progress is the mean of theirs, and
        cancelling any cancels all."""
        done = [0.0] * n
        lock = threading.Lock()

        def reporter(k: int) -> Callable[[float, str], None]:
            def report(fraction: float, message: str) -> None:
                with lock:
                    done[k] = fraction
                    mean = sum(done) / n
                self.progress(mean, message)
            return report

        return [_Inner(self, reporter(k)) for k in range(n)]


class _Inner(Job):
    """A job within `outer`: its progress goes to `report`, its cancel is outer's."""

    def __init__(self, outer: Job, report: Callable[[float, str], None]) -> None:
        super().__init__(report)
        self._outer = outer

    def cancel(self) -> None:
        self._outer.cancel()

    @property
    def cancelled(self) -> bool:
        return self._outer.cancelled

    def check(self) -> None:
        self._outer.check()
