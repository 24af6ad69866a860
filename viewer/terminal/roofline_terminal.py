"""The terminal's views beyond the three readings: `roofline`, and `summary`'s `-k/--kernel` and
`--by-name` (ncu's conventions).

`python -m viewer roofline FILE... [--json] [-k SPEC]`: the hierarchical FP32 roofline of each
kernel; with --json one object per kernel per line (its source, index and name, then
viewer.analysis.roofline.Roofline.as_json's keys), null where the report lacks a metric.
`python -m viewer summary --by-name [--json] FILE...`: the kernels grouped by name, where the time
goes. Bad input: one line on stderr naming the file, exit status 1; the other files go on.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO, TypeVar

from viewer.analysis import roofline
from viewer.core import formatting as fmt
from viewer.core import kernel_filter, shipped
from viewer.core.kernel_filter import kernel_spec
from viewer.core.model import Kernel, Report, ReportError
from viewer.core.terminal_text import visible, visible_lines

ROOFLINE_DESCRIPTION = (
    "Print each kernel's hierarchical FP32 roofline: achieved and peak FP32 work, and at DRAM, "
    "L2 and L1 the bandwidth, its peak and the arithmetic intensity (FLOP per byte), as ncu's "
    f"roofline section computes them. A report needs {roofline.ROOFLINE_SETS} for them.")
T = TypeVar("T")
BY_NAME_SCHEMA = 2
"""`summary --by-name --json`'s layout; 2: `cut_short`, why the file looks cut short ([] when
whole: its shares are then of the kernels read)."""


def add_kernel_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-k", "--kernel", type=kernel_spec, metavar="SPEC",
                        help="only the kernels named SPEC; 'regex:EXPR' picks those whose name "
                             "EXPR matches (ncu's convention)")


def add_summary_options(parser: argparse.ArgumentParser) -> None:
    """`summary`'s -k/--kernel and --by-name."""
    add_kernel_option(parser)
    parser.add_argument("--by-name", action="store_true",
                        help="group the kernels by name: launches, total and mean duration, "
                             "share of the report's kernel time, the largest total first")


def add_report_arguments(parser: argparse.ArgumentParser) -> None:
    """FILE..., --json and -k: what `roofline`, `metrics` and `advice` take."""
    parser.add_argument("files", nargs="*", type=Path,
                        help="reports or exports (default: the shipped naive-vs-tiled pair)")
    parser.add_argument("--json", action="store_true", help="one JSON object per kernel")
    add_kernel_option(parser)


@dataclasses.dataclass
class Picks:
    """What `-k SPEC` picks over one run's files: each file's kernels it picks, and at the end one
    line naming the files where it picked none (an error when it picked none anywhere)."""

    spec: str | None
    missed: list[str] = dataclasses.field(default_factory=list)
    found: int = 0

    def kernels(self, source: str | Path, kernels: Sequence[T], test: Callable[[T], bool]
                ) -> list[T]:
        """Those of the file `source`'s `kernels` that `test` (the spec's matcher) keeps."""
        kept = list(kernels) if self.spec is None else [k for k in kernels if test(k)]
        if kept:
            self.found += len(kept)
        else:
            self.missed.append(str(source))
        return kept

    def report(self, report: Report) -> Report | None:
        """The report with only the kernels the spec picks; None when it picks none of them."""
        if self.spec is None:
            return report
        test = kernel_filter.matcher(self.spec)
        kernels = self.kernels(report.source, report.kernels, test)
        return dataclasses.replace(report, kernels=kernels) if kernels else None

    def status(self, status: int, err: TextIO) -> int:
        """`status`, or 1 when the spec picked no kernel of any file read; the files it picked
        none in said in one line on `err` (a note when it picked some elsewhere)."""
        if self.spec is None or not self.missed:
            return status
        files = ", ".join(self.missed)
        if self.found:
            print(visible(f"note: no kernel matches -k {self.spec} in {files}"), file=err)
            return status
        print(visible(f"error: no kernel matches -k {self.spec} in {files}"), file=err)
        return 1


def read_each(paths: Sequence[str | Path], err: TextIO) -> tuple[list[Report], int]:
    """Each of `paths` read, its reader's notes warned of on `err`; a file that does not read
    is one error line there and status 1, and the others are still read."""
    from viewer.readers import read_report

    reports, status = [], 0
    for path in paths:
        try:
            report = read_report(path)
        except ReportError as exc:
            print(visible(f"error: {exc}"), file=err)
            status = 1
            continue
        warn_of(report, err)
        reports.append(report)
    return reports, status


def warn_of(report: Report, err: TextIO) -> None:
    """What the reader noted of the file, on `err`: each note a warning, and once, whether it
    looks cut short ("PATH: cut short: why"; its values may be incomplete)."""
    from viewer.readers._text_lines import cut_short

    said = {cut_short(why) for why in report.cut_short}
    for note in report.notes:
        if note not in said:
            print(visible(f"warning: {report.source}: {note}"), file=err)
    if report.cut_short:
        print(visible(f"warning: {report.source}: cut short: {'; '.join(report.cut_short)}"),
              file=err)


def _reports(paths: Sequence[Path], spec: str | None, err: TextIO,
             more: frozenset[str] = frozenset()) -> tuple[list[Report], int]:
    """Each file read, with the kernels `spec` picks (and metric names `more` read for them);
    the status: 1 when a file could not be read, or no kernel of any file was picked."""
    from viewer.readers import read_metrics, read_report

    status, out, picks = 0, [], Picks(spec)
    for path in paths:
        try:
            whole = read_report(path)
            warn_of(whole, err)
            report = picks.report(whole)
            if report is None:
                continue
            if more:  # read into the whole report: its list positions are the kernels' indices
                whole.add_metrics(read_metrics(whole, [k.index for k in report.kernels], more),
                                  more)
        except ReportError as exc:
            print(visible(f"error: {exc}"), file=err)
            status = 1
            continue
        out.append(report)
    return out, picks.status(status, err)


# ---------------------------------------------------------------- roofline


def roofline_json(report: Report, kernel: Kernel) -> dict[str, object]:
    return {"source": report.source, "index": kernel.index, "name": kernel.name,
            **roofline.roofline(kernel).as_json()}


def roofline_text(kernel: Kernel) -> str:
    r = roofline.roofline(kernel)
    lines = [visible(kernel.label)]
    if r.empty:
        return "\n".join([*lines, f"  {r.missing_text}"])
    share = None if r.achieved_fp32_flop_per_s is None or not r.peak_fp32_flop_per_s else \
        100.0 * r.achieved_fp32_flop_per_s / r.peak_fp32_flop_per_s
    lines.append(f"  FP32 work: {fmt.flop_rate(r.achieved_fp32_flop_per_s)} of a "
                 f"{fmt.flop_rate(r.peak_fp32_flop_per_s)} peak ({fmt.percent(share)})")
    lines.append(f"  {'level':<6} {'bandwidth':>12} {'peak':>12} {'of peak':>9} "
                 f"{'FLOP/byte':>10} {'ridge':>8}")
    for level in r.levels:
        lines.append(f"  {level.name:<6} {fmt.rate(level.bytes_per_s):>12} "
                     f"{fmt.rate(level.peak_bytes_per_s):>12} {fmt.percent(level.pct_of_peak):>9} "
                     f"{fmt.intensity(level.intensity):>10} {fmt.intensity(r.ridge(level.key)):>8}")
    if r.missing_text is not None:
        lines.append(f"  {r.missing_text}")
    flaw = roofline.day_thirty(kernel)
    if flaw is not None:
        lines.append(f"  The day-30 count (every load of the source counted as DRAM traffic): "
                     f"{fmt.size(flaw.hand_bytes)}, {fmt.intensity(flaw.hand_intensity)} FLOP/byte;"
                     f" measured {fmt.size(flaw.measured_bytes)}, "
                     f"{fmt.intensity(flaw.measured_intensity)} FLOP/byte (the count is "
                     f"{fmt.ratio(flaw.times_measured)} what DRAM moved).")
    return "\n".join(lines)


def run_roofline(args: argparse.Namespace, out: TextIO | None = None,
                 err: TextIO | None = None) -> int:
    """The `roofline` subcommand: the files named, else the shipped pair."""
    out, err = out or sys.stdout, err or sys.stderr
    paths = args.files or shipped.comparison()
    reports, status = _reports(paths, args.kernel, err, roofline.ROOFLINE_METRICS)
    for report in reports:
        kernels = report.kernels
        if args.json:
            for kernel in kernels:
                print(json.dumps(roofline_json(report, kernel), allow_nan=False), file=out)
        else:
            print(visible(f"{report.source}  ({report.format})"), file=out)
            print(visible_lines("\n".join(roofline_text(k) for k in kernels)) + "\n", file=out)
    return status


# ---------------------------------------------------------------- summary --by-name


def by_name_json(report: Report, kernels: Sequence[Kernel]) -> dict[str, object]:
    from viewer.analysis import time_by_kernel  # numpy, which only --by-name needs

    return {
        "schema": BY_NAME_SCHEMA,
        "source": report.source,
        "format": report.format,
        "kernels": len(kernels),
        "cut_short": list(report.cut_short),
        "kernel_time_ns": time_by_kernel.report_time_ns(kernels),
        "groups": [{"name": g.name, "launches": g.launches, "timed": g.timed,
                    "total_ns": g.total_ns, "mean_ns": g.mean_ns, "share_pct": g.share_pct,
                    "longest_index": g.longest}
                   for g in time_by_kernel.group_by_name(kernels)],
    }


def _counted(count: int, word: str) -> str:
    return f"{count:,} {word}" + ("" if count == 1 else "s")


def by_name_text(report: Report, kernels: Sequence[Kernel]) -> str:
    from viewer.analysis import time_by_kernel  # numpy, which only --by-name needs

    groups = time_by_kernel.group_by_name(kernels)
    total = time_by_kernel.report_time_ns(kernels)
    lines = [f"{visible(report.source)}  ({report.format}, {_counted(len(kernels), 'kernel')}, "
             f"{_counted(len(groups), 'name')}, kernel time {fmt.duration(total)})",
             f"  {'total':>10} {'share':>8} {'launches':>9} {'mean':>10}  name"]
    lines += [f"  {fmt.duration(g.total_ns):>10} {fmt.percent(g.share_pct):>8} "
              f"{g.launches:>9,} {fmt.duration(g.mean_ns):>10}  {visible(g.name)}" for g in groups]
    if report.cut_short:
        read = _counted(len(kernels), "kernel")
        lines.append(f"  The file looks cut short: the shares are of the {read} read, not of"
                     " every kernel it was written with.")
    return "\n".join(lines)


def print_by_name(paths: Sequence[Path], as_json: bool, spec: str | None,
                  out: TextIO | None = None, err: TextIO | None = None) -> int:
    """`summary --by-name`: each file's kernels grouped by name; 0 when every file was read."""
    out, err = out or sys.stdout, err or sys.stderr
    reports, status = _reports(paths, spec, err)
    for report in reports:
        print(json.dumps(by_name_json(report, report.kernels), allow_nan=False) if as_json
              else visible_lines(by_name_text(report, report.kernels)) + "\n", file=out)
    return status
