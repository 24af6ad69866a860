"""Every metric of a kernel, and the full diff of two kernels.

`rows` lists every metric a kernel holds (read them all first: readers.read_metrics(report,
[index], None)) with its unit, label and ncu's description where the report carries one
(viewer.readers.extras.read_extras(..., about=True): a .ncu-rep does; an export prints units
and labels, export_extras), and the section an export printed it in. A value an export printed
in a unit not understood is a row too, as printed ('2.1 zorks'), with no value to compare.
`diff` lists every metric both kernels hold, the largest relative change first, and says for the
common metrics whether higher is better. `provenance_warnings` says when two kernels come from
different GPUs or clocks, so that the diff is not read as the code's doing alone; `one_sided`
lists the metrics one kernel holds and the other lacks; `hit_rate_notes` says what a hit rate
above 100 % means. Both tables
export as CSV text; `write_csv` writes it whole or not at all.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from viewer.analysis.memory_traffic import hit_rate_note
from viewer.core import metrics
from viewer.core.atomic_write import write_text_atomically
from viewer.core.model import Kernel, Session
from viewer.readers.extras import MetricAbout

# Metrics whose direction is known, as (pattern, higher is better), first match wins.
DIRECTIONS: tuple[tuple[re.Pattern[str], bool], ...] = tuple(
    (re.compile(pattern), higher) for pattern, higher in (
        (r"^gpu__time_duration\.", False),
        (r"^(gpc|sm|smsp)__cycles_elapsed\.(sum|avg|max|min)$", False),
        (r"^smsp__average_warps_issue_stalled_(?!not_selected|selected).*_per_issue_active",
         False),
        (r"^smsp__average_warp_latency_per_inst_issued\.ratio$", False),
        (r"^smsp__pcsamp_warps_issue_stalled_(?!not_selected|selected)", False),
        (r"^dram__bytes(_read|_write)?\.sum$", False),
        (r"^l1tex__t_(sectors|requests)_pipe_lsu_mem_global_op_(ld|st)\.sum$", False),
        (r"^lts__t_sectors_srcunit_tex_op_(read|write)\.sum$", False),
        (r"^l1tex__data_bank_conflicts_", False),
        (r"^derived__memory_l1_wavefronts_shared_excessive$", False),
        (r"^derived__memory_l2_theoretical_sectors_global_excessive$", False),
        (r"^derived__local_spilling_requests", False),
        (r"^smsp__sass_average_data_bytes_per_sector_mem_global_op_(ld|st)\.ratio$", True),
        (r"_hit_rate\.pct$", True),
        (r"^sm__warps_active\.avg\.pct_of_peak_sustained_active$", True),
        (r"^sm__maximum_warps_per_active_cycle_pct$", True),
        (r"^(sm|smsp)__(inst_issued|issue_active|inst_executed)\.(avg|sum)\.per_cycle_active$",
         True),
        (r"^smsp__warps_eligible\.avg\.per_cycle_active$", True),
        (r"^(sm|gpu__compute_memory|gpu__dram|l1tex|lts)__throughput\.avg\.pct_of_peak", True),
    ))
# Two kernels whose SM clocks differ by more than this share ran at different clocks.
CLOCK_TOLERANCE = 0.05
SM_FREQUENCY = metrics.LABELS[(metrics.SOL, "SM Frequency")]
UNIT_NOT_UNDERSTOOD = "Its unit is not understood: shown as printed, not used."


def higher_is_better(name: str) -> bool | None:
    """Whether a higher value of metric `name` is better; None where it depends or is unknown."""
    for pattern, higher in DIRECTIONS:
        if pattern.search(name):
            return higher
    return None


def _label(name: str, about: MetricAbout | None) -> str | None:
    if about is not None and about.label:
        return about.label
    try:
        return metrics.label(name)
    except KeyError:
        return None


@dataclass(frozen=True)
class MetricRow:
    """One metric: its value in base units, the base unit ('%', 'ns', 'byte/s'; None when the
    report does not say), its label and ncu's description (None where the report has none), and
    the section an export printed it in (None where the file names none).

    `printed` is the value as the export printed it ('2.1 zorks') where its unit is not
    understood: `value` is then None, `unit` the unit as printed and `description` says so."""

    name: str
    value: float | None
    unit: str | None
    label: str | None
    description: str | None
    section: str | None = None
    printed: str | None = None

    def matches(self, text: str) -> bool:
        """Whether `text` (any case) is in the name, label or description."""
        text = text.strip().lower()
        return not text or any(text in (s or "").lower()
                               for s in (self.name, self.label, self.description))


def rows(kernel: Kernel, about: Mapping[str, MetricAbout] | None = None) -> list[MetricRow]:
    """Every metric `kernel` holds, by name, and those printed in a unit not understood."""
    about = about or {}
    unread = {name: p for name, p in kernel.printed.items() if p.value is not None}
    out = []
    for name in sorted(set(kernel.metrics) | set(unread)):
        value = kernel.metric(name)
        info = about.get(name)
        printed = kernel.printed.get(name)
        section = printed.section if printed is not None else None
        if value is not None:
            out.append(MetricRow(name, value, info.base_unit if info is not None else None,
                                 _label(name, info), info.description if info else None,
                                 section))
        elif name in unread:
            out.append(MetricRow(name, None, unread[name].unit, _label(name, info),
                                 UNIT_NOT_UNDERSTOOD, section, unread[name].as_printed))
    return out


def search(found: Iterable[MetricRow], text: str) -> list[MetricRow]:
    return [row for row in found if row.matches(text)]


@dataclass(frozen=True)
class MetricDiff:
    """One metric on two kernels."""

    name: str
    first: float
    second: float
    unit: str | None
    label: str | None
    higher_is_better: bool | None

    @property
    def ratio(self) -> float | None:
        """second / first; None when first is zero."""
        return None if self.first == 0 else self.second / self.first

    @property
    def change_pct(self) -> float:
        """(second - first) / |first| in percent; from zero to something: +-inf."""
        if self.first == 0:
            return 0.0 if self.second == 0 else math.copysign(math.inf, self.second)
        return 100.0 * (self.second - self.first) / abs(self.first)

    @property
    def verdict(self) -> str | None:
        """'better' or 'worse' for the second kernel, where the direction is known."""
        if self.higher_is_better is None or self.first == self.second:
            return None
        return "better" if (self.second > self.first) == self.higher_is_better else "worse"


def diff(first: Kernel, second: Kernel, about: Mapping[str, MetricAbout] | None = None
         ) -> list[MetricDiff]:
    """Every metric both kernels hold, the largest relative change first (then by name)."""
    about = about or {}
    out = []
    for name in set(first.metrics) & set(second.metrics):
        a, b = first.metric(name), second.metric(name)
        if a is None or b is None:
            continue
        info = about.get(name)
        out.append(MetricDiff(name, a, b, info.base_unit if info is not None else None,
                              _label(name, info), higher_is_better(name)))
    out.sort(key=lambda d: (-abs(d.change_pct), d.name))
    return out


def hit_rate_notes(found: Iterable[MetricRow]) -> list[str]:
    """A sentence for each hit rate ncu reports above 100 %."""
    return [note for row in found if row.value is not None
            and (note := hit_rate_note(row.name, row.value)) is not None]


@dataclass(frozen=True)
class OneSided:
    """A metric only one of two kernels holds: `side` is "A" (the first) or "B"."""

    name: str
    value: float
    side: str
    unit: str | None
    label: str | None


def one_sided(first: Kernel, second: Kernel, about: Mapping[str, MetricAbout] | None = None
              ) -> list[OneSided]:
    """The metrics held by one kernel only, A's first, each by name."""
    about = about or {}
    out = []
    for side, kernel, other in (("A", first, second), ("B", second, first)):
        for name in sorted(set(kernel.metrics) - set(other.metrics)):
            value = kernel.metric(name)
            if value is None:
                continue
            info = about.get(name)
            out.append(OneSided(name, value, side, info.base_unit if info is not None else None,
                                _label(name, info)))
    return out


def provenance_warnings(first: Kernel, second: Kernel,
                        sessions: tuple[Session | None, Session | None] = (None, None)
                        ) -> list[str]:
    """Why two kernels' metrics may differ for reasons beyond their code, in sentences; with
    their reports' `sessions`, a clock difference is told from the clock controls they record."""
    out = []
    if first.device_name and second.device_name and first.device_name != second.device_name:
        out.append(f"They ran on different GPUs ({first.device_name} and {second.device_name}).")
    elif first.cc and second.cc and first.cc != second.cc:
        out.append(f"They ran on GPUs of different compute capability ({first.cc} and "
                   f"{second.cc}).")
    a, b = first.metric(SM_FREQUENCY), second.metric(SM_FREQUENCY)
    if a and b and abs(a - b) > CLOCK_TOLERANCE * max(a, b):
        clocks = [s.clock_control if s is not None else None for s in sessions]
        if None in clocks:
            why = "ncu's clock control or the GPU's state differed"
        elif clocks[0] == clocks[1]:
            why = (f"both captures record --clock-control {clocks[0]}, so the GPU's own state "
                   "differed")
        else:
            why = f"ncu's clock control differed (--clock-control {clocks[0]} and {clocks[1]})"
        out.append(f"They ran at different SM clocks ({a / 1e9:.2f} and {b / 1e9:.2f} GHz): "
                   f"{why}, so times and rates do not compare one to one.")
    only = len(set(first.metrics) ^ set(second.metrics))
    if only:
        out.append(f"{only:,} metrics are held by one kernel only: the captures collected "
                   "different sections (or different ncu versions named them differently).")
    return out


def _csv(header: Sequence[str], body: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(body)
    return out.getvalue()


def rows_csv(found: Iterable[MetricRow]) -> str:
    """The metric rows as CSV text: name, label, unit, value (as printed where its unit is not
    understood), description."""
    return _csv(("metric", "label", "unit", "value", "description"),
                ((r.name, r.label or "", r.unit or "",
                  repr(r.value) if r.value is not None else r.printed or "",
                  r.description or "") for r in found))


def diff_csv(diffs: Iterable[MetricDiff], first_name: str = "first",
             second_name: str = "second") -> str:
    """The diff as CSV text: name, label, unit, both values, ratio, change in percent, whether
    higher is better, and the verdict for the second."""
    def direction(d: MetricDiff) -> str:
        return "" if d.higher_is_better is None else ("higher" if d.higher_is_better else "lower")

    return _csv(("metric", "label", "unit", first_name, second_name, "ratio", "change_pct",
                 "better_when", "verdict"),
                ((d.name, d.label or "", d.unit or "", repr(d.first), repr(d.second),
                  "" if d.ratio is None else repr(d.ratio), repr(d.change_pct), direction(d),
                  d.verdict or "") for d in diffs))


def write_csv(path: Path | str, text: str, *, replace: bool = False) -> Path:
    """Write CSV `text` to `path` whole or not at all; FileExistsError for an existing file
    unless `replace`."""
    return write_text_atomically(path, text, replace=replace)
