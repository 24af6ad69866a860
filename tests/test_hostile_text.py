"""Nothing from a file drives the terminal: every terminal command, run through its real entry
on exports whose kernel names, sections and advice hold escape sequences, bidirectional
overrides, a newline and markup, and on files whose names do, prints them escaped
(viewer.core.terminal_text.visible) on stdout and stderr; `--json` keeps them exact."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile_names import (
    IN_FILE_NAME,
    IN_NAME,
    RULE_TEXT,
    SECTION,
    hostile_export,
    hostile_named_copy,
    hostile_source_csv,
    hostile_text_export,
    steering,
)
from viewer import __main__ as entry
from viewer.core import shipped
from viewer.core.terminal_text import visible
from viewer.readers import read_report

ROOT = Path(__file__).resolve().parent.parent
H200 = ROOT / "tests" / "data" / "corpus" / "h200"


@pytest.fixture
def export(tmp_path: Path) -> Path:
    """The naive export with a hostile kernel name, under a hostile file name."""
    folder = tmp_path / IN_FILE_NAME
    folder.mkdir()
    return hostile_export(folder)


@pytest.fixture
def text_export(tmp_path: Path) -> Path:
    """The naive details text (ncu's advice in it) with a hostile kernel, section and rule."""
    return hostile_text_export(tmp_path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """`python -m viewer ARGV...` through viewer.__main__.main: status, stdout, stderr; what it
    printed holds nothing that steers a terminal."""
    status = entry.main(list(argv))
    out, err = capsys.readouterr()
    assert steering(out) == [], out
    assert steering(err) == [], err
    return status, out, err


def json_lines(out: str) -> list[dict]:
    """Each line of `out` parsed; the text is ASCII: json.dumps escapes every control and
    every bidirectional character (\\u202e), and json.loads gives them back exactly."""
    assert out.isascii() and "\\u202e" in out
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_summary_shows_the_name_and_the_file_escaped_on_one_line(capsys, export) -> None:
    kernel = read_report(export).kernels[0]
    assert IN_NAME in kernel.name and "\n" in kernel.display_name  # the model keeps them
    status, out, _ = run(capsys, "summary", str(export))
    assert status == 0
    assert f"#0 {visible(kernel.name)}   grid" in out
    assert out.splitlines()[0] == f"{visible(str(export))}  (details-csv, 1 kernel)"
    assert "1. Speed Of Light" in out


def test_summary_json_keeps_the_names_exact(capsys, export) -> None:
    kernel = read_report(export).kernels[0]
    status, out, _ = run(capsys, "summary", "--json", str(export))
    assert status == 0
    (doc,) = json_lines(out)
    assert doc["source"] == str(export)
    assert (doc["kernels"][0]["name"], doc["kernels"][0]["display_name"]) == (
        kernel.name, kernel.display_name)


def test_summary_by_name_and_its_json(capsys, export) -> None:
    kernel = read_report(export).kernels[0]
    status, out, _ = run(capsys, "summary", "--by-name", str(export))
    assert status == 0 and out.splitlines()[-2].endswith(f"  {visible(kernel.name)}")
    status, out, _ = run(capsys, "summary", "--by-name", "--json", str(export))
    assert status == 0 and json_lines(out)[0]["groups"][0]["name"] == kernel.name


def test_a_comparison_names_both_kernels_escaped(capsys, export) -> None:
    tiled = shipped.profiles_dir() / "tiled.details.csv"
    status, out, _ = run(capsys, "summary", str(export), str(tiled))
    assert status == 0
    assert f"Comparison: {visible(read_report(export).kernels[0].name)} against" in out


def test_error_and_note_lines_name_a_hostile_file_escaped(capsys, tmp_path, export) -> None:
    missing = tmp_path / f"missing{IN_FILE_NAME}.ncu-rep"
    junk = tmp_path / f"junk{IN_FILE_NAME}.csv"
    junk.write_text("not a report\n")
    status, _, err = run(capsys, "summary", str(missing), str(junk))
    assert status == 1
    assert [line.split(": ")[0:2] for line in err.splitlines()] == [
        ["error", visible(str(missing))], ["error", visible(str(junk))]]
    status, _, err = run(capsys, "summary", "-k", "absent\x1b[2J", str(export))
    assert status == 1
    assert err.splitlines() == [
        f"error: no kernel matches -k absent\\x1b[2J in {visible(str(export))}"]


def test_metrics_prints_sections_from_the_file_escaped(capsys, text_export) -> None:
    status, out, _ = run(capsys, "metrics", str(text_export))
    assert status == 0
    row = next(line for line in out.splitlines() if line.lstrip().startswith("dram__bytes_read"))
    assert row.endswith(visible(SECTION))
    status, out, _ = run(capsys, "metrics", "--json", str(text_export))
    (doc,) = json_lines(out)
    assert IN_NAME in doc["name"] and SECTION in {m["section"] for m in doc["metrics"]}


def test_advice_prints_ncus_words_escaped(capsys, text_export) -> None:
    status, out, _ = run(capsys, "advice", str(text_export))
    assert status == 0
    assert visible(RULE_TEXT.strip()) in out and visible(IN_NAME) in out
    status, out, _ = run(capsys, "advice", "--json", str(text_export))
    (doc,) = json_lines(out)
    assert any(a["text"].startswith(RULE_TEXT.strip()) for a in doc["advice"])


def test_roofline(capsys, export, text_export) -> None:
    status, out, _ = run(capsys, "roofline", str(export), str(text_export))
    assert status == 0
    assert out.splitlines()[0] == f"{visible(str(export))}  (details-csv)"
    assert f"\n{visible(read_report(text_export).kernels[0].label)}\n" in out
    status, out, _ = run(capsys, "roofline", "--json", str(export))
    (doc,) = json_lines(out)
    assert doc["name"] == read_report(export).kernels[0].name


def test_source_prints_the_kernel_and_the_file_escaped(capsys, tmp_path) -> None:
    from viewer.readers.source import read_source

    page = hostile_named_copy(tmp_path, hostile_source_csv(
        tmp_path, H200 / "numba-naive-lineinfo.source.csv"))
    (kernel,) = read_source(page)
    status, out, _ = run(capsys, "source", str(page))
    assert status == 0
    assert out.splitlines()[:2] == [visible(str(page)), visible(kernel.name)]
    status, out, _ = run(capsys, "source", "--json", str(page))
    (doc,) = json_lines(out)
    assert (doc["source"], doc["kernels"][0]["display_name"]) == (str(page), kernel.name)
    status, _, err = run(capsys, "source", "-k", "absent", str(page))
    assert status == 1 and err == f"error: no kernel matches -k absent in {visible(str(page))}\n"


def test_lesson_names_hostile_files_escaped(capsys, tmp_path) -> None:
    naive, tiled = (hostile_named_copy(tmp_path, p) for p in shipped.comparison())
    status, out, _ = run(capsys, "lesson", str(naive), str(tiled))
    assert status == 0
    assert out.splitlines()[0] == ("The lesson's predictions, against the counters: "
                                   f"{visible(str(naive))}, {visible(str(tiled))}")
    status, out, _ = run(capsys, "lesson", "--json", str(naive), str(tiled))
    assert json.loads(out)["reveal"]["sources"] == [str(naive), str(tiled)] and out.isascii()


def test_lessons_refusal_names_the_kernels_escaped(capsys, export) -> None:
    status, out, err = run(capsys, "lesson", str(export))
    assert (status, out) == (1, "")
    (line,) = err.splitlines()
    assert line.startswith(f"lesson: {visible(str(export))}: these are not the lesson's")
    assert visible(read_report(export).kernels[0].name) in line


def test_the_no_display_fallback_prints_the_summary_escaped(export) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    done = subprocess.run([sys.executable, "-m", "viewer", str(export)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "no display found" in done.stderr and steering(done.stderr) == []
    assert steering(done.stdout) == [] and visible(str(export)) in done.stdout


def test_capture_names_a_hostile_captures_folder_escaped(capsys, monkeypatch,
                                                         tmp_path) -> None:
    from tests.capture.test_capture_client import fake_route
    from viewer.terminal import capture_terminal

    data = tmp_path / IN_FILE_NAME
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    status = capture_terminal.cli(["--target", "naive", "--dim", "256", "--set", "basic", "--clock",
                           "none"], route_fn=lambda: fake_route(tmp_path, "ok"))
    out, err = capsys.readouterr()
    assert status == 0 and steering(out) == [] and steering(err) == []
    (saved,) = (data / "ncu-reader" / "captures").glob("*.ncu-rep")
    assert out == f"{visible(str(saved))}\n"
    (data / "ncu-reader" / "captures").rename(tmp_path / "kept")
    (data / "ncu-reader" / "captures").write_text("in the way")
    status = capture_terminal.cli(["--target", "naive"],
                                  route_fn=lambda: fake_route(tmp_path, "ok"))
    out, err = capsys.readouterr()
    assert status == 1 and out == "" and steering(err) == []
    assert err.splitlines()[-1].startswith(
        f"capture: Cannot keep captures in {visible(str(data))}/ncu-reader/captures:")


def test_the_kernels_ncu_command_prints_a_hostile_report_name_escaped(
        capsys, monkeypatch, tmp_path) -> None:
    from viewer.kernels.__main__ import main as kernels_main

    monkeypatch.chdir(tmp_path)
    report = f"new{IN_FILE_NAME}".replace("\n", "")
    assert kernels_main(["ncu-command", "--kernel", "naive", "--report", report]) == 0
    out, err = capsys.readouterr()
    assert steering(out) == [] and err == "" and out.count("\n") == 1
    # bash reads the printed command back to the exact argv
    done = subprocess.run(["bash", "-c", f"printf '%s\\0' {out.strip()}"],
                          capture_output=True, text=True, check=True)
    from viewer.kernels.ncu_command import ncu_command

    assert done.stdout.split("\0")[:-1] == ncu_command("naive", 512, report)
    Path(f"{report}.ncu-rep").write_text("taken")
    assert kernels_main(["ncu-command", "--kernel", "naive", "--report", report]) == 1
    out, err = capsys.readouterr()
    assert out == "" and steering(err) == [] and err.count("\n") == 1
    assert visible(f"{report}.ncu-rep") in err
