"""The command line: one argparse tree, the window's options and the `summary` script.

The tree: the window (the default, when no subcommand is named), `summary`
(viewer/terminal/summary_terminal.py), `predict`, `capture` and `lesson`
(viewer/terminal/lesson_terminal.py), `roofline` (viewer/terminal/roofline_terminal.py), `metrics`
and `advice` (viewer/terminal/tables_terminal.py), `source` (viewer/terminal/source_terminal.py),
`series` (viewer/terminal/series_terminal.py).
`summary -k/--kernel SPEC` picks kernels as ncu does (`regex:EXPR`, else the exact name), and
`summary --by-name` groups them by name (viewer/terminal/roofline_terminal.py), and
`summary --merge` reads one launch from several files as one (series --merge's join).
`python -m viewer summary FILE... [--json]` prints one JSON object per file (one per line) with
--json, else a readable table of the three readings; with no file, the shipped comparison. Bad
input: one line on stderr naming the file, exit status 1; the other files are still summarised.
Every command prints text from a file (names, paths, ncu's words) through
viewer.core.terminal_text, so none of it reaches the terminal raw; --json keeps it exact.

A start imports the command it runs and no other: each command's line of help is kept here
(HELP), so the tree lists them all importing none, and its module is imported by its own small
function in ENTRIES only when the tree is built for it (parse builds it for the command argv
names; parser() with no command named builds them all).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from viewer.core.file_list import once

PROG = "python -m viewer"
"""The tree's name in help and usage errors, unless it runs as an installed script (invoked_as)."""
SCRIPT_PROG = "python -m viewer.cli"
"""summary_main's name when this module runs as a program rather than as ncu-reader-summary."""
HELP = {
    "summary": "the reading order per kernel, in the terminal",
    "predict": "the lesson's derivation for a size and tile",
    "capture": "capture the app's matmul kernels on this GPU",
    "lesson": "the lesson's predictions against the counters, the T4 reference and the exercise",
    "roofline": "each kernel's hierarchical FP32 roofline",
    "metrics": "every metric of each kernel, with its unit and section",
    "advice": "ncu's own advice on each kernel, the largest estimated speedup first",
    "source": "each kernel's source lines and SASS with ncu's per-instruction counters",
    "series": "several reports as a series: the lesson's rows, the derivation, ratios",
}
"""Each command's line in the tree's help, kept here so that listing them imports none of them."""
COMMANDS = tuple(HELP)
WINDOW = "window"
"""The tree's name for the window, run when argv names no command in COMMANDS; never typed."""


def invoked_as(argv0: str, default: str = PROG) -> str:
    """The program's name as it was run, for its help and usage errors: an installed script's
    own ('ncu-reader-summary', 'ncu-reader'), else `default` (run as `python -m ...`, whose
    argv[0] is the module's file)."""
    name = Path(argv0).name
    return default if not name or name.endswith(".py") or name == "-c" else name


SUMMARY_DESCRIPTION = "Print the lesson's reading order per kernel."


def add_summary_arguments(parser: argparse.ArgumentParser) -> None:
    """summary's options, for the tree and for the ncu-reader-summary script."""
    from viewer.terminal import roofline_terminal

    parser.add_argument("files", nargs="*", type=Path,
                        help="reports or exports (default: the shipped naive-vs-tiled pair)")
    parser.add_argument("--json", action="store_true", help="one JSON object per file")
    roofline_terminal.add_summary_options(parser)
    parser.add_argument("--merge", action="store_true",
                        help="one reading for one launch read from several files (a --metrics "
                             "capture and a details capture: the same kernel, grid, block and "
                             "launch id), as series --merge joins them; where the files "
                             "disagree on a metric, both values")


def add_cache_argument(parser: argparse.ArgumentParser) -> None:
    """--no-cache, which every command takes (viewer.readers.read_cache)."""
    parser.add_argument("--no-cache", action="store_true",
                        help="read every file again, keeping nothing of it (as "
                             "NCU_READER_NO_CACHE=1 does)")


def use_cache_as_asked(args: argparse.Namespace) -> None:
    """Turn the cache of what was read off for the rest of the run where --no-cache says so."""
    if getattr(args, "no_cache", False):
        from viewer.readers import read_cache

        read_cache.turn_off()


def run_summary(args: argparse.Namespace) -> int:
    """The `summary` subcommand: the files named (each once), else the shipped comparison."""
    from viewer.core import shipped
    from viewer.terminal import roofline_terminal, summary_terminal

    paths = once(args.files or shipped.comparison())
    if args.merge:
        if args.by_name:
            print("error: --merge and --by-name do not go together", file=sys.stderr)
            return 2
        return summary_terminal.summarize_merged(paths, as_json=args.json, kernel=args.kernel)
    if args.by_name:
        return roofline_terminal.print_by_name(paths, args.json, args.kernel)
    return summary_terminal.summarize(paths, as_json=args.json, kernel=args.kernel)


def _window_arguments(parser: argparse.ArgumentParser) -> None:
    from viewer.analysis import reading
    from viewer.core.kernel_filter import kernel_spec

    parser.add_argument("files", nargs="*", type=Path,
                        help="reports or exports; two files (or one with two kernels) open in "
                             "compare mode, and every file is part of the series (default: "
                             "the shipped naive-vs-tiled pair)")
    parser.add_argument("--tab", choices=(*reading.READING_ORDER, reading.SERIES_VIEW),
                        help="the reading step to show, or the series of every file "
                             f"(default: {reading.READING_ORDER[0]})")
    parser.add_argument("--projector", action="store_true",
                        help="large type, high contrast, full screen, for a room")
    parser.add_argument("--screenshot", type=Path, metavar="OUT.png",
                        help="render the window offscreen, write the picture to this new file "
                             "(never over one) and exit")
    picks = parser.add_mutually_exclusive_group()
    picks.add_argument("--kernels", type=kernel_numbers, metavar="I,J",
                       help="open with these kernels, numbered as the kernel list numbers them "
                            "(two compare: 3,17)")
    picks.add_argument("-k", "--kernel", type=kernel_spec, metavar="SPEC",
                       help="open with the first one or two kernels named SPEC ('regex:EXPR' "
                            "as summary -k takes it)")
    parser.add_argument("--size", type=window_size, metavar="WxH",
                        help="the screenshot's size (default: 1280x800, 1920x1080 with "
                             "--projector)")
    add_cache_argument(parser)


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


class Entry(NamedTuple):
    """What a command's module gives the tree: its description, its options and its run."""

    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Command


# One function per command imports its module, only when the tree is built for that command.

def _summary() -> Entry:
    return Entry(SUMMARY_DESCRIPTION, add_summary_arguments, run_summary)


def _predict() -> Entry:
    from viewer.analysis import predict

    return Entry(predict.DESCRIPTION, predict.add_arguments, predict.run)


def _capture() -> Entry:
    from viewer.terminal import capture_terminal

    return Entry(capture_terminal.DESCRIPTION, capture_terminal.add_arguments,
                 capture_terminal.run)


def _lesson() -> Entry:
    from viewer.terminal import lesson_terminal

    return Entry(lesson_terminal.DESCRIPTION, lesson_terminal.add_arguments, lesson_terminal.run)


def _roofline() -> Entry:
    from viewer.terminal import roofline_terminal

    return Entry(roofline_terminal.ROOFLINE_DESCRIPTION, roofline_terminal.add_report_arguments,
                 roofline_terminal.run_roofline)


def _metrics() -> Entry:
    from viewer.terminal import roofline_terminal, tables_terminal

    return Entry(tables_terminal.METRICS_DESCRIPTION, roofline_terminal.add_report_arguments,
                 tables_terminal.run_metrics)


def _advice() -> Entry:
    from viewer.terminal import roofline_terminal, tables_terminal

    return Entry(tables_terminal.ADVICE_DESCRIPTION, roofline_terminal.add_report_arguments,
                 tables_terminal.run_advice)


def _source() -> Entry:
    from viewer.terminal import source_terminal

    return Entry(source_terminal.DESCRIPTION, source_terminal.add_arguments, source_terminal.run)


def _series() -> Entry:
    from viewer.terminal import series_terminal

    return Entry(series_terminal.DESCRIPTION, series_terminal.add_arguments, series_terminal.run)


ENTRIES: dict[str, Callable[[], Entry]] = {
    "summary": _summary, "predict": _predict, "capture": _capture, "lesson": _lesson,
    "roofline": _roofline, "metrics": _metrics, "advice": _advice, "source": _source,
    "series": _series,
}
"""Each command -> the function that imports its module and answers its Entry."""


def parser(prog: str = PROG, only: str | None = None) -> argparse.ArgumentParser:
    """The one command tree, named `prog` in its help: the window, and COMMANDS each listed with
    its line of HELP. `only` (a command, or WINDOW): the one whose options are built, importing
    its module alone; None builds every one."""
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
                    "'series FILE... [--json] [--baseline I] [--merge]', "
                    "'predict --dim N --tile T', "
                    "'capture --target naive|tiled|both --dim N --set S --clock C', "
                    "'lesson [FILES...] [--json]'.")
    if only in (None, WINDOW):
        _window_arguments(window)
    window.set_defaults(parser=window)
    for name in COMMANDS:
        command = sub.add_parser(name, help=HELP[name])
        if only in (None, name):
            entry = ENTRIES[name]()
            command.description = entry.description
            entry.add_arguments(command)
            add_cache_argument(command)
            command.set_defaults(run=entry.run, parser=command)
    return root


def parse(argv: Sequence[str], prog: str = PROG) -> argparse.Namespace:
    """argv through the tree (named `prog`, built for the command argv names); when its first
    word names no command, the window's options. Raises SystemExit (argparse's status: 0 for
    --help, 2 for a usage error)."""
    words = list(argv)
    if not words or words[0] not in COMMANDS:
        words.insert(0, WINDOW)
    args, unknown = parser(prog, only=words[0]).parse_known_args(words)
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
    add_cache_argument(script)
    try:
        args = script.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    use_cache_as_asked(args)
    return run_summary(args)


if __name__ == "__main__":
    sys.exit(summary_main())
