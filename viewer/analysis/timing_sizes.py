"""The timing tab's words over a list of sizes: the status lines, the table's cells and the
sentences under the plot (which points are over 2 % and what that means), all from the run's own
values (viewer.kernels.sizes). The panel shows them as they are."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from viewer.core import formatting as fmt
from viewer.core.jobs import Job

if TYPE_CHECKING:
    from viewer.analysis.timing import DeviceCheck
    from viewer.kernels.runner import TimingResult
    from viewer.kernels.sizes import SizesTiming, SizeTiming, Spread

SIZE_COLUMNS = ("N", "median", "min..max", "rel. std. dev.")
"""Per kernel; the table's columns are N, then these three per kernel, the ratio and stable."""
DESK_ONLY = ("min..max",)  # the plot's bars show them; a projected table keeps to the rest
BARS_TEXT = "Bars: min..max of the timed launches"
FLAG_TEXT = "over 2% rel. std. dev."


def median_legend(kernel: str) -> str:
    return f"{kernel}: median, bars min..max"


def sizes_text(dims: Sequence[int]) -> str:
    """'16, 32 (each N x N x N)'."""
    return f"{', '.join(map(str, dims))} (each N x N x N)"


def sizes_now_text(dims: Sequence[int], device: str) -> str:
    return f"Timing both kernels at {sizes_text(dims)} on {device}, one size after another..."


def sizes_timed_text(timing: SizesTiming) -> tuple[str, bool]:
    """The status after a run over sizes, and whether it reports a problem (a wrong product)."""
    failed = [f"{s.kernel} at {s.dim}" for size in timing.sizes for s in size.spreads
              if not s.passed]
    if failed:
        return (f"Timed at {sizes_text(timing.dims)}, but {', '.join(failed)} computed a wrong "
                "product.", True)
    return f"Timed both kernels at {sizes_text(timing.dims)}.", False


def columns(timing: SizesTiming) -> list[tuple[str, str]]:
    """(kernel or '', column) per table column, in order: N, each kernel's, ratio, stable."""
    out = [("", "N")]
    out += [(kernel, column) for kernel in timing.kernels for column in SIZE_COLUMNS[1:]]
    return [*out, ("", ratio_heading(timing)), ("", "stable")]


def ratio_heading(timing: SizesTiming) -> str:
    kernels = timing.kernels
    return f"{kernels[0]} / {kernels[1]}" if len(kernels) == 2 else "ratio"


def spread_cells(spread: Spread) -> tuple[str, str, str]:
    from viewer.kernels.sizes_table import percent

    return (fmt.milliseconds(spread.median_ms),
            f"{fmt.milliseconds(spread.min_ms).removesuffix(' ms')}.."
            f"{fmt.milliseconds(spread.max_ms)}",
            percent(spread.deviation))


def size_cells(size: SizeTiming) -> list[str]:
    """One size's row, in columns()'s order; stable is 'yes', 'NO' or missing (which kernel is
    over the limit reads in its own column and the sentence under the table)."""
    cells = [str(size.dim)]
    for spread in size.spreads:
        cells += spread_cells(spread)
    stable = {True: "yes", False: "NO", None: fmt.MISSING}[size.stable]
    return [*cells, fmt.ratio(size.ratio), stable]


def heading(kernel: str, column: str) -> str:
    """A column's heading: the kernel over its column's name, on two lines."""
    return f"{kernel}\n{column}" if kernel else column


def stability_text(timing: SizesTiming) -> str:
    """Which points are over 2 % and what that means, or that none is; the undefined named."""
    from viewer.kernels.sizes import DEVIATION_DEFINITION, DEVIATION_NAME, STABLE_MAX
    from viewer.kernels.sizes_table import unstable_text

    text = unstable_text(timing)
    if text:
        text += " Those points are ringed in the plot."
    else:
        text = (f"Every point is stable: each kernel's {DEVIATION_NAME} at most "
                f"{STABLE_MAX:.0%} at every size.")
    undefined = timing.undefined()
    if undefined:
        text += (" Undefined (fewer than two launches): "
                 f"{', '.join(f'{s.kernel} at {s.dim}' for s in undefined)}.")
    return f"{text} The {DEVIATION_NAME} is {DEVIATION_DEFINITION}."


def device_sizes_text(timing: SizesTiming) -> str:
    return f"{timing.device}, float32, at {sizes_text(timing.dims)}"


def timed_sizes_or_unavailable(run: Callable[[int, Job], TimingResult], dims: Sequence[int],
                               job: Job) -> SizesTiming | DeviceCheck:
    """Each size through `run`; a GPU that has gone becomes a DeviceCheck, as for one size."""
    from viewer.analysis.timing import unavailable
    from viewer.kernels.runner import GpuUnavailable
    from viewer.kernels.sizes import time_sizes

    try:
        return time_sizes(dims, job, run)
    except GpuUnavailable as exc:
        return unavailable(exc)
