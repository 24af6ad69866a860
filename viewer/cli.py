"""The command line: one argparse tree, and the terminal's `summary` (the reading order per kernel).

The tree: the window (the default, when no subcommand is named), `summary`, `predict`, `capture`
and `lesson` (viewer/terminal/lesson_terminal.py), `roofline`
(viewer/terminal/roofline_terminal.py), `metrics` and `advice` (viewer/terminal/tables_terminal.py),
`source` (viewer/terminal/source_terminal.py).
`summary -k/--kernel SPEC` picks kernels as ncu does (`regex:EXPR`, else the exact name), and
`summary --by-name` groups them by name (viewer/terminal/roofline_terminal.py).
`python -m viewer summary FILE... [--json]` prints one JSON object per file (one per line) with
--json, else a readable table of the three readings; with no file, the shipped comparison. Bad
input: one line on stderr naming the file, exit status 1; the other files are still summarised.
Every command prints text from a file (names, paths, ncu's words) through
viewer.core.terminal_text, so none of it reaches the terminal raw; --json keeps it exact.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from viewer.analysis import (
    chart_layout,
    comparison,
    launch_size,
    memory_traffic,
    occupancy_reading,
    predict,
    reading,
)
from viewer.core import formatting as fmt
from viewer.core import shipped
from viewer.core.file_list import named_once
from viewer.core.kernel_filter import start_picks
from viewer.core.model import Kernel, Report, ReportError, Session
from viewer.core.names import kernel_names
from viewer.core.terminal_text import visible, visible_lines
from viewer.lesson import derivation_check
from viewer.terminal import (
    capture_terminal,
    lesson_terminal,
    roofline_terminal,
    source_terminal,
    tables_terminal,
)

SCHEMA = 4
"""--json's layout; 2: `device` became `device_id` (ncu's number) and `device_name`; 3: the
report's own `clock_control`, `ncu_version`, `cuda_version` and `created` (null where absent);
4: `cut_short`, why the file looks cut short ([] when nothing says so)."""
PROG = "python -m viewer"
"""The tree's name in help and usage errors, unless it runs as an installed script (invoked_as)."""
SCRIPT_PROG = "python -m viewer.cli"
"""summary_main's name when this module runs as a program rather than as ncu-reader-summary."""
COMMANDS = ("summary", "predict", "capture", "lesson", "roofline", "metrics", "advice",
            "source")
WINDOW = "window"
"""The tree's name for the window, run when argv names no command in COMMANDS; never typed."""


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


def invoked_as(argv0: str, default: str = PROG) -> str:
    """The program's name as it was run, for its help and usage errors: an installed script's
    own ('ncu-reader-summary', 'ncu-reader'), else `default` (run as `python -m ...`, whose
    argv[0] is the module's file)."""
    name = Path(argv0).name
    return default if not name or name.endswith(".py") or name == "-c" else name


SUMMARY_DESCRIPTION = "Print the lesson's reading order per kernel."


def add_summary_arguments(parser: argparse.ArgumentParser) -> None:
    """summary's options, for the tree and for the ncu-reader-summary script."""
    parser.add_argument("files", nargs="*", type=Path,
                        help="reports or exports (default: the shipped naive-vs-tiled pair)")
    parser.add_argument("--json", action="store_true", help="one JSON object per file")
    roofline_terminal.add_summary_options(parser)


def window_in_terminal(args: argparse.Namespace, out: TextIO | None = None,
                       err: TextIO | None = None) -> int:
    """The window's command line where no window can open: the reading-order summary (of each
    file once) of the kernels it would open with (`--kernels`, `-k`: the window's picks,
    refused in the window's one line, exit status 1; neither: every kernel), and a line saying
    that `--tab` and `--projector`, the window's alone, are ignored."""
    from viewer.readers import read_report

    out = out or sys.stdout
    err = err or sys.stderr
    flags = [f"--tab {args.tab}"] if args.tab is not None else []
    flags += ["--projector"] if args.projector else []
    if flags:
        print(f"ncu-reader: {' and '.join(flags)} {'are' if len(flags) > 1 else 'is'} the "
              "window's: ignored here, where every reading step prints in order", file=err)
    paths = once(args.files or shipped.comparison(), err)
    numbers: tuple[int, ...] = args.kernels or ()
    if not numbers and args.kernel is None:
        print("The reading-order summary instead:\n", file=err)
        return summarize(paths, out=out, err=err)
    status, reports = 0, []
    for path in paths:
        try:
            reports.append(read_report(path))
        except ReportError as exc:
            print(visible(f"error: {exc}"), file=err)
            status = 1
            continue
        roofline_terminal.warn_of(reports[-1], err)
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


def once(paths: Sequence[Path], err: TextIO | None = None) -> list[Path]:
    """`paths` with each file once; a line on `err` for each named more than once."""
    kept, said = named_once(paths)
    for line in said:
        print(visible(f"note: {line}"), file=err or sys.stderr)
    return kept


def run_summary(args: argparse.Namespace) -> int:
    """The `summary` subcommand: the files named (each once), else the shipped comparison."""
    paths = once(args.files or shipped.comparison())
    if args.by_name:
        return roofline_terminal.print_by_name(paths, args.json, args.kernel)
    return summarize(paths, as_json=args.json, kernel=args.kernel)


def _window_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", type=Path,
                        help="reports or exports; two files (or one with two kernels) open in "
                             "compare mode (default: the shipped naive-vs-tiled pair)")
    parser.add_argument("--tab", choices=reading.READING_ORDER,
                        help=f"the reading step to show (default: {reading.READING_ORDER[0]})")
    parser.add_argument("--projector", action="store_true",
                        help="large type, high contrast, full screen, for a room")
    parser.add_argument("--screenshot", type=Path, metavar="OUT.png",
                        help="render the window offscreen, write the picture to this new file "
                             "(never over one) and exit")
    picks = parser.add_mutually_exclusive_group()
    picks.add_argument("--kernels", type=kernel_numbers, metavar="I,J",
                       help="open with these kernels, numbered as the kernel list numbers them "
                            "(two compare: 3,17)")
    picks.add_argument("-k", "--kernel", type=roofline_terminal.kernel_spec, metavar="SPEC",
                       help="open with the first one or two kernels named SPEC ('regex:EXPR' "
                            "as summary -k takes it)")
    parser.add_argument("--size", type=window_size, metavar="WxH",
                        help="the screenshot's size (default: 1280x800, 1920x1080 with "
                             "--projector)")


def kernel_numbers(text: str) -> tuple[int, ...]:
    """'3,17' -> (3, 17): one kernel's number or two; argparse's error for anything else."""
    words = [w.strip() for w in text.split(",")]
    if not 1 <= len(words) <= 2 or not all(w.isdigit() for w in words):
        raise argparse.ArgumentTypeError(f"{text!r} is not one or two kernel numbers, e.g. 3,17")
    return tuple(int(w) for w in words)


def window_size(text: str) -> tuple[int, int]:
    """'1366x768' -> (1366, 768); argparse's error for anything else."""
    width, x, height = text.lower().partition("x")
    if not (x and width.isdigit() and height.isdigit() and int(width) > 0 and int(height) > 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT, e.g. 1366x768")
    return int(width), int(height)


Command = Callable[[argparse.Namespace], int]
"""A subcommand's run: its parsed options -> the exit status."""


def parser(prog: str = PROG) -> argparse.ArgumentParser:
    """The one command tree, named `prog` in its help: the window, summary, predict, capture,
    lesson, roofline, metrics, advice and source."""
    root = argparse.ArgumentParser(prog=prog, description="Nsight Compute reports in the lesson's "
                                                          "reading order.")
    sub = root.add_subparsers(dest="command", required=True,
                              metavar="{" + ",".join(COMMANDS) + "}")
    # No help=: the window is the default, not a command to list.
    window = sub.add_parser(
        WINDOW, prog=prog,
        description="Open Nsight Compute reports in the lesson's reading order. Subcommands "
                    f"({prog} COMMAND -h for each): 'summary FILE... [--json]', "
                    "'roofline FILE... [--json]', "
                    "'metrics FILE... [--json]', 'advice FILE... [--json]', "
                    "'source [FILE...] [--all] [--json]', "
                    "'predict --dim N --tile T', "
                    "'capture --target naive|tiled|both --dim N --set S --clock C', "
                    "'lesson [FILES...] [--json]'.")
    _window_arguments(window)
    window.set_defaults(parser=window)

    summary = sub.add_parser("summary", help="the reading order per kernel, in the terminal",
                             description=SUMMARY_DESCRIPTION)
    add_summary_arguments(summary)
    summary.set_defaults(run=run_summary, parser=summary)

    commands: tuple[tuple[str, str, str, Callable[[argparse.ArgumentParser], None], Command],
                    ...] = (
        ("predict", "the lesson's derivation for a size and tile", predict.DESCRIPTION,
         predict.add_arguments, predict.run),
        ("capture", "capture the app's matmul kernels on this GPU", capture_terminal.DESCRIPTION,
         capture_terminal.add_arguments, capture_terminal.run),
        ("lesson", "the lesson's predictions against the counters, the T4 reference and the "
         "exercise", lesson_terminal.DESCRIPTION, lesson_terminal.add_arguments,
         lesson_terminal.run),
        ("roofline", "each kernel's hierarchical FP32 roofline",
         roofline_terminal.ROOFLINE_DESCRIPTION, roofline_terminal.add_roofline_arguments,
         roofline_terminal.run_roofline),
        ("metrics", "every metric of each kernel, with its unit and section",
         tables_terminal.METRICS_DESCRIPTION, tables_terminal.add_arguments,
         tables_terminal.run_metrics),
        ("advice", "ncu's own advice on each kernel, the largest estimated speedup first",
         tables_terminal.ADVICE_DESCRIPTION, tables_terminal.add_arguments,
         tables_terminal.run_advice),
        ("source", "each kernel's source lines and SASS with ncu's per-instruction counters",
         source_terminal.DESCRIPTION, source_terminal.add_arguments, source_terminal.run),
    )
    for name, help_text, description, add_arguments, run in commands:
        command = sub.add_parser(name, help=help_text, description=description)
        add_arguments(command)
        command.set_defaults(run=run, parser=command)
    return root


def parse(argv: Sequence[str], prog: str = PROG) -> argparse.Namespace:
    """argv through the tree (named `prog`); when its first word names no command, the window's
    options. Raises SystemExit (argparse's status: 0 for --help, 2 for a usage error)."""
    words = list(argv)
    if not words or words[0] not in COMMANDS:
        words.insert(0, WINDOW)
    args, unknown = parser(prog).parse_known_args(words)
    if unknown:  # said by the subcommand's parser, with its usage, as a parser of its own would
        args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


def run_command(args: argparse.Namespace) -> int:
    """Run the subcommand `args` names, through the run parser() set as its default."""
    run: Command = args.run
    if getattr(args, "files", None):
        args.files = once(args.files)  # a file named twice is read once, and said so
    return run(args)


def summary_main(argv: Sequence[str] | None = None) -> int:
    """`ncu-reader-summary FILE... [--json]`: the summary subcommand as its own program, named in
    its help as it was run (invoked_as)."""
    script = argparse.ArgumentParser(prog=invoked_as(sys.argv[0], SCRIPT_PROG),
                                     description=SUMMARY_DESCRIPTION)
    add_summary_arguments(script)
    try:
        args = script.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return run_summary(args)


if __name__ == "__main__":
    sys.exit(summary_main())
