"""The runner's launch order on numba's CUDA simulator, timed by the host's clock.

The simulator has no CUDA events and runs each launch before the launch call returns, so real
timing refuses it (runner.require_gpu). Here the events are stand-ins that read time.perf_counter
and the hold is skipped: the launches are the runner's own, on the simulator, and the times are
the simulator's, which mean nothing about a GPU. For tests and screenshots at tiny sizes only.
"""

from __future__ import annotations

import time
from unittest import mock

from viewer.core.jobs import Job
from viewer.kernels import runner

DEVICE = "numba's CUDA simulator (host clock; not a GPU time)"


class HostEvent:
    """A CUDA event's part the runner uses, on the host's clock."""

    def __init__(self, timing: bool = True) -> None:
        self.at = 0.0

    def record(self, stream: object = 0) -> None:
        self.at = time.perf_counter()

    def query(self) -> bool:
        return False  # taken as still queued behind the (skipped) hold

    def synchronize(self) -> None:
        pass


def elapsed_ms(begin: HostEvent, end: HostEvent) -> float:
    return (end.at - begin.at) * 1e3


def simulated_time_kernels(dim: int, job: Job) -> runner.TimingResult:
    """runner.time_kernels at `dim`, but on the simulator with host-clock events."""
    with (mock.patch.object(runner.cuda, "event", HostEvent, create=True),
          mock.patch.object(runner.cuda, "event_elapsed_time", elapsed_ms, create=True),
          mock.patch.object(runner, "hold", lambda us, stream=0: None)):
        kernels = runner.KERNEL_NAMES
        share = 1.0 / len(kernels)
        timings = tuple(
            runner.run_launch_order(name, dim, job.part(i * share, (i + 1) * share))
            for i, name in enumerate(kernels))
    return runner.TimingResult(dim=dim, device=DEVICE, kernels=timings)
