"""`python -m viewer`: the window, or `summary` / `predict` / `capture` in the terminal.

One argparse tree (viewer/cli.py) parses every command line. With no display the window cannot
open: say so, say what to install or set, and print the reading-order summary of the kernels the
window would open with instead of letting Qt abort (viewer/terminal/summary_terminal.py). Run by a
Python that lacks the app's packages, say in one line what to install
(viewer/core/dependencies.py): the imports that need them happen inside main.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from viewer.core import dependencies
from viewer.core.terminal_text import visible


def main(argv: Sequence[str] | None = None) -> int:
    return dependencies.run_or_say_missing(_main, argv)


def _main(argv: Sequence[str] | None) -> int:
    from viewer import cli

    try:
        args = cli.parse(sys.argv[1:], cli.invoked_as(sys.argv[0])) if argv is None \
            else cli.parse(argv)
    except SystemExit as exc:  # --help, or a usage error argparse has printed
        return int(exc.code or 0)
    cli.use_cache_as_asked(args)
    if args.command != cli.WINDOW:
        return _terminal(args)
    from viewer.core.display import display_problem  # the window's alone: a terminal's needs none

    if args.screenshot is not None and not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # set but empty names no platform either
    problem = display_problem(os.environ)
    if problem is not None:
        print(visible(f"ncu-reader: {problem}"), file=sys.stderr)
        from viewer.terminal import summary_terminal

        return _terminal(args, summary_terminal.window_in_terminal)
    from viewer.qt.shell.app import run

    return run(args)


def _terminal(args: argparse.Namespace,
              run: Callable[[argparse.Namespace], int] | None = None) -> int:
    """A terminal command (`run`, else the subcommand args names); a reader that stops reading
    (`| head`) ends it quietly."""
    from viewer import cli

    try:
        return (run or cli.run_command)(args)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 141  # as a shell reports a command killed by SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
