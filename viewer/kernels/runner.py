"""The lesson's launch order, correctness checks and timing for the matmul kernels.

Per kernel: CORRECTNESS_LAUNCHES launch into an output poisoned with NaN, checked against a
float64 CPU reference on fresh random inputs; WARMUP_LAUNCHES warm-ups; TIMED_LAUNCHES timed
launches. The ncu command (viewer/kernels/ncu_command.py) skips the first two groups and captures
the first timed launch.

Each timed launch is queued behind a hold kernel (viewer/kernels/hold.py), and two CUDA events
bracket the launch alone. While the GPU is still holding, the host finishes the launch call, so
the events time the kernel and not numba's dispatch; the result records, per launch, whether the
hold really was still running when the launch was queued. The host time of the launch call, the
dispatch overhead, is measured on the same launches and reported beside it.

The functions here are plain: they take a viewer.core.jobs.Job for progress and cancellation and
return dataclasses, so a GUI can run them off its own thread.
"""

from __future__ import annotations

import statistics
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import config, cuda

from viewer.core.jobs import Job
from viewer.kernels.hold import hold
from viewer.kernels.matmul import KERNELS, DeviceArray, launch

CORRECTNESS_LAUNCHES = 1
WARMUP_LAUNCHES = 3
TIMED_LAUNCHES = 10
LAUNCHES_PER_KERNEL = CORRECTNESS_LAUNCHES + WARMUP_LAUNCHES + TIMED_LAUNCHES

MAX_RELATIVE_ERROR = 1e-5
"""||out - ref|| / ||ref|| above this fails a check (float32 products land far below it)."""

KERNEL_NAMES: tuple[str, ...] = tuple(KERNELS)

HOLD_MIN_US = 1000
"""The shortest hold queued ahead of a timed launch, in microseconds."""
HOLD_PER_DISPATCH = 20
"""The hold is at least this many times the slowest warm-up launch call."""


# The hold kernel is one block and checks run small grids on purpose: numba's low-occupancy
# warning (its class differs between numba and numba-cuda, so match the text) says nothing here.
warnings.filterwarnings("ignore", message=r".*will likely result in GPU under-utilization")


class GpuUnavailable(RuntimeError):
    """Timing needs a real CUDA GPU and there is none (or numba's simulator is on)."""


@dataclass(frozen=True)
class KernelCheck:
    """One correctness launch against the float64 reference."""

    kernel: str
    dim: int
    relative_error: float

    @property
    def passed(self) -> bool:
        return bool(self.relative_error < MAX_RELATIVE_ERROR)


@dataclass(frozen=True)
class KernelTiming:
    """One kernel's run through the launch order.

    launches_ms: the timed launches, each the GPU time between the events around it.
    dispatch_ms: the host time of those launch calls, one per timed launch.
    queued: per timed launch, whether it was queued before the hold ahead of it ended (when
    False, that launch's time may include dispatch).
    timed_output_matches: the output after the timed launches equals, bit for bit, the checked
    output of the correctness launch.
    """

    kernel: str
    dim: int
    relative_error: float
    launches_ms: tuple[float, ...]
    dispatch_ms: tuple[float, ...]
    queued: tuple[bool, ...]
    timed_output_matches: bool

    @property
    def median_ms(self) -> float:
        return statistics.median(self.launches_ms)

    @property
    def median_dispatch_ms(self) -> float:
        return statistics.median(self.dispatch_ms)

    @property
    def passed(self) -> bool:
        return bool(self.relative_error < MAX_RELATIVE_ERROR) and self.timed_output_matches

    def gflops(self) -> float:
        """Useful work, 2 * dim**3 floating-point operations, over the median launch time."""
        return 2.0 * self.dim**3 / (self.median_ms * 1e-3) / 1e9


@dataclass(frozen=True)
class TimingResult:
    """A timing run: every kernel's launches, at one size, on one device."""

    dim: int
    device: str
    kernels: tuple[KernelTiming, ...]

    @property
    def dispatch_ms(self) -> float:
        """Median host time of one launch call, over every timed launch of every kernel."""
        return statistics.median(d for k in self.kernels for d in k.dispatch_ms)

    def kernel(self, name: str) -> KernelTiming:
        for timing in self.kernels:
            if timing.kernel == name:
                return timing
        raise KeyError(name)


def require_gpu() -> str:
    """The name of the CUDA device numba will use; GpuUnavailable when there is none."""
    if config.ENABLE_CUDASIM:
        raise GpuUnavailable(
            "timing needs a real CUDA GPU, and numba's CUDA simulator is on "
            "(NUMBA_ENABLE_CUDASIM=1)"
        )
    if not cuda.is_available():
        raise GpuUnavailable("timing needs a CUDA GPU, and numba finds none on this machine")
    name = cuda.get_current_device().name
    return name.decode() if isinstance(name, bytes) else str(name)


def random_inputs(dim: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Fresh a and b, dim x dim, flat float32, uniform in [-1, 1)."""
    a = rng.uniform(-1.0, 1.0, dim * dim).astype(np.float32)
    b = rng.uniform(-1.0, 1.0, dim * dim).astype(np.float32)
    return a, b


def reference(a: np.ndarray, b: np.ndarray, dim: int) -> np.ndarray:
    """a @ b in float64 on the CPU, flat."""
    a64 = a.reshape(dim, dim).astype(np.float64)
    b64 = b.reshape(dim, dim).astype(np.float64)
    return (a64 @ b64).ravel()


def relative_error(out: np.ndarray, ref: np.ndarray) -> float:
    """||out - ref|| / ||ref||; NaN when out holds a NaN (an element nothing wrote)."""
    return float(np.linalg.norm(out.astype(np.float64) - ref) / np.linalg.norm(ref))


def _validate(name: str, dim: int) -> None:
    if name not in KERNELS:
        raise ValueError(f"unknown kernel {name!r}; the kernels are {', '.join(KERNEL_NAMES)}")
    if dim < 1:
        raise ValueError(f"size must be a positive integer, got {dim}")


def _problem(dim: int, rng: np.random.Generator) -> tuple[np.ndarray, DeviceArray, DeviceArray,
                                                          DeviceArray]:
    """Fresh inputs on the device, their float64 reference, and an output poisoned with NaN."""
    a, b = random_inputs(dim, rng)
    ref = reference(a, b, dim)
    d_c = cuda.to_device(np.full(dim * dim, np.nan, dtype=np.float32))
    return ref, cuda.to_device(a), cuda.to_device(b), d_c


def check_kernel(name: str, dim: int, rng: np.random.Generator) -> KernelCheck:
    """One correctness launch of kernel `name` at dim x dim x dim, on fresh inputs."""
    _validate(name, dim)
    ref, d_a, d_b, d_c = _problem(dim, rng)
    launch(name, d_a, d_b, d_c, dim, dim, dim)
    cuda.synchronize()
    return KernelCheck(name, dim, relative_error(d_c.copy_to_host(), ref))


def check(
    dim: int, job: Job, kernels: Sequence[str] = KERNEL_NAMES, seed: int | None = None
) -> list[KernelCheck]:
    """Check each kernel once at dim; runs on numba's CUDA simulator too."""
    rng = np.random.default_rng(seed)
    results = []
    for i, name in enumerate(kernels):
        job.progress(i / len(kernels), f"checking {name} at {dim}")
        results.append(check_kernel(name, dim, rng))
    job.progress(1.0, "checked")
    return results


def run_launch_order(
    name: str, dim: int, job: Job, rng: np.random.Generator | None = None
) -> KernelTiming:
    """Run kernel `name` through the lesson's launch order at dim and time the timed launches.

    Needs a real GPU.
    """
    _validate(name, dim)
    rng = rng if rng is not None else np.random.default_rng()
    steps = LAUNCHES_PER_KERNEL

    def progress(done: int, what: str) -> None:
        job.progress(done / steps, f"{name} at {dim}: {what}")

    ref, d_a, d_b, d_c = _problem(dim, rng)

    hold(0)
    progress(0, "correctness launch")
    for _ in range(CORRECTNESS_LAUNCHES):
        launch(name, d_a, d_b, d_c, dim, dim, dim)
    cuda.synchronize()
    checked = d_c.copy_to_host()
    error = relative_error(checked, ref)

    warmup_dispatch = []
    for i in range(WARMUP_LAUNCHES):
        progress(CORRECTNESS_LAUNCHES + i, "warm-up")
        t0 = time.perf_counter()
        launch(name, d_a, d_b, d_c, dim, dim, dim)
        warmup_dispatch.append(time.perf_counter() - t0)
    cuda.synchronize()

    hold_us = max(HOLD_MIN_US, int(HOLD_PER_DISPATCH * max(warmup_dispatch, default=0) * 1e6))
    begin, end = cuda.event(timing=True), cuda.event(timing=True)
    launches_ms, dispatch_ms, queued = [], [], []
    for i in range(TIMED_LAUNCHES):
        progress(CORRECTNESS_LAUNCHES + WARMUP_LAUNCHES + i, "timed launch")
        hold(hold_us)
        begin.record()
        t0 = time.perf_counter()
        launch(name, d_a, d_b, d_c, dim, dim, dim)
        dispatch_ms.append((time.perf_counter() - t0) * 1e3)
        end.record()
        was_queued = not begin.query()
        end.synchronize()
        launches_ms.append(cuda.event_elapsed_time(begin, end))
        queued.append(was_queued)
        if not was_queued:
            hold_us *= 4
    matches = bool(np.array_equal(d_c.copy_to_host(), checked))
    progress(steps, "done")
    return KernelTiming(
        kernel=name,
        dim=dim,
        relative_error=error,
        launches_ms=tuple(launches_ms),
        dispatch_ms=tuple(dispatch_ms),
        queued=tuple(queued),
        timed_output_matches=matches,
    )


def time_kernels(
    dim: int, job: Job, kernels: Sequence[str] = KERNEL_NAMES, seed: int | None = None
) -> TimingResult:
    """Time each kernel through the launch order at dim; GpuUnavailable with no real GPU."""
    device = require_gpu()
    rng = np.random.default_rng(seed)
    share = 1.0 / len(kernels)
    timings = tuple(
        run_launch_order(name, dim, job.part(i * share, (i + 1) * share), rng)
        for i, name in enumerate(kernels)
    )
    job.progress(1.0, "timed")
    return TimingResult(dim=dim, device=device, kernels=timings)
