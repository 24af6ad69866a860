"""What a report holds beyond metric values: ncu's rule results, instanced metrics' values (the
occupancy curves) and each metric's unit, label and description.

A .ncu-rep holds them for `read_extras` to read, in the .ncu-rep reader's child like
`read_metrics`, off the GUI thread; each answer is plain data the view keeps beside the Report.
An export's reader took in what it prints of them (`Kernel.rules`, `Kernel.printed`), which
`export_extras` answers; for an export `read_extras` answers empty `Extras`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from viewer.core.units import unit_scale

if TYPE_CHECKING:
    from viewer.core.jobs import Job
    from viewer.core.model import Kernel, Report

Series = tuple[tuple[float, ...], tuple[float, ...]]
"""An instanced metric's values: (x: the instances' correlation ids, y: their values)."""


@dataclass(frozen=True)
class MetricAbout:
    """What ncu says of one metric: its unit as ncu spells it ('Kbyte/cycle', '' for none), its
    label ('DRAM Bandwidth') and description, each None where the report carries none."""

    unit: str
    label: str | None = None
    description: str | None = None

    @property
    def base_unit(self) -> str:
        """The unit of the value as the model holds it (base units: 'byte/cycle', 'ns', '%');
        the unit as printed where it is not understood (the model then holds no value)."""
        scaled = unit_scale(self.unit)
        return self.unit if scaled is None else scaled[1]


@dataclass(frozen=True)
class Extras:
    """One kernel's extras. `rules`: ncu's rule results as ncu_report's dicts (None: not asked,
    or the file holds none we read); `instances`: metric name -> Series; `about`: metric name ->
    MetricAbout."""

    rules: list[dict[str, Any]] | None = None
    instances: dict[str, Series] = field(default_factory=dict)
    about: dict[str, MetricAbout] = field(default_factory=dict)


def export_extras(kernel: Kernel) -> Extras:
    """What an export printed of `kernel` beyond its values: ncu's rule results (None where the
    file prints none) and each metric's unit and label as printed."""
    return Extras(rules=kernel.rules,
                  about={name: MetricAbout(p.unit, p.label) for name, p in kernel.printed.items()})


def _mapping(value: object) -> Mapping[Any, Any]:
    return value if isinstance(value, Mapping) else {}


def extras_of(record: Mapping[str, Any]) -> Extras:
    """Extras from the child's JSON record (viewer.readers.ncu_rep_extras); anything malformed is
    left out."""
    rules = record.get("rules")
    series: dict[str, Series] = {}
    for name, values in _mapping(record.get("instances")).items():
        xs, ys = _mapping(values).get("x"), _mapping(values).get("y")
        if not isinstance(xs, list) or not isinstance(ys, list):
            continue
        pairs = [(float(x), float(y)) for x, y in zip(xs, ys, strict=False)
                 if isinstance(x, int | float) and isinstance(y, int | float)]
        series[str(name)] = (tuple(p[0] for p in pairs), tuple(p[1] for p in pairs))
    about = {}
    for name, parts in _mapping(record.get("about")).items():
        if isinstance(parts, list) and len(parts) == 3:
            unit, label, description = (str(p or "").strip() for p in parts)
            about[str(name)] = MetricAbout(unit, label or None, description or None)
    return Extras(rules=[r for r in rules if isinstance(r, dict)] if isinstance(rules, list)
                  else None, instances=series, about=about)


def read_extras(report: Report, kernel_indices: Iterable[int], *, rules: bool = False,
                instances: Iterable[str] = (), about: bool = False, job: Job | None = None
                ) -> dict[int, Extras]:
    """The extras asked for of the report's kernels `kernel_indices` (`Kernel.index`), keyed by
    kernel index: rule results, instance values of the metrics `instances`, every metric's unit,
    label and description. Off the GUI thread; ReportError (one line, naming the file) when the
    file was rewritten or cannot be read, Cancelled when `job` is."""
    found, _ = read_extras_and_metrics(report, kernel_indices, rules=rules, instances=instances,
                                       about=about, job=job, names=())
    return found


def read_extras_and_metrics(report: Report, kernel_indices: Iterable[int], *,
                            rules: bool = False, instances: Iterable[str] = (),
                            about: bool = False, job: Job | None = None,
                            names: Iterable[str] | None = None
                            ) -> tuple[dict[int, Extras], dict[int, Mapping[str, float]]]:
    """`read_extras`, and metric `names` (None: every numeric metric) of the same kernels as
    `viewer.readers.read_metrics` answers them (for `Report.add_metrics`), both read in one pass
    of the reader's child: (extras by kernel index, metrics by kernel index). An export's
    kernels were read whole: their metrics answer empty."""
    from viewer.core.model import ReportError
    from viewer.readers import ncu_rep, sniff

    wanted = [report.kernels[i] for i in sorted(set(kernel_indices))]
    if report.format != sniff.NCU_REP or not wanted:
        return {k.index: Extras() for k in wanted}, {}
    missing = [k for k in wanted if k.position is None]
    if missing:
        raise ReportError(report.source, f"{missing[0].label} cannot be found again in the file")
    by_position = {k.position: k.index for k in wanted if k.position is not None}
    with ncu_rep.read_again_errors(report.source):
        found = ncu_rep.read_extras(
            Path(report.source), list(by_position), rules=rules, instances=tuple(instances),
            about=about, job=job, stamp=report.stamp, names=names)
    metrics = {by_position[p]: record["metrics"] for p, record in found.items()
               if "metrics" in record}
    return {by_position[p]: extras_of(record) for p, record in found.items()}, metrics
