"""Percents stated as a named row's or metric's, and 'per active cycle' or 'per elapsed cycle'
said of a row: found in the words, checked against the report's own values and metric names."""

from __future__ import annotations

import re

from tests.claims.claim import Claim, uncovered
from viewer.analysis import reading
from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.core.model import Kernel

PCT = r"(?:-?\d[\d,]*\.\d\d %|n/a)"  # a percent as the app writes one, or the missing marker
METRIC = r"[a-z0-9_]+__[A-Za-z0-9_.]+"
UNITS: dict[str, str] = {unit: metrics.SUMMARY_METRICS[key] for unit, key in (
    ("L1/TEX", "l1tex_throughput_pct"), ("L2", "l2_throughput_pct"),
    ("DRAM", "dram_throughput_pct"))}
_UNIT = "|".join(re.escape(u) for u in UNITS)


def _percent_rows() -> dict[str, str]:
    """Every row label the app writes (today's spelling) whose metric is a percent."""
    rows = {metrics.label(metric): metric for metric in metrics.LABELS.values()
            if "pct" in metric}
    rows.update({f"{unit} throughput": metric for unit, metric in UNITS.items()})
    return rows


PERCENT_ROWS = _percent_rows()
_ROW = "|".join(re.escape(r) for r in sorted(PERCENT_ROWS, key=len, reverse=True))
_NAMED_AFTER = rf"(?! \({METRIC}\))"  # a percent followed by its metric's name is that metric's

# (pattern, the metric of each group in order; None: the metric the group `metric` names)
_STATED: tuple[tuple[re.Pattern[str], tuple[str | None, ...]], ...] = tuple(
    (re.compile(p), ms) for p, ms in (
        (rf"(?<![\w/])(?P<row>{_ROW})(?::| is| at)?\s+({PCT}){_NAMED_AFTER}", ("row",)),
        (rf"(?:(?<=the busiest is )|(?<=busiest memory unit )|(?<=busiest memory unit is )|^)"
         rf"(?P<row>{_UNIT}),? at ({PCT}){_NAMED_AFTER}", ("unit",)),
        (rf"({PCT}) (?:per elapsed cycle as Memory Throughput counts )?\((?P<metric>{METRIC})\)",
         (None,)),
        (rf"ncu reports (?P<metric>{METRIC}) at ({PCT})", (None,)),
        (rf"\(compute ({PCT}), memory ({PCT})\)",
         (metrics.SUMMARY_METRICS["compute_sm_throughput_pct"],
          metrics.SUMMARY_METRICS["memory_throughput_pct"])),
        (rf"Compute \(SM\) Throughput and Memory Throughput are both ({PCT})",
         (metrics.SUMMARY_METRICS["compute_sm_throughput_pct"],)),
        (rf"shared wavefronts took ({PCT})", (metrics.SHARED_WAVEFRONTS,)),
        (rf"of the ({PCT}) L1/TEX reached", (metrics.L1TEX_ELAPSED,)),
        (rf"L1/TEX: hit ({PCT})", (metrics.SUMMARY_METRICS["l1tex_hit_rate_pct"],)),
        (rf"L2: hit ({PCT})", (metrics.SUMMARY_METRICS["l2_hit_rate_pct"],)),
    ))

# Percents the app derives (shares, thresholds, a roofline's fraction of peak): no metric's own.
DERIVED_PERCENTS = re.compile("|".join((
    rf"below {reading.HIGH_PCT:.0f} %", rf"at or above {reading.HIGH_PCT:.0f} %",
    rf"the block limits allow \({PCT}\)", rf"active on {PCT} of the elapsed cycles",
    rf"of FP32 work, {PCT} of the FP32 peak", rf"peak \({PCT}\)",
    rf"(?<=/s) +{PCT}",  # the roofline table's 'of peak' column
    r"above 100 %", r"pass 100 %", r"within \d+ %", r"within 1 % of", r"beyond 1 %",
)))



def percent_claims(text: str, kernel: Kernel) -> list[Claim]:
    """A percent stated as a named row's or metric's: is it that metric's value, as formatted?"""
    found = []
    for pattern, owners in _STATED:
        for match in pattern.finditer(text):
            named = {match.re.groupindex.get(n) for n in ("row", "metric")}
            stated_values = [g for i, g in enumerate(match.groups(), 1) if i not in named]
            for owner, stated in zip(owners, stated_values, strict=True):
                if owner == "row":
                    metric = PERCENT_ROWS[match.group("row")]
                elif owner == "unit":
                    metric = UNITS[match.group("row")]
                else:
                    metric = owner or match.group("metric")
                want = fmt.percent(kernel.metric(metric))
                found.append(Claim(match.group(0), stated == want, f"{metric} is {want}"))
    return found


def unclaimed_percents(text: str) -> list[str]:
    """The percents in `text` that neither name their metric nor are among the derived ones."""
    return uncovered(text, r"(?<![\w.,])-?\d[\d,]*(?:\.\d+)? %",
                     [*(pattern for pattern, _ in _STATED), DERIVED_PERCENTS])


# ---------------------------------------------------------------- per active / elapsed cycle

_ROWS_ANY = "|".join(re.escape(r) for r in sorted({*PERCENT_ROWS, *UNITS, "shared wavefronts"},
                                                  key=len, reverse=True))
_CYCLE_WORDS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), measure) for p, measure in (
        (rf"(?P<row>{_ROWS_ANY}) \S+ % reads above Memory Throughput \S+ % because it is a "
         r"percent of the cycles the unit was active \(pct_of_peak_sustained_active\)", "active"),
        (r"(?P<row>Memory Throughput) is a percent of every elapsed cycle "
         r"\(pct_of_peak_sustained_elapsed\)", "elapsed"),
        (rf"(?P<row>{_ROWS_ANY}) \S+ % reads above Memory Throughput \S+ % though both are per "
         "elapsed cycle", "elapsed"),
        (rf"the busiest is (?P<row>{_UNIT}),? at \S+ % of its own peak per (?P<measure>\w+) "
         "cycle", ""),
        (rf"(?P<row>{_UNIT}) at \S+ % of its active cycles", "active"),
        (r"(?P<row>shared wavefronts) took \S+ % of L1/TEX's peak per (?P<measure>\w+) cycle", ""),
        (rf"per elapsed cycle the report holds (?:{_UNIT}) at \S+ % \((?P<metric>{METRIC})\)",
         "elapsed"),
        (rf"\S+ % per elapsed cycle as Memory Throughput counts \((?P<metric>{METRIC})\)",
         "elapsed"),
    ))
# Words of cycles that say of no row what it is per: counts of cycles, a share of them.
_OTHER_CYCLES = re.compile(r"the SMs were active on \S+ % of the elapsed cycles|"
                           r"SM Active Cycles|Elapsed Cycles|cycles per issued instruction|"
                           r"one cycle per instruction|the cycle the warp issued")
_ROW_METRIC = {**PERCENT_ROWS, **UNITS, "shared wavefronts": metrics.SHARED_WAVEFRONTS}
_NOT_HELD = re.compile(r"the report does not hold L1/TEX's own figure per elapsed cycle")


def cycle_claims(text: str, kernel: Kernel) -> list[Claim]:
    """'per active cycle' or 'per elapsed cycle' said of a row: does its metric's name say so?
    And where the words say the report lacks a unit's figure per elapsed cycle, does it?"""
    found = [Claim(m.group(0), kernel.metric(metrics.L1TEX_ELAPSED) is None,
                   f"{metrics.L1TEX_ELAPSED} is {kernel.metric(metrics.L1TEX_ELAPSED)}")
             for m in _NOT_HELD.finditer(text)]
    for pattern, measure in _CYCLE_WORDS:
        for match in pattern.finditer(text):
            names = match.re.groupindex
            metric = match.group("metric") if "metric" in names else \
                _ROW_METRIC[match.group("row")]
            said = f"per {measure or match.group('measure')} cycle"
            found.append(Claim(match.group(0), metrics.per_cycle(metric) == said,
                               f"{metric} is {metrics.per_cycle(metric)}"))
    return found


def unclaimed_cycles(text: str) -> list[str]:
    """Words of active or elapsed cycles that no finder accounted for."""
    return uncovered(text, r"\b(?:active|elapsed) cycles?\b",
                     [*(pattern for pattern, _ in _CYCLE_WORDS), _OTHER_CYCLES, _NOT_HELD])


# ---------------------------------------------------------------- the busiest memory unit

_BUSIEST = re.compile(rf"(?:The busiest memory unit is |the busiest is |busiest memory unit |^)"
                      rf"(?P<unit>{_UNIT}),? at |(?P<itself>{_UNIT}) is itself the busiest")
# Where a unit's row is missing, the one named busiest is at least this share of Memory
# Throughput (else the busiest is a unit the report does not show).
NEAR_HEADLINE = 0.9


def _per_elapsed(kernel: Kernel, unit: str) -> float | None:
    """A unit's percent per elapsed cycle where the report holds one."""
    metric = UNITS[unit]
    if metrics.per_cycle(metric) == "per elapsed cycle":
        return kernel.metric(metric)
    return kernel.metric(metrics.L1TEX_ELAPSED) if unit == "L1/TEX" else None


def busiest_claims(text: str, kernel: Kernel) -> list[Claim]:
    """A unit named the busiest: its row is held, no unit held per elapsed cycle is busier, and
    where a unit's row is missing it is near Memory Throughput."""
    memory = kernel.metric(metrics.SUMMARY_METRICS["memory_throughput_pct"])
    found = []
    for match in _BUSIEST.finditer(text):
        unit = match.group("unit") or match.group("itself")
        row = kernel.metric(UNITS[unit])
        mine = _per_elapsed(kernel, unit) if _per_elapsed(kernel, unit) is not None else row
        others = [v for u in UNITS if u != unit and (v := _per_elapsed(kernel, u)) is not None]
        lacking = any(kernel.metric(m) is None for m in UNITS.values())
        holds = row is not None and mine is not None and all(v <= mine for v in others) and (
            not lacking or memory is None or row >= NEAR_HEADLINE * memory)
        found.append(Claim(match.group(0), holds, f"{unit} {row}, Memory Throughput {memory}"))
    return found
