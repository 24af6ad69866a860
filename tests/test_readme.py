"""README.md is a contract: every command it shows takes the arguments it shows, and what the
checkout holds (its make targets, its benchmark scripts) is named where a newcomer looks."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from viewer.kernels.__main__ import _parser as kernels_parser

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# What a synopsis's placeholders stand for, when a test fills them in.
PLACEHOLDERS = {"N": "16", "PATH": "out/report", "PY": "python3"}


def code_spans(text: str) -> list[str]:
    """Each `code span` of a Markdown text (outside its fenced blocks), its line breaks and
    indents made single spaces."""
    prose = re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)
    return [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", prose)]


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    (action,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def filled(words: list[str]) -> list[str]:
    """A synopsis's words as a command line: `a|b` is a, a placeholder its stand-in, `...` gone."""
    return [PLACEHOLDERS.get(w, w.split("|")[0]) for w in words if w != "..."]


def parses(parser: argparse.ArgumentParser, argv: list[str]) -> bool:
    try:
        parser.parse_args(argv)
    except SystemExit:
        return False
    return True


def synopsis_problem(parser: argparse.ArgumentParser, synopsis: str) -> str | None:
    """What is wrong with a synopsis `SUB [OPTION ...]` of `parser`'s command SUB, None if nothing:
    every option it names is SUB's, every option SUB requires is named outside brackets, and the
    line parses with the brackets left out and with all of them in."""
    command, *rest = synopsis.split()
    subs = subcommands(parser)
    if command not in subs:
        return f"no command {command!r}"
    sub = subs[command]
    options = {o for a in sub._actions for o in a.option_strings}
    required = {a.option_strings[0] for a in sub._actions if a.required and a.option_strings}
    unknown = set(re.findall(r"--[\w-]+", synopsis)) - options
    if unknown:
        return f"{command} takes no {sorted(unknown)}"
    bare = re.sub(r"\[[^]]*\]", " ", " ".join(rest)).split()
    if not required <= set(bare):
        return f"{command} requires {sorted(required - set(bare))}"
    everything = " ".join(rest).replace("[", " ").replace("]", " ").split()
    for argv in (filled(bare), filled(everything)):
        if not parses(parser, [command, *argv]):
            return f"{command} refuses {argv}"
    return None


def test_each_kernels_command_the_readme_shows_takes_the_arguments_it_shows() -> None:
    prefix = "python -m viewer.kernels "
    spans = [s.removeprefix(prefix) for s in code_spans(README.read_text(encoding="utf-8"))
             if s.startswith(prefix)]
    parser = kernels_parser()
    for span in spans:
        assert synopsis_problem(parser, span) is None, f"README's `{prefix}{span}`"
    # every command but profile-target, the program ncu profiles
    assert {span.split()[0] for span in spans} == set(subcommands(parser)) - {"profile-target"}


@pytest.mark.parametrize("synopsis", ["check|time|ncu-command", "ncu-command", "check --size N",
                                      "ncu-command --kernel naive|tiled [--dim]",
                                      "time --dim N --kernel naive"])
def test_a_wrong_synopsis_is_found_wrong(synopsis: str) -> None:
    assert synopsis_problem(kernels_parser(), synopsis) is not None


@pytest.mark.parametrize("synopsis", ["check", "check [--dim N ...]",
                                      "ncu-command --kernel naive|tiled [--dim N]"])
def test_a_right_synopsis_is_found_right(synopsis: str) -> None:
    assert synopsis_problem(kernels_parser(), synopsis) is None


def test_readme_says_which_python_runs_its_commands_before_the_first() -> None:
    """`python -m viewer ...` with another Python than the venv's lacks the app's packages."""
    text = README.read_text(encoding="utf-8")
    prose = re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)
    first = prose.index("`python -m ")
    assert "`python` is `.venv/bin/python`" in prose[:first]


BENCHMARKS = ROOT / "benchmarks"


def test_readme_names_every_make_target() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    phony = re.search(r"^\.PHONY:((?:.*\\\n)*.*)$", makefile, flags=re.MULTILINE)
    assert phony
    targets = phony.group(1).replace("\\\n", " ").split()
    assert "bench" in targets
    text = README.read_text(encoding="utf-8")
    assert [t for t in targets if not re.search(rf"\bmake {re.escape(t)}\b", text)] == []


def benchmarks_table() -> set[str]:
    """The names in the first column of benchmarks/README.md's table of files."""
    lines = (BENCHMARKS / "README.md").read_text(encoding="utf-8").splitlines()
    first = lines.index("| file | what it does |")
    names: set[str] = set()
    for line in lines[first + 2:]:
        if not line.startswith("|"):
            break
        names |= set(re.findall(r"`([^`]+)`", line.split("|")[1]))
    return names


def test_benchmarks_readme_lists_every_file_in_benchmarks() -> None:
    """Each file under benchmarks/ has a row in its README's table, but README itself, the logs
    in results/ (the folder has its row), benchmarks/data/ (the scripts' inputs and outputs,
    ignored by git) and caches."""
    files = []
    for path in sorted(BENCHMARKS.rglob("*")):
        parts = path.relative_to(BENCHMARKS).parts
        if path.is_dir() or "__pycache__" in parts or parts[0] in ("data", "results"):
            continue
        files.append(path.relative_to(BENCHMARKS).as_posix())
    files.remove("README.md")
    listed = benchmarks_table()
    assert [f for f in files if f not in listed] == []
    assert "results/" in listed
    assert listed - {*files, "results/"} == set()  # no row for a file that is gone
