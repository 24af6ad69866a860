"""What a start of `python -m viewer COMMAND` imports: the command it runs, not every command of
the tree (viewer/cli.py imports each command's module only when that command runs), and no numpy
where the command needs none."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from viewer import cli

ROOT = Path(__file__).resolve().parent.parent
NAIVE = ROOT / "profiles" / "naive.ncu-rep"
# Run as the interpreter runs `python -m viewer ARGS...`; the modules imported, printed at exit.
IMPORTED = """
import atexit, json, os, runpy, sys
out = int(sys.argv[1])
atexit.register(lambda: os.write(out, json.dumps(sorted(sys.modules)).encode()))
sys.argv = ["viewer", *sys.argv[2:]]
runpy.run_module("viewer", run_name="__main__", alter_sys=True)
"""
COMMAND_MODULES = {
    "viewer.analysis.predict", "viewer.terminal.capture_terminal",
    "viewer.terminal.lesson_terminal", "viewer.terminal.roofline_terminal",
    "viewer.terminal.summary_terminal", "viewer.terminal.tables_terminal",
    "viewer.terminal.source_terminal",
}


def imported(*args: str) -> set[str]:
    """The modules a run of `python -m viewer ARGS...` imported (its exit status must be 0)."""
    read, write = os.pipe()
    with os.fdopen(read, "rb") as modules:
        done = subprocess.run([sys.executable, "-c", IMPORTED, str(write), *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=120, pass_fds=(write,),
                              check=False)
        os.close(write)
        names = modules.read()
    assert done.returncode == 0, done.stderr
    return set(json.loads(names))


def test_the_trees_help_imports_no_command() -> None:
    modules = imported("--help")
    assert modules & COMMAND_MODULES == set()
    assert "numpy" not in modules


@pytest.mark.parametrize(("args", "own"), [
    (("predict", "--dim", "512", "--tile", "16"), {"viewer.analysis.predict"}),
    (("summary", str(NAIVE)), {"viewer.terminal.summary_terminal",
                               "viewer.terminal.roofline_terminal", "viewer.analysis.predict"}),
])
def test_a_command_imports_its_own_modules_alone(args: tuple[str, ...], own: set[str]) -> None:
    modules = imported(*args)
    assert modules & COMMAND_MODULES == own
    assert "numpy" not in modules  # neither command needs it


def test_the_tree_lists_every_command_with_its_line_of_help() -> None:
    """Built for one command, the tree still lists them all, each with its line of HELP."""
    assert tuple(cli.HELP) == cli.COMMANDS == tuple(cli.ENTRIES)
    for only in (None, cli.WINDOW, *cli.COMMANDS):
        listed = "".join(cli.parser(only=only).format_help().split())
        assert all("".join(f"{name} {words}".split()) in listed
                   for name, words in cli.HELP.items()), only
