"""README.md is a contract: every command it gives runs as written, and every flag it names for a
command is one that command's --help lists.

Read from README.md itself: the command lines of its code blocks, and the backticked command
lines of its "In the terminal" list (`python -m viewer ...` or `.venv/bin/python -m viewer ...`,
or a fragment that starts with a subcommand, `summary -k regex:NAME`). Each synopsis is run in
its shortest form (no [optional] part) and its longest (every optional part, the first of
alternatives), its placeholders filled in (PLACEHOLDERS), in a subprocess from the repository's
root, headless: exit status 0. What needs a GPU (`capture`, `viewer.kernels time`) is checked
by its flags only; `viewer.kernels check` runs on numba's CUDA simulator at --dim 16; the window
runs only to write a --screenshot into a temporary folder. Every backticked command anywhere in
README.md, and every flag it names in a list item or paragraph beside a command, has its flags
checked against that command's --help. A line of a code block that is no viewer command must be
one of OTHER_LINES.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

from viewer import cli

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PYTHONS = (".venv/bin/python", "python", "python3")
"""How README starts a command: `python -m viewer ...` or `.venv/bin/python -m viewer ...`."""
PROGRAMS = ("viewer", "viewer.kernels")
NAIVE, TILED = "profiles/naive.ncu-rep", "profiles/tiled.ncu-rep"
PLACEHOLDERS: dict[str, list[str]] = {
    "FILE": [NAIVE], "FILE...": [NAIVE, TILED], "FILES...": [NAIVE, TILED],
    "N": ["64"], "N...": ["64"], "I": ["1"], "T": ["16"], "SPEC": ["regex:matmul"], "I,J": ["0,1"],
    "WxH": ["640x400"], "PY": ["python3"], "...": [],
}
"""Each placeholder README writes, and what stands for it (OUT.png and PATH: a new file in a
temporary folder; NAME inside a word, as in regex:NAME: matmul; '...' after a word, more of it:
none)."""
NEW_FILES = ("OUT.png", "PATH")
OTHER_LINES = {
    "make ": "sets up the venv, opens the window or runs the whole suite",
    "python3 -m venv ": "makes the venv this runs in",
    ".venv/bin/pip ": "installs into the venv",
    ".venv/bin/python -m pytest": "the whole suite, this test among it",
    "sudo ": "installs as root",
}
"""Code block lines that are no viewer command, by how they start, and why none is run here."""
NOT_OURS = {
    "--page": "ncu's flag: its --page source export, which `source` reads",
    "-f": "ncu's flag to write over a report, which the ncu command never passes",
}
"""Flags README names beside a command that belong to ncu, not to the command."""
FLAGS_ONLY = {("viewer", "capture"): "captures with ncu on a GPU",
              ("viewer.kernels", "time"): "times the kernels on a GPU"}
"""Commands that need a GPU: only their flags are checked, against --help."""
SIMULATED_DIM = "16"
"""viewer.kernels check runs on numba's CUDA simulator at this size alone (512 takes minutes)."""
TIMEOUT_S = 180
ENV = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "NUMBA_ENABLE_CUDASIM": "1",
       "PYTHONPATH": str(ROOT)}


@dataclass(frozen=True)
class Command:
    """One command README gives: its program, subcommand (None: the window) and synopsis words,
    where it stands, and whether it is to be run (else its flags are checked alone)."""

    program: str
    sub: str | None
    words: tuple[str, ...]
    where: str
    run: bool

    @property
    def flags(self) -> set[str]:
        return {w for w in tokens(" ".join(self.words)) if re.fullmatch(r"--?[A-Za-z][\w-]*", w)}


@dataclass
class Paragraph:
    """A list item or paragraph of README's text: its backticked spans, and where it is."""

    spans: list[str]
    where: str
    in_the_terminal: bool = False
    commands: list[Command] = field(default_factory=list)


def tokens(text: str) -> list[str]:
    """A synopsis in words and brackets: '[--screenshot OUT.png [--size WxH]]' -> '[',
    '--screenshot', 'OUT.png', '[', '--size', 'WxH', ']', ']'."""
    return re.findall(r"\[|\]|[^\s\[\]]+", text)


def without_environment(text: str) -> list[str]:
    """A command line's words, without the VAR=value words before its command."""
    words = text.split()
    while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):
        words = words[1:]
    return words


def command_of(text: str, where: str, run: bool) -> list[Command]:
    """The commands a command line or backticked span gives (one per alternative subcommand,
    'check|time'); [] when it is no command of ours."""
    words = without_environment(text)
    if len(words) >= 3 and words[0] in PYTHONS and words[1] == "-m" and words[2] in PROGRAMS:
        program, rest = words[2], words[3:]
    elif len(words) >= 2 and words[0] in cli.COMMANDS:  # a fragment: `summary -k regex:NAME`
        program, rest = "viewer", words
    else:
        return []
    if program == "viewer":
        if rest and rest[0] in cli.COMMANDS:
            return [Command(program, rest[0], tuple(rest[1:]), where, run)]
        return [Command(program, None, tuple(rest), where, run)]
    if not rest:
        return []
    return [Command(program, sub, tuple(rest[1:]), where, run) for sub in rest[0].split("|")]


def paragraphs(text: str) -> Iterator[Paragraph]:
    """README's text outside code blocks, as list items and paragraphs with their spans."""
    outside = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    section, terminal_list = "", False
    for block in re.split(r"\n\s*\n", outside):
        if block.lstrip().startswith("#"):
            section = block.strip().splitlines()[0].lstrip("# ")
        items = re.split(r"\n(?=- )", block)
        if block.strip().startswith("In the terminal"):
            terminal_list = True
            continue
        in_list = terminal_list and block.lstrip().startswith("- ")
        terminal_list = in_list
        for item in items:
            spans = [" ".join(s.split()) for s in re.findall(r"`([^`]+)`", item)]
            first = " ".join(item.split())[:50]
            yield Paragraph(spans, f"{section}: {first}", in_list)


def code_lines(text: str) -> Iterator[tuple[str, str]]:
    """Each command line of README's code blocks (its comment cut off), and where it is."""
    for block in re.findall(r"^```\w*\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL):
        for line in block.splitlines():
            line = re.sub(r"(^|\s+)#.*$", "", line).strip()
            if line:
                yield line, f"code block: {line[:50]}"


@cache
def readme() -> tuple[list[Command], list[Paragraph], list[str]]:
    """README's commands, its paragraphs (each with its commands), and its code block lines
    that are neither a viewer command nor one of OTHER_LINES."""
    text = README.read_text(encoding="utf-8")
    commands, unknown = [], []
    for line, where in code_lines(text):
        found = command_of(line, where, run=True)
        if found:
            commands += found
        elif not " ".join(without_environment(line)).startswith(tuple(OTHER_LINES)):
            unknown.append(line)
    said = list(paragraphs(text))
    for paragraph in said:
        for span in paragraph.spans:
            paragraph.commands += command_of(span, paragraph.where, paragraph.in_the_terminal)
        commands += paragraph.commands
    return commands, said, unknown


def expand(words: list[str], longest: bool) -> list[str]:
    """A synopsis without its brackets: the shortest form leaves each [optional] part out, the
    longest takes each in (the first of ' | ' alternatives)."""
    out: list[str] = []
    stack: list[list[list[str]]] = []  # the open groups: each its alternatives so far
    for word in tokens(" ".join(words)):
        if word == "[":
            stack.append([[]])
        elif word == "]":
            first = stack.pop()[0]
            (stack[-1][-1] if stack else out).extend(first if longest else [])
        elif word == "|" and stack:
            stack[-1].append([])
        else:
            (stack[-1][-1] if stack else out).append(word)
    return out


def filled(words: list[str], folder: Path, dim: str | None = None) -> list[str]:
    """The synopsis's placeholders filled in (dim: what N is here); a placeholder this test does
    not know fails it."""
    out = []
    for word in words:
        if word in NEW_FILES:
            out.append(str(folder / f"new-{len(out)}{Path(word).suffix or '.ncu-rep'}"))
        elif word in PLACEHOLDERS:
            out += [dim] if dim and word.startswith("N") and word != "..." else \
                PLACEHOLDERS[word]
        elif "NAME" in word:
            out.append(word.replace("NAME", "matmul"))
        elif "|" in word:
            out.append(word.split("|")[0])
        else:
            assert not re.fullmatch(r"[A-Z][A-Z_,.]*", word), f"unknown placeholder {word}"
            out.append(word)
    return out


def argv(command: Command, words: list[str]) -> list[str]:
    return [sys.executable, "-m", command.program, *([command.sub] if command.sub else []),
            *words]


@dataclass(frozen=True)
class Run:
    """One command line to run: what README wrote, and the argv it became."""

    said: str
    argv: tuple[str, ...]
    screenshot: Path | None = None


def runs(folder: Path) -> list[Run]:
    """Every command to run, each synopsis in its shortest and longest form, once each."""
    out: dict[tuple[str, ...], Run] = {}
    for n, command in enumerate(c for c in readme()[0] if c.run):
        if (command.program, command.sub) in FLAGS_ONLY:
            continue
        said = " ".join(["python -m", command.program, *([command.sub] if command.sub else []),
                         *command.words])
        simulated = (command.program, command.sub) == ("viewer.kernels", "check")
        forms = [expand(list(command.words), longest) for longest in (False, True)]
        for longest, words in enumerate(forms[:1] if forms[0] == forms[1] else forms):
            if simulated and "--dim" not in words:
                words += ["--dim", "N"]
            shot = None
            if command.sub is None and command.program == "viewer":  # the window: a picture
                shot = folder / f"window-{n}-{longest}.png"
                if "--screenshot" in words:
                    words[words.index("--screenshot") + 1] = str(shot)
                else:
                    words += ["--screenshot", str(shot)]
            words = filled(words, folder, SIMULATED_DIM if simulated else None)
            line = tuple(argv(command, words))
            out.setdefault(line, Run(said, line, shot))
    return list(out.values())


def helps() -> dict[tuple[str, str | None], str]:
    """--help of every command README names, by (program, subcommand)."""
    named = sorted({(c.program, c.sub) for c in readme()[0]}, key=lambda k: (k[0], k[1] or ""))
    with ThreadPoolExecutor(8) as pool:
        printed = list(pool.map(lambda key: subprocess.run(
            [sys.executable, "-m", key[0], *([key[1]] if key[1] else []), "--help"], cwd=ROOT,
            env=ENV, capture_output=True, text=True, timeout=TIMEOUT_S), named))
    assert all(done.returncode == 0 for done in printed), [d.args for d in printed]
    return {key: done.stdout for key, done in zip(named, printed, strict=True)}


def help_flags(help_text: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", help_text))


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, ...], tuple[Run, object]]:
    """Every README command run, side by side: argv -> (the run, its CompletedProcess)."""
    folder = tmp_path_factory.mktemp("readme")
    todo = runs(folder)
    with ThreadPoolExecutor(8) as pool:
        done = list(pool.map(lambda r: subprocess.run(
            list(r.argv), cwd=ROOT, env=ENV, capture_output=True, text=True,
            timeout=TIMEOUT_S), todo))
    return {r.argv: (r, d) for r, d in zip(todo, done, strict=True)}


def test_readme_gives_the_commands_this_test_runs() -> None:
    commands, _, unknown = readme()
    assert unknown == [], "code block lines that are no viewer command and not in OTHER_LINES"
    subs = {c.sub for c in commands if c.program == "viewer" and c.run}
    assert subs >= {None, "summary", "roofline", "metrics", "advice", "source", "predict",
                    "lesson", "capture"}
    assert {c.sub for c in commands if c.program == "viewer.kernels"} >= {"check", "time"}


def test_every_command_runs_as_written(ran) -> None:
    failed = []
    for run, done in ran.values():
        assert isinstance(done, subprocess.CompletedProcess)
        line = " ".join(run.argv[1:])
        if done.returncode != 0:
            failed.append(f"{run.said}\n  ran: {line}\n  exit {done.returncode}: "
                          f"{done.stderr.strip()[-400:]}")
        elif run.screenshot is not None and not run.screenshot.is_file():
            failed.append(f"{run.said}\n  ran: {line}\n  wrote no {run.screenshot.name}")
        elif "Traceback" in done.stderr:
            failed.append(f"{run.said}\n  ran: {line}\n  {done.stderr.strip()[-400:]}")
    assert not failed, "\n".join(failed)
    assert len(ran) >= 20


def test_every_flag_readme_names_is_in_the_commands_help() -> None:
    commands, said, _ = readme()
    printed = helps()
    missing = []
    for command in commands:
        known = help_flags(printed[(command.program, command.sub)])
        missing += [f"{command.where}: {command.program} {command.sub or '(window)'} {flag}"
                    for flag in sorted(command.flags - known)]
    for paragraph in said:  # `--json`'s, `--report PATH`: a flag beside a command, for it
        if not paragraph.commands:
            continue
        known = set().union(*(help_flags(printed[(c.program, c.sub)])
                              for c in paragraph.commands))
        for span in paragraph.spans:
            flag = span.split()[0]
            if flag.startswith("-") and flag not in NOT_OURS and flag not in known:
                missing.append(f"{paragraph.where}: {flag}")
    assert not missing, "flags README names that --help does not list:\n" + "\n".join(missing)


@pytest.mark.parametrize(("synopsis", "shortest", "longest"), [
    ("summary [FILE...] [--json]", ["summary"], ["summary", "FILE...", "--json"]),
    ("[FILES...] [--kernels I,J | -k SPEC] [--screenshot OUT.png [--size WxH]]", [],
     ["FILES...", "--kernels", "I,J", "--screenshot", "OUT.png", "--size", "WxH"]),
    ("capture --target naive|tiled|both --dim N", ["capture", "--target", "naive|tiled|both",
                                                   "--dim", "N"], None),
])
def test_a_synopsis_expands_to_its_shortest_and_longest_forms(synopsis, shortest,
                                                             longest) -> None:
    assert expand(synopsis.split(), False) == shortest
    assert expand(synopsis.split(), True) == (longest or shortest)


def test_both_ways_of_starting_a_command_are_read() -> None:
    for python in ("python", ".venv/bin/python"):
        (found,) = command_of(f"{python} -m viewer source [FILE...] --all", "x", True)
        assert (found.program, found.sub, found.flags) == ("viewer", "source", {"--all"})
    assert [c.sub for c in command_of("python -m viewer.kernels check|time", "x", True)] == [
        "check", "time"]
    assert command_of("--page source", "x", True) == []
