"""The details text reader against real ncu text exports of every generation, and bad input.

Values checked here were read by eye from the files in tests/data/corpus. The inline inputs are
excerpts in the exact shape ncu 2025.3.1 prints for `--print-units base`, `--print-metric-name`,
`--print-details all` and `--print-summary per-kernel` (imported from the H200 naive report).
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.core.model import Report, ReportError
from viewer.readers import details_text
from viewer.readers.sniff import UTF16_REASON

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"
H200 = CORPUS / "h200"
PUBLIC = CORPUS / "ncu-public"

# Every text export of the corpus that holds kernels (workloads-ranges holds only ranges:
# tests/readers/test_readers_workloads.py).
TEXT_EXPORTS = sorted(
    p for p in [*H200.glob("*.details.txt"), *PUBLIC.glob("*.txt"), *PUBLIC.glob("*-readme.md")]
    if not p.name.startswith("workloads-ranges")
)
CSV_EXPORTS = sorted([*H200.glob("*.csv"), *PUBLIC.glob("*.csv")])

DURATION = "gpu__time_duration.sum"
SOL_MEMORY_PCT = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"
SOL_SM_PCT = "sm__throughput.avg.pct_of_peak_sustained_elapsed"
SOL_DRAM_PCT = "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"
SOL_L1_PCT = "l1tex__throughput.avg.pct_of_peak_sustained_active"
SOL_L2_PCT = "lts__throughput.avg.pct_of_peak_sustained_elapsed"
DRAM_BYTES_PER_S = "dram__bytes.sum.per_second"
DRAM_FREQ = "dram__cycles_elapsed.avg.per_second"
SM_FREQ = "gpc__cycles_elapsed.avg.per_second"
ELAPSED = "gpc__cycles_elapsed.max"
SM_ACTIVE = "sm__cycles_active.avg"
REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
L1_HIT = "l1tex__t_sector_hit_rate.pct"
L2_HIT = "lts__t_sector_hit_rate.pct"
THEORETICAL = "sm__maximum_warps_per_active_cycle_pct"
ACHIEVED = "sm__warps_active.avg.pct_of_peak_sustained_active"
REGISTERS = "launch__registers_per_thread"

NAIVE_NAME = (
    "matmul_naive[v1,cw51cXTLSUwv1sDUaKthqaNgoKmjgOR3W3Cw6igA9duC0hkwnNGiHEkYkrqQBFBTDEwCyQe21"
    "eqwcFW3UoDGjzpQEsgzrtUEAA_3d_3d](Array<float, 2, C, mutable, aligned>, Array<float, 2, C, "
    "mutable, aligned>, Array<float, 2, C, mutable, aligned>)"
)
NAIVE_HEADER = (
    "[1986] python3.12@127.0.0.1\n"
    f"  {NAIVE_NAME} (32, 32, 1)x(16, 16, 1), Context 1, Stream 7, Device 0, CC 9.0\n"
    "    Warning: Data collection happened without fixed GPU frequencies. "
    "Profiling results may be inconsistent.\n"
)


def _read(path: Path) -> Report:
    report = details_text.read(path)
    assert report.source == str(path)
    assert report.format == "details-text"
    assert [k.index for k in report.kernels] == list(range(len(report.kernels)))
    return report


def _write(tmp_path: Path, text: str, name: str = "export.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- the corpus, file by file


def test_corpus_holds_the_text_exports_this_reader_owns() -> None:
    assert len(TEXT_EXPORTS) >= 10


@pytest.mark.parametrize("path", TEXT_EXPORTS, ids=lambda p: p.name)
def test_every_text_export_is_recognised_and_read(path: Path) -> None:
    head = path.read_text(encoding="utf-8", errors="replace")[:65536]
    assert details_text.looks_like(head)
    report = _read(path)
    assert report.kernels
    assert all(k.metrics for k in report.kernels)


@pytest.mark.parametrize("path", CSV_EXPORTS, ids=lambda p: p.name)
def test_csv_exports_are_not_claimed(path: Path) -> None:
    head = path.read_text(encoding="utf-8", errors="replace")[:65536]
    assert not details_text.looks_like(head)


@pytest.mark.parametrize("path", [CORPUS / "README.md", PUBLIC / "SOURCES.md"], ids=str)
def test_prose_is_not_claimed(path: Path) -> None:
    assert not details_text.looks_like(path.read_text(encoding="utf-8")[:65536])


def test_h200_naive_2025_layout() -> None:
    (k,) = _read(H200 / "numba-naive.details.txt").kernels
    assert k.name == "matmul_naive"
    assert k.display_name == NAIVE_NAME
    assert (k.grid, k.block, k.device_id, k.device_name, k.cc) == (
        (32, 32, 1), (16, 16, 1), 0, None, "9.0")
    assert k.metric(DURATION) == pytest.approx(219_140)
    assert k.metric(SECTORS) == 16_777_216
    assert k.metric(REQUESTS) == 8_388_608
    assert k.metric("dram__bytes_read.sum") == pytest.approx(2.10e6)
    assert k.metric("dram__bytes_write.sum") == 0.0
    # "Memory Throughput" twice: a percent in Speed Of Light, bytes/s in Memory Workload Analysis.
    assert k.metric(SOL_MEMORY_PCT) == pytest.approx(21.79)
    assert k.metric(DRAM_BYTES_PER_S) == pytest.approx(9.60e9)
    assert k.metric(SOL_SM_PCT) == pytest.approx(67.17)
    assert k.metric(SM_FREQ) == pytest.approx(1.98e9)
    assert k.metric(ELAPSED) == 433_757
    assert k.metric(SM_ACTIVE) == pytest.approx(413_147.02)
    assert k.metric(L1_HIT) == pytest.approx(87.96)
    assert k.metric(L2_HIT) == pytest.approx(92.78)
    assert k.metric(THEORETICAL) == 100
    assert k.metric(ACHIEVED) == pytest.approx(60.24)
    assert k.metric("launch__occupancy_limit_registers") == 8
    assert k.metric("launch__occupancy_limit_barriers") == 32
    assert k.metric(REGISTERS) == 28
    assert k.metric("launch__grid_size") == 1024
    assert k.metric("launch__shared_mem_config_size") == pytest.approx(32_770)


def test_h200_tiled_2025_layout() -> None:
    (k,) = _read(H200 / "numba-tiled.details.txt").kernels
    assert k.name == "matmul_tiled"
    assert (k.grid, k.block, k.cc) == ((32, 32, 1), (16, 16, 1), "9.0")
    assert k.metric(DURATION) == pytest.approx(47_780)
    assert k.metric(REQUESTS) == 524_288
    assert k.metric(SECTORS) == 2_097_152
    assert k.metric(SOL_MEMORY_PCT) == pytest.approx(64.58)
    assert k.metric(DRAM_BYTES_PER_S) == pytest.approx(44.01e9)
    assert k.metric(L2_HIT) == pytest.approx(96.95)
    assert k.metric(REGISTERS) == 32
    assert k.metric(ACHIEVED) == pytest.approx(81.48)


def test_pascal_2019_fixed_columns_old_labels() -> None:
    (k,) = _read(PUBLIC / "old-spelling-pascal-p40-gpu-speed-of-light-sol-fb-details.txt").kernels
    assert k.name == "vadd"
    assert k.display_name == "vadd(float const *,float const *,float*,int)"
    assert (k.grid, k.block, k.device_id, k.device_name, k.cc) == (None, None, None, None, None)
    assert k.metric(SOL_DRAM_PCT) == pytest.approx(82.65)  # SOL FB
    assert k.metric(SOL_SM_PCT) == pytest.approx(9.61)  # SM [%]
    assert k.metric(SOL_MEMORY_PCT) == pytest.approx(82.65)  # Memory [%]
    assert k.metric(SOL_L2_PCT) == pytest.approx(16.64)  # SOL L2
    assert k.metric(SOL_L1_PCT) == pytest.approx(9.61)  # SOL TEX
    assert k.metric(DRAM_FREQ) == pytest.approx(7.22e9)  # Memory Frequency, Ghz
    assert k.metric(DURATION) == pytest.approx(1.67e6)  # msecond
    assert k.metric(ELAPSED) == 2_185_842
    assert k.metric(DRAM_BYTES_PER_S) == pytest.approx(286.36e9)  # Gbyte/second
    assert k.metric(L1_HIT) == pytest.approx(33.33)  # L1 Hit Rate


def test_pascal_nan_values_are_missing_never_zero() -> None:
    (k,) = _read(PUBLIC / "old-spelling-pascal-p40-nan-values-details.txt").kernels
    assert k.name == "vadd"
    for metric in (ELAPSED, SM_FREQ, SOL_L2_PCT, SM_ACTIVE, SOL_SM_PCT, SOL_L1_PCT):
        assert metric not in k.metrics
        assert k.metric(metric) is None
    assert "gpu__compute_memory_request_throughput.avg.pct_of_peak_sustained_elapsed" not in (
        k.metrics
    )
    assert k.metric(DURATION) == pytest.approx(7.85e9)  # "second"
    assert k.metric(DRAM_FREQ) == pytest.approx(7.10e9)
    assert k.metric(SOL_DRAM_PCT) == pytest.approx(0.03)
    assert k.metric(DRAM_BYTES_PER_S) == pytest.approx(90.56e6)  # Mbyte/second
    assert k.metric(L1_HIT) == 0.0
    assert k.metric(L2_HIT) == pytest.approx(91.67)


def test_2022_two_kernels_timestamp_headers_and_old_units() -> None:
    row, col = _read(PUBLIC / "mid-spelling-2022-multikernel-rowsums-colsums-details.txt").kernels
    assert (row.name, col.name) == ("row_sums", "column_sums")
    assert row.display_name == "row_sums(const float *, float *, unsigned long)"
    assert row.grid is None and row.cc is None
    assert row.metric(DRAM_FREQ) == pytest.approx(5.96e9)  # cycle/nsecond
    assert row.metric(SM_FREQ) == pytest.approx(775.67e6)  # cycle/usecond
    assert row.metric(DURATION) == pytest.approx(11.97e6)  # msecond
    assert row.metric(SOL_SM_PCT) == pytest.approx(4.52)  # Compute (SM) [%]
    assert row.metric(SOL_MEMORY_PCT) == pytest.approx(72.28)
    assert row.metric(SM_ACTIVE) == pytest.approx(7_591_930.17)
    assert row.metric("launch__shared_mem_config_size") == pytest.approx(8_190)  # Kbyte
    assert row.metric(REGISTERS) == 20
    assert [row.metric(f"launch__occupancy_limit_{n}") for n in
            ("blocks", "registers", "shared_mem", "warps")] == [16, 10, 8, 6]
    assert row.metric(ACHIEVED) == pytest.approx(27.92)
    assert col.metric(ACHIEVED) == pytest.approx(26.63)
    assert col.metric(DURATION) == pytest.approx(3.02e6)
    assert col.metric(SOL_DRAM_PCT) == pytest.approx(92.97)
    assert col.metric(REGISTERS) == 22


def test_2022_command_line_metrics_label_is_the_metric_name() -> None:
    row, col = _read(PUBLIC / "mid-2022-raw-metrics-l1tex-requests-sectors-rowsums-colsums.txt"
                     ).kernels
    assert (row.name, col.name) == ("row_sums", "column_sums")
    assert row.metrics == {REQUESTS: 8_388_608, SECTORS: 268_427_291}
    assert col.metrics == {REQUESTS: 8_388_608, SECTORS: 33_554_432}


def test_2025_file_without_header_is_one_kernel_named_after_the_file() -> None:
    path = PUBLIC / "new-2025-details-text-compact-columns-rules-copy-blocked.txt"
    (k,) = _read(path).kernels
    assert k.display_name == path.stem
    assert k.name == path.stem
    assert (k.grid, k.block, k.device_id, k.device_name, k.cc) == (None, None, None, None, None)
    assert k.metric(SM_FREQ) == pytest.approx(585e6)  # Mhz
    assert k.metric(DRAM_FREQ) == pytest.approx(5.01e9)
    assert k.metric(DURATION) == pytest.approx(20.85e6)  # ms
    assert k.metric(SM_ACTIVE) == pytest.approx(12_168_381.57)
    assert k.metric(SOL_MEMORY_PCT) == pytest.approx(61.71)
    assert k.metric(DRAM_BYTES_PER_S) == pytest.approx(197.74e9)
    assert k.metric("launch__waves_per_multiprocessor") == pytest.approx(6.40)
    assert k.metric("launch__occupancy_limit_warps") == 4
    assert k.metric(ACHIEVED) == pytest.approx(96.54)


def test_2025_three_kernels_in_launch_order() -> None:
    kernels = _read(PUBLIC / "new-2025-details-3mm-multikernel-cc86.txt").kernels
    assert [k.name for k in kernels] == ["mm3_kernel1", "mm3_kernel2", "mm3_kernel3"]
    for k in kernels:
        assert (k.grid, k.block, k.device_id, k.cc) == ((16, 64, 1), (32, 8, 1), 0, "8.6")
        assert k.display_name.startswith(k.name + "(int, int, int, int, int, float *")
    first, second, third = kernels
    assert first.metric(ELAPSED) == 1_889_959
    assert first.metric(SOL_MEMORY_PCT) == pytest.approx(66.86)
    assert first.metric(ACHIEVED) == pytest.approx(98.19)
    assert second.metric(SOL_MEMORY_PCT) == pytest.approx(67.88)
    assert second.metric(ELAPSED) == 1_857_875
    assert third.metric(SOL_MEMORY_PCT) == pytest.approx(66.94)
    assert third.metric(DURATION) == pytest.approx(2.57e6)
    assert third.metric(DRAM_BYTES_PER_S) == pytest.approx(1.24e9)
    assert third.metric(L2_HIT) == pytest.approx(99.58)
    assert third.metric(ACHIEVED) == pytest.approx(98.26)


def test_2025_gemm_single_kernel() -> None:
    (k,) = _read(PUBLIC / "new-2025-details-naive-gemm-single-kernel-cc86.txt").kernels
    assert k.name == "gemm_kernel"
    assert k.display_name == "gemm_kernel(int, int, int, float, float, float *, float *, float *)"
    assert k.metric(SOL_MEMORY_PCT) == pytest.approx(67.65)
    assert k.metric(DRAM_BYTES_PER_S) == pytest.approx(1.78e9)
    assert k.metric("launch__thread_count") == 262_144
    assert k.metric("launch__occupancy_limit_registers") == 10
    assert k.metric(ACHIEVED) == pytest.approx(97.66)


def test_readme_comma_locale_and_per_kernel_summary() -> None:
    path = PUBLIC / "old-gen-2023-locale-comma-decimal-and-print-summary-per-kernel-readme.md"
    details, summary = _read(path).kernels
    assert details.name == summary.name == "transpose_device"
    assert details.display_name == "transpose_device(float *, float *, int, int)"
    # ncu --print-summary none, comma-decimal locale: "6,72", "13.490.336", "9.420.231,80".
    assert details.grid is None
    assert details.metric(DRAM_FREQ) == pytest.approx(6.72e9)
    assert details.metric(SM_FREQ) == pytest.approx(1.35e9)
    assert details.metric(ELAPSED) == 13_490_336
    assert details.metric(SM_ACTIVE) == pytest.approx(9_420_231.80)
    assert details.metric(SOL_MEMORY_PCT) == pytest.approx(44.19)
    assert details.metric(DURATION) == pytest.approx(9.97e6)
    assert details.metric(SOL_SM_PCT) == pytest.approx(4.17)
    # ncu --print-summary per-kernel: raw metric names, the Average column, 1-D sizes.
    assert (summary.block, summary.grid, summary.device_id, summary.cc) == (
        (256, 1, 1), (32, 1, 1), 0, None)
    assert summary.metric(DRAM_FREQ) == pytest.approx(6.701347e9)
    assert summary.metric(ELAPSED) == 13_479_154
    assert summary.metric(DURATION) == pytest.approx(9_989_888)
    assert summary.metric(SOL_MEMORY_PCT) == pytest.approx(44.233118)
    assert summary.metric(SM_ACTIVE) == pytest.approx(9_440_141.7)
    assert summary.metric(SOL_SM_PCT) == pytest.approx(4.181825)


# ---------------------------------------------------------------- ncu options, inline


PRINT_UNITS_BASE = NAIVE_HEADER + """\
    Section: GPU Speed Of Light Throughput
    ----------------------- ----------- ----------------
    Metric Name             Metric Unit     Metric Value
    ----------------------- ----------- ----------------
    DRAM Frequency                   hz 3,199,303,933.02
    SM Frequency                     hz 1,978,164,245.04
    Elapsed Cycles                cycle          433,757
    Memory Throughput                 %            21.79
    Duration                         ns          219,136
    ----------------------- ----------- ----------------

    Section: Memory Workload Analysis
    -------------------------------------- ----------- ----------------
    Metric Name                            Metric Unit     Metric Value
    -------------------------------------- ----------- ----------------
    Memory Throughput                           byte/s 9,601,635,514.02
    L2 Hit Rate                                      %            92.78
    -------------------------------------- ----------- ----------------

    Section: Launch Statistics
    -------------------------------- --------------- ---------------
    Metric Name                          Metric Unit    Metric Value
    -------------------------------- --------------- ---------------
    Function Cache Configuration                     CachePreferNone
    Shared Memory Configuration Size            byte          32,768
    -------------------------------- --------------- ---------------
"""


def test_print_units_base(tmp_path: Path) -> None:
    (k,) = _read(_write(tmp_path, PRINT_UNITS_BASE)).kernels
    assert k.metric(DURATION) == 219_136
    assert k.metric(DRAM_FREQ) == pytest.approx(3_199_303_933.02)
    assert k.metric(SM_FREQ) == pytest.approx(1_978_164_245.04)
    assert k.metric(SOL_MEMORY_PCT) == pytest.approx(21.79)
    assert k.metric(DRAM_BYTES_PER_S) == pytest.approx(9_601_635_514.02)
    assert k.metric("launch__shared_mem_config_size") == 32_768


PRINT_METRIC_NAME = NAIVE_HEADER + """\
    Section: GPU Speed Of Light Throughput
    ---------------------------------------------------------------- ----------- ------------
    Metric Name                                                      Metric Unit Metric Value
    ---------------------------------------------------------------- ----------- ------------
    dram__cycles_elapsed.avg.per_second                                      Ghz         3.20
    gpc__cycles_elapsed.max                                                cycle      433,757
    gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed           %        21.79
    gpu__time_duration.sum                                                    us       219.14
    sm__throughput.avg.pct_of_peak_sustained_elapsed                           %        67.17
    ---------------------------------------------------------------- ----------- ------------

    Section: Memory Workload Analysis
    --------------------------------------- ----------- ------------
    Metric Name                             Metric Unit Metric Value
    --------------------------------------- ----------- ------------
    derived__local_spilling_requests                               0
    dram__bytes.sum.per_second                  Gbyte/s         9.60
    lts__t_sector_hit_rate.pct                        %        92.78
    --------------------------------------- ----------- ------------
"""


def test_print_metric_name_name(tmp_path: Path) -> None:
    (k,) = _read(_write(tmp_path, PRINT_METRIC_NAME)).kernels
    assert k.metric(DURATION) == pytest.approx(219_140)
    assert k.metric(DRAM_FREQ) == pytest.approx(3.20e9)
    assert k.metric(ELAPSED) == 433_757
    assert k.metric(SOL_MEMORY_PCT) == pytest.approx(21.79)
    assert k.metric(SOL_SM_PCT) == pytest.approx(67.17)
    assert k.metric(DRAM_BYTES_PER_S) == pytest.approx(9.60e9)
    assert k.metric(L2_HIT) == pytest.approx(92.78)
    assert k.metric("derived__local_spilling_requests") == 0.0


PRINT_METRIC_NAME_LABEL_NAME = NAIVE_HEADER + """\
    Section: Memory Workload Analysis
    ---------------------------------------------------------------- ----------- ------------
    Metric Name                                                      Metric Unit Metric Value
    ---------------------------------------------------------------- ----------- ------------
    Memory Throughput (dram__bytes.sum.per_second)                       Gbyte/s         9.60
    L1/TEX Hit Rate (l1tex__t_sector_hit_rate.pct)                             %        87.96
    L2 Persisting Size (launch__persisting_l2_cache_size)                  Mbyte        11.80
    ---------------------------------------------------------------- ----------- ------------

    Section: Launch Statistics
    ---------------------------------------------------------------- --------------- ------------
    Metric Name                                                          Metric Unit Metric Value
    ---------------------------------------------------------------- --------------- ------------
    # SMs (launch__sm_count)                                                      SM          132
    Registers Per Thread (launch__registers_per_thread)              register/thread           28
    ---------------------------------------------------------------- --------------- ------------
"""


def test_print_metric_name_label_name(tmp_path: Path) -> None:
    (k,) = _read(_write(tmp_path, PRINT_METRIC_NAME_LABEL_NAME)).kernels
    assert k.metric(DRAM_BYTES_PER_S) == pytest.approx(9.60e9)
    assert k.metric(L1_HIT) == pytest.approx(87.96)
    assert k.metric("launch__persisting_l2_cache_size") == pytest.approx(11.80e6)
    assert k.metric("launch__sm_count") == 132
    assert k.metric(REGISTERS) == 28


PRINT_SUMMARY_PER_KERNEL_2025 = f"""\
[1986] python3.12@127.0.0.1
  {NAIVE_NAME} (32, 32, 1)x(16, 16, 1), Device 0, CC 9.0, Invocations 1
    Section: Command line profiler metrics
    ----------------------------------------------- ----------- ------------- ------------- -------------
    Metric Name                                     Metric Unit       Minimum       Maximum       Average
    ----------------------------------------------- ----------- ------------- ------------- -------------
    dram__bytes_write.sum                                  byte          0.00          0.00          0.00
    l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum       sector 16,777,216.00 16,777,216.00 16,777,216.00
    ----------------------------------------------- ----------- ------------- ------------- -------------

    Section: GPU Speed Of Light Throughput
    ----------------------- ----------- ---------- ---------- ----------
    Metric Name             Metric Unit    Minimum    Maximum    Average
    ----------------------- ----------- ---------- ---------- ----------
    Elapsed Cycles                cycle 433,757.00 433,757.00 433,757.00
    Memory Throughput                 %      21.79      21.79      21.79
    Duration                         us     219.14     219.14     219.14
    ----------------------- ----------- ---------- ---------- ----------
"""  # noqa: E501


def test_print_summary_per_kernel_2025(tmp_path: Path) -> None:
    (k,) = _read(_write(tmp_path, PRINT_SUMMARY_PER_KERNEL_2025)).kernels
    assert k.display_name == NAIVE_NAME
    assert (k.grid, k.block, k.device_id, k.device_name, k.cc) == (
        (32, 32, 1), (16, 16, 1), 0, None, "9.0")
    assert k.metric(SECTORS) == 16_777_216
    assert k.metric("dram__bytes_write.sum") == 0.0
    assert k.metric(ELAPSED) == 433_757
    assert k.metric(SOL_MEMORY_PCT) == pytest.approx(21.79)
    assert k.metric(DURATION) == pytest.approx(219_140)


PRINT_DETAILS_ALL = NAIVE_HEADER + """\
    Section: GPU Speed Of Light Throughput
    ----------------------- ----------- ------------
    Metric Name             Metric Unit Metric Value
    ----------------------- ----------- ------------
    Memory Throughput                 %        21.79
    Duration                         us       219.14
    Waves Per SM                                0.97
    Compute (SM) Throughput           %        67.17
    ----------------------- ----------- ------------

    GPU Throughput Chart
    Table Name : GPU Throughput
    ---------------- ----------- ------------
    Metric Name      Metric Unit Metric Value
    ---------------- ----------- ------------
    Memory [%]                 %        21.79
    Compute (SM) [%]           %        67.17
    ---------------- ----------- ------------

    Section: Memory Workload Analysis Tables
    Table Name : Shared Memory
    ---------------------------------------------------- ----------- ------------
    Metric Name                                          Metric Unit Metric Value
    ---------------------------------------------------- ----------- ------------
    l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum                        0
    smsp__sass_inst_executed_op_shared_ld.sum                   inst            0
    ---------------------------------------------------- ----------- ------------

    Table Name : L1/TEX Cache
    --------------------------- ----------- ------------
    Metric Name                 Metric Unit Metric Value
    --------------------------- ----------- ------------
    ctc__rx_bytes_data_user.sum                  (!) n/a
    --------------------------- ----------- ------------

    Section: Warp State Statistics
    OPT   Est. Local Speedup: 37.23%
          On average, each warp of this workload spends 5.1 cycles being stalled waiting for
    ----- ------------------------------------------------------------------------------------
    OPT   Est. Local Speedup: 34.95%
          On average, each warp of this workload spends 4.8 cycles being stalled waiting for

    Section: Instruction Statistics
    Opcode Charts
    Table Name : Executed Instruction Mix
    ------------------------------ ----------- ------------------------------
    Metric Name                    Metric Unit                   Metric Value
    ------------------------------ ----------- ------------------------------
    sass__inst_executed_per_opcode                   153,894,912 (27,344,896;
                                                      24,223,744; 16,801,792;
                                                        16,384; 8,192; 8,192)
    ------------------------------ ----------- ------------------------------

    Section: NUMA Affinity
    -------------------------- ----------- ---------------
    Metric Name                Metric Unit    Metric Value
    -------------------------- ----------- ---------------
    numa__cpu_affinity                            1 (0-15)
    -------------------------- ----------- ---------------

    Table Name : NUMA Affinity
    ------ ----------- ----------------------- ------------ --------------------------
    GPU ID GPU Name    NUMA ID by CPU Affinity CPU Affinity NUMA ID by Memory Affinity
    ------ ----------- ----------------------- ------------ --------------------------
         0 NVIDIA H200                       0         0-15                          0
    ------ ----------- ----------------------- ------------ --------------------------

    Section: Launch Statistics
    -------------------------------- --------------- ---------------
    Metric Name                          Metric Unit    Metric Value
    -------------------------------- --------------- ---------------
    Registers Per Thread             register/thread              28
    Theoretical Occupancy                          %             100
    -------------------------------- --------------- ---------------

    Section: Occupancy
    % Occupancy Graphs
    Table Name : Impact of Varying Register Count Per Thread
    ----------------------------------------- --------------- ------------------------------
    Metric Name                                   Metric Unit                   Metric Value
    ----------------------------------------- --------------- ------------------------------
    derived__pct_occupancy_per_register_count      %/register     8,524 (100; 100; 100; 100;
                                                                             12; 12; 12; 12)
    launch__registers_per_thread              register/thread                             28
    ----------------------------------------- --------------- ------------------------------
"""


def test_print_details_all_body_tables(tmp_path: Path) -> None:
    (k,) = _read(_write(tmp_path, PRINT_DETAILS_ALL)).kernels
    assert k.metric(SOL_MEMORY_PCT) == pytest.approx(21.79)
    assert k.metric(SOL_SM_PCT) == pytest.approx(67.17)
    assert k.metric(DURATION) == pytest.approx(219_140)
    assert k.metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 0.0
    assert k.metric("smsp__sass_inst_executed_op_shared_ld.sum") == 0.0
    assert k.metric(REGISTERS) == 28
    # Flagged, list-valued and text cells are not numbers: missing, not their first digits.
    for metric in ("ctc__rx_bytes_data_user.sum", "sass__inst_executed_per_opcode",
                   "numa__cpu_affinity", "derived__pct_occupancy_per_register_count"):
        assert metric not in k.metrics


def test_first_available_value_of_a_repeated_metric_wins(tmp_path: Path) -> None:
    text = NAIVE_HEADER + """\
    Section: Command line profiler metrics
    ----------------------- ----------- ------------
    Metric Name             Metric Unit Metric Value
    ----------------------- ----------- ------------
    gpu__time_duration.sum           us      (!) nan
    gpc__cycles_elapsed.max       cycle      433,757
    ----------------------- ----------- ------------

    Section: GPU Speed Of Light Throughput
    -------------- ----------- ------------
    Metric Name    Metric Unit Metric Value
    -------------- ----------- ------------
    Elapsed Cycles       cycle      999,999
    Duration                us       219.14
    -------------- ----------- ------------
"""
    (k,) = _read(_write(tmp_path, text)).kernels
    assert k.metric(ELAPSED) == 433_757
    assert k.metric(DURATION) == pytest.approx(219_140)


def test_fixed_width_row_with_a_label_wider_than_its_column(tmp_path: Path) -> None:
    text = """\
  vadd(float const *,float const *,float*,int), 2022-Jun-02 19:23:13, Context 1, Stream 7
    Section: GPU Speed Of Light
    ---------------------------------------------------------------------- --------------- ------------------------------
    Duration                                                                       msecond                           1.67
    l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss_of_a_long_name.sum          sector                      1,991,786
    ---------------------------------------------------------------------- --------------- ------------------------------
"""  # noqa: E501
    (k,) = _read(_write(tmp_path, text)).kernels
    assert k.metric(DURATION) == pytest.approx(1.67e6)
    long_name = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss_of_a_long_name.sum"
    assert k.metric(long_name) == 1_991_786


def test_several_processes_and_program_output_between_them(tmp_path: Path) -> None:
    naive = (H200 / "numba-naive.details.txt").read_text(encoding="utf-8")
    tiled = (H200 / "numba-tiled.details.txt").read_text(encoding="utf-8")
    text = (
        "==PROF== Connected to process 1986 (/usr/bin/python3.12)\n"
        "==PROF== Profiling \"matmul_naive\" - 0: 0%....50%....100%result ok\n"
        " - 38 passes\n==WARNING== Found outstanding GPU clock reset.\n"
        + naive + "elapsed 0.12 s\n" + tiled
    )
    naive_k, tiled_k = _read(_write(tmp_path, text)).kernels
    assert (naive_k.name, tiled_k.name) == ("matmul_naive", "matmul_tiled")
    assert naive_k.metric(SECTORS) == 16_777_216
    assert tiled_k.metric(SECTORS) == 2_097_152


def test_a_utf16_export_is_refused_as_sniff_refuses_it(tmp_path: Path) -> None:
    """PowerShell 5's `>` writes UTF-16; ncu writes UTF-8. The reader says what to do, as sniff
    does, rather than reading a format read_report never hands it."""
    path = tmp_path / "naive-utf16.txt"
    path.write_text((H200 / "numba-naive.details.txt").read_text(encoding="utf-8"),
                    encoding="utf-16")
    assert _error(path) == f"{path}: {UTF16_REASON}"


# ---------------------------------------------------------------- bad input


def _error(path: Path) -> str:
    with pytest.raises(ReportError) as info:
        details_text.read(path)
    message = str(info.value)
    assert str(path) in message
    assert "\n" not in message
    return message


def test_empty_file(tmp_path: Path) -> None:
    assert "empty" in _error(_write(tmp_path, "", "empty.txt"))


def test_prose_has_no_kernel(tmp_path: Path) -> None:
    path = _write(tmp_path, "Speed of light first, then the memory chart.\n" * 20, "notes.txt")
    assert "no kernel" in _error(path)


def test_ncu_error_text_is_reported(tmp_path: Path) -> None:
    text = (
        "==ERROR== Could not open report file 'nonexist.ncu-rep'.\n"
        "==ERROR== The file does not exist or is not a regular file.\n"
    )
    path = _write(tmp_path, text, "ncu-failed.txt")
    assert details_text.looks_like(text)
    message = _error(path)
    assert "Could not open report file 'nonexist.ncu-rep'." in message
    assert "does not exist" in message


def test_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "report.ncu-rep"
    path.write_bytes(bytes(range(256)) * 64)
    assert "binary" in _error(path)


def test_missing_file_and_directory(tmp_path: Path) -> None:
    _error(tmp_path / "absent.txt")
    _error(tmp_path)


@pytest.mark.parametrize("path", CSV_EXPORTS[:2], ids=lambda p: p.name)
def test_csv_export_given_to_this_reader(path: Path) -> None:
    _error(path)


def test_truncated_export_keeps_what_was_complete(tmp_path: Path) -> None:
    text = (H200 / "numba-naive.details.txt").read_text(encoding="utf-8")
    cut = text.index("    Mem Busy")
    (k,) = _read(_write(tmp_path, text[: cut + 20])).kernels
    assert k.metric(DRAM_BYTES_PER_S) == pytest.approx(9.60e9)
    assert k.metric(L2_HIT) is None


_CORPUS_LINES = [
    line for path in TEXT_EXPORTS for line in path.read_text(encoding="utf-8").splitlines()
]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(0, 300), cut=st.integers(0, 80))
def test_shuffled_real_lines_give_a_report_or_a_report_error(seed: int, count: int, cut: int
                                                             ) -> None:
    rng = random.Random(seed)
    lines = [rng.choice(_CORPUS_LINES) for _ in range(count)]
    if lines and cut:
        lines[-1] = lines[-1][:cut]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "shuffled.txt"
        path.write_text("\n".join(lines), encoding="utf-8")
        try:
            report = details_text.read(path)
        except ReportError as exc:
            assert "\n" not in str(exc) and str(path) in str(exc)
        else:
            assert report.kernels


@pytest.mark.slow
def test_a_large_export_reads_whole(tmp_path: Path) -> None:
    one = (H200 / "numba-naive.details.txt").read_text(encoding="utf-8")
    copies = 30_000_000 // len(one)
    path = _write(tmp_path, one * copies, "large.txt")
    report = details_text.read(path)
    assert len(report.kernels) == copies
    assert report.kernels[-1].metric(SECTORS) == 16_777_216


def test_one_endless_line_is_refused_by_the_line_cap(tmp_path: Path) -> None:
    path = _write(tmp_path, "x" * 5_000_000, "endless.txt")
    assert _error(path).endswith(
        "no kernel found: not an ncu details text export (it holds a line longer than 1 MiB,"
        " which no ncu export prints)")


def test_an_overlong_line_is_passed_over_whole(tmp_path: Path) -> None:
    """Program output of 1 MiB and more inside a section: none of it is read as a line, not even
    the 'Section:' text past its first MiB (read as a line, it would move the Memory Workload
    rows into Launch Statistics, where their labels mean nothing)."""
    text = (H200 / "numba-naive.details.txt").read_text(encoding="utf-8")
    marker = "    Section: Memory Workload Analysis\n"
    cut = text.index(marker) + len(marker)
    fake = "y" * (1 << 20) + "    Section: Launch Statistics"
    (k,) = _read(_write(tmp_path, text[:cut] + fake + "\n" + text[cut:], "noisy.txt")).kernels
    assert k.metric(SECTORS) == 16_777_216
    assert k.metric(DRAM_BYTES_PER_S) == pytest.approx(9.60e9)


# ----------------------------------------------------------------- every row, cut short


def numeric_rows(path: Path) -> dict[tuple[str, str], tuple[str, str]]:
    """(section, label) -> (unit, value) of every row of a 2025 details text export whose
    value is a number, its cells cut where the dashed rule above the title row has its gaps."""
    import re

    rows: dict[tuple[str, str], tuple[str, str]] = {}
    section, spans, in_table = "", [(0, 0)], False
    previous = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        s = line.strip()
        if s.startswith("Section: "):
            section, in_table = s[len("Section: "):], False
        elif s.startswith("Metric Name") and previous.strip().startswith("---"):
            spans = [m.span() for m in re.finditer("-+", previous)]
        elif s.startswith("---"):
            in_table = len(spans) == 3 and previous.strip().startswith("Metric Name")
        elif not s:
            in_table = False
        elif in_table:
            (a, _), (b, c), (d, _) = spans
            label, unit, value = line[a:b].strip(), line[b:c].strip(), line[d:].strip()
            if value[:1].isdigit():
                rows.setdefault((section, label), (unit, value))
        previous = line
    return rows


def test_every_section_and_unit_of_a_details_export_is_read() -> None:
    """Before, rows whose label the app's table does not name were dropped (38 of 88) and no
    unit was kept: Scheduler, Warp State and Compute Workload sections were missing."""
    path = H200 / "numba-naive.details.txt"
    expected = numeric_rows(path)
    [kernel] = details_text.read(path).kernels
    printed = {(p.section, p.label): p.unit for p in kernel.printed.values()}
    assert printed == {key: unit for key, (unit, _) in expected.items()}
    assert len(kernel.metrics) == len(expected)
    sections = {p.section for p in kernel.printed.values()}
    assert {"Scheduler Statistics", "Warp State Statistics",
            "Compute Workload Analysis"} <= sections


def test_rows_read_by_name_agree_with_the_ncu_rep() -> None:
    from viewer.core.units import unit_scale
    from viewer.readers import ncu_rep

    path = H200 / "numba-naive.details.txt"
    [kernel] = details_text.read(path).kernels
    exact = ncu_rep.read(H200 / "numba-naive.ncu-rep", names=None).kernels[0]
    shown = numeric_rows(path)
    compared = 0
    for name, p in kernel.printed.items():
        if name not in exact.metrics or p.section is None or p.label is None:
            continue
        unit, value = shown[(p.section, p.label)]
        decimals = value.replace(",", "").partition(".")[2]
        step = 0.5 * 10.0 ** -len(decimals) * unit_scale(unit)[0] * 1.000001
        assert kernel.metrics[name] == pytest.approx(exact.metrics[name], abs=step), name
        compared += 1
    assert compared >= 30


def test_a_whole_export_has_no_note() -> None:
    assert details_text.read(H200 / "numba-naive.details.txt").notes == []


def test_an_export_cut_inside_a_table_says_it_looks_cut_short(tmp_path: Path) -> None:
    lines = (H200 / "numba-naive.details.txt").read_text(encoding="utf-8").splitlines(True)
    last_table = max(i for i, line in enumerate(lines) if line.strip().startswith("Metric Name"))
    cut = tmp_path / "cut.details.txt"
    cut.write_text("".join(lines[:last_table + 4]), encoding="utf-8")
    report = details_text.read(cut)
    assert len(report.kernels) == 1
    assert report.notes == ["the file looks cut short (its last table has no closing rule): "
                            "the last kernel's values may be incomplete"]


def test_an_export_cut_mid_line_says_so(tmp_path: Path) -> None:
    text = (H200 / "numba-naive.details.txt").read_text(encoding="utf-8")
    cut = tmp_path / "cut.details.txt"
    cut.write_text(text[: len(text) // 2].rstrip("\n"), encoding="utf-8")
    report = details_text.read(cut)
    assert len(report.kernels) == 1
    assert report.notes and "its last line has no newline" in report.notes[0]
