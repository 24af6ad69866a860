"""Timing over a list of sizes: each size timed as `runner.time_kernels` times one, each kernel's
timed launches summed up as their median, min, max and relative deviation, and each flagged
stable or not.

The relative deviation is nsight-python's RelativeStdDev: the sample standard deviation of a
kernel's timed launches (denominator n - 1) over their mean. A point is stable when it is at most
STABLE_MAX (2 %); with fewer than two launches, or a mean of zero, it is undefined, and so is the
flag (None, shown as missing). The sizes are the capture helper's grammar (at most 8, each 16 to
8192 in steps of 16, no repeats): viewer.capture.helper.protocol.parse_dims, which root's helper
reads too.

Plain: `time_sizes(dims, job)` takes a viewer.core.jobs.Job, its progress a share per size, and
stops between sizes (raising Cancelled) once the job is cancelled.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from viewer.capture.helper.protocol import Refusal, parse_dims
from viewer.core.jobs import Job

if TYPE_CHECKING:
    from viewer.kernels.runner import KernelTiming, TimingResult

STABLE_MAX = 0.02
"""The largest relative deviation of a stable point (nsight-python's 2 %)."""
DEVIATION_NAME = "relative standard deviation"
DEVIATION_DEFINITION = "the sample standard deviation of a kernel's timed launches over their mean"

TimeAt = Callable[[int, Job], "TimingResult"]


def parse_sizes(text: str) -> tuple[int, ...]:
    """`N` or `N,N,...` as the capture helper reads it; ValueError with its sentence."""
    try:
        return parse_dims(text.replace(" ", ""))
    except Refusal as refusal:
        raise ValueError(refusal.message) from None


def relative_deviation(values: Sequence[float]) -> float | None:
    """Sample standard deviation over mean; None for fewer than two values or a mean <= 0."""
    if len(values) < 2:
        return None
    mean = statistics.fmean(values)
    if mean <= 0:
        return None
    return statistics.stdev(values) / mean


def is_stable(deviation: float | None) -> bool | None:
    """Whether a point with this relative deviation is stable; None where it is undefined."""
    return None if deviation is None else deviation <= STABLE_MAX


@dataclass(frozen=True)
class Spread:
    """One kernel at one size: its timed launches' median, min and max (ms) and deviation."""

    kernel: str
    dim: int
    median_ms: float
    min_ms: float
    max_ms: float
    deviation: float | None
    passed: bool

    @property
    def stable(self) -> bool | None:
        return is_stable(self.deviation)

    @classmethod
    def of(cls, timing: KernelTiming) -> Spread:
        launches = timing.launches_ms
        return cls(timing.kernel, timing.dim, timing.median_ms, min(launches), max(launches),
                   relative_deviation(launches), timing.passed)


@dataclass(frozen=True)
class SizeTiming:
    """One size of the list: the runner's own result and its kernels' spreads, in its order."""

    result: TimingResult

    @property
    def dim(self) -> int:
        return self.result.dim

    @property
    def spreads(self) -> tuple[Spread, ...]:
        return tuple(Spread.of(k) for k in self.result.kernels)

    def spread(self, kernel: str) -> Spread:
        return Spread.of(self.result.kernel(kernel))

    @property
    def ratio(self) -> float | None:
        """The first kernel's median over the second's (naive / tiled); None unless two."""
        if len(self.result.kernels) != 2:
            return None
        first, second = self.result.kernels
        return first.median_ms / second.median_ms if second.median_ms > 0 else None

    @property
    def stable(self) -> bool | None:
        """Every kernel stable: False if one is not, None if one is undefined and none fails."""
        flags = [s.stable for s in self.spreads]
        if False in flags:
            return False
        return None if None in flags else True


@dataclass(frozen=True)
class SizesTiming:
    """A timing run over a list of sizes, on one device, the sizes in the order given."""

    device: str
    sizes: tuple[SizeTiming, ...]

    @property
    def dims(self) -> tuple[int, ...]:
        return tuple(s.dim for s in self.sizes)

    @property
    def kernels(self) -> tuple[str, ...]:
        return tuple(k.kernel for k in self.sizes[0].result.kernels) if self.sizes else ()

    def unstable(self) -> list[Spread]:
        """The points over STABLE_MAX, size by size."""
        return [s for size in self.sizes for s in size.spreads if s.stable is False]

    def undefined(self) -> list[Spread]:
        """The points whose deviation is undefined (fewer than two launches)."""
        return [s for size in self.sizes for s in size.spreads if s.stable is None]

    @property
    def passed(self) -> bool:
        return all(s.passed for size in self.sizes for s in size.spreads)


def _default_time_at(dim: int, job: Job) -> TimingResult:
    from viewer.kernels.runner import time_kernels

    return time_kernels(dim, job)


def time_sizes(dims: Sequence[int], job: Job, time_at: TimeAt | None = None) -> SizesTiming:
    """Time each size of `dims` in turn with `time_at` (runner.time_kernels: a real GPU).

    Progress is a share per size; a cancel stops before the next size (and, inside one, where the
    runner next reports progress)."""
    run = time_at or _default_time_at
    if not dims:
        raise ValueError("no sizes to time")
    share = 1.0 / len(dims)
    sizes = []
    for i, dim in enumerate(dims):
        job.progress(i * share, f"size {dim} ({i + 1} of {len(dims)})")
        sizes.append(SizeTiming(run(dim, job.part(i * share, (i + 1) * share))))
    job.progress(1.0, "timed")
    return SizesTiming(device=sizes[0].result.device, sizes=tuple(sizes))


def as_dict(timing: SizesTiming) -> dict[str, object]:
    """The --json form: the definition, then per size each kernel's figures and launches."""
    return {
        "schema": 1,
        "device": timing.device,
        "deviation": f"{DEVIATION_NAME}: {DEVIATION_DEFINITION}",
        "stable_max": STABLE_MAX,
        "sizes": [{
            "dim": size.dim,
            "ratio": size.ratio,
            "stable": size.stable,
            "kernels": [{
                "kernel": s.kernel, "median_ms": s.median_ms, "min_ms": s.min_ms,
                "max_ms": s.max_ms, "relative_deviation": s.deviation, "stable": s.stable,
                "passed": s.passed, "launches_ms": list(k.launches_ms),
            } for s, k in zip(size.spreads, size.result.kernels, strict=True)],
        } for size in timing.sizes],
    }
