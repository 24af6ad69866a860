"""The T4 table beside the open pair: what moved across GPUs and what did not, computed from the
values (the provenance too is read from the file, not written in code)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from viewer.core import shipped
from viewer.core.model import Kernel
from viewer.lesson import t4_reference
from viewer.readers import read_report

REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"


@pytest.fixture(scope="module")
def t4() -> list[Kernel]:
    return t4_reference.reference_report().kernels


@pytest.fixture(scope="module")
def h200() -> list[Kernel]:
    return [read_report(path).kernels[0] for path in shipped.comparison()]


def by_metric(rows: list[t4_reference.CrossRow]) -> dict[str, t4_reference.CrossRow]:
    return {r.metric: r for r in rows}


def test_every_row_of_the_table_in_its_order(t4, h200) -> None:
    rows = t4_reference.cross_gpu(t4, h200)
    assert [r.label for r in rows] == [r.label for r in t4[0].published.rows]
    assert len(rows) == 12


def test_counts_did_not_move_and_hit_rates_durations_and_percentages_did(t4, h200) -> None:
    rows = by_metric(t4_reference.cross_gpu(t4, h200))
    for metric in (REQUESTS, SECTORS, "sectors_per_request"):
        assert rows[metric].moved is False, metric
        assert "did not move (within 1 %)" in rows[metric].words
    for metric in ("gpu__time_duration.sum", "l1tex__t_sector_hit_rate.pct",
                   "lts__t_sector_hit_rate.pct",
                   "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                   "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"):
        assert rows[metric].moved is True, metric
    assert rows["dram__bytes.sum"].here == (2_104_320, 2_101_760)  # read + written here
    assert rows["gpu__time_duration.sum"].words == (
        "Duration: moved: naive 1.18 ms -> 62.85 us, tiled 744.64 us -> 43.97 us (T4 -> here)")


def test_the_summary_says_what_moved_what_did_not_and_where_the_order_changed(t4, h200) -> None:
    words = t4_reference.summary_words(t4_reference.cross_gpu(t4, h200))
    moved, held, order, separation = words
    assert moved.startswith("Moved across GPUs") and "L1/TEX Hit Rate" in moved
    assert held.startswith("Did not move") and REQUESTS in held and SECTORS in held
    assert order == ("The order between the two kernels held on 11 of 12 rows; it changed on "
                     "Memory Throughput (tiled higher on the T4, naive higher here).")
    assert separation == ("Sectors moved separate the kernels more than Duration does on both "
                          "GPUs: 8.05x against 1.58x on the T4 by its table (the lesson: "
                          '"Duration differs by 1.59x, sectors moved by 8.05x"), 8.00x against '
                          "1.43x here.")


def test_the_t4_against_itself_moved_nothing(t4) -> None:
    rows = t4_reference.cross_gpu(t4, t4)
    assert {r.moved for r in rows} == {False}
    assert not any(w.startswith("Moved") for w in t4_reference.summary_words(rows))


def test_a_value_missing_here_cannot_be_told(t4, h200) -> None:
    naive, tiled = h200
    bare = dataclasses.replace(naive, metrics={k: v for k, v in naive.metrics.items()
                                               if k != "lts__t_sector_hit_rate.pct"})
    row = by_metric(t4_reference.cross_gpu(t4, (bare, tiled)))["lts__t_sector_hit_rate.pct"]
    assert row.moved is None and row.here[0] is None
    assert "cannot be told" in row.words
    assert any(w.startswith("Not in both") and "L2 Hit Rate" in w
               for w in t4_reference.summary_words([row]))


def test_the_provenance_is_read_from_the_file(tmp_path: Path) -> None:
    assert "Tesla T4 (CC 7.5), driver 595.84" in t4_reference.provenance_text()
    copy = tmp_path / "t4.toml"
    shutil.copy(shipped.reference(), copy)
    copy.write_text(copy.read_text().replace('driver = "595.84"', 'driver = "999.1"'))
    assert "driver 999.1," in t4_reference.provenance_text(read_report(copy))


def test_only_a_published_reference_goes_first(h200) -> None:
    with pytest.raises(ValueError, match="published reference"):
        t4_reference.cross_gpu(h200, h200)


def test_a_1024_pair_names_the_size_first_and_scales_the_counts(t4, pair_1024) -> None:
    """A pair at N = 1024 (made from the 512 exports: tests/lesson/conftest.py): its requests and
    sectors are 8x the T4's because of the size, not the GPU, and the words say so first."""
    here = [read_report(path).kernels[0] for path in pair_1024]
    rows = t4_reference.cross_gpu(t4, here)
    words = t4_reference.summary_words(rows)
    assert words[0].startswith("Sizes differ: the T4 table is N = 512, this pair N = 1024")
    assert "(1024/512)^3 = 8x" in words[0] and "(1024/512)^2 = 4x" in words[0]
    moved = next(w for w in words if w.startswith("Moved"))
    assert REQUESTS not in moved and SECTORS not in moved
    row = by_metric(rows)[REQUESTS]
    assert row.here == (67_108_864, 4_194_304) and row.moved is False
    assert row.words == (
        f"{REQUESTS}: did not move (within 1 %): naive 8,388,608 x 8 = 67,108,864 -> 67,108,864, "
        "tiled 524,288 x 8 = 4,194,304 -> 4,194,304 (T4 at N = 512 scaled by (1024/512)^3 = 8, "
        "since counts grow as N^3, -> here at N = 1024)")
    assert "T4 at N = 512 -> here at N = 1024" in by_metric(rows)["gpu__time_duration.sum"].words


def test_a_pair_at_two_sizes_or_of_other_launches_names_every_size_unscaled(t4, h200,
                                                                           pair_1024) -> None:
    """The T4 table at N = 512 beside naive at 512 and tiled at 1024 (no one N to scale by), or
    beside two PyTorch kernels of other launches: every size first, the rows as they stand."""
    tiled_1024 = read_report(pair_1024[1]).kernels[0]
    rows = t4_reference.cross_gpu(t4, (h200[0], tiled_1024))
    assert all(r.scale is None for r in rows)
    words = t4_reference.summary_words(rows)
    assert words[0].startswith(
        "Sizes differ: the T4 table at N = 512 (262,144 threads: grid 32x32x1 of 16x16x1 "
        "blocks), matmul_naive at N = 512 (262,144 threads: grid 32x32x1 of 16x16x1 blocks), "
        "matmul_tiled at N = 1024 (1,048,576 threads: grid 64x64x1 of 16x16x1 blocks): ")
    assert words[0].endswith("No N scales these rows: each is set beside the T4's as it stands.")
    assert words[1].startswith("Moved across GPUs and sizes (beyond 1 % of the T4's value): ")
    torch = read_report(Path(__file__).parents[1] / "data" / "corpus" / "h200" /
                        "torch-transformer-400.details.txt.gz").kernels
    launches = t4_reference.summary_words(t4_reference.cross_gpu(t4, torch[:2]))[0]
    assert launches.startswith("Launch sizes differ: the T4 table at N = 512 (262,144 threads: "
                               "grid 32x32x1 of 16x16x1 blocks), "
                               "distribution_elementwise_grid_stride_kernel with 262,144 threads")
    # the shipped pair is the T4's size: nothing to say of sizes
    assert not t4_reference.summary_words(t4_reference.cross_gpu(t4, h200))[0].startswith(
        ("Sizes", "Launch sizes"))


def test_the_t4_sectors_per_request_is_the_lesson_s_figure(t4, h200) -> None:
    row = by_metric(t4_reference.cross_gpu(t4, h200))["sectors_per_request"]
    # the lesson's "2.0 4.0"
    assert [t4_reference.t4_figure(row, v) for v in row.t4] == ["2.0", "4.0"]


def test_the_separation_quotes_the_lesson_s_own_figures(t4, h200) -> None:
    separation = t4_reference.summary_words(t4_reference.cross_gpu(t4, h200))[-1]
    assert 'the lesson: "Duration differs by 1.59x, sectors moved by 8.05x"' in separation
