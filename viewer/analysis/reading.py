"""The lesson's readings of a kernel: the summary's values, and the first reading, Speed Of Light.

Speed Of Light: Compute (SM) Throughput against Memory Throughput gives the verdict; the L1/TEX,
L2 and DRAM throughput rows name the busiest memory unit, so Memory Throughput is never read as
DRAM bandwidth (busiest_words: the one wording of it, the window's and the terminal's). Both rows
low on a grid below one wave is a small grid, not latency (viewer.analysis.launch_grid: ncu's
SOLBottleneck rule says "Small Grid" there too, and decides where the report lacks the SM count);
"latency" only where a small grid is ruled out. A unit row above Memory Throughput is told why.
The memory chart's reading is viewer.analysis.memory_traffic, occupancy's
viewer.analysis.occupancy_reading, and two kernels compared viewer.analysis.comparison.

Every value comes from the kernel's metrics; a metric the report lacks stays None, and the text
says what is missing instead of inventing a number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from viewer.analysis import stalls
from viewer.analysis.launch_grid import Grid, grid
from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.core.metrics import SUMMARY_KEYS, SUMMARY_METRICS
from viewer.core.model import Kernel
from viewer.readers.reference_toml import PublishedKernel

# The three readings in the lesson's order: the window's tabs and `--tab` follow it.
READING_ORDER: tuple[str, ...] = ("sol", "memory", "occupancy")
# The Series view's name: `--tab` opens it too (every report open, as one series).
SERIES_VIEW = "series"

# A speed-of-light row at or above this percent of its peak counts as high.
HIGH_PCT = 60.0

M = SUMMARY_METRICS  # short alias: summary key -> metric name
# Memory Throughput and a unit's row within this many points, and this share of Memory
# Throughput, agree: 0.03 % is within a point of 0.66 %, and 22 times smaller.
AGREE_POINTS = 1.0
AGREE_SHARE = 0.1
ELAPSED_CYCLES = metrics.LABELS[(metrics.SOL, "Elapsed Cycles")]
SM_ACTIVE_CYCLES = metrics.LABELS[(metrics.SOL, "SM Active Cycles")]
# Both rows low where the report cannot say whether the grid fills the GPU.
SMALL_OR_LATENCY = "small grid or latency-bound"


def value(kernel: Kernel, key: str) -> float | None:
    """A summary key's value for `kernel` in base units (sectors_per_request is derived)."""
    if key == "sectors_per_request":
        return sectors_per_request(kernel)
    return kernel.metric(M[key])


def sectors_per_request(kernel: Kernel) -> float | None:
    """Global load sectors over global load requests, when both counts exist."""
    requests = kernel.metric(M["global_load_requests"])
    sectors = kernel.metric(M["global_load_sectors"])
    if requests is None or sectors is None or requests == 0:
        return None
    return sectors / requests


def summary(kernel: Kernel) -> dict[str, float | None]:
    """The summary contract's metrics for one kernel, every key present, None when missing."""
    return {key: value(kernel, key) for key in SUMMARY_KEYS}


# ---------------------------------------------------------------- 1. Speed Of Light


@dataclass(frozen=True)
class MemoryUnit:
    """A unit's row; `elapsed_pct` its percent per elapsed cycle, the measure Memory Throughput
    takes: the report's own where it holds one (`elapsed_metric` names it), else a row per
    active cycle scaled by SM Active Cycles over Elapsed Cycles (`elapsed_metric` None), an
    estimate that only ranks the units and is never printed."""

    name: str
    metric: str
    pct: float | None
    elapsed_pct: float | None = None
    elapsed_metric: str | None = None



@dataclass(frozen=True)
class SpeedOfLight:
    compute_pct: float | None
    memory_pct: float | None
    dram_pct: float | None
    duration_ns: float | None
    units: tuple[MemoryUnit, ...]
    verdict: str | None  # "compute-bound", "memory-bound", "latency-bound", "small grid",
    # SMALL_OR_LATENCY (the report cannot tell which), None
    explanation: str
    grid: Grid | None = None
    sm_active_cycles: float | None = None
    elapsed_cycles: float | None = None

    @property
    def busiest_unit(self) -> MemoryUnit | None:
        """The busiest unit per elapsed cycle where the report tells, else by its row."""
        known = [u for u in self.units if u.pct is not None]
        return max(known, key=lambda u: u.elapsed_pct if u.elapsed_pct is not None
                   else u.pct or 0.0) if known else None

    @property
    def busiest_shown(self) -> MemoryUnit | None:
        """The busiest memory unit where the unit rows the report holds can tell: None when a
        unit's row is missing and Memory Throughput is above every row held, beyond where they
        agree (the busiest is then one the report does not show)."""
        busiest = self.busiest_unit
        if busiest is None or busiest.pct is None or self.memory_pct is None:
            return busiest
        if any(u.pct is None for u in self.units) and busiest.pct < self.memory_pct and \
                not agree(self.memory_pct, busiest.pct):
            return None
        return busiest

    @property
    def above_headline(self) -> tuple[str, ...]:
        """Why each unit row that reads above Memory Throughput (as printed) does, in words."""
        memory = self.memory_pct
        if memory is None:
            return ()
        m = fmt.percent(memory)
        return tuple(self._why_above(u, m) for u in self.units
                     if u.pct is not None and u.pct > memory and fmt.percent(u.pct) != m)

    def _why_above(self, unit: MemoryUnit, m: str) -> str:
        row = f"{metrics.label(unit.metric)} {fmt.percent(unit.pct)}"
        if not unit.metric.endswith("_active"):
            return (f"{row} reads above Memory Throughput {m} though both are per elapsed "
                    "cycle: ncu takes Memory Throughput from its own breakdown of memory "
                    "sub-metrics, so it is not simply the largest unit row.")
        text = (f"{row} reads above Memory Throughput {m} because it is a percent of the cycles "
                f"the unit was active ({_suffix(unit.metric)}), while Memory Throughput is a "
                f"percent of every elapsed cycle ({_suffix(M['memory_throughput_pct'])})")
        if unit.elapsed_metric is not None:
            return (text + f": per elapsed cycle the report holds {unit.name} at "
                    f"{fmt.percent(unit.elapsed_pct)} ({unit.elapsed_metric}).")
        active, elapsed = self.sm_active_cycles, self.elapsed_cycles
        if active is None or not elapsed:
            return text + "."
        return (text + f": the SMs were active on {fmt.percent(100 * active / elapsed)} of the "
                f"elapsed cycles (SM Active Cycles {fmt.count(active)} of Elapsed Cycles "
                f"{fmt.count(elapsed)}); the report does not hold {unit.name}'s own figure per "
                "elapsed cycle, so its row is not on Memory Throughput's scale.")


def agree(memory: float, pct: float) -> bool:
    """Memory Throughput and a unit's row agree: within AGREE_POINTS and AGREE_SHARE of it."""
    gap = abs(memory - pct)
    return gap <= AGREE_POINTS and gap <= AGREE_SHARE * memory


def _suffix(metric: str) -> str:
    """'pct_of_peak_sustained_active': the part of ncu's metric name that says per what."""
    return metric.rsplit(".", 1)[-1]


# The report's own per-elapsed-cycle figure of a unit whose row is per active cycle.
_ELAPSED_OF = {M["l1tex_throughput_pct"]: metrics.L1TEX_ELAPSED}


def _unit(kernel: Kernel, name: str, key: str, share: float | None) -> MemoryUnit:
    metric = M[key]
    pct = value(kernel, key)
    if pct is None or not metric.endswith("_active"):
        return MemoryUnit(name, metric, pct, pct, metric if pct is not None else None)
    held = _ELAPSED_OF.get(metric)
    if held is not None and (exact := kernel.metric(held)) is not None:
        return MemoryUnit(name, metric, pct, exact, held)
    return MemoryUnit(name, metric, pct, None if share is None else pct * share)


def speed_of_light(kernel: Kernel) -> SpeedOfLight:
    compute = value(kernel, "compute_sm_throughput_pct")
    memory = value(kernel, "memory_throughput_pct")
    active, elapsed = kernel.metric(SM_ACTIVE_CYCLES), kernel.metric(ELAPSED_CYCLES)
    share = active / elapsed if active is not None and elapsed else None
    units = tuple(_unit(kernel, name, key, share) for name, key in (
        ("L1/TEX", "l1tex_throughput_pct"), ("L2", "l2_throughput_pct"),
        ("DRAM", "dram_throughput_pct")))
    launch = grid(kernel)
    verdict, why = _verdict(compute, memory, launch, stalls.held(kernel))
    sol = SpeedOfLight(compute, memory, units[2].pct, value(kernel, "duration_ns"), units,
                       verdict, why, launch, active, elapsed)
    said = " ".join(p for p in (why, _published_words(kernel, compute, memory),
                                _busiest_sentence(sol)) if p)
    return replace(sol, explanation=said)


def _published_words(kernel: Kernel, compute: float | None, memory: float | None) -> str:
    """Of a published table's kernel: that its two headline rows are printed equal, and the
    lesson's own reading of it where the table gives one."""
    if not isinstance(kernel, PublishedKernel) or kernel.published is None:
        return ""
    words = []
    if compute is not None and memory is not None and fmt.percent(compute) == fmt.percent(memory):
        words.append("Both rows are the published table's, printed equal as the lesson "
                     "prints them.")
    lesson = kernel.published.reading
    if lesson is not None and lesson.kernel == kernel.name:
        words.append(f"The lesson's own reading ({lesson.said}) is that the busiest memory unit "
                     f"is {lesson.busiest_memory_unit}, not DRAM.")
    return " ".join(words)


def _stall_words(held: bool | None) -> str:
    """Where the warp stall reasons are, as far as the report tells."""
    if held:
        return "which the warp stall reasons (the Warp stalls view) explain"
    if held is False:
        return (f"which warp stall reasons would explain, but {stalls.MISSING_TEXT}"
                .replace("`", ""))
    return f"which warp stall reasons explain where a capture holds them ({stalls.STALL_SETS})" \
        .replace("`", "")


def _verdict(compute: float | None, memory: float | None, launch: Grid,
             held: bool | None) -> tuple[str | None, str]:
    if compute is None or memory is None:
        missing = " and ".join(
            name for name, v in (("Compute (SM) Throughput", compute),
                                 ("Memory Throughput", memory)) if v is None)
        return None, f"No verdict: the report does not show {missing}."
    c, m = fmt.percent(compute), fmt.percent(memory)
    if compute < HIGH_PCT and memory < HIGH_PCT:
        both = f"Both rows are below {HIGH_PCT:.0f} % (compute {c}, memory {m})"
        if launch.small:
            return "small grid", (
                f"{launch.text} — the grid does not fill the GPU; a small grid, not latency, "
                f"bounds it. {both}.")
        if launch.small is None:
            return SMALL_OR_LATENCY, (
                f"{both}: neither ceiling is the problem, and {launch.unknown_text}: a grid "
                "under one full wave leaves SMs idle and would explain both rows. Where the grid "
                f"fills the GPU, the kernel is stalled on latency, {_stall_words(held)}.")
        return "latency-bound", (
            f"{both}: neither ceiling is the problem; the kernel is stalled on latency, "
            f"{_stall_words(held)}.")
    if c == m:  # equal as printed: neither ceiling is the nearer
        return "compute- and memory-bound", (
            f"Compute (SM) Throughput and Memory Throughput are both {c}, at or above "
            f"{HIGH_PCT:.0f} %: both ceilings are equally near, and the busiest memory unit says "
            "which memory ceiling that is.")
    if compute > memory:
        return "compute-bound", (
            f"Compute (SM) Throughput {c} is high and above Memory Throughput {m}: "
            "the arithmetic pipelines are the nearer ceiling.")
    return "memory-bound", (
        f"Memory Throughput {m} is high and above Compute (SM) Throughput {c}: "
        "the busiest memory unit is the nearer ceiling.")


ACTIVE_WORDS = " of its active cycles"


def busiest_words(sol: SpeedOfLight) -> str:
    """The busiest memory unit in one phrase, the one wording the window and the terminal show:
    'L1/TEX at 87.13 %' (with ACTIVE_WORDS where its row reads per active cycle above Memory
    Throughput), or why the unit rows the report holds cannot name it."""
    busiest = sol.busiest_shown
    if busiest is not None:
        active = busiest.metric.endswith("_active") and bool(sol.above_headline)
        return f"{busiest.name} at {fmt.percent(busiest.pct)}" + (ACTIVE_WORDS if active else "")
    missing = [u.name for u in sol.units if u.pct is None]
    if len(missing) == len(sol.units):
        return f"unknown: unit rows {fmt.NOT_IN_REPORT}"
    return (f"{' or '.join(missing)}, {fmt.NOT_IN_REPORT}: Memory Throughput "
            f"{fmt.percent(sol.memory_pct)} is above every unit row shown")


def _busiest_sentence(sol: SpeedOfLight) -> str:
    """The explanation's sentence on the busiest unit (in busiest_words' wording) and DRAM."""
    busiest = sol.busiest_shown
    if busiest is None:
        return f"The busiest memory unit: {busiest_words(sol)}; DRAM Throughput is " \
            f"{fmt.percent(sol.dram_pct)}."
    dram = fmt.percent(sol.dram_pct)
    if dram == fmt.percent(sol.memory_pct):
        not_dram = f"DRAM Throughput is {dram} too: here the headline is DRAM's."
    elif busiest.name != "DRAM":
        not_dram = f"DRAM Throughput is {dram}, so Memory Throughput is not DRAM bandwidth here."
    else:
        not_dram = f"DRAM Throughput is {dram}."
    above = sol.above_headline  # then "the busiest unit" would set two percents side by side
    if above:
        return " ".join((*above, not_dram))
    text = f"The busiest memory unit is {busiest_words(sol)}"
    return f"{text}; {not_dram}" if busiest.name != "DRAM" else f"{text}."


# ---------------------------------------------------------------- the lesson's kernels


_LESSON_MATMUL = re.compile(r"^matmul_(naive|tiled)$")


def lesson_role(name: str) -> str | None:
    """'naive' or 'tiled' for the app's own matmul_naive and matmul_tiled (a kernel's function
    name), else None."""
    found = _LESSON_MATMUL.match(name)
    return found.group(1) if found else None


def problem_dim(kernel: Kernel) -> int | None:
    """The square matmul size of the app's own kernels (one thread per output), else None."""
    if not _LESSON_MATMUL.match(kernel.name) or kernel.grid is None or kernel.block is None:
        return None
    rows, cols = kernel.grid[1] * kernel.block[1], kernel.grid[0] * kernel.block[0]
    return rows if rows == cols else None
