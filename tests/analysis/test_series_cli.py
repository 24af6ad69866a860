"""`python -m viewer series` in the terminal: the table, the JSON schema, the bad series."""

from __future__ import annotations

import gzip
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


H200 = PROFILES.parent / "tests" / "data" / "corpus" / "h200"


def test_the_table_says_where_the_derivation_and_the_report_differ(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, *PAIR)
    assert status == 0
    assert "1,024 derived loads; the report counts 640 instructions" in out
    assert "derived 1,024" not in out and "640 where row 0 has 0" in out
    assert "where the other has" not in out
    line = next(ln for ln in out.splitlines() if "DRAM traffic (read + write)" in ln)
    assert line.endswith("floor 3.15 MB")  # the baseline row: no ratio after it
    assert "2.10 MB" in line
    assert "DRAM traffic (read + write) 2.10 MB is under the lesson's floor of 3.15 MB" in out
    assert "it wrote 0 B" in out


def test_json_keys_the_total_by_both_metric_names(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *PAIR, "--json")
    total = "dram__bytes_read.sum + dram__bytes_write.sum"
    naive = json.loads(out)["rows"][0]
    kernel = read_report(PAIR[0]).kernels[0]
    assert status == 0 and naive["derived"][total] == 3 * 512**2 * 4
    assert naive["metrics"][total] == kernel.metric("dram__bytes_read.sum") + \
        kernel.metric("dram__bytes_write.sum")  # type: ignore[operator]
    assert naive["metrics"]["dram__bytes_write.sum"] == 0
    assert "dram__bytes_read.sum" not in naive["derived"]
    assert "note: rows 0 and 1 (matmul_naive and matmul_tiled at N = 512): DRAM traffic" in err


def _profiles(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    from viewer.core import shipped

    monkeypatch.setattr(shipped, "profiles_dir", lambda: folder)


def test_no_file_reads_the_shipped_sweep_where_it_is_shipped(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    sweep = tmp_path / "sweep"
    sweep.mkdir()
    naive = sweep / "naive-512.ncu-rep"
    naive.write_bytes((H200 / "numba-naive.ncu-rep").read_bytes())
    tiled = sweep / "tiled-512.ncu-rep.gz"
    tiled.write_bytes(gzip.compress((H200 / "numba-tiled.ncu-rep").read_bytes()))
    (sweep / "metadata.json").write_text("{}")
    _profiles(monkeypatch, tmp_path)
    status, out, err = run(capsys, "--json")
    assert status == 0, err
    assert [r["file"] for r in json.loads(out)["rows"]] == [str(naive), str(tiled)]
    assert f"reading the shipped sweep, 2 reports in {sweep}" in err


def test_no_file_and_no_sweep_reads_the_shipped_pair(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    for name in ("naive.ncu-rep", "tiled.ncu-rep"):
        (tmp_path / name).write_bytes((PROFILES / name).read_bytes())
    _profiles(monkeypatch, tmp_path)
    status, out, err = run(capsys, "--json")
    assert status == 0, err
    assert [Path(r["file"]).name for r in json.loads(out)["rows"]] == [
        "naive.ncu-rep", "tiled.ncu-rep"]
    assert "reading the shipped pair, naive.ncu-rep and tiled.ncu-rep" in err
    assert "no sweep is shipped" in err


def summary(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.run_command(cli.parse(["summary", *argv]))
    out, err = capsys.readouterr()
    return status, out, err


SAME_LAUNCH = [str(H200 / f"numba-naive.{kind}") for kind in ("ncu-rep", "details.csv",
                                                              "raw.csv")]


def test_summary_merge_joins_one_launch_read_from_three_files(
        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = summary(capsys, "--merge", "--json", *SAME_LAUNCH)
    assert status == 0, err
    [doc] = [json.loads(line) for line in out.splitlines()]
    assert doc["merged"] == SAME_LAUNCH and doc["disagree"] == {}
    [kernel] = doc["kernels"]
    first = read_report(SAME_LAUNCH[0]).kernels[0]
    raw = read_report(SAME_LAUNCH[2]).kernels[0]
    assert kernel["metrics"]["duration_ns"] == first.metric("gpu__time_duration.sum")
    only_raw = next(k for k in raw.metrics if first.metric(k) is None
                    and k in {"dram__bytes_read.sum.per_second", "smsp__cycles_active.avg"})
    assert only_raw  # the raw export holds metrics the report's own page lacks
    assert "one launch (matmul_naive, grid 32x32x1, block 16x16x1, launch 0)" in err
    status, text, _ = summary(capsys, "--merge", *SAME_LAUNCH)
    assert status == 0 and text.count("#0 matmul_naive") == 1
    assert text.startswith(" + ".join(SAME_LAUNCH) + "  (one launch, 3 files merged")


def test_summary_merge_shows_both_values_where_the_files_disagree(
        capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(H200 / "numba-naive.ncu-rep"), str(H200 / "numba-naive-lineinfo.ncu-rep")]
    a, b = (read_report(p).kernels[0] for p in paths)
    status, out, _ = summary(capsys, "--merge", *paths)
    duration = "gpu__time_duration.sum"
    assert status == 0 and "Where the files disagree" in out
    assert (f"{duration}: {a.metric(duration):,.6g} ({paths[0]}) against "
            f"{b.metric(duration):,.6g} ({paths[1]})") in out


def test_summary_merge_refuses_different_launches(capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(H200 / "numba-naive.ncu-rep"), str(H200 / "numba-tiled.ncu-rep")]
    status, out, err = summary(capsys, "--merge", *paths)
    assert status == 1 and "one launch" not in out
    assert out.count("not merged: no other file holds this launch") == 2
    assert "nothing merged" in err and "the kernel differ" in err
