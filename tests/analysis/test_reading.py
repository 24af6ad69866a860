"""The three readings and the comparison, on the H200 naive and tiled values (details.txt)."""

from __future__ import annotations

import pytest

from viewer.analysis import comparison, memory_traffic, occupancy_reading, reading
from viewer.core.metrics import BARRIER_STALL, SUMMARY_KEYS, SUMMARY_METRICS
from viewer.core.model import Kernel
from viewer.lesson import derivation_check

M = SUMMARY_METRICS


def kernel(name: str, **values: float) -> Kernel:
    metrics = {M.get(k, k): v for k, v in values.items()}
    return Kernel(0, name, name + "()", grid=(32, 32, 1), block=(16, 16, 1), metrics=metrics)


# Values as printed in tests/data/corpus/h200/numba-*.details.txt, in base units.
NAIVE = dict(compute_sm_throughput_pct=67.17, memory_throughput_pct=21.79,
             dram_throughput_pct=0.20, duration_ns=219_140.0, l1tex_throughput_pct=23.14,
             l2_throughput_pct=3.74, global_load_requests=8_388_608,
             global_load_sectors=16_777_216, dram_bytes_read=2_100_000, dram_bytes_write=0,
             theoretical_occupancy_pct=100, achieved_occupancy_pct=60.24, block_limit_sm=32,
             block_limit_registers=8, block_limit_shared_mem=32, block_limit_warps=8,
             launch__waves_per_multiprocessor=0.97)
TILED = dict(NAIVE, compute_sm_throughput_pct=54.08, memory_throughput_pct=64.58,
             dram_throughput_pct=0.92, duration_ns=47_780.0, l1tex_throughput_pct=70.97,
             l2_throughput_pct=9.94, global_load_requests=524_288, global_load_sectors=2_097_152,
             achieved_occupancy_pct=81.48, block_limit_shared_mem=21)


def test_naive_is_compute_bound_and_memory_throughput_is_not_dram() -> None:
    sol = reading.speed_of_light(kernel("matmul_naive", **NAIVE))
    assert sol.verdict == "compute-bound"
    assert sol.busiest_unit is not None and sol.busiest_unit.name == "L1/TEX"
    assert "not DRAM bandwidth" in sol.explanation
    assert "0.20 %" in sol.explanation


def test_tiled_is_memory_bound() -> None:
    assert reading.speed_of_light(kernel("matmul_tiled", **TILED)).verdict == "memory-bound"


@pytest.mark.parametrize(
    ("compute", "memory", "verdict"),
    [(30.0, 20.0, reading.SMALL_OR_LATENCY), (59.9, 59.9, reading.SMALL_OR_LATENCY),
         (60.0, 10.0, "compute-bound"),
     (10.0, 60.0, "memory-bound"), (90.0, 95.0, "memory-bound"),
     (60.78, 60.78, "compute- and memory-bound"), (72.671, 72.674, "compute- and memory-bound"),
     (72.67, 72.69, "memory-bound")],
)
def test_verdict_thresholds(compute: float, memory: float, verdict: str) -> None:
    sol = reading.speed_of_light(kernel("k", compute_sm_throughput_pct=compute,
                                        memory_throughput_pct=memory))
    assert sol.verdict == verdict
    assert sol.busiest_unit is None


def test_no_verdict_without_both_rows() -> None:
    sol = reading.speed_of_light(kernel("k", compute_sm_throughput_pct=70.0))
    assert sol.verdict is None
    assert "Memory Throughput" in sol.explanation


def test_memory_chart_sectors_per_request_and_compulsory_floor() -> None:
    chart = memory_traffic.memory_chart(kernel("matmul_naive", **NAIVE))
    assert chart.sectors_per_request == 2.0
    assert chart.problem_dim == 512
    assert chart.compulsory_bytes == 3 * 512 * 512 * 4
    assert chart.times_compulsory == pytest.approx(2_100_000 / 3_145_728)
    assert chart.floor_note.startswith("below the floor")
    shared = next(a for a in chart.arrows if a.target == "Shared memory")
    assert shared.amount is None  # not in a details export: missing, never zero


def test_problem_size_is_unknown_for_foreign_kernels() -> None:
    assert memory_traffic.memory_chart(kernel("gemm", **NAIVE)).compulsory_bytes is None


def test_sectors_per_request_needs_both_counts() -> None:
    assert reading.sectors_per_request(kernel("k", global_load_sectors=10.0)) is None


def test_occupancy_binding_limits_and_gap() -> None:
    occ = occupancy_reading.occupancy(kernel("matmul_naive", **NAIVE))
    assert [lim.name for lim in occ.binding] == ["Block Limit Registers", "Block Limit Warps"]
    assert occ.gap_pct == pytest.approx(39.76)
    assert "barriers" in occ.explanation and "0.97 waves" in occ.explanation
    assert "could have filled" not in occ.explanation  # 1,024 blocks, 1,056 fit at once
    assert "the small grid accounts for about 3.00 points" in occ.explanation
    assert "registers and shared memory are not" in occ.explanation


def test_occupancy_without_a_gap() -> None:
    occ = occupancy_reading.occupancy(kernel("k", theoretical_occupancy_pct=100.0,
                                             achieved_occupancy_pct=98.0))
    assert "within" in occ.explanation
    assert occ.binding == ()


def test_comparison_carries_the_lesson() -> None:
    diffs = {d.key: d for d in comparison.compare(kernel("matmul_naive", **NAIVE),
                                                  kernel("matmul_tiled", **TILED))}
    assert diffs["global_load_sectors"].ratio == 8.0
    assert diffs["global_load_requests"].ratio == 16.0
    assert diffs["duration_ns"].direction("naive", "tiled") == "Duration: naive 4.59x tiled"
    assert diffs["sectors_per_request"].direction("naive", "tiled") == (
        "Sectors per request: tiled 2.00x naive")
    assert diffs["shared_load_instructions"].ratio is None
    assert "not in both" in diffs["shared_load_instructions"].direction("a", "b")


def test_summary_has_every_key() -> None:
    s = reading.summary(kernel("k", duration_ns=5.0))
    assert tuple(s) == SUMMARY_KEYS
    assert s["duration_ns"] == 5.0 and s["global_load_requests"] is None


def test_the_derivation_against_the_shipped_captures() -> None:
    from pathlib import Path

    from viewer.readers import read_report

    profiles = Path(__file__).resolve().parents[2] / "profiles"
    naive = read_report(profiles / "naive.ncu-rep").kernels[0]
    tiled = read_report(profiles / "tiled.ncu-rep").kernels[0]
    checks = {c.label: c for c in derivation_check.predictions(naive)}
    assert checks["global load requests"].ratio == 1.0
    assert checks["global load sectors"].ratio == 1.0
    assert "shared load instructions" not in checks
    shared = {c.label: c for c in derivation_check.predictions(tiled)}["shared load instructions"]
    assert shared.predicted == 1024 * 8192  # 1,024 shared loads per thread, 8,192 warps
    assert shared.measured == tiled.metric("smsp__sass_inst_executed_op_shared_ld.sum")


def test_no_derivation_for_foreign_kernels_or_missing_sizes() -> None:
    assert derivation_check.predictions(kernel("gemm", **NAIVE)) == ()
    odd = Kernel(0, "matmul_naive", "matmul_naive()", grid=(3, 2, 1), block=(16, 16, 1))
    assert derivation_check.predictions(odd) == ()
    check = derivation_check.predictions(kernel("matmul_tiled", **TILED))[-1]
    assert check.label == "shared load instructions" and check.measured is None
    assert check.ratio is None


def test_a_kernel_without_barriers_is_not_told_barriers_cost_it() -> None:
    occ = occupancy_reading.occupancy(kernel("matmul_naive", **NAIVE, launch__barrier_count=0))
    assert occ.barriers == 0
    assert "barriers (" not in occ.explanation and "no barrier" in occ.explanation


def test_barrier_stalls_are_quoted_when_the_report_has_them() -> None:
    occ = occupancy_reading.occupancy(kernel("matmul_tiled", **TILED, launch__barrier_count=1, **{
        BARRIER_STALL: 3.1161}))
    assert "barriers (warps waited at one 3.12 cycles per issued instruction)" in occ.explanation


def test_compared_rows_keep_the_lessons_labels() -> None:
    assert [label for _, label in comparison.COMPARED] == [
        "Duration", "Sectors moved (global loads)", "Global load requests",
        "Sectors per request", "Shared load instructions", "L2 sectors read from L1/TEX",
        "DRAM bytes read", "DRAM bytes written", "Memory Throughput", "DRAM Throughput",
        "Compute (SM) Throughput", "L1/TEX Hit Rate", "L2 Hit Rate", "Theoretical Occupancy",
        "Achieved Occupancy"]


def test_block_limits_are_named_as_the_report_prints_them() -> None:
    without = occupancy_reading.occupancy(kernel("matmul_naive", **NAIVE))
    assert [lim.name for lim in without.limits] == [
        "Block Limit SM", "Block Limit Registers", "Block Limit Shared Mem", "Block Limit Warps"]
    assert without.limits[1].metric == "launch__occupancy_limit_registers"
    newer = occupancy_reading.occupancy(kernel("matmul_naive", **NAIVE,
                                               launch__occupancy_limit_barriers=32))
    assert newer.limits[-1].name == "Block Limit Barriers" and newer.limits[-1].blocks == 32


def test_derivation_figures_are_written_in_their_units() -> None:
    checks = {c.key: c for c in derivation_check.predictions(kernel("matmul_naive", **NAIVE))}
    assert checks["sectors_per_request"].derived_text == "2.00"
    assert checks["sectors_per_request"].measured_text == "2.00"
    assert checks["global_load_requests"].derived_text == "8,388,608"
    assert checks["global_load_sectors"].ratio_text == "100.00 %"
    tiled = derivation_check.predictions(kernel("matmul_tiled", **TILED))[-1]
    assert (tiled.key, tiled.measured_text, tiled.fewer_shared_loads) == (
        "shared_load_instructions", "n/a", False)


# ---------------------------------------------------------------- on real reports

def _real(path: str, index: int = 0) -> Kernel:
    from pathlib import Path

    from viewer.readers import read_report

    return read_report(Path(__file__).resolve().parents[2] / path).kernels[index]


HOTSPOT = "tests/data/corpus/ncu-public/old-spelling-2020-csv-sm-pct-memory-pct-v100-hotspot.csv"
BASIC = "tests/data/corpus/h200/workloads-kernels-and-graph.ncu-rep"


def test_a_grid_below_one_wave_is_a_small_grid_not_latency() -> None:
    """hotspot on a V100: 36 blocks, 0.07 waves per SM, both rows low: ncu says Small Grid."""
    sol = reading.speed_of_light(_real(HOTSPOT))
    assert sol.verdict == "small grid"
    assert sol.grid is not None and sol.grid.small and sol.grid.blocks == 36
    assert sol.explanation.startswith("36 blocks: 0.07 waves per SM — the grid does not fill "
                                      "the GPU; a small grid, not latency, bounds it.")
    assert "latency-bound" not in sol.explanation and "stall" not in sol.explanation


def test_a_grid_of_many_waves_with_both_rows_low_stays_latency_bound() -> None:
    sol = reading.speed_of_light(_real(BASIC))  # scale: 4,096 blocks, 3.88 waves per SM
    assert sol.verdict == "latency-bound" and sol.grid is not None and not sol.grid.small


def test_blocks_against_sms_where_ncu_gives_no_waves() -> None:
    few = kernel("k", compute_sm_throughput_pct=3.0, memory_throughput_pct=2.0,
                 launch__grid_size=16, device__attribute_multiprocessor_count=132)
    sol = reading.speed_of_light(few)
    assert sol.verdict == "small grid"
    assert sol.explanation.startswith("16 blocks on 132 SMs: fewer blocks than SMs")
    many = kernel("k", compute_sm_throughput_pct=3.0, memory_throughput_pct=2.0,
                  launch__grid_size=1024, device__attribute_multiprocessor_count=132)
    # 1,024 blocks on 132 SMs without the block limits: a small grid is not ruled out.
    assert reading.speed_of_light(many).verdict == reading.SMALL_OR_LATENCY


def test_latency_without_stall_metrics_names_the_set_that_has_them() -> None:
    """A --set basic capture holds no warp stall metric: never point at them as if it did."""
    sol = reading.speed_of_light(_real(BASIC))
    assert "which warp stall reasons explain" not in sol.explanation
    assert "this report holds no warp stall metrics" in sol.explanation
    assert "--set full" in sol.explanation


def test_latency_with_stall_metrics_points_at_the_stalls_view() -> None:
    held = kernel("k", compute_sm_throughput_pct=30.0, memory_throughput_pct=20.0,
                  **{BARRIER_STALL: 0.5})
    assert "the Warp stalls view" in reading.speed_of_light(held).explanation


def test_a_unit_row_above_memory_throughput_is_told_why() -> None:
    """naive.ncu-rep: L1/TEX 87.13 % (per active cycle) above Memory Throughput 78.74 %
    (per elapsed cycle): the reason, with the report's cycles, not two claims side by side."""
    sol = reading.speed_of_light(_real("profiles/naive.ncu-rep"))
    text = sol.explanation
    assert "The busiest memory unit is" not in text
    assert ("L1/TEX Cache Throughput 87.13 % reads above Memory Throughput 78.74 % because it "
            "is a percent of the cycles the unit was active "
            "(pct_of_peak_sustained_active), while Memory Throughput is a percent of every "
            "elapsed cycle (pct_of_peak_sustained_elapsed)") in text
    # the report's own figure per elapsed cycle, never an estimate below the busiest unit's
    assert ("per elapsed cycle the report holds L1/TEX at 78.74 % "
            "(l1tex__throughput.avg.pct_of_peak_sustained_elapsed)") in text
    assert "77.34" not in text
    scale = reading.speed_of_light(_real(BASIC)).explanation
    assert ("L2 Cache Throughput 0.96 % reads above Memory Throughput 0.50 % though both are "
            "per elapsed cycle") in scale


def test_without_the_units_own_elapsed_figure_no_estimate_is_printed() -> None:
    """naive.details.txt lacks l1tex__throughput...elapsed: the SMs' share of the cycles is
    said, and no percent for L1/TEX per elapsed cycle is made from it (SM cycles are not
    L1/TEX's: the .ncu-rep's real figure is 78.74 %, the estimate would say 77.34 %)."""
    text = reading.speed_of_light(_real("profiles/naive.details.txt")).explanation
    assert "SM Active Cycles 109,882.19 of Elapsed Cycles 123,795" in text
    assert "the report does not hold L1/TEX's own figure per elapsed cycle" in text
    assert "77.34" not in text


def test_the_busiest_unit_is_read_per_elapsed_cycle_as_memory_throughput_is() -> None:
    """hotspot: L1/TEX's row 7.32 % is per active cycle (about 1.60 % per elapsed one); DRAM's
    3.36 % is Memory Throughput's own: DRAM is the busiest, and never 'not DRAM bandwidth'."""
    sol = reading.speed_of_light(_real(HOTSPOT))
    assert sol.busiest_unit is not None and sol.busiest_unit.name == "DRAM"
    assert "not DRAM bandwidth" not in sol.explanation
    assert sol.explanation.endswith("DRAM Throughput is 3.36 % too: here the headline is DRAM's.")
    naive = reading.speed_of_light(_real("profiles/naive.ncu-rep"))
    assert naive.busiest_unit is not None and naive.busiest_unit.name == "L1/TEX"


TORCH = "tests/data/corpus/h200/torch-transformer-400.details.txt.gz"


def test_a_real_many_kernel_capture_calls_no_small_grid_latency_bound() -> None:
    """The 400 kernels of a real PyTorch capture (--set basic, no stall data): every launch under
    one wave with both rows below the line reads as a small grid, with its numbers, and none
    points at warp stall reasons the report does not hold."""
    from viewer.readers import read_report

    kernels = read_report(TORCH).kernels
    sols = [reading.speed_of_light(k) for k in kernels]
    small = [s for s in sols if s.grid is not None and s.grid.small
             and (s.compute_pct or 0) < reading.HIGH_PCT and (s.memory_pct or 0) < reading.HIGH_PCT]
    assert len(small) > len(kernels) // 2
    for sol in small:
        assert sol.verdict == "small grid"
        assert sol.grid is not None and sol.grid.text in sol.explanation
    for sol in sols:
        assert "which warp stall reasons explain" not in sol.explanation


def test_the_t4_tables_equal_rows_are_said_to_be_printed_so_with_the_lessons_reading() -> None:
    """The lesson prints Compute (SM) and Memory Throughput equal for both T4 kernels: the
    verdict says so, and of the naive kernel the lesson's own reading (Solution 1: L1TEX)
    beside what the table itself can tell (no unit rows)."""
    from pathlib import Path

    from viewer.readers import reference_toml

    table = Path(__file__).parents[2] / "profiles" / "t4-reference.toml"
    naive, tiled = reference_toml.read(table).kernels
    printed = "Both rows are the published table's, printed equal as the lesson prints them."
    lesson = ("The lesson's own reading (its Solution 1) is that the busiest memory unit is "
              "L1TEX, not DRAM.")
    for kernel in (naive, tiled):
        sol = reading.speed_of_light(kernel)
        assert sol.verdict == "compute- and memory-bound"
        assert printed in sol.explanation
    assert lesson in reading.speed_of_light(naive).explanation
    assert "L1/TEX or L2, not in this report" in reading.speed_of_light(naive).explanation
    assert "lesson's own reading" not in reading.speed_of_light(tiled).explanation
