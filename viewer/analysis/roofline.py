"""The hierarchical FP32 roofline of a kernel, from its own metrics, as ncu's roofline sections
(SpeedOfLight_HierarchicalSingleRooflineChart) compute it.

- Peak FP32 work: `derived__sm__sass_thread_inst_executed_op_ffma_pred_on_x2` (an FFMA is two
  FLOP) x `sm__cycles_elapsed.avg.per_second`; where the report lacks the derived metric,
  `sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained` x 2 x the same clock.
- Achieved FP32 work: (fadd + fmul + 2 x ffma) per elapsed cycle
  (`smsp__sass_thread_inst_executed_op_*_pred_on.sum.per_cycle_elapsed`) x
  `smsp__cycles_elapsed.avg.per_second`.
- Each memory level's traffic (bytes/s) against its peak (bytes per cycle x the level's clock):
  DRAM `dram__bytes.sum.*`, L2 `derived__lts__lts2xbar_bytes.sum.*` (L2 to the crossbar), L1
  `derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.*` (L1 to the SM for local, global and
  distributed shared memory: an SM's own shared-memory loads, LDS, are not in it).
- Arithmetic intensity at a level: achieved work / that level's traffic, in FLOP per byte.

A value the report lacks stays None: a `--set basic` capture holds none of these; ROOFLINE_SETS
says what would. The day-30 flaw of the lesson (`day_thirty`) sets a DRAM byte count made by hand
from the source against the measured one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from viewer.analysis.predict import FLOAT_BYTES
from viewer.analysis.reading import problem_dim
from viewer.core.metrics import SUMMARY_METRICS
from viewer.core.model import Kernel

FFMA_PEAK_X2 = "derived__sm__sass_thread_inst_executed_op_ffma_pred_on_x2"
FFMA_PEAK = "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained"
SM_CLOCK = "sm__cycles_elapsed.avg.per_second"
_OP = "smsp__sass_thread_inst_executed_op_{}_pred_on.sum.per_cycle_elapsed"
FADD, FMUL, FFMA = _OP.format("fadd"), _OP.format("fmul"), _OP.format("ffma")
FFMA_X2 = "derived__smsp__sass_thread_inst_executed_op_ffma_pred_on_x2"
SMSP_CLOCK = "smsp__cycles_elapsed.avg.per_second"
DURATION = SUMMARY_METRICS["duration_ns"]
DRAM_BYTES = "dram__bytes.sum"
DRAM_READ, DRAM_WRITE = SUMMARY_METRICS["dram_bytes_read"], SUMMARY_METRICS["dram_bytes_write"]
SHARED_LOADS = SUMMARY_METRICS["shared_load_instructions"]  # bytes the L1 point does not count


@dataclass(frozen=True)
class LevelMetrics:
    """The metric names one memory level of the roofline is computed from."""

    key: str
    name: str
    traffic: str  # bytes per second
    peak: str  # bytes per cycle
    clock: str  # the level's cycles per second


LEVELS: tuple[LevelMetrics, ...] = (
    LevelMetrics("dram", "DRAM", "dram__bytes.sum.per_second", "dram__bytes.sum.peak_sustained",
                 "dram__cycles_elapsed.avg.per_second"),
    LevelMetrics("l2", "L2", "derived__lts__lts2xbar_bytes.sum.per_second",
                 "derived__lts__lts2xbar_bytes.sum.peak_sustained",
                 "lts__cycles_elapsed.avg.per_second"),
    LevelMetrics("l1", "L1", "derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.per_second",
                 "derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.peak_sustained",
                 "l1tex__cycles_elapsed.avg.per_second"),
)

ROOFLINE_METRICS: frozenset[str] = frozenset({
    FFMA_PEAK_X2, FFMA_PEAK, SM_CLOCK, FADD, FMUL, FFMA, FFMA_X2, SMSP_CLOCK, DURATION,
    DRAM_BYTES, DRAM_READ, DRAM_WRITE, SHARED_LOADS,
    *(name for level in LEVELS for name in (level.traffic, level.peak, level.clock))})
"""Every metric name the roofline and the day-30 flaw read (ask the reader for them)."""

ROOFLINE_SETS = ("`--set full` (or `--set roofline`, or the section "
                 "SpeedOfLight_HierarchicalSingleRooflineChart)")
MISSING_TEXT = (f"this report holds no roofline metrics: a capture with {ROOFLINE_SETS} has them,"
                " in the .ncu-rep and its `--page raw` export")
PARTIAL_TEXT = (f"this report holds only some of the roofline's metrics: a capture with "
                f"{ROOFLINE_SETS} has them all, in the .ncu-rep and its `--page raw` export")


def _product(*values: float | None) -> float | None:
    out = 1.0
    for value in values:
        if value is None:
            return None
        out *= value
    return out


def _ratio(top: float | None, bottom: float | None) -> float | None:
    if top is None or bottom is None or bottom == 0:
        return None
    return top / bottom


@dataclass(frozen=True)
class Level:
    """One memory level: its achieved and peak bandwidth (bytes/s) and the kernel's arithmetic
    intensity there (FLOP per byte); None where the report lacks a metric."""

    key: str
    name: str
    bytes_per_s: float | None
    peak_bytes_per_s: float | None
    intensity: float | None

    @property
    def pct_of_peak(self) -> float | None:
        ratio = _ratio(self.bytes_per_s, self.peak_bytes_per_s)
        return None if ratio is None else 100.0 * ratio


@dataclass(frozen=True)
class Roofline:
    """A kernel's place under the FP32 ceilings: peak and achieved work (FLOP/s), and one Level
    per memory level (DRAM, L2, L1)."""

    peak_fp32_flop_per_s: float | None
    achieved_fp32_flop_per_s: float | None
    levels: tuple[Level, ...]
    shared_load_instructions: float | None = None  # warp-wide LDS: not in the L1 point's bytes

    def level(self, key: str) -> Level:
        return next(level for level in self.levels if level.key == key)

    @property
    def complete(self) -> bool:
        """Whether every value is known (a point and a ceiling at every level)."""
        return self.peak_fp32_flop_per_s is not None and self.achieved_fp32_flop_per_s is not None \
            and all(v is not None for lv in self.levels
                    for v in (lv.bytes_per_s, lv.peak_bytes_per_s, lv.intensity))

    @property
    def empty(self) -> bool:
        """Whether the report holds none of it (a `--set basic` capture): say MISSING_TEXT."""
        return self.peak_fp32_flop_per_s is None and self.achieved_fp32_flop_per_s is None \
            and all(lv.bytes_per_s is None and lv.peak_bytes_per_s is None for lv in self.levels)

    @property
    def missing_text(self) -> str | None:
        """What to say of the values the report lacks; None when it holds them all."""
        if self.complete:
            return None
        return MISSING_TEXT if self.empty else PARTIAL_TEXT

    def ridge(self, key: str) -> float | None:
        """The intensity (FLOP/byte) where level `key`'s bandwidth roof meets the FP32 peak."""
        return _ratio(self.peak_fp32_flop_per_s, self.level(key).peak_bytes_per_s)

    def as_json(self) -> dict[str, float | None]:
        """`peak_fp32_flop_per_s`, `achieved_fp32_flop_per_s`, and per level `<key>_bytes_per_s`,
        `<key>_peak_bytes_per_s`, `<key>_intensity`; null where the report lacks a metric."""
        out: dict[str, float | None] = {
            "peak_fp32_flop_per_s": self.peak_fp32_flop_per_s,
            "achieved_fp32_flop_per_s": self.achieved_fp32_flop_per_s}
        for level in self.levels:
            out[f"{level.key}_bytes_per_s"] = level.bytes_per_s
            out[f"{level.key}_peak_bytes_per_s"] = level.peak_bytes_per_s
            out[f"{level.key}_intensity"] = level.intensity
        return out


def peak_fp32(kernel: Kernel) -> float | None:
    """FLOP/s at the FP32 peak: every FMA unit busy every SM cycle."""
    twice = kernel.metric(FFMA_PEAK_X2)
    if twice is None:
        twice = _product(kernel.metric(FFMA_PEAK), 2.0)
    return _product(twice, kernel.metric(SM_CLOCK))


def achieved_fp32(kernel: Kernel) -> float | None:
    """FLOP/s the kernel executed: FADD and FMUL one FLOP each, FFMA two."""
    ffma_x2 = kernel.metric(FFMA_X2)
    if ffma_x2 is None:
        ffma_x2 = _product(kernel.metric(FFMA), 2.0)
    fadd, fmul = kernel.metric(FADD), kernel.metric(FMUL)
    if fadd is None or fmul is None or ffma_x2 is None:
        return None
    return _product(fadd + fmul + ffma_x2, kernel.metric(SMSP_CLOCK))


def roofline(kernel: Kernel) -> Roofline:
    achieved = achieved_fp32(kernel)
    levels = []
    for lm in LEVELS:
        traffic = kernel.metric(lm.traffic)
        levels.append(Level(lm.key, lm.name, traffic,
                            _product(kernel.metric(lm.peak), kernel.metric(lm.clock)),
                            _ratio(achieved, traffic)))
    return Roofline(peak_fp32(kernel), achieved, tuple(levels), kernel.metric(SHARED_LOADS))


def intensity_change(first: Roofline, second: Roofline) -> dict[str, float | None]:
    """Per level, second's intensity over first's (the arrow from A to B): 15x at L1 when the
    lesson's tiling keeps reused values in shared memory, 1x at DRAM."""
    return {a.key: _ratio(b.intensity, a.intensity)
            for a, b in zip(first.levels, second.levels, strict=True)}


# ---------------------------------------------------------------- The day-30 flaw


@dataclass(frozen=True)
class DayThirty:
    """The lesson's day-30 count: every load of the naive matmul's source counted as DRAM
    traffic (2 x dim^3 floats read, dim^2 written), against what DRAM really moved."""

    dim: int
    flop: int  # 2 x dim^3: one multiply and one add per inner step
    hand_bytes: int
    measured_bytes: float | None
    measured_flop: float | None  # achieved FLOP/s x duration: the counters' own FLOP

    @property
    def hand_intensity(self) -> float:
        """FLOP per byte by hand: about 0.25, far left of every ridge (it reads as DRAM bound)."""
        return self.flop / self.hand_bytes

    @property
    def measured_intensity(self) -> float | None:
        """FLOP per measured DRAM byte: the caches keep the re-reads away, so far higher."""
        return _ratio(float(self.flop), self.measured_bytes)

    @property
    def times_measured(self) -> float | None:
        """How many times the measured DRAM bytes the hand count is."""
        return _ratio(float(self.hand_bytes), self.measured_bytes)


def hand_dram_bytes(dim: int) -> int:
    """The naive source's loads (two floats per inner step, dim^3 steps) and its output."""
    return 2 * dim**3 * FLOAT_BYTES + dim**2 * FLOAT_BYTES


def measured_dram_bytes(kernel: Kernel) -> float | None:
    """Bytes DRAM moved: `dram__bytes.sum`, else read + written."""
    total = kernel.metric(DRAM_BYTES)
    if total is not None:
        return total
    read, write = kernel.metric(DRAM_READ), kernel.metric(DRAM_WRITE)
    return None if read is None or write is None else read + write


def day_thirty(kernel: Kernel) -> DayThirty | None:
    """The day-30 count for the lesson's naive matmul; None for any other kernel."""
    dim = problem_dim(kernel)
    if dim is None or kernel.name != "matmul_naive":
        return None
    return DayThirty(dim, 2 * dim**3, hand_dram_bytes(dim), measured_dram_bytes(kernel),
                     _product(achieved_fp32(kernel), kernel.metric(DURATION), 1e-9))


def shown_day_thirty(kernels: Sequence[Kernel], rooflines: Sequence[Roofline]
                     ) -> tuple[DayThirty, Roofline] | None:
    """The day-30 count of the first kernel of `kernels` that has one and a roofline to set it
    on (`rooflines`, one per kernel), with that roofline; None when none has both."""
    for kernel, rf in zip(kernels, rooflines, strict=True):
        day = day_thirty(kernel)
        if day is not None and not rf.empty:
            return day, rf
    return None
