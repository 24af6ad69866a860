"""`python -m viewer series` in the terminal: the table, the JSON schema, the bad series."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from viewer import cli
from viewer.readers import read_report

PROFILES = Path(__file__).resolve().parents[2] / "profiles"
PAIR = [str(PROFILES / "naive.ncu-rep"), str(PROFILES / "tiled.ncu-rep")]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.run_command(cli.parse(["series", *argv]))
    out, err = capsys.readouterr()
    return status, out, err


def test_json_is_the_issues_schema(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, *PAIR, "--json", "--baseline", "1")
    got = json.loads(out)
    assert status == 0 and set(got) == {"schema", "baseline", "rows"}
    assert got["schema"] == 1 and got["baseline"] == 1
    assert [set(r) for r in got["rows"]] == [{"file", "kernel", "dim", "metrics", "derived",
                                               "ratio"}] * 2
    naive, tiled = got["rows"]
    sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
    kernel = read_report(PAIR[0]).kernels[0]
    assert naive["metrics"][sectors] == kernel.metric(sectors)
    assert naive["dim"] == 512 and naive["ratio"][sectors] == 8.0
    assert tiled["ratio"][sectors] == 1.0 and tiled["derived"][sectors] == 2097152


def test_table_words_ratios_as_fewer(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, *PAIR)
    assert status == 0 and "8.00x fewer" in out and "0.12x" not in out
    assert "derived 2,097,152 (exact)" in out and "row 0  matmul_naive at N = 512" in out


def test_a_file_that_does_not_read_is_one_line(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    bad = tmp_path / "broken.ncu-rep"
    bad.write_text("not a report")
    status, out, err = run(capsys, PAIR[0], str(bad), "--json")
    assert status == 1 and err.count(str(bad)) == 1
    assert [line for line in err.splitlines() if line.startswith("error:")] == [
        line for line in err.splitlines() if str(bad) in line]
    assert len(json.loads(out)["rows"]) == 1 and "note: one row" in err


def test_a_baseline_that_is_no_row(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *PAIR, "--baseline", "5")
    assert status == 1 and out == "" and "baseline 5 is no row" in err
