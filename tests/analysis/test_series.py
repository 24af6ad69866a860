"""The series of reports (viewer.analysis.series) on real captures: the shipped pair, the H200
corpus's pairs and their exports, and the N = 1024 pair made from the shipped exports."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tests.pair_1024 import write_pair_1024
from viewer.analysis import series, series_words
from viewer.core.model import Report
from viewer.lesson import derivation_check
from viewer.readers import read_report

H200 = Path(__file__).resolve().parents[1] / "data" / "corpus" / "h200"
PROFILES = Path(__file__).resolve().parents[2] / "profiles"
PAIRS = [
    [PROFILES / "naive.ncu-rep", PROFILES / "tiled.ncu-rep"],
    [H200 / "numba-naive.ncu-rep", H200 / "numba-tiled.ncu-rep"],
    [H200 / "numba-naive.details.txt", H200 / "numba-tiled.details.csv"],
    [H200 / "numba-naive.raw.csv", H200 / "numba-tiled.raw.txt"],
]


def reports(paths: list[Path]) -> list[Report]:
    return [read_report(p) for p in paths]


@pytest.fixture(scope="module")
def pair_1024(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return write_pair_1024(tmp_path_factory.mktemp("pair"))


@pytest.mark.parametrize("paths", PAIRS, ids=lambda p: p[0].name)
def test_values_are_the_reports_own(paths: list[Path]) -> None:
    made = series.build(reports(paths))
    for row in made.rows:
        for line in series.LINES:
            if line.key not in (series.SECTORS_PER_REQUEST, series.SHARED_PER_THREAD,
                                series.DRAM_TOTAL):
                assert row.values[line.key] == row.kernel.metric(line.key), line.key
    assert made.rows[0].values[series.SECTORS] is not None


def test_the_derivation_is_exact_at_512_and_1024(pair_1024: list[Path]) -> None:
    made = series.build(reports(PAIRS[0] + PAIRS[1] + pair_1024))
    assert [r.dim for r in made.rows] == [512, 512, 512, 512, 1024, 1024] and made.by_size
    for row in made.rows:
        checks = {c.key: c.predicted for c in derivation_check.predictions(row.kernel)}
        for key in ("global_load_requests", "global_load_sectors"):
            metric = series.SUMMARY_METRICS[key]
            assert row.derived[metric] == checks[key] == row.values[metric], (row.file, key)
        assert row.derived[series.DRAM_TOTAL] == 3 * row.dim**2 * 4


def test_n_is_read_from_the_launch_and_orders_the_rows(pair_1024: list[Path]) -> None:
    made = series.build(reports([pair_1024[0], PROFILES / "naive.ncu-rep"]))
    assert [(r.dim, r.kernel.grid) for r in made.rows] == [(512, (32, 32, 1)),
                                                           (1024, (64, 64, 1))]
    assert series.against(made.rows[1], made.base, series.SECTORS) == "8.00x more"


def test_ratios_against_the_baseline_in_words() -> None:
    made = series.build(reports(PAIRS[1]))
    tiled, naive = made.rows[1], made.base
    assert series.against(tiled, naive, series.SECTORS) == "8.00x fewer"
    ratio = series.ratios(tiled, naive)[series.SECTORS]
    assert ratio == tiled.values[series.SECTORS] / naive.values[series.SECTORS] == 0.125  # type: ignore[operator]
    again = series.build(reports(PAIRS[1]), baseline=1)
    assert series.against(again.rows[0], again.base, series.SECTORS) == "8.00x more"
    assert "Sectors moved (global loads) 8.00x fewer" in series.steps(made)[0]
    with pytest.raises(series.SeriesError, match="baseline 2 is no row"):
        series.build(reports(PAIRS[1]), baseline=2)


def _metrics_only(source: Path, target: Path) -> Path:
    """The real details text with only its --metrics section kept (a --metrics capture)."""
    lines = source.read_text().splitlines(keepends=True)
    end = next(i for i, line in enumerate(lines) if "Section: GPU Speed Of Light" in line)
    target.write_text("".join(lines[:end]))
    return target


def test_merge_joins_a_metrics_capture_and_a_details_capture(tmp_path: Path) -> None:
    metrics = _metrics_only(H200 / "numba-naive.details.txt", tmp_path / "naive.metrics.txt")
    alone = series.build(reports([metrics]))
    assert alone.rows[0].values[series.DURATION] is None
    assert any("lacks" in note and "Duration" in note for note in alone.notes)
    made = series.build(reports([metrics, H200 / "numba-naive.ncu-rep"]), merge_launches=True)
    [row] = made.rows
    assert len(row.files) == 2 and not row.disagree
    whole = read_report(H200 / "numba-naive.ncu-rep").kernels[0]
    assert row.values[series.DURATION] == whole.metric(series.DURATION)
    assert row.values[series.REQUESTS] == whole.metric(series.REQUESTS)


def test_merge_keeps_both_values_where_captures_disagree() -> None:
    paths = [H200 / "numba-naive.ncu-rep", H200 / "numba-naive-lineinfo.ncu-rep"]
    firsts = [r.kernels[0] for r in reports(paths)]
    [row] = series.build(reports(paths), merge_launches=True).rows
    assert row.disagree[series.DURATION] == tuple(k.metric(series.DURATION) for k in firsts)
    assert series.REQUESTS not in row.disagree
    notes = series.build(reports(paths), merge_launches=True).notes
    assert any("disagree on Duration" in note and "both kept" in note for note in notes)


def test_merge_refuses_different_launches(pair_1024: list[Path]) -> None:
    naive, tiled = (series.row(str(p), read_report(p).kernels[0]) for p in PAIRS[1])
    with pytest.raises(series.SeriesError, match="the kernel differ"):
        series.merge(naive, tiled)
    made = series.build(reports([PROFILES / "naive.ncu-rep", pair_1024[0]]), merge_launches=True)
    assert len(made.rows) == 2
    assert any(n.startswith("nothing merged") and "the grid differ" in n for n in made.notes)


def test_bad_series_say_what_they_show_and_cannot() -> None:
    one = series.build(reports([PROFILES / "naive.ncu-rep"]))
    assert any(n.startswith("one row") and "cannot show a series" in n for n in one.notes)
    workloads = series.build(reports([H200 / "workloads-kernels-and-graph.ncu-rep"]))
    names = [r.kernel.name for r in workloads.rows]
    assert names[:2] == ["scale", "add"]
    assert any(n.startswith("unrelated kernels") for n in workloads.notes)
    assert any("lacks Global load requests" in n for n in workloads.notes)
    assert all(r.values[series.REQUESTS] is None and not r.derived for r in workloads.rows)
    lesson = series.build(reports(PAIRS[0]))
    assert not any(n.startswith(("unrelated", "one row")) for n in lesson.notes)


def test_the_dram_row_is_the_total_traffic_against_the_floor() -> None:
    """The lesson compares dram__bytes_read.sum + dram__bytes_write.sum with 3·N²·4; on the
    H200 the writes are 0 B, so the total is under the floor, and a note says both."""
    made = series.build(reports(PAIRS[0]))
    for row in made.rows:
        read, written = (row.kernel.metric(k) for k in (series.DRAM_READ, series.DRAM_WRITE))
        assert read is not None and written == 0
        assert row.values[series.DRAM_TOTAL] == read + written
        assert row.derived == {**row.derived, series.DRAM_TOTAL: 3 * 512**2 * 4}
        assert series.DRAM_READ not in row.derived  # the floor is the total's, not the reads'
    [note] = series_words.floor_notes(made)  # both rows say the same: one sentence
    assert note.startswith("rows 0 and 1 (matmul_naive and matmul_tiled at N = 512): DRAM "
                           "traffic (read + write) 2.10 MB is under the lesson's floor of "
                           "3.15 MB")
    assert "it wrote 0 B against C's 1,048,576 B, so C was not written back" in note
    assert series.DRAM_TOTAL == "dram__bytes_read.sum + dram__bytes_write.sum"
    assert series.as_json(made)["rows"][0]["metrics"][series.DRAM_TOTAL] == \
        made.rows[0].values[series.DRAM_TOTAL]  # type: ignore[index]


def test_a_missing_write_is_no_total_never_a_zero() -> None:
    kernel = read_report(PROFILES / "naive.ncu-rep").kernels[0]
    kept = {k: v for k, v in kernel.metrics.items() if k != series.DRAM_WRITE}
    row = series.row("no-writes", dataclasses.replace(kernel, metrics=kept))
    assert row.values[series.DRAM_READ] is not None and row.values[series.DRAM_TOTAL] is None
    assert not series_words.floor_notes(series.Series((row,)))


LINE = {line.key: line for line in series.LINES}


def test_a_derivation_that_differs_from_the_report_says_both() -> None:
    naive, tiled = series.build(reports(PAIRS[1])).rows
    shared = LINE[series.SHARED_PER_THREAD]
    assert tiled.values[series.SHARED_PER_THREAD] == 640
    assert series_words.derived_words(shared, tiled) == \
        "1,024 derived loads; the report counts 640 instructions"
    assert series_words.derived_words(shared, naive, "derived ") == "derived 0 (exact)"
    sectors = LINE[series.SECTORS]
    off = dataclasses.replace(tiled, values={**tiled.values, series.SECTORS: 2_083_878})
    assert series_words.derived_words(sectors, off) == \
        "2,097,152 derived; the report counts 2,083,878"
    per = LINE[series.SECTORS_PER_REQUEST]
    near = dataclasses.replace(tiled, values={**tiled.values,
                                              series.SECTORS_PER_REQUEST: 3.999})
    assert "(exact)" not in series_words.derived_words(per, near)
    [note] = series_words.shared_notes(series.build(reports(PAIRS[0] + PAIRS[1])))
    assert note.startswith("rows 1 and 3 (matmul_tiled at N = 512): the report counts 640 "
                           "shared-load instructions per thread against the derivation's "
                           "1,024 one-float loads; one instruction may load several floats")


def test_a_ratio_against_none_names_the_row() -> None:
    naive, tiled = series.build(reports(PAIRS[1])).rows
    assert series.against(tiled, naive, series.SHARED_PER_THREAD, "row 0") == \
        "640 where row 0 has 0"
    assert series.against(naive, tiled, series.SHARED_PER_THREAD, "row 1") == \
        "none where row 1 has 640"
    made = series.build(reports(PAIRS[1]))
    assert all("the other" not in step for step in series.steps(made))
