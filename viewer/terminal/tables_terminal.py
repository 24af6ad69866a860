"""The terminal's `metrics` and `advice`: the Every metric page and ncu's advice, per kernel.

`python -m viewer metrics FILE... [-k SPEC] [--json]`: every metric of each kernel (name, unit,
value, section where an export printed one, label; a value in a unit not understood as printed,
'2.1 zorks', and said so); with --json one object per kernel per line.
`python -m viewer advice FILE... [-k SPEC] [--json]`: ncu's rule results, the largest estimated
speedup first (viewer.analysis.advice.ranked), or why the file holds none. A .ncu-rep is read
whole for them; an export was. What a reader notes of a file (it looks cut short) is a warning on
stderr; bad input one line on stderr naming the file, exit status 1, the other files go on.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO

from viewer.analysis import advice, metric_table
from viewer.core import formatting as fmt
from viewer.core import shipped
from viewer.core.model import Kernel, Report, ReportError
from viewer.core.terminal_text import visible, visible_lines
from viewer.readers.extras import Extras, export_extras
from viewer.terminal.roofline_terminal import Picks, warn_of

METRICS_DESCRIPTION = ("Print every metric of each kernel: its ncu name, unit, value, and the "
                       "section an export printed it in (the window's Every metric page).")
LARGEST_GROUPED = 1e15
"""Values from this size on print in exponent form, not as a line of digit groups."""
ADVICE_DESCRIPTION = ("Print ncu's own advice on each kernel, the largest estimated speedup "
                      "first (the window's ncu's advice page).")


def _read(path: Path, asked: Mapping[str, bool]) -> tuple[Report, Mapping[int, Extras] | None]:
    """The file read, and its kernels' extras where that read took them in: a .ncu-rep read
    for every metric (`every_metric`) is read with its extras in one pass of the reader's child
    (viewer.readers.read_report_whole) unless the read cache holds it."""
    from viewer.readers import read_report, read_report_whole
    from viewer.readers.extras import extras_of

    if not asked.get("every_metric"):
        return read_report(path), None
    report, found = read_report_whole(path, {k: v for k, v in asked.items()
                                             if k != "every_metric"})
    return report, None if found is None else {i: extras_of(r) for i, r in found.items()}


def _extras(report: Report, *, rules: bool = False, about: bool = False,
            every_metric: bool = False) -> Mapping[int, Extras]:
    """The extras of the report's kernels by index (a .ncu-rep read for them, and for every
    metric when `every_metric`; an export's as its reader took them in)."""
    from viewer.readers import sniff
    from viewer.readers.extras import read_extras_and_metrics

    indices = [k.index for k in report.kernels]
    if report.format != sniff.NCU_REP:
        return {k.index: export_extras(k) for k in report.kernels}
    # the metrics and the extras in one pass of the reader's child
    extras, metrics = read_extras_and_metrics(report, indices, rules=rules, about=about,
                                              names=None if every_metric else ())
    if every_metric:
        report.add_metrics(metrics, None)
    return extras


def _each(args: argparse.Namespace, show: Callable[[Report, Kernel, Extras, TextIO], None],
          out: TextIO, err: TextIO, **asked: bool) -> int:
    """Read each file, warn of its notes, and `show` each kernel picked with its extras."""
    status, picks = 0, Picks(args.kernel)
    for path in args.files or shipped.comparison():
        try:
            whole, read_with = _read(path, asked)
            report = picks.report(whole)
            if report is None:
                continue
            extras = _extras(whole, **asked) if read_with is None else read_with
        except ReportError as exc:
            print(visible(f"error: {exc}"), file=err)
            status = 1
            continue
        warn_of(whole, err)
        for kernel in report.kernels:
            show(report, kernel, extras.get(kernel.index, Extras()), out)
    return picks.status(status, err)


# ---------------------------------------------------------------- metrics


def metrics_json(report: Report, kernel: Kernel, rows: list[metric_table.MetricRow]
                 ) -> dict[str, object]:
    return {"source": report.source, "index": kernel.index, "name": kernel.name,
            "metrics": [{"name": r.name, "unit": r.unit, "value": r.value,
                         "section": r.section, "label": r.label, "printed": r.printed,
                         "unit_understood": r.printed is None} for r in rows]}


def metrics_text(kernel: Kernel, rows: list[metric_table.MetricRow]) -> str:
    names = [visible(r.name) for r in rows]
    width = max(map(len, names), default=0)
    lines = [f"{visible(kernel.label)}  ({len(rows):,} metrics)"]
    for r, name in zip(rows, names, strict=True):
        if r.value is None:  # printed in a unit not understood: as printed, and said so
            lines.append(f"  {name:<{width}}  {visible(r.unit or ''):<14} "
                         f"{visible(r.printed or ''):>22}  {visible(r.section or '')}  "
                         f"({metric_table.UNIT_NOT_UNDERSTOOD})")
            continue
        lines.append(f"  {name:<{width}}  {visible(r.unit or ''):<14} {_value(r.value):>22}  "
                     f"{visible(r.section or '')}".rstrip())
    return "\n".join(lines)


def _value(value: float) -> str:
    """A value in base units, grouped, to two decimals (huge ones in exponent form)."""
    return f"{value:,.2f}" if abs(value) < LARGEST_GROUPED else f"{value:.6g}"


def run_metrics(args: argparse.Namespace, out: TextIO | None = None,
                err: TextIO | None = None) -> int:
    """The `metrics` subcommand."""
    def show(report: Report, kernel: Kernel, extras: Extras, out: TextIO) -> None:
        rows = metric_table.rows(kernel, extras.about)
        if args.json:
            print(json.dumps(metrics_json(report, kernel, rows)), file=out)
        else:
            print(visible_lines(f"{visible(report.source)}\n{metrics_text(kernel, rows)}\n"),
                  file=out)

    return _each(args, show, out or sys.stdout, err or sys.stderr, about=True,
                 every_metric=True)


# ---------------------------------------------------------------- advice


def advice_json(report: Report, kernel: Kernel, found: tuple[advice.Advice, ...] | None
                ) -> dict[str, object]:
    return {"source": report.source, "index": kernel.index, "name": kernel.name,
            "advice": None if found is None else [
                {"heading": a.heading, "kind": a.kind, "section": a.section,
                 "speedup_pct": a.speedup_pct, "speedup_scope": a.speedup_scope,
                 "text": a.text, "lesson": advice.lesson_reading(a, kernel)} for a in found]}


def advice_text(kernel: Kernel, found: tuple[advice.Advice, ...] | None) -> str:
    lines = [visible(kernel.label)]
    if found is None:
        return "\n".join([*lines, f"  {advice.RULES_MISSING}."])
    for a in found:
        scope = f" ({a.speedup_scope})" if a.speedup_scope else ""
        estimate = "no estimate" if a.speedup_pct is None else \
            f"est. speedup {fmt.percent(a.speedup_pct)}{scope}"
        lines.append(f"  [{visible(a.kind)}] {visible(a.heading)}: {estimate}")
        lines.append(f"      {' '.join(a.text.split())}")
        lesson = advice.lesson_reading(a, kernel)
        if lesson is not None:
            lines.append(f"      The lesson beside it: {lesson}")
    return "\n".join(lines)


def run_advice(args: argparse.Namespace, out: TextIO | None = None,
               err: TextIO | None = None) -> int:
    """The `advice` subcommand."""
    def show(report: Report, kernel: Kernel, extras: Extras, out: TextIO) -> None:
        found = None if extras.rules is None else advice.ranked(extras.rules)
        if args.json:
            print(json.dumps(advice_json(report, kernel, found)), file=out)
        else:
            print(visible_lines(f"{visible(report.source)}\n{advice_text(kernel, found)}\n"),
                  file=out)

    return _each(args, show, out or sys.stdout, err or sys.stderr, rules=True)
