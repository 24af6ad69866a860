"""The timing run's plain side: whether there is a GPU, and the words shown (over a list of
sizes: timing_sizes).

The panel in viewer/qt/views/timing/ runs these off the GUI thread (timing_jobs.py) and displays
what they say; every sentence it shows is made here (or, for the recorded times, in timing_record).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from viewer.core import formatting as fmt
from viewer.core.jobs import Job, one_line

if TYPE_CHECKING:
    from viewer.kernels.runner import KernelTiming, TimingResult
    from viewer.kernels.sizes import SizesTiming

NEEDS_GPU = "Timing needs an NVIDIA GPU with a CUDA driver."
PLAIN_RUN_NOTE = (
    "Timings come from a plain run, counters from a profiled run, never mixed: under ncu each "
    "kernel is replayed once per collection pass, so a clock read there times the profiler.")
LOOKING = "Looking for a CUDA GPU..."


def size_text(dim: int) -> str:
    return f"{dim} x {dim} x {dim}"


@dataclass(frozen=True)
class DeviceCheck:
    """What the look for a GPU found: the device's name, or why timing cannot run here."""

    device: str | None = None
    problem: str | None = None


def unavailable(exc: BaseException) -> DeviceCheck:
    """The one-line reason timing cannot run, from what numba raised."""
    from numba import config

    from viewer.kernels.runner import GpuUnavailable

    if config.ENABLE_CUDASIM:
        why = "numba's CUDA simulator is on (NUMBA_ENABLE_CUDASIM=1) and its times mean nothing"
    elif isinstance(exc, GpuUnavailable):
        why = "numba finds no CUDA GPU on this machine"
    else:
        why = f"numba could not use the GPU ({one_line(exc)})"
    return DeviceCheck(problem=f"No timing here: {why}. {NEEDS_GPU}")


def find_device(job: Job) -> DeviceCheck:
    """The CUDA device numba would time on, or why there is none (never raises for that)."""
    job.progress(0.0, LOOKING)
    try:
        from viewer.kernels.runner import require_gpu

        return DeviceCheck(device=require_gpu())
    except Exception as exc:
        return unavailable(exc)


def time_kernels(dim: int, job: Job) -> TimingResult:
    """viewer.kernels.runner.time_kernels, imported when first run."""
    from viewer.kernels.runner import time_kernels as run

    return run(dim, job)


def timed_or_unavailable(run: Callable[[int, Job], TimingResult], dim: int,
                         job: Job) -> TimingResult | DeviceCheck:
    """`run(dim, job)`; a GPU that has gone becomes a DeviceCheck rather than an error."""
    from viewer.kernels.runner import GpuUnavailable

    try:
        return run(dim, job)
    except GpuUnavailable as exc:
        return unavailable(exc)


def launch_order_text() -> str:
    """Per kernel, the launches the runner makes and which of them are timed."""
    from viewer.kernels import runner

    def launches(n: int, one: str, many: str) -> str:
        return f"{n} {one if n == 1 else many}"

    return ("Per kernel, the lesson's launch order: "
            f"{launches(runner.CORRECTNESS_LAUNCHES, 'correctness launch', 'correctness launches')}"
            " (checked against a float64 CPU reference), "
            f"{launches(runner.WARMUP_LAUNCHES, 'warm-up', 'warm-ups')}, "
            f"{launches(runner.TIMED_LAUNCHES, 'timed launch', 'timed launches')} (plotted), "
            "each between two CUDA events.")


def launches_axis_text() -> str:
    """The plot's x axis: which launches these are."""
    from viewer.kernels import runner

    return (f"timed launch (after {runner.CORRECTNESS_LAUNCHES} correctness + "
            f"{runner.WARMUP_LAUNCHES} warm-up launches)")


def ratio_text(result: TimingResult) -> str:
    """'naive / tiled: 4.58x', the ratio of the two kernels' medians ('' unless two)."""
    if len(result.kernels) != 2:
        return ""
    first, second = result.kernels
    ratio = first.median_ms / second.median_ms if second.median_ms > 0 else None
    return f"{first.kernel} / {second.kernel}: {fmt.ratio(ratio)}"


def dispatch_text(result: TimingResult) -> str:
    """numba's dispatch overhead, stated apart from the kernel times."""
    return ("Timed without dispatch: each launch queued behind a hold kernel; dispatch costs "
            f"{fmt.milliseconds(result.dispatch_ms)} per launch on the host (median host time of "
            "one launch call).")


def check_text(timing: KernelTiming) -> str:
    """'ok' or why the kernel's output is wrong."""
    if timing.passed:
        return "ok"
    if not timing.timed_output_matches:
        return "FAILED: output changed in the timed launches"
    return f"FAILED: relative error {timing.relative_error:.1e}"


def queue_warning(timing: KernelTiming) -> str:
    """'' when every timed launch waited behind its hold; else how many may include dispatch."""
    missed = timing.queued.count(False)
    if not missed:
        return ""
    launches = "launch was" if missed == 1 else "launches were"
    return (f"{missed} {timing.kernel} {launches} not queued behind the hold: "
            f"{'its time' if missed == 1 else 'their times'} may include dispatch.")


def device_text(result: TimingResult) -> str:
    return f"{result.device}, {size_text(result.dim)} float32"


RATIO_CAPTION = "Ratio of the median launch times"


def intro_text(launch_order: bool = True) -> str:
    """What Run does, with the launch order once the runner can be asked for it."""
    order = f" {launch_order_text()}" if launch_order else ""
    return ("Run times the naive and tiled matmuls at the chosen size, or at each size of a "
            "list (256,512,1024: their medians and spread plotted against N), on this machine's "
            "GPU."
            f"{order} Each timed launch waits behind a hold kernel, so the events time the kernel "
            "and not numba's dispatch, which is measured on the same launches and shown apart.")


def ready_text(device: str) -> str:
    return f"Ready to time on {device}."


def timing_now_text(dim: int, device: str) -> str:
    return f"Timing both kernels at {size_text(dim)} on {device}..."


def timed_text(result: TimingResult) -> tuple[str, bool]:
    """The status after a run, and whether it reports a problem (a wrong product)."""
    failed = [k.kernel for k in result.kernels if not k.passed]
    if failed:
        return (f"Timed at {size_text(result.dim)}, but {' and '.join(failed)} computed a wrong "
                "product: see the check column.", True)
    return f"Timed both kernels at {size_text(result.dim)}.", False


def probe_failed_text(message: str) -> str:
    return f"No timing here: looking for a GPU failed ({message}). {NEEDS_GPU}"


def still_shown_text(result: TimingResult | SizesTiming | None) -> str:
    """What the plot still shows after a failure or a cancel: the run at its size or sizes."""
    from viewer.kernels.sizes import SizesTiming

    if result is None:
        return ""
    at = (", ".join(map(str, result.dims)) if isinstance(result, SizesTiming)
          else size_text(result.dim))
    return f" The plot still shows the run at {at}."


def failed_text(message: str, result: TimingResult | SizesTiming | None) -> str:
    return f"Timing failed: {message.rstrip('.')}.{still_shown_text(result)}"


def cancelled_text(result: TimingResult | SizesTiming | None) -> str:
    return f"Cancelled.{still_shown_text(result)}"


def run_cells(timing: KernelTiming) -> tuple[str, ...]:
    """A timed kernel's row: kernel, median, min, max, GFLOP/s, check."""
    ms = fmt.milliseconds
    return (timing.kernel, ms(timing.median_ms), ms(min(timing.launches_ms)),
            ms(max(timing.launches_ms)), f"{timing.gflops():,.0f}", check_text(timing))


def warnings_text(result: TimingResult) -> str:
    return " ".join(w for w in (queue_warning(k) for k in result.kernels) if w)


SHOW_RECORD = "Show the recorded times"
SHOW_RUN = "Show this machine's run"
