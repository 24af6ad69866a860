"""The timing panel's jobs: the look for a CUDA GPU and the timing runs, off the GUI thread.

Each runs on a viewer.qt.kit.workers.Worker of one thread, so the last launch of a cancelled run
never overlaps the next run on the GPU. numba is imported by those jobs, not when this module is
imported. What their answers mean comes out as signals, in the words of viewer.analysis.timing;
the panel (timing_panel.TimingPanel) draws them. Nothing here is a widget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from viewer.analysis.timing import (
    LOOKING,
    NEEDS_GPU,
    DeviceCheck,
    cancelled_text,
    failed_text,
    probe_failed_text,
    ready_text,
    timed_or_unavailable,
    timed_text,
    timing_now_text,
)
from viewer.analysis.timing_sizes import (
    sizes_now_text,
    sizes_timed_text,
    timed_sizes_or_unavailable,
)
from viewer.analysis.timing_status import progress_text
from viewer.core.jobs import Job
from viewer.qt.kit.workers import Worker

if TYPE_CHECKING:
    from viewer.kernels.runner import TimingResult
    from viewer.kernels.sizes import SizesTiming


class TimingJobs(QObject):
    """The GPU's answer (`device_check`) and the runs at a size, for `owner`, the panel.

    `find_device(job) -> DeviceCheck` and `run_timing(dim, job) -> TimingResult` are the plain
    functions it runs (over a list of sizes, viewer.kernels.sizes.time_sizes runs `run_timing` at
    each); `shown()` is the result on screen, which a failure's or a cancel's words
    mention. `said(text, kind)` is the status line ("info" or "problem"), `answered` a new answer
    about the GPU, `changed` what Run can do, `timed(result)` a run's result and
    `progressed(permille)` its progress.
    """

    said = Signal(str, str)
    answered = Signal()
    changed = Signal()
    timed = Signal(object)
    progressed = Signal(int)

    def __init__(self, owner: QWidget, run_timing: Callable[[int, Job], TimingResult],
                 find_device: Callable[[Job], DeviceCheck],
                 shown: Callable[[], TimingResult | SizesTiming | None]) -> None:
        super().__init__(owner)
        self._run_timing = run_timing
        self._find_device = find_device
        self._shown = shown
        self.looked = False
        self.device_check: DeviceCheck | None = None
        self.worker = Worker(owner, max_threads=1)
        self.probe = Worker(owner, max_threads=1)
        self.worker.done.connect(self._apply_result)
        self.worker.failed.connect(self._show_failure)
        self.worker.cancelled.connect(self._show_cancelled)
        self.worker.progress.connect(self._show_progress)
        self.probe.done.connect(self._apply_device)
        self.probe.failed.connect(self._probe_failed)

    @property
    def can_run(self) -> bool:
        return (self.device_check is not None and self.device_check.device is not None
                and not self.worker.busy)

    def check_device(self) -> None:
        """Look for a CUDA GPU off the GUI thread."""
        self.looked = True
        self.device_check = None
        self.said.emit(LOOKING, "info")
        self.changed.emit()
        self.probe.submit(self._find_device)

    def run(self, dims: int | Sequence[int]) -> None:
        """Time both kernels at `dims` (one size as always, a list size by size); without a GPU,
        say so instead."""
        if self.worker.busy:
            return
        check = self.device_check
        if check is None or check.device is None:
            problem = check.problem if check is not None else None
            self.said.emit(problem or LOOKING, "problem" if problem else "info")
            return
        self.progressed.emit(0)
        dims = [dims] if isinstance(dims, int) else list(dims)
        if len(dims) == 1:
            self.said.emit(timing_now_text(dims[0], check.device), "info")
            self.worker.submit(timed_or_unavailable, self._run_timing, dims[0])
            return
        self.said.emit(sizes_now_text(dims, check.device), "info")
        self.worker.submit(timed_sizes_or_unavailable, self._run_timing, dims)

    def cancel(self) -> None:
        self.worker.cancel()

    def shutdown(self, msecs: int = 30_000) -> bool:
        """Cancel what runs and wait for the jobs to return (for closing the window)."""
        return self.probe.shutdown(msecs) and self.worker.shutdown(msecs)

    # ------------------------------------------------------------------ answers

    def _apply_device(self, check: DeviceCheck) -> None:
        self.device_check = check
        if check.device is not None:
            self.said.emit(ready_text(check.device), "info")
        else:
            self.said.emit(check.problem or NEEDS_GPU, "problem")
        self.answered.emit()

    def _probe_failed(self, message: str) -> None:
        self._apply_device(DeviceCheck(problem=probe_failed_text(message)))

    def _apply_result(self, result: TimingResult | SizesTiming | DeviceCheck) -> None:
        from viewer.kernels.sizes import SizesTiming

        if isinstance(result, DeviceCheck):
            self._apply_device(result)
            return
        self.timed.emit(result)
        text, problem = (sizes_timed_text(result) if isinstance(result, SizesTiming)
                         else timed_text(result))
        self.said.emit(text, "problem" if problem else "info")

    def _show_failure(self, message: str) -> None:
        self.said.emit(failed_text(message, self._shown()), "problem")

    def _show_cancelled(self) -> None:
        self.said.emit(cancelled_text(self._shown()), "info")

    def _show_progress(self, fraction: float, message: str) -> None:
        self.progressed.emit(round(fraction * 1000))
        device = self.device_check.device if self.device_check is not None else None
        if (text := progress_text(device, message)) is not None:
            self.said.emit(text, "info")
