"""The lesson's three readings of a kernel, and the comparison of two kernels.

1. Speed Of Light: Compute (SM) Throughput against Memory Throughput gives the verdict; the L1/TEX,
   L2 and DRAM throughput rows name the busiest memory unit, so Memory Throughput is never read as
   DRAM bandwidth (busiest_words: the one wording of it, the window's and the terminal's). Both
   rows low on a grid below one wave is a small grid, not latency (ncu's SOLBottleneck rule says
   "Small Grid" there too, and decides where the report lacks the SM count); "latency" only
   where a small grid is ruled out. A unit row above Memory Throughput is told why.
2. The memory chart: the traffic that crossed each arrow from the kernel through shared memory,
   L1/TEX and L2 to DRAM, and sectors per request.
3. Occupancy: theoretical against achieved, the block limits that set the theoretical figure, and
   what can (and cannot) explain the gap: "could have filled the machine" only on a grid of a
   full wave or more; below one, what the small grid explains; barriers never for one warp.

Every value comes from the kernel's metrics; a metric the report lacks stays None, and the text
says what is missing instead of inventing a number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from viewer.analysis import stalls
from viewer.analysis.predict import WARP_SIZE, compulsory_dram_bytes
from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.core.metrics import SUMMARY_KEYS, SUMMARY_METRICS
from viewer.core.model import Kernel

# The three readings in the lesson's order: the window's tabs and `--tab` follow it.
READING_ORDER: tuple[str, ...] = ("sol", "memory", "occupancy")

# A speed-of-light row at or above this percent of its peak counts as high.
HIGH_PCT = 60.0
# An achieved occupancy this many points or more below theoretical counts as a gap worth explaining.
OCCUPANCY_GAP_PCT = 5.0

M = SUMMARY_METRICS  # short alias: summary key -> metric name
# Below one full wave of blocks the grid does not fill the GPU (ncu's SOLBottleneck threshold).
SMALL_GRID_WAVES = 1.0
# Memory Throughput and a unit's row within this many points, and this share of Memory
# Throughput, agree: 0.03 % is within a point of 0.66 %, and 22 times smaller.
AGREE_POINTS = 1.0
AGREE_SHARE = 0.1
GRID_SIZE = metrics.LABELS[(metrics.LAUNCH, "Grid Size")]
SM_COUNT = metrics.LABELS[(metrics.LAUNCH, "# SMs")]  # ncu's Launch Statistics row
DEVICE_SMS = metrics.DEVICE_SMS  # the device's own count, where the launch row is missing
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


# ncu's SOLBottleneck rule where it finds a small grid, as an export prints it.
_SMALL_GRID_RULE = re.compile(r"grid is too small to fill the available resources on this "
                              r"device, resulting in only ([0-9]+(?:[.,][0-9]+)?) full waves")


def small_grid_rule(kernel: Kernel) -> float | None:
    """The full waves ncu's own Small Grid rule states, where the export carries that rule."""
    for rule in kernel.rules or ():
        message = rule.get("rule_message")
        text = str(message.get("message") or "") if isinstance(message, dict) else ""
        match = _SMALL_GRID_RULE.search(text)
        if match:
            return float(match.group(1).replace(",", "."))
    return None


@dataclass(frozen=True)
class Grid:
    """The launch against the GPU: blocks (launch__grid_size), the GPU's SMs, ncu's waves per
    SM (launch__waves_per_multiprocessor), the blocks per SM that fit (the binding block limit)
    and the full waves ncu's Small Grid rule states, each None where the report lacks it."""

    blocks: float | None
    sms: float | None
    waves: float | None
    per_sm: float | None = None
    rule_waves: float | None = None

    @property
    def capacity(self) -> float | None:
        """Blocks the GPU holds at once: SMs x blocks per SM that fit."""
        return None if self.sms is None or self.per_sm is None else self.sms * self.per_sm

    @property
    def full_waves(self) -> float | None:
        """ncu's waves per SM, else blocks over the GPU's capacity; None when unknown."""
        if self.waves is not None:
            return self.waves
        capacity = self.capacity
        return None if self.blocks is None or not capacity else self.blocks / capacity

    @property
    def small(self) -> bool | None:
        """Below one full wave: from ncu's waves, else blocks against SMs x blocks per SM, else
        ncu's Small Grid rule, else fewer blocks than SMs; None when the report cannot tell."""
        waves = self.full_waves
        if waves is not None:
            return waves < SMALL_GRID_WAVES
        if self.rule_waves is not None:
            return True
        if self.blocks is not None and self.sms is not None and self.blocks < self.sms:
            return True
        return None

    @property
    def text(self) -> str:
        """'16 blocks on 132 SMs: 0.02 waves per SM', with what the report holds."""
        on = f" on {fmt.count(self.sms)} SMs" if self.sms is not None else ""
        waves = self.full_waves
        if self.waves is not None:
            tail = f"{fmt.count(self.waves)} waves per SM"
        elif waves is not None:
            tail = (f"{waves:.2f} waves per SM ({fmt.count(self.per_sm)} blocks per SM fit, "
                    f"{fmt.count(self.capacity)} at once)")
        elif self.rule_waves is not None:
            tail = (f"ncu's own Small Grid rule says {fmt.count(self.rule_waves)} full waves "
                    "across all SMs")
        else:
            tail = "fewer blocks than SMs, so some SMs get none"
        return f"{fmt.count(self.blocks)} blocks{on}: {tail}"

    @property
    def unknown_text(self) -> str:
        """Why the report cannot tell whether the grid fills the GPU."""
        lacks = [name for name, v in (("the grid size", self.blocks),
                                      (f"the SM count ({SM_COUNT})", self.sms),
                                      ("the block limits", self.per_sm)) if v is None]
        holds = f"the report holds {fmt.count(self.blocks)} blocks but lacks " \
            if self.blocks is not None else "the report lacks "
        return (f"{holds}{' and '.join(lacks)} and ncu's waves per SM "
                f"({metrics.WAVES_PER_SM}), so it cannot rule out a small grid")


def grid(kernel: Kernel) -> Grid:
    blocks = kernel.metric(GRID_SIZE)
    if blocks is None and kernel.grid is not None:
        blocks = float(kernel.grid[0] * kernel.grid[1] * kernel.grid[2])
    sms = kernel.metric(SM_COUNT)
    fits = [v for v in (kernel.metric(m) for m in metrics.BLOCK_LIMITS) if v is not None]
    return Grid(blocks, sms if sms is not None else kernel.metric(DEVICE_SMS),
                kernel.metric(metrics.WAVES_PER_SM), min(fits) if fits else None,
                small_grid_rule(kernel))


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
    return replace(sol, explanation=f"{why} {_busiest_sentence(sol)}")


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


# ---------------------------------------------------------------- 2. The memory chart


@dataclass(frozen=True)
class Traffic:
    """What crossed one arrow of the memory chart (None: the report lacks the metric)."""

    source: str
    target: str
    label: str
    amount: float | None  # in `unit`
    unit: str  # "request", "sector", "instruction", "byte"
    metric: str
    note: str = ""


@dataclass(frozen=True)
class MemoryChart:
    global_load_requests: float | None
    global_load_sectors: float | None
    sectors_per_request: float | None
    shared_load_instructions: float | None
    l2_read_sectors_from_l1: float | None
    l1tex_hit_rate_pct: float | None
    l2_hit_rate_pct: float | None
    dram_bytes_read: float | None
    dram_bytes_write: float | None
    dram_bandwidth_bytes_per_s: float | None
    problem_dim: int | None
    arrows: tuple[Traffic, ...] = field(default_factory=tuple)
    dram_rounded: bool = False  # the DRAM bytes may be an export's three-figure rounding

    @property
    def dram_bytes(self) -> float | None:
        if self.dram_bytes_read is None or self.dram_bytes_write is None:
            return None
        return self.dram_bytes_read + self.dram_bytes_write

    @property
    def compulsory_bytes(self) -> int | None:
        """A, B and C read or written once each: the floor on DRAM traffic for a square matmul."""
        if self.problem_dim is None:
            return None
        return compulsory_dram_bytes(self.problem_dim)

    @property
    def times_compulsory(self) -> float | None:
        floor, moved = self.compulsory_bytes, self.dram_bytes
        if floor is None or moved is None or floor == 0:
            return None
        return moved / floor


    @property
    def floor_note(self) -> str:
        """DRAM traffic against the compulsory floor, in words from the two counters: bytes
        read against A and B, bytes written against C ('' when unknown)."""
        times, dim = self.times_compulsory, self.problem_dim
        read, written = self.dram_bytes_read, self.dram_bytes_write
        if times is None or dim is None or read is None or written is None:
            return ""
        matrix = compulsory_dram_bytes(dim) // 3  # one of A, B and C
        lead = "below the floor" if times < 1 else f"{times:.2f}x the floor"
        shown = fmt.size if self.dram_rounded else _bytes  # never more digits than were printed
        near = _ROUNDING if self.dram_rounded else 0.0
        read_words = f"DRAM read {shown(read)} against A and B's {_bytes(2 * matrix)}, so "
        if read < 2 * matrix * (1 - near):
            read_words += "part of A and B did not cross DRAM while the kernel ran"
        elif read < 2 * matrix * (1 + near):
            read_words += ("A and B crossed it about once, as far as the rounded value shows, "
                           "and the caches kept the re-reads")
        elif read < 4 * matrix:
            read_words += "A and B crossed it at least once and the caches kept most re-reads"
        else:
            read_words += "re-reads of A and B reached DRAM"
        written_words = f"it wrote {shown(written)} against C's {_bytes(matrix)}, so "
        if written == 0:
            written_words += "C was not written back to DRAM while the kernel ran"
        elif written < matrix * (1 - near):
            written_words += "only part of C was written back to DRAM while the kernel ran"
        elif written < matrix * (1 + near):
            written_words += "about C was written back, as far as the rounded value shows"
        else:
            written_words += "C was written back"
        return f"{lead}: {read_words}; {written_words}"


# An export prints a size with three significant figures ("2.10 MB"): up to half a percent off.
_ROUNDING = 0.005


def _maybe_rounded(n: float | None) -> bool:
    """Whether a byte count may be an export's rounding ('2.10 MB' read back as 2,100,000):
    three significant figures or fewer, over a thousand. A count that merely looks so is then
    worded as the rounded one would be, which stays true."""
    return n is not None and n >= 1000 and float(f"{n:.3g}") == n


def _bytes(n: float) -> str:
    """'2,104,320 B': exact, since the floor's sizes differ from the counters in a few bytes."""
    return f"{fmt.count(n)} B"


_HIT_RATE = re.compile(r"_hit_rate\.pct$")
HIT_RATE_SOURCE = "https://forums.developer.nvidia.com/t/weird-number-for-l2-cache-hitrate/120341"


def hit_rate_note(metric: str, pct: float | None) -> str | None:
    """What a hit rate above 100 % means, where ncu reports one (None otherwise)."""
    if pct is None or pct <= 100.0 or not _HIT_RATE.search(metric):
        return None
    return (f"ncu reports {metric} at {fmt.percent(pct)}, above 100 %. A hit rate is hits over "
            "queries; ncu can count the two on different replay passes, and L2's counters take "
            "in every client (copy engines, the display) too, so on a kernel too short or "
            "uneven to reach a steady state the ratio can pass 100 %. NVIDIA's answer is that "
            "such a value was not collected accurately: read it as not measured, not as more "
            f"hits than queries ({HIT_RATE_SOURCE}).")


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


def memory_chart(kernel: Kernel) -> MemoryChart:
    v = {key: value(kernel, key) for key in (
        "global_load_requests", "global_load_sectors", "sectors_per_request",
        "shared_load_instructions", "l2_read_sectors_from_l1", "l1tex_hit_rate_pct",
        "l2_hit_rate_pct", "dram_bytes_read", "dram_bytes_write", "dram_bandwidth_bytes_per_s")}
    arrows = (
        Traffic("Kernel", "Shared memory", "shared load instructions",
                v["shared_load_instructions"], "instruction", M["shared_load_instructions"],
                "a shared load fetches no sector from L2 or DRAM"),
        Traffic("Kernel", "L1/TEX", "global load requests", v["global_load_requests"],
                "request", M["global_load_requests"]),
        Traffic("Kernel", "L1/TEX", "global load sectors", v["global_load_sectors"], "sector",
                M["global_load_sectors"]),
        Traffic("L1/TEX", "L2", "sectors read from L1/TEX", v["l2_read_sectors_from_l1"],
                "sector", M["l2_read_sectors_from_l1"]),
        Traffic("L2", "DRAM", "bytes read", v["dram_bytes_read"], "byte", M["dram_bytes_read"]),
        Traffic("L2", "DRAM", "bytes written", v["dram_bytes_write"], "byte",
                M["dram_bytes_write"]),
    )
    rounded = any(_maybe_rounded(v[key]) for key in ("dram_bytes_read", "dram_bytes_write"))
    return MemoryChart(**v, problem_dim=problem_dim(kernel), arrows=arrows,
                       dram_rounded=rounded)


# ---------------------------------------------------------------- 3. Occupancy


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


# ---------------------------------------------------------------- Comparison


@dataclass(frozen=True)
class Difference:
    key: str
    label: str
    first: float | None
    second: float | None

    @property
    def ratio(self) -> float | None:
        """first / second, or None when either is missing or second is zero."""
        if self.first is None or self.second is None or self.second == 0:
            return None
        return self.first / self.second

    def direction(self, first_name: str, second_name: str) -> str:
        """'naive moves 8.05x the sectors of tiled', in plain words."""
        if self.first is None or self.second is None:
            return f"{self.label}: not in both reports"
        if self.first == self.second:
            return f"{self.label}: equal"
        big, small = (first_name, second_name) if self.first > self.second else (
            second_name, first_name)
        hi, lo = max(self.first, self.second), min(self.first, self.second)
        if lo == 0:
            return f"{self.label}: {big} has some, {small} none"
        return f"{self.label}: {big} {hi / lo:.2f}x {small}"


# The ratios that carry the lesson, in the order the comparison shows them: (key, label).
COMPARED: tuple[tuple[str, str], ...] = tuple((key, metrics.row_label(key)) for key in (
    "duration_ns", "global_load_sectors", "global_load_requests", "sectors_per_request",
    "shared_load_instructions", "l2_read_sectors_from_l1", "dram_bytes_read",
    "dram_bytes_write", "memory_throughput_pct", "dram_throughput_pct",
    "compute_sm_throughput_pct", "l1tex_hit_rate_pct", "l2_hit_rate_pct",
    "theoretical_occupancy_pct", "achieved_occupancy_pct"))


def compare(first: Kernel, second: Kernel) -> tuple[Difference, ...]:
    """The lesson's rows for two kernels, matched by metric name (any ncu version or GPU)."""
    return tuple(Difference(key, label, value(first, key), value(second, key))
                 for key, label in COMPARED)
