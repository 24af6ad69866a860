"""The terminal's `summary`: the reading order per kernel, as text (each kernel's three readings,
then two kernels compared) or as JSON (one object per file, SCHEMA), and the window's command line
where no window can open (window_in_terminal). The words are analysis's and the lesson's; text from
a file goes through viewer.core.terminal_text, so none of it reaches the terminal raw.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from viewer.analysis import (
    chart_layout,
    comparison,
    launch_size,
    memory_traffic,
    occupancy_reading,
    reading,
    series,
)
from viewer.core import formatting as fmt
from viewer.core import shipped
from viewer.core.file_list import once
from viewer.core.kernel_filter import start_picks
from viewer.core.model import Kernel, Report, ReportError, Session
from viewer.core.names import kernel_names
from viewer.core.terminal_text import visible, visible_lines
from viewer.lesson import derivation_check
from viewer.terminal import roofline_terminal

SCHEMA = 4
"""--json's layout; 2: `device` became `device_id` (ncu's number) and `device_name`; 3: the
report's own `clock_control`, `ncu_version`, `cuda_version` and `created` (null where absent);
4: `cut_short`, why the file looks cut short ([] when nothing says so)."""


def kernel_json(kernel: Kernel) -> dict[str, object]:
    return {
        "index": kernel.index,
        "name": kernel.name,
        "display_name": kernel.display_name,
        "grid": list(kernel.grid) if kernel.grid else None,
        "block": list(kernel.block) if kernel.block else None,
        "device_id": kernel.device_id,
        "device_name": kernel.device_name,
        "cc": kernel.cc,
        "metrics": reading.summary(kernel),
    }


def report_json(report: Report) -> dict[str, object]:
    session = report.session or Session()
    return {
        "schema": SCHEMA,
        "source": report.source,
        "format": report.format,
        "clock_control": session.clock_control,
        "ncu_version": session.ncu_version,
        "cuda_version": session.cuda_version,
        "created": session.created,
        "cut_short": list(report.cut_short),
        "kernels": [kernel_json(k) for k in report.kernels],
    }


def _wrap(text: str, indent: str = "     ") -> str:
    return textwrap.fill(text, width=96, initial_indent=indent, subsequent_indent=indent)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _row(label: str, text: str) -> str:
    return f"     {label:<46}  {text}"


def kernel_text(kernel: Kernel) -> str:
    """The three readings of one kernel, in the lesson's order."""
    grid = "x".join(map(str, kernel.grid)) if kernel.grid else fmt.MISSING
    block = "x".join(map(str, kernel.block)) if kernel.block else fmt.MISSING
    device = visible(kernel.device_label or fmt.MISSING)
    lines = [f"{visible(kernel.label)}   grid {grid}  block {block}   device {device}"
             f"   CC {visible(kernel.cc or fmt.MISSING)}"]

    sol = reading.speed_of_light(kernel)
    lines.append(f"  1. Speed Of Light: {sol.verdict or 'no verdict'}; busiest memory unit "
                 f"{reading.busiest_words(sol)}")
    lines += [
        _row("Compute (SM) Throughput", fmt.percent(sol.compute_pct)),
        _row("Memory Throughput", fmt.percent(sol.memory_pct)),
        _row("DRAM Throughput", fmt.percent(sol.dram_pct)),
        _row("Duration", fmt.duration(sol.duration_ns)),
    ]
    lines += [_row(f"{u.name} throughput", fmt.percent(u.pct)) for u in sol.units[:2]]
    lines.append(_wrap(sol.explanation))

    chart = memory_traffic.memory_chart(kernel)
    lines.append("  2. The memory chart")
    for arrow in chart.arrows:
        label = f"{arrow.source} -> {arrow.target}: {arrow.label}"
        amount = fmt.size(arrow.amount) if arrow.unit == "byte" else fmt.count(arrow.amount)
        lines.append(_row(label, amount + (f"   ({arrow.note})" if arrow.note else "")))
    lines += [
        _row("sectors per request", fmt.sectors_per_request(chart.sectors_per_request)),
        _row("L1/TEX Hit Rate", fmt.percent(chart.l1tex_hit_rate_pct)),
        _row("L2 Hit Rate", fmt.percent(chart.l2_hit_rate_pct)),
    ]
    lines += [_wrap(note) for _, note in chart_layout.hit_rate_notes(chart)]
    if chart.compulsory_bytes is not None:
        lines.append(_row("DRAM bytes / compulsory floor",
                          f"{fmt.size(chart.dram_bytes)} / {fmt.size(chart.compulsory_bytes)}"
                          f" = {fmt.ratio(chart.times_compulsory)}"))
        lines.append(_wrap(_sentence(chart.floor_note)))

    checks = derivation_check.predictions(kernel)
    if checks:
        lines.append("     The derivation, against the card (derived / measured):")
        for check in checks:
            lines.append(_row("  " + check.label,
                              f"{check.derived_text} / {check.measured_text}"))
        if any(check.fewer_shared_loads for check in checks):
            lines.append(_wrap(derivation_check.SHARED_LOAD_NOTE))

    occ = occupancy_reading.occupancy(kernel)
    lines.append("  3. Occupancy")
    lines += [
        _row("Theoretical Occupancy", fmt.percent(occ.theoretical_pct)),
        _row("Achieved Occupancy", fmt.percent(occ.achieved_pct)),
    ]
    lines += [_row(lim.name, fmt.count(lim.blocks)) for lim in occ.limits]
    lines.append(_wrap(occ.explanation))
    return "\n".join(lines)


def comparison_text(first: Kernel, second: Kernel) -> str:
    """The lesson's rows of two kernels, which has more and by how much; both sizes first where
    they differ (a ratio across sizes is not the kernels' alone)."""
    a, b = (visible(name) for name in kernel_names([first, second]))
    lines = [f"Comparison: {a} against {b}"]
    sizes = launch_size.size_words([first, second], [a, b])
    if sizes:
        lines.append(_wrap(sizes, "  "))
    for diff in comparison.compare(first, second):
        lines.append("  " + diff.direction(a, b))
    return "\n".join(lines)


def report_text(report: Report) -> str:
    head = f"{visible(report.source)}  ({report.format}, {len(report.kernels)} kernel"
    head += "s)" if len(report.kernels) != 1 else ")"
    return "\n\n".join([head] + [kernel_text(k) for k in report.kernels])


def summarize(paths: Sequence[str | Path], as_json: bool = False, out: TextIO | None = None,
              err: TextIO | None = None, kernel: str | None = None) -> int:
    """Print the reading order for each file (its kernels `kernel` picks, as ncu's -k does);
    0 when every file was read (and some kernel picked), else 1."""
    from viewer.readers import read_report

    out = out or sys.stdout
    err = err or sys.stderr
    status, picks = 0, roofline_terminal.Picks(kernel)
    kernels: list[Kernel] = []
    for path in paths:
        try:
            report = read_report(path)
        except ReportError as exc:
            print(visible(f"error: {exc}"), file=err)
            status = 1
            continue
        roofline_terminal.warn_of(report, err)
        kept = picks.report(report)
        if kept is None:
            continue
        kernels += kept.kernels
        if as_json:
            print(json.dumps(report_json(kept)), file=out)
        else:
            print(visible_lines(report_text(kept)) + "\n", file=out)
    if not as_json and len(kernels) == 2:
        print(visible_lines(comparison_text(*kernels)), file=out)
    return picks.status(status, err)


def disagreements(kernels: Sequence[tuple[str, Kernel]]) -> dict[str, list[tuple[str, float]]]:
    """Each metric that two of one launch's readings (file, kernel) hold and disagree on beyond
    a printed value's rounding (series.agree): every reading's value, the first's first."""
    out: dict[str, list[tuple[str, float]]] = {}
    for name in dict.fromkeys(n for _, k in kernels for n in k.metrics):
        held = [(f, v) for f, k in kernels if (v := k.metric(name)) is not None]
        if len(held) > 1 and any(not series.agree(held[0][1], v) for _, v in held[1:]):
            out[name] = held
    return out


def _number(value: float) -> str:
    return f"{value:,.6g}"


def merged_text(files: Sequence[str], kernel: Kernel,
                disagree: dict[str, list[tuple[str, float]]]) -> str:
    """One launch read from `files`: which, its reading order, and where the files disagree."""
    head = (f"{' + '.join(visible(f) for f in files)}  (one launch, {len(files)} files "
            "merged: each value from the first file that holds it)" if len(files) > 1 else
            f"{visible(files[0])}  (not merged: no other file holds this launch)")
    lines = [head, kernel_text(kernel)]
    if disagree:
        lines.append("     Where the files disagree (both shown; the readings above use the "
                     "first):")
        lines += ["       " + visible(f"{name}: " + " against ".join(
            f"{_number(v)} ({f})" for f, v in held)) for name, held in disagree.items()]
    return "\n".join(lines)


def summarize_merged(paths: Sequence[str | Path], as_json: bool = False,
                     out: TextIO | None = None, err: TextIO | None = None,
                     kernel: str | None = None) -> int:
    """`summary --merge`: the kernels of one launch read from several files (a --metrics
    capture and a details capture) as one, as `series --merge` joins them
    (viewer.analysis.series.merge_rows: the same kernel, grid, block and launch id), each value
    from the first file that holds it; where files hold a metric and disagree, every value with
    its file. Notes on stderr; 1 where a file did not read or nothing could be merged."""
    out, err = out or sys.stdout, err or sys.stderr
    reports, status = roofline_terminal.read_each(paths, err)
    picks = roofline_terminal.Picks(kernel)
    kept = [r for r in (picks.report(report) for report in reports) if r is not None]
    readings = {(r.source, k.index): k for r in kept for k in r.kernels}
    rows = [series.row(r.source, k) for r in kept for k in r.kernels]
    merged, notes = series.merge_rows(rows)
    for row in merged:
        both = disagreements([(f, readings[(f, row.kernel.index)]) for f in row.files])
        if as_json:
            print(json.dumps({"schema": SCHEMA, "merged": list(row.files),
                              "kernels": [kernel_json(row.kernel)],
                              "disagree": {n: [[f, v] for f, v in held]
                                           for n, held in both.items()}}), file=out)
        else:
            print(visible_lines(merged_text(row.files, row.kernel, both)) + "\n", file=out)
    if not as_json and len(merged) == 2:
        print(visible_lines(comparison_text(merged[0].kernel, merged[1].kernel)), file=out)
    for note in notes:
        print(visible(f"note: {note}"), file=err)
    if len(rows) > 1 and len(merged) == len(rows):
        status = 1  # nothing merged: the note says why
    return picks.status(status, err)


def window_in_terminal(args: argparse.Namespace, out: TextIO | None = None,
                       err: TextIO | None = None) -> int:
    """The window's command line where no window can open: the reading-order summary (of each
    file once) of the kernels it would open with (`--kernels`, `-k`: the window's picks,
    refused in the window's one line, exit status 1; neither: every kernel), and a line saying
    that `--tab` and `--projector`, the window's alone, are ignored; for `--tab series` and no
    picks, the series of the files (no file: the shipped sweep) as `series` prints it."""

    out = out or sys.stdout
    err = err or sys.stderr
    numbers: tuple[int, ...] = args.kernels or ()
    series_shown = args.tab == reading.SERIES_VIEW and not numbers and args.kernel is None
    flags = [f"--tab {args.tab}"] if args.tab is not None and not series_shown else []
    flags += ["--projector"] if args.projector else []
    if flags:
        print(f"ncu-reader: {' and '.join(flags)} {'are' if len(flags) > 1 else 'is'} the "
              "window's: ignored here, where every reading step prints in order", file=err)
    paths = once(args.files or shipped.opened_with_no_file(args.tab == reading.SERIES_VIEW),
                 err)
    if series_shown:
        from viewer.terminal import series_terminal

        print("The series instead (python -m viewer series):\n", file=err)
        return series_terminal.show(paths, out=out, err=err)
    if not numbers and args.kernel is None:
        print("The reading-order summary instead:\n", file=err)
        return summarize(paths, out=out, err=err)
    reports, status = roofline_terminal.read_each(paths, err)
    if not reports:
        return status
    held = [(i, kernel) for i, report in enumerate(reports) for kernel in report.kernels]
    at, problem = start_picks([kernel for _, kernel in held], numbers, args.kernel)
    if problem:
        print(visible(f"ncu-reader: {problem}"), file=err)
        return 1
    print("The reading-order summary instead:\n", file=err)
    picks = [held[i] for i in at]
    for i in dict.fromkeys(i for i, _ in picks):  # each file once, A's first
        kept = [kernel for of, kernel in picks if of == i]
        print(visible_lines(report_text(dataclasses.replace(reports[i], kernels=kept))) + "\n",
              file=out)
    if len(picks) == 2:
        print(visible_lines(comparison_text(picks[0][1], picks[1][1])), file=out)
    return status
