"""`python -m viewer`: the window, or `summary` / `predict` / `capture` in the terminal.

With no display the window cannot open: say so, say what to install or set, and print the
reading-order summary instead of letting Qt abort.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from viewer import cli
from viewer.display import display_problem

TABS = ("sol", "memory", "occupancy")


def gui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m viewer",
        description="Open Nsight Compute reports in the lesson's reading order. "
                    "Subcommands: 'summary FILE... [--json]', 'predict --dim N --tile T', "
                    "'capture --target naive|tiled|both --dim N --set S --clock C'.")
    parser.add_argument("files", nargs="*", type=Path,
                        help="reports or exports; two files (or one with two kernels) open in "
                             "compare mode (default: the shipped naive-vs-tiled pair)")
    parser.add_argument("--tab", choices=TABS, default="sol", help="the reading step to show")
    parser.add_argument("--projector", action="store_true",
                        help="large type, high contrast, full screen, for a room")
    parser.add_argument("--screenshot", type=Path, metavar="OUT.png",
                        help="render the window offscreen, write the picture and exit")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("summary", "predict", "capture"):
        return cli.main(argv)
    args = gui_parser().parse_args(argv)
    if args.screenshot is not None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    problem = display_problem(os.environ)
    if problem is not None:
        print(f"ncu-reader: {problem}", file=sys.stderr)
        print("The reading-order summary instead:\n", file=sys.stderr)
        return cli.summarize(args.files or cli.shipped_comparison())
    from viewer.qt.app import run

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
