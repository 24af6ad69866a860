"""The terminal's `metrics` and `advice` (viewer/terminal/tables_terminal.py) on real reports
and exports: every metric with its unit and section, ncu's advice ranked, -k, the notes of a
file cut short, and bad input in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from viewer import cli
from viewer.analysis import advice
from viewer.readers import read_report

H200 = Path(__file__).resolve().parents[1] / "data" / "corpus" / "h200"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.run_command(cli.parse(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def objects(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_metrics_of_a_details_export_hold_every_row_with_unit_and_section(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = H200 / "numba-naive.details.txt"
    status, out, err = run(["metrics", "--json", str(path)], capsys)
    assert (status, err) == (0, "")
    [found] = objects(out)
    [kernel] = read_report(path).kernels
    rows = found["metrics"]
    assert isinstance(rows, list) and len(rows) == len(kernel.metrics)
    by_name = {r["name"]: r for r in rows}
    for name, printed in kernel.printed.items():
        assert by_name[name]["section"] == printed.section
        assert by_name[name]["value"] == kernel.metrics[name]
    assert {r["section"] for r in rows} >= {"Scheduler Statistics", "Warp State Statistics"}
    assert by_name["gpu__time_duration.sum"]["unit"] == "ns"


def test_metrics_of_a_ncu_rep_are_read_whole(capsys: pytest.CaptureFixture[str]) -> None:
    path = H200 / "numba-naive.ncu-rep"
    status, out, _ = run(["metrics", "--json", str(path)], capsys)
    [found] = objects(out)
    rows = found["metrics"]
    assert status == 0 and isinstance(rows, list)
    assert len(rows) > len(read_report(path).kernels[0].metrics) * 10
    assert all(r["unit"] is not None for r in rows)


def test_metrics_k_picks_kernels_and_the_text_lists_them(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = H200 / "workloads-kernels-and-graph.details.txt"
    status, out, _ = run(["metrics", "-k", "add", str(path)], capsys)
    assert status == 0
    assert "#1 add" in out and "#0 scale" not in out
    add = read_report(path).kernels[1]
    assert all(f"  {p.section}" in out for p in add.printed.values())
    status, _, err = run(["metrics", "-k", "nothing_named_so", str(path)], capsys)
    assert status == 1 and "no kernel matches" in err


def test_advice_of_a_details_export_is_ranked(capsys: pytest.CaptureFixture[str]) -> None:
    path = H200 / "numba-naive.details.txt"
    status, out, _ = run(["advice", "--json", str(path)], capsys)
    [found] = objects(out)
    expected = advice.ranked(read_report(path).kernels[0].rules or [])
    shown = found["advice"]
    assert status == 0 and isinstance(shown, list) and expected
    assert [(a["heading"], a["speedup_pct"]) for a in shown] == [
        (a.heading, a.speedup_pct) for a in expected]
    status, out, _ = run(["advice", str(path)], capsys)
    assert f"{expected[0].heading}: est. speedup" in out


def test_advice_of_a_file_with_none_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["advice", str(H200 / "numba-naive.raw.csv")], capsys)
    assert status == 0 and advice.RULES_MISSING in out
    _, out, _ = run(["advice", "--json", str(H200 / "numba-naive.raw.csv")], capsys)
    assert objects(out)[0]["advice"] is None


def test_a_file_cut_short_is_shown_with_a_warning(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    text = (H200 / "numba-naive.details.txt").read_text(encoding="utf-8")
    cut = tmp_path / "cut.details.txt"
    cut.write_text(text[: len(text) // 2].rstrip("\n"), encoding="utf-8")
    for command in ("metrics", "advice"):
        status, out, err = run([command, str(cut)], capsys)
        assert status == 0 and "#0 matmul_naive" in out
        assert err == f"warning: {cut}: cut short: its last line has no newline\n"


def test_bad_input_is_one_line_and_the_others_go_on(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    session = H200 / "numba-naive.session.txt"
    for command in ("metrics", "advice"):
        status, out, err = run([command, str(session), str(H200 / "numba-naive.details.txt")],
                               capsys)
        assert status == 1
        assert err.count("\n") == 1 and "session page" in err and session.name in err
        assert "#0 matmul_naive" in out


def test_advice_prints_the_lessons_reading_beside_ncus_where_they_disagree(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = H200 / "numba-naive.ncu-rep"
    status, out, _ = run(["advice", "--json", str(path)], capsys)
    [found] = objects(out)
    shown = found["advice"]
    assert status == 0 and isinstance(shown, list)
    beside = [a for a in shown if a["lesson"] is not None]
    assert len(beside) == 1 and "Global Load Access Pattern" in beside[0]["heading"]
    assert "ncu and the lesson disagree here" in beside[0]["lesson"]
    status, out, _ = run(["advice", str(path)], capsys)
    assert "The lesson beside it: ncu and the lesson disagree here" in out


def children(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The reader children started from now on (their command lines)."""
    from viewer.readers import ncu_rep

    started: list[list[str]] = []

    class Counted(ncu_rep.Child):
        def __init__(self, command: list[str], *args: object, **kwargs: object) -> None:
            started.append(command)
            super().__init__(command, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ncu_rep, "Child", Counted)
    return started


def test_metrics_of_a_ncu_rep_read_every_metric_and_its_words_in_one_child(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        real_reads: None) -> None:
    """The report, every metric and each one's unit, label and description in one reader
    child, not one child for the report, one for the metrics and another for their words; each
    unit as ncu prints it (ncu_report answers 'byte' for this derived metric once the values
    were read)."""
    started = children(monkeypatch)
    status, out, err = run(["metrics", "--json", str(H200 / "numba-naive.ncu-rep")], capsys)
    assert (status, err) == (0, "")
    [found] = objects(out)
    rows = found["metrics"]
    assert isinstance(rows, list) and len(rows) > 2000
    by_name = {r["name"]: r for r in rows}
    assert by_name["derived__memory_l2_theoretical_sectors_global_excessive"]["unit"] == "sector"
    assert by_name["derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.peak_sustained"]["label"] \
        == "Theoretical L1/TEX Cache Bytes Accessible"
    assert len(started) == 1


def test_metrics_of_a_report_the_cache_holds_read_the_rest_in_one_child(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The read cache answers the report; every metric and their words come from one child,
    the same answer as a read of the file alone."""
    from viewer.readers import read_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(read_cache.NO_CACHE, raising=False)
    assert read_cache.is_on()
    path = str(H200 / "numba-naive.ncu-rep")
    assert run(["summary", "--json", path], capsys)[0] == 0
    assert list((tmp_path / "cache").rglob("*"))  # kept in the cache
    started = children(monkeypatch)
    status, kept, err = run(["metrics", "--json", path], capsys)
    assert (status, err, len(started)) == (0, "", 1)
    monkeypatch.setenv("NCU_READER_NO_CACHE", "1")
    assert run(["metrics", "--json", path], capsys)[1] == kept
