"""The terminal's views beyond the three readings: `roofline [--json]`, and `summary`'s
`-k/--kernel` (ncu's convention) and `--by-name [--json]`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.many_kernels import BASIC, build
from tests.pair_1024 import write_pair_1024
from viewer import __main__ as entry
from viewer.analysis import roofline
from viewer.readers import read_metrics, read_report

ROOT = Path(__file__).resolve().parents[2]
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
BASIC_REPORT = ROOT / "tests" / "data" / "corpus" / "h200" / "workloads-kernels-and-graph.ncu-rep"
KEYS = {"peak_fp32_flop_per_s", "achieved_fp32_flop_per_s",
        *(f"{level}_{what}" for level in ("dram", "l2", "l1")
          for what in ("bytes_per_s", "peak_bytes_per_s", "intensity"))}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = entry.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_roofline_json_one_object_per_kernel_null_where_missing(capsys) -> None:
    status, out, err = run(capsys, "roofline", "--json", str(NAIVE), str(BASIC_REPORT))
    assert status == 0, err
    docs = [json.loads(line) for line in out.splitlines()]
    assert [(d["name"], d["index"]) for d in docs] == [
        ("matmul_naive", 0), ("scale", 0), ("add", 1)]
    assert all(set(d) == KEYS | {"source", "index", "name"} for d in docs)
    report = read_report(NAIVE)
    report.add_metrics(read_metrics(report, [0], roofline.ROOFLINE_METRICS),
                       roofline.ROOFLINE_METRICS)
    assert {k: docs[0][k] for k in KEYS} == roofline.roofline(report.kernels[0]).as_json()
    assert all(v is not None for v in docs[0].values())
    assert all(d[k] is None for d in docs[1:] for k in KEYS)


def test_roofline_text_with_the_day_thirty_count_and_what_basic_lacks(capsys) -> None:
    status, out, _ = run(capsys, "roofline", str(NAIVE), str(TILED), str(BASIC_REPORT))
    assert status == 0
    assert out.count("The day-30 count") == 1  # the naive kernel's
    assert "127.6 FLOP/byte" in out and "0.250 FLOP/byte" in out
    assert out.count(roofline.MISSING_TEXT) == 2  # scale and add
    for row in ("DRAM", "L2", "L1"):
        assert out.count(f"\n  {row} ") == 2


def test_roofline_picks_kernels_and_reports_a_bad_file(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.ncu-rep"
    bad.write_bytes(b"not a report")
    status, out, err = run(capsys, "roofline", "--json", "-k", "regex:^sc", str(BASIC_REPORT),
                           str(bad))
    assert status == 1 and err.startswith("error: ") and "bad.ncu-rep" in err
    assert [json.loads(line)["name"] for line in out.splitlines()] == ["scale"]


@pytest.mark.parametrize(("spec", "names"), [
    ("regex:^matmul_t", ["matmul_tiled"]), ("matmul_naive", ["matmul_naive"]),
    ("regex:matmul", ["matmul_naive", "matmul_tiled"]), ("regex:^tiled", [])])
def test_summary_picks_kernels_as_ncu_does(capsys, spec: str, names: list[str]) -> None:
    status, out, err = run(capsys, "summary", "--json", "-k", spec, str(NAIVE), str(TILED))
    got = [k["name"] for line in out.splitlines() for k in json.loads(line)["kernels"]]
    assert got == names
    assert status == (0 if names else 1)
    assert err.count("no kernel matches") == (0 if len(names) == 2 else 1)


def test_summary_without_k_keeps_its_behaviour(capsys) -> None:
    status, out, _ = run(capsys, "summary", str(NAIVE), str(TILED))
    assert status == 0 and "Comparison: matmul_naive against matmul_tiled" in out
    assert "Sizes differ" not in out


def test_summary_s_comparison_across_sizes_names_both_first(capsys, tmp_path: Path) -> None:
    tiled_1024 = write_pair_1024(tmp_path)[1]
    status, out, _ = run(capsys, "summary", str(NAIVE), str(tiled_1024))
    comparison = " ".join(out[out.index("Comparison:"):].split())
    assert status == 0 and comparison.startswith(
        "Comparison: matmul_naive against matmul_tiled Sizes differ: matmul_naive at N = 512 "
        "(262,144 threads: grid 32x32x1 of 16x16x1 blocks), matmul_tiled at N = 1024 (1,048,576 "
        "threads: grid 64x64x1 of 16x16x1 blocks): ")
    assert "Global load requests: matmul_naive 2.00x matmul_tiled" in comparison


def test_a_bad_regular_expression_is_a_usage_error(capsys) -> None:
    status, _, err = run(capsys, "summary", "-k", "regex:(", str(NAIVE))
    assert status == 2 and "bad regular expression" in err


def test_summary_by_name_on_a_many_kernel_report(capsys, tmp_path: Path) -> None:
    many = build(tmp_path / "nine.ncu-rep", 9)
    basic = build(tmp_path / "basic.ncu-rep", 5, BASIC)
    status, out, err = run(capsys, "summary", "--by-name", "--json", str(many), str(basic))
    assert status == 0, err
    first, second = (json.loads(line) for line in out.splitlines())
    assert (first["schema"], first["kernels"]) == (2, 9)
    assert [(g["name"], g["launches"], g["total_ns"]) for g in first["groups"]] == [
        ("matmul_naive", 5, 5 * 219_136), ("matmul_tiled", 4, 4 * 47_776)]
    assert first["kernel_time_ns"] == 5 * 219_136 + 4 * 47_776
    assert [g["longest_index"] % 2 for g in first["groups"]] == [0, 1]
    assert [g["name"] for g in second["groups"]] == ["scale", "add"]
    status, out, _ = run(capsys, "summary", "--by-name", "-k", "matmul_tiled", str(many))
    lines = out.strip().splitlines()
    assert status == 0 and len(lines) == 3  # the file, the header, one group
    assert "4 kernels, 1 name," in lines[0] and lines[2].endswith("matmul_tiled")
    assert "100.00 %" in lines[2]


@pytest.mark.parametrize("command", [
    ["summary"], ["summary", "--json"], ["summary", "--by-name"], ["metrics"], ["advice"],
    ["roofline"], ["source"]])
def test_a_k_that_picks_nothing_is_one_line_naming_it_and_the_files(capsys, command) -> None:
    status, out, err = run(capsys, *command, "-k", "regex:nosuch", str(NAIVE), str(TILED))
    assert status == 1 and out == ""
    assert err.splitlines() == [f"error: no kernel matches -k regex:nosuch in {NAIVE}, {TILED}"]


def test_a_k_that_picks_in_one_file_notes_the_others_in_one_line(capsys) -> None:
    for command in (["summary"], ["metrics"], ["source"]):
        status, out, err = run(capsys, *command, "-k", "matmul_tiled", str(NAIVE), str(TILED))
        assert status == 0 and "matmul_tiled" in out and "matmul_naive" not in out
        assert err.splitlines() == [f"note: no kernel matches -k matmul_tiled in {NAIVE}"]
