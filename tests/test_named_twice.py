"""One report named twice on the command line: `summary`, `summary --by-name` and the window's
terminal stand-in read it once, say so in one line, and compare nothing with itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from viewer.core import shipped

ROOT = Path(__file__).resolve().parent.parent
NAIVE, TILED = (str(p) for p in shipped.comparison())
HEAD = "  (ncu-rep, 1 kernel)"


def viewer(*args: str, display: bool = True) -> subprocess.CompletedProcess[str]:
    # Each file read from the file (no cache of what was read): a second read of a file named
    # twice must be a read, not an answer kept from the first.
    env = {**os.environ, "NCU_READER_NO_CACHE": "1"}
    if not display:
        env = {k: v for k, v in env.items()
               if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    return subprocess.run([sys.executable, "-m", "viewer", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def heads(out: str) -> list[str]:
    return [line.removesuffix(HEAD) for line in out.splitlines() if line.endswith(HEAD)]


def test_summary_reads_a_file_named_twice_once_and_compares_nothing() -> None:
    result = viewer("summary", NAIVE, NAIVE)
    assert result.returncode == 0, result.stderr
    assert result.stderr == f"note: {NAIVE} named twice: read once\n"
    assert heads(result.stdout) == [NAIVE]
    assert "Comparison" not in result.stdout and "equal" not in result.stdout


def test_summary_compares_the_pair_when_one_of_them_is_named_again() -> None:
    result = viewer("summary", NAIVE, TILED, NAIVE)
    assert result.returncode == 0, result.stderr
    assert result.stderr == f"note: {NAIVE} named twice: read once\n"
    assert heads(result.stdout) == [NAIVE, TILED]
    assert "Comparison: matmul_naive against matmul_tiled" in result.stdout


def test_by_name_and_json_count_a_file_named_twice_once() -> None:
    by_name = viewer("summary", "--by-name", "--json", NAIVE, NAIVE)
    assert by_name.returncode == 0, by_name.stderr
    assert by_name.stderr == f"note: {NAIVE} named twice: read once\n"
    assert len(by_name.stdout.splitlines()) == 1
    docs = viewer("summary", "--json", NAIVE, NAIVE)
    assert [json.loads(line)["source"] for line in docs.stdout.splitlines()] == [NAIVE]


def test_the_windows_stand_in_reads_it_once_too() -> None:
    result = viewer(NAIVE, NAIVE, display=False)
    assert result.returncode == 0, result.stderr
    assert f"note: {NAIVE} named twice: read once" in result.stderr.splitlines()
    assert heads(result.stdout) == [NAIVE] and "Comparison" not in result.stdout
    again = viewer(NAIVE, NAIVE, "--kernels", "0,0", display=False)
    assert again.returncode == 1 and again.stdout == ""
    assert again.stderr.splitlines()[-2:] == [
        f"note: {NAIVE} named twice: read once",
        "ncu-reader: --kernels 0,0: no second kernel #0 in the files opened"]


def test_every_command_reads_a_file_named_twice_once() -> None:
    """roofline, metrics, advice and source print one file's kernels once, with the note;
    lesson, given one file twice, refuses it as the one file it is."""
    for command in ("roofline", "metrics", "advice", "source"):
        done = viewer(command, str(NAIVE), str(NAIVE), "--json")
        assert done.returncode == 0, (command, done.stderr)
        assert f"note: {NAIVE} named twice: read once" in done.stderr, command
        assert done.stdout.count("matmul_naive") == json.dumps(
            json.loads(viewer(command, str(NAIVE), "--json").stdout)).count("matmul_naive"), \
            command
    lesson = viewer("lesson", str(NAIVE), str(NAIVE))
    assert lesson.returncode == 1 and "named twice: read once" in lesson.stderr
