"""Warp stalls: why a warp waited between two of its instructions, as ncu's Warp State Statistics
section shows it, one plain sentence each on what the reason means and what usually fixes it
(Long Scoreboard's, where the report's loads are already coalesced, says what is left).

ncu's WarpStateStats section charts `smsp__average_warps_issue_stalled_<reason>_per_issue_active
.ratio`: warps stalled for that reason per cycle that issued an instruction, that is the cycles a
warp spends in that state per instruction it issues. Together they add up to "Warp Cycles Per
Issued Instruction" (`smsp__average_warp_latency_per_inst_issued.ratio`), the total a stall's
share is taken of. A report with only the sampled counts (`smsp__pcsamp_warps_issue_stalled_*`,
the Source Counters section's) gets shares of the samples and no cycles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from viewer.core import formatting as fmt
from viewer.core.metrics import BARRIER_STALL, SUMMARY_METRICS
from viewer.core.model import Kernel

TOTAL = "smsp__average_warp_latency_per_inst_issued.ratio"
STALL_SETS = "`--set full` (or the sections WarpStateStats and SourceCounters)"
MISSING_TEXT = (f"this report holds no warp stall metrics: a capture with {STALL_SETS} has them,"
                " in the .ncu-rep and its `--page raw` export")


@dataclass(frozen=True)
class Reason:
    """One stall reason: its key as the ratio metric spells it, its name in ncu's chart, its
    sampled metric's spelling, what it means and what usually fixes it."""

    key: str
    label: str
    meaning: str
    fix: str
    sampled_key: str | None = None

    @property
    def metric(self) -> str:
        return f"smsp__average_warps_issue_stalled_{self.key}_per_issue_active.ratio"

    @property
    def sampled_metric(self) -> str:
        return f"smsp__pcsamp_warps_issue_stalled_{self.sampled_key or self.key}"


REASONS: tuple[Reason, ...] = (
    Reason("long_scoreboard", "Stall Long Scoreboard",
           "waiting for data from L1TEX: a global, local, texture or surface load",
           "coalesce the loads, raise the cache hit rates, keep reused data in shared memory "
           "(the lesson's tiling)"),
    Reason("barrier", "Stall Barrier",
           "waiting at a barrier (__syncthreads) for the other warps of its block",
           "give the warps between two barriers equal work, or need fewer barriers"),
    Reason("lg_throttle", "Stall LG Throttle",
           "the queue for local and global memory instructions is full",
           "issue fewer, wider memory instructions (vector loads) and avoid local-memory spills"),
    Reason("mio_throttle", "Stall MIO Throttle",
           "the queue for shared memory, special math and other MIO instructions is full",
           "fewer shared-memory instructions (wider loads), no bank conflicts"),
    Reason("short_scoreboard", "Stall Short Scoreboard",
           "waiting for a result from shared memory or the special-function unit",
           "avoid shared-memory bank conflicts and needless special functions (sin, sqrt, rcp)"),
    Reason("math_pipe_throttle", "Stall Math Pipe Throttle",
           "the math pipeline it needs is busy: the kernel keeps that pipe full",
           "mix instructions across pipes, or use a faster pipe (tensor cores, FMA)"),
    Reason("tex_throttle", "Stall Tex Throttle",
           "the texture unit's queue is full",
           "fewer texture or TEX-path instructions, or spread them out"),
    Reason("wait", "Stall Wait",
           "waiting out a fixed-latency dependency on an earlier instruction",
           "more independent instructions between dependent ones, or more eligible warps"),
    Reason("not_selected", "Stall Not Selected",
           "ready, but the scheduler issued another warp: there were enough warps",
           "nothing to fix; many such cycles mean fewer warps would do"),
    Reason("selected", "Selected",
           "the cycle the warp issued its instruction: not a stall",
           "nothing to fix: one cycle per instruction"),
    Reason("dispatch_stall", "Stall Dispatch Stall",
           "the dispatcher could not send the chosen instruction on",
           "rarely in the kernel's hands: look for pipeline conflicts"),
    Reason("drain", "Stall Drain",
           "after EXIT, waiting for the warp's memory writes to drain",
           "usually small; fewer stores at the very end of the kernel"),
    Reason("imc_miss", "Stall IMC Miss",
           "waiting for the immediate constant cache after a miss",
           "fewer distinct constants, read uniformly across the warp"),
    Reason("branch_resolving", "Stall Branch Resolving",
           "waiting for a branch's target to be computed",
           "fewer and less divergent branches"),
    Reason("no_instruction", "Stall No Instruction",
           "waiting for instructions: an instruction cache miss or a jump",
           "smaller code: less unrolling, fewer far jumps", sampled_key="no_instructions"),
    Reason("membar", "Stall Membar",
           "waiting at a memory barrier (a fence)",
           "fewer fences, of narrower scope"),
    Reason("sleeping", "Stall Sleeping",
           "the warp sleeps (nanosleep or a yield)",
           "sleep less, or not at all"),
    Reason("gmma", "Stall GMMA",
           "waiting for a warpgroup matrix multiply (Hopper's wgmma) to finish",
           "overlap the matrix multiplies with other work"),
    Reason("misc", "Stall Misc",
           "a rare hardware reason ncu does not name",
           "nothing specific"),
)

# A warp's 32 lanes reading consecutive 32-bit words: 128 bytes, four 32-byte sectors per request.
COALESCED_SECTORS = 4.0
NEAR_IDEAL = 1.1  # sectors per request within this factor of COALESCED_SECTORS: coalesced
_REQUESTS = SUMMARY_METRICS["global_load_requests"]
_SECTORS = SUMMARY_METRICS["global_load_sectors"]
_SHARED_LOADS = SUMMARY_METRICS["shared_load_instructions"]


def coalesced_fix(kernel: Kernel) -> str | None:
    """Long Scoreboard's fix where the report's loads are already coalesced (sectors per request
    near the ideal): what is left, from its counts; None where they are not, or unknown."""
    requests, sectors = kernel.metric(_REQUESTS), kernel.metric(_SECTORS)
    if not requests or sectors is None or sectors / requests > COALESCED_SECTORS * NEAR_IDEAL:
        return None
    shared = kernel.metric(_SHARED_LOADS)
    reuse = (f"more reuse per loaded value through shared memory (it already executes "
             f"{fmt.count(shared)} shared load instructions)" if shared else
             "reuse of each loaded value through shared memory (the lesson's tiling)")
    return (f"here the loads are already coalesced: {sectors / requests:.2f} sectors per request "
            f"({_SECTORS} over {_REQUESTS}; a fully coalesced warp load of 32-bit words is "
            f"{COALESCED_SECTORS:.0f}), so what is left is the number of loads "
            f"({fmt.count(requests)} global load requests) and {reuse}")


STALL_METRICS: frozenset[str] = frozenset(
    {TOTAL} | {r.metric for r in REASONS} | {r.sampled_metric for r in REASONS})
"""Every metric name the stall view reads (ask the reader for them)."""


@dataclass(frozen=True)
class Stall:
    """One reason on one kernel: cycles per issued instruction (None when only samples are
    held), its share of the total in percent, and the samples that caught it."""

    reason: Reason
    cycles_per_instruction: float | None
    share_pct: float | None
    samples: float | None
    fix: str | None = None  # what the report's own values leave to fix, where they say

    @property
    def advice(self) -> str:
        """'usually fixed by: ...', or what this report's values leave to fix."""
        return self.fix or f"usually fixed by: {self.reason.fix}"

    @property
    def sentence(self) -> str:
        """What it means and what fixes it, in one sentence."""
        return f"{self.reason.label}: {self.reason.meaning}; {self.advice}."


@dataclass(frozen=True)
class Stalls:
    """A kernel's stalls, the largest first; `cycles_per_instruction` is the total (None when
    the report lacks it), `empty` when the report holds no stall metric (say MISSING_TEXT)."""

    stalls: tuple[Stall, ...]
    cycles_per_instruction: float | None

    @property
    def empty(self) -> bool:
        return not self.stalls

    def get(self, key: str) -> Stall | None:
        return next((s for s in self.stalls if s.reason.key == key), None)


def _share(part: float | None, whole: float | None) -> float | None:
    return None if part is None or not whole else 100.0 * part / whole


def stalls(kernel: Kernel) -> Stalls:
    """The reasons the report holds for `kernel`, by cycles per instruction (else by samples),
    largest first."""
    total = kernel.metric(TOTAL)
    cycles = {r.key: kernel.metric(r.metric) for r in REASONS}
    samples = {r.key: kernel.metric(r.sampled_metric) for r in REASONS}
    by_cycles = any(v is not None for v in cycles.values())
    if by_cycles:
        whole = total if total else sum(v for v in cycles.values() if v is not None)
        found = [Stall(r, cycles[r.key], _share(cycles[r.key], whole), samples[r.key])
                 for r in REASONS if cycles[r.key] is not None]
    else:
        whole = sum(v for v in samples.values() if v is not None)
        found = [Stall(r, None, _share(samples[r.key], whole), samples[r.key])
                 for r in REASONS if samples[r.key] is not None]
    fixes = {"long_scoreboard": coalesced_fix(kernel)}
    found = [replace(s, fix=fixes.get(s.reason.key)) for s in found]
    found.sort(key=lambda s: -(s.share_pct or 0.0))
    return Stalls(tuple(found), total)


def held(kernel: Kernel) -> bool | None:
    """Whether the report holds warp stall metrics for `kernel`; None while that is unknown.
    ncu's WarpStateStats gives every reason's ratio together, Stall Barrier's among them, and the
    first read asks for that one: read and absent, the report holds none."""
    if any(kernel.metric(name) is not None for name in STALL_METRICS):
        return True
    return False if kernel.was_read(BARRIER_STALL) else None


@dataclass(frozen=True)
class StallChange:
    """One reason on two kernels: cycles per issued instruction (else share) of each."""

    reason: Reason
    first: float | None
    second: float | None
    by: str  # "cycles" or "share"
    advice: str = ""  # as each kernel's Stall words it, "A: ...; B: ..." where they differ

    @property
    def change(self) -> float | None:
        """Second minus first (cycles per instruction, or percentage points of share)."""
        return None if self.first is None or self.second is None else self.second - self.first


def compare(first: Stalls, second: Stalls) -> tuple[StallChange, ...]:
    """Every reason either holds, the largest change first; by cycles per issued instruction
    when both hold them, else by share."""
    by_cycles = all(s.cycles_per_instruction is not None
                    for stalls_ in (first, second) for s in stalls_.stalls)
    keys = [r for r in REASONS if first.get(r.key) or second.get(r.key)]

    def value(found: Stalls, reason: Reason) -> float | None:
        stall = found.get(reason.key)
        if stall is None:
            return None
        return stall.cycles_per_instruction if by_cycles else stall.share_pct

    def advice(reason: Reason) -> str:
        said = [(side, s.advice) for side, s in zip("AB", (first.get(reason.key),
                                                            second.get(reason.key)),
                                                     strict=True) if s is not None]
        if len({text for _, text in said}) == 1:
            return said[0][1]
        return "; ".join(f"{side}: {text}" for side, text in said)

    changes = [StallChange(r, value(first, r), value(second, r),
                           "cycles" if by_cycles else "share", advice(r)) for r in keys]
    changes.sort(key=lambda c: -abs(c.change) if c.change is not None else 0.0)
    return tuple(changes)


def top(found: Stalls, count: int = 3, skip: Sequence[str] = ("selected",)) -> tuple[Stall, ...]:
    """The `count` largest stalls, leaving out `skip` (the issue cycle itself is no stall)."""
    return tuple(s for s in found.stalls if s.reason.key not in skip)[:count]
