"""The occupancy reading: theoretical against achieved, the block limits that set the theoretical
figure, and what can (and cannot) explain the gap: "could have filled the machine" only on a grid
of a full wave or more; below one, what the small grid explains; barriers never for one warp.

Every value comes from the kernel's metrics; a metric the report lacks stays None, and the text
says what is missing instead of inventing a number.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from viewer.analysis.launch_grid import Grid, grid
from viewer.analysis.predict import WARP_SIZE
from viewer.analysis.reading import value
from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.core.model import Kernel

# An achieved occupancy this many points or more below theoretical counts as a gap worth explaining.
OCCUPANCY_GAP_PCT = 5.0


@dataclass(frozen=True)
class BlockLimit:
    name: str  # as the report labels it: "Block Limit Registers"
    metric: str
    blocks: float | None


@dataclass(frozen=True)
class Occupancy:
    theoretical_pct: float | None
    achieved_pct: float | None
    limits: tuple[BlockLimit, ...]
    waves_per_sm: float | None
    explanation: str
    barriers: float | None = None  # hardware barriers a block uses (launch__barrier_count)
    barrier_stall: float | None = None  # warps waiting at one, per issued instruction
    grid: Grid | None = None  # the launch against the GPU: does it hold a full wave?
    warps_per_block: int | None = None  # from the block size; a block of one waits at no barrier

    @property
    def gap_pct(self) -> float | None:
        if self.theoretical_pct is None or self.achieved_pct is None:
            return None
        return self.theoretical_pct - self.achieved_pct

    @property
    def binding(self) -> tuple[BlockLimit, ...]:
        """The limits that set the theoretical figure (the smallest; ties all bind)."""
        known = [lim for lim in self.limits if lim.blocks is not None]
        if not known:
            return ()
        least = min(lim.blocks for lim in known if lim.blocks is not None)
        return tuple(lim for lim in known if lim.blocks == least)


def occupancy(kernel: Kernel) -> Occupancy:
    limits = tuple(BlockLimit(metrics.label(metric), metric, kernel.metric(metric))
                   for metric in metrics.BLOCK_LIMITS
                   if metric != metrics.BARRIER_LIMIT or kernel.metric(metric) is not None)
    occ = Occupancy(value(kernel, "theoretical_occupancy_pct"),
                    value(kernel, "achieved_occupancy_pct"), limits,
                    kernel.metric(metrics.WAVES_PER_SM), "",
                    kernel.metric(metrics.BARRIER_COUNT), kernel.metric(metrics.BARRIER_STALL),
                    grid(kernel), _warps_per_block(kernel))
    return replace(occ, explanation=_occupancy_text(occ))


def _warps_per_block(kernel: Kernel) -> int | None:
    if kernel.block is None:
        return None
    threads = kernel.block[0] * kernel.block[1] * kernel.block[2]
    return -(-threads // WARP_SIZE)


def _barrier_words(occ: Occupancy) -> str | None:
    """'barriers (warps waited at one 3.12 cycles per issued instruction)', where a barrier can
    be a reason: None for a kernel without one, or a block of one warp (it waits at none)."""
    if occ.barriers == 0 or occ.warps_per_block == 1:
        return None
    if occ.barrier_stall is None:
        return "barriers"
    return (f"barriers (warps waited at one {occ.barrier_stall:.2f} cycles per issued "
            "instruction)")


def _small_grid_gap(occ: Occupancy, launch: Grid, gap: float) -> str:
    """What a grid under one full wave explains of the gap between theoretical and achieved."""
    head = (f"Achieved is {gap:.2f} points below theoretical on a grid under one full wave "
            f"({launch.text}), so the launch cannot fill the machine")
    blocks, sms, per_sm, waves = launch.blocks, launch.sms, launch.per_sm, launch.full_waves
    if blocks is not None and sms is not None and per_sm is not None and blocks < sms:
        return (f"{head}: fewer blocks than SMs, so an SM holds at most one block of the "
                f"{fmt.count(per_sm)} per SM the block limits allow, and the small grid, not "
                "the workload, keeps achieved below theoretical.")
    if waves is None or per_sm is None or occ.theoretical_pct is None:
        return (f"{head}: some SMs run short of warps whatever the workload does, and the "
                "small grid explains the gap before barriers or a slow block need to.")
    capacity = launch.capacity
    share = blocks / capacity if blocks is not None and capacity else waves
    share_pts = occ.theoretical_pct * (1 - share)
    text = (f"{head}: an SM holds on average {share * per_sm:.2f} of the {fmt.count(per_sm)} "
            f"blocks the block limits allow ({fmt.percent(100 * share)}), so the small grid "
            f"accounts for about {share_pts:.2f} points")
    if share_pts >= gap:
        return f"{text}, which covers the whole gap."
    reasons = [r for r in (_barrier_words(occ), "blocks ending at different times with none "
                           "left to take their place", "one block taking longer than its "
                           "neighbours") if r is not None]
    listed = ", ".join(reasons[:-1]) + " and " + reasons[-1]
    one_warp = (" (a block of one warp waits at no barrier)" if occ.warps_per_block == 1
                else " (the kernel has no barrier: launch__barrier_count is 0)"
                if occ.barriers == 0 else "")
    return (f"{text}; for the other {gap - share_pts:.2f}, {listed} are the usual "
            f"reasons{one_warp}; registers and shared memory are not, because the block limits "
            "already priced them in.")


def _occupancy_text(occ: Occupancy) -> str:
    parts = []
    binding = occ.binding
    if binding:
        names = ", ".join(lim.name for lim in binding)
        verb = "bind" if len(binding) > 1 else "binds"
        parts.append(f"{names} {verb} at {fmt.count(binding[0].blocks)} blocks per SM and set"
                     f"{'' if len(binding) > 1 else 's'} the theoretical figure.")
    else:
        parts.append("The report shows no block limits.")
    gap = occ.gap_pct
    if gap is None:
        parts.append("The gap between theoretical and achieved occupancy is unknown: the report "
                     "lacks one of the two.")
    elif gap >= OCCUPANCY_GAP_PCT and occ.grid is not None and occ.grid.small:
        parts.append(_small_grid_gap(occ, occ.grid, gap))
    elif gap >= OCCUPANCY_GAP_PCT:
        tail = ""
        waves = occ.grid.full_waves if occ.grid is not None else occ.waves_per_sm
        if waves is not None and waves % 1 != 0:
            tail = f" ({fmt.count(waves)} waves per SM: the last wave is partial)"
        reasons = [f"an uneven tail{tail}", "one block taking longer than its neighbours"]
        one_warp = occ.warps_per_block == 1
        barrier = _barrier_words(occ)
        if barrier is not None:
            reasons.insert(0, barrier)
        listed = ", ".join(reasons[:-1]) + " and " + reasons[-1]
        if waves is not None:
            filled = (f"Achieved is {gap:.2f} points below theoretical: the launch could have "
                      "filled the machine and the workload did not.")
        else:
            why = occ.grid.unknown_text if occ.grid is not None else "the report lacks the grid"
            filled = (f"Achieved is {gap:.2f} points below theoretical. Whether the launch could "
                      f"have filled the machine is unknown: {why}; if it could, the workload "
                      "did not.")
        parts.append(
            f"{filled} {listed[:1].upper()}{listed[1:]} are the usual "
            "reasons; registers and shared memory are not, because the block limits already "
            "priced them in.")
        if one_warp:
            parts.append("A block of one warp waits at no barrier, so barriers are not among "
                         "them.")
        elif occ.barriers == 0:
            parts.append("The kernel has no barrier (launch__barrier_count is 0), so barriers "
                         "are not among them.")
    else:
        parts.append(f"Achieved is within {OCCUPANCY_GAP_PCT:.0f} points of theoretical "
                     f"({gap:.2f}): the kernel kept the residency its launch allowed.")
    return " ".join(parts)
