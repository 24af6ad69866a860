"""Speed Of Light and occupancy sentences against real reports: a small grid is never read as
latency or as a workload that failed to fill the machine, and the busiest unit has one wording."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest

from viewer.analysis import launch_grid, reading
from viewer.analysis.occupancy_reading import OCCUPANCY_GAP_PCT, occupancy
from viewer.core import metrics
from viewer.core.model import Kernel, Metrics
from viewer.lesson import misreads
from viewer.readers import read_report
from viewer.terminal import summary_terminal

CORPUS = Path(__file__).parents[1] / "data" / "corpus"
PUBLIC = CORPUS / "ncu-public"
PROFILES = Path(__file__).parents[2] / "profiles"
TORCH = CORPUS / "h200" / "torch-transformer-400.details.txt.gz"
# A 2023 README that pastes ncu's summary of a 32-block transpose, with no SM count; its own
# notes quote ncu's Small Grid rule: "only 0.3 full waves across all SMs".
TRANSPOSE = PUBLIC / "old-gen-2023-locale-comma-decimal-and-print-summary-per-kernel-readme.md"


@pytest.fixture(scope="module")
def torch() -> list[Kernel]:
    return read_report(TORCH).kernels


def _without(kernel: Kernel, *names: str) -> Kernel:
    kept = {k: v for k, v in kernel.metrics.items() if k not in names}
    return dataclasses.replace(kernel, metrics=Metrics.table([kept])[0])


def test_a_grid_under_one_wave_is_never_said_to_have_been_able_to_fill_the_machine(torch
                                                                                   ) -> None:
    small = [k for k in torch if (w := launch_grid.grid(k).full_waves) is not None and w < 1
             and (occupancy(k).gap_pct or 0) >= OCCUPANCY_GAP_PCT]
    assert len(small) > 100
    for k in small:
        assert "could have filled" not in occupancy(k).explanation, k.index
    gemm = occupancy(torch[2])  # 192 blocks, 4 per SM fit on 132 SMs: 0.36 waves
    assert "an SM holds on average 1.45 of the 4 blocks" in gemm.explanation
    assert "which covers the whole gap" in gemm.explanation
    rows = read_report(PUBLIC / "mid-spelling-2022-multikernel-rowsums-colsums-details.txt")
    for k in rows.kernels:  # grid 64, 0.27 waves
        text = occupancy(k).explanation
        assert "could have filled" not in text and "0.27 waves per SM" in text


def test_the_shipped_pair_under_one_wave_is_told_what_the_small_grid_explains() -> None:
    for name in ("naive", "tiled"):
        occ = occupancy(read_report(PROFILES / f"{name}.ncu-rep").kernels[0])
        assert "could have filled" not in occ.explanation
        assert "of the 8 blocks the block limits allow (96.97 %)" in occ.explanation


def test_a_block_of_one_warp_is_never_told_of_barriers() -> None:
    tiled = read_report(PROFILES / "tiled.ncu-rep").kernels[0]  # two barriers per tile step
    assert "barriers (" in occupancy(tiled).explanation
    one_warp = dataclasses.replace(tiled, block=(32, 1, 1))
    text = occupancy(one_warp).explanation
    assert "a block of one warp waits at no barrier" in text
    assert "barriers (" not in text and "barriers," not in text


def test_without_the_sm_count_a_small_grid_is_not_ruled_out_so_not_called_latency() -> None:
    (_, transpose) = read_report(TRANSPOSE).kernels
    sol = reading.speed_of_light(transpose)
    assert sol.verdict == reading.SMALL_OR_LATENCY
    assert "holds 32 blocks but lacks the SM count" in sol.explanation
    assert "cannot rule out a small grid" in sol.explanation


def test_ncus_own_small_grid_rule_decides_where_the_report_lacks_the_sm_count(torch) -> None:
    gemm = torch[2]
    assert launch_grid.small_grid_rule(gemm) == 0.4  # "only 0.4 full waves across all SMs"
    bare = _without(gemm, launch_grid.SM_COUNT, launch_grid.DEVICE_SMS, metrics.WAVES_PER_SM)
    sol = reading.speed_of_light(bare)
    assert sol.verdict == "small grid"
    assert "ncu's own Small Grid rule says 0.40 full waves" in sol.explanation


def test_summary_names_the_busiest_unit_as_the_window_does() -> None:
    out = io.StringIO()
    summary_terminal.summarize([str(PROFILES / "naive.ncu-rep")], out=out, err=io.StringIO())
    sol = reading.speed_of_light(read_report(PROFILES / "naive.ncu-rep").kernels[0])
    assert reading.busiest_words(sol) == "L1/TEX at 87.13 % of its active cycles"
    assert ("1. Speed Of Light: memory-bound; busiest memory unit L1/TEX at 87.13 % of its "
            "active cycles") in out.getvalue()


def test_a_far_smaller_dram_row_is_not_the_busiest_unit_though_within_a_point() -> None:
    """The P40 export with nan rows: Memory Throughput 0.66 %, DRAM Throughput 0.03 %, no L1/TEX
    or L2 row. Within a point, yet 22 times smaller: some unit the report does not show is the
    busiest, not DRAM."""
    kernel = read_report(PUBLIC / "old-spelling-pascal-p40-nan-values-details.txt").kernels[0]
    sol = reading.speed_of_light(kernel)
    assert sol.busiest_shown is None
    assert "The busiest memory unit is DRAM" not in sol.explanation
    assert reading.busiest_words(sol) == ("L1/TEX or L2, not in this report: Memory Throughput "
                                          "0.66 % is above every unit row shown")
    (misread,) = misreads.misreads(kernel)
    assert misread.kind == "memory-not-dram" and "here that unit is not DRAM" in misread.text
    # where DRAM's row is Memory Throughput's own (the 2019 P40 export), the two still agree
    p40 = read_report(PUBLIC / "old-spelling-pascal-p40-gpu-speed-of-light-sol-fb-details.txt")
    assert [m.kind for m in misreads.misreads(p40.kernels[0])] == ["memory-is-dram"]
