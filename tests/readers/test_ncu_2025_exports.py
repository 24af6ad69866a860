"""ncu 2025.3.1's own export options, applied to one real report, all read to the same values."""

from __future__ import annotations

from pathlib import Path

import pytest

from viewer.core.metrics import SUMMARY_METRICS
from viewer.core.model import ReportError
from viewer.readers import read_report

DATA = Path(__file__).resolve().parents[1] / "data" / "ncu-2025.3.1"
REPORT = Path(__file__).resolve().parents[1] / "data" / "corpus" / "h200" / "numba-naive.ncu-rep"
M = SUMMARY_METRICS

EXPORTS = ["numba-naive.base.txt", "numba-naive.name.txt", "numba-naive.labelname.txt",
           "numba-naive.summary.txt", "numba-naive.all.txt"]


@pytest.fixture(scope="module")
def report_kernel():
    return read_report(REPORT).kernels[0]


@pytest.mark.parametrize("name", EXPORTS)
def test_every_export_option_reads_the_same_kernel(name: str, report_kernel) -> None:
    (kernel,) = read_report(DATA / name).kernels
    assert kernel.name == "matmul_naive"
    assert (kernel.grid, kernel.block, kernel.cc) == ((32, 32, 1), (16, 16, 1), "9.0")
    assert kernel.metric(M["global_load_requests"]) == 8_388_608
    assert kernel.metric(M["global_load_sectors"]) == 16_777_216
    # Printed to two decimals in us (or in full ns with --print-units base): 219,136 ns.
    assert kernel.metric(M["duration_ns"]) == pytest.approx(219_136, abs=5)
    for key in ("compute_sm_throughput_pct", "memory_throughput_pct", "dram_throughput_pct"):
        assert kernel.metric(M[key]) == pytest.approx(report_kernel.metric(M[key]), abs=0.006)


def test_base_units_keep_full_digits() -> None:
    (kernel,) = read_report(DATA / "numba-naive.base.txt").kernels
    assert kernel.metric(M["duration_ns"]) == 219_136


def test_print_details_all_still_reads_occupancy(report_kernel) -> None:
    (kernel,) = read_report(DATA / "numba-naive.all.txt").kernels
    for key in ("theoretical_occupancy_pct", "achieved_occupancy_pct", "block_limit_registers",
                "block_limit_warps", "registers_per_thread"):
        assert kernel.metric(M[key]) == pytest.approx(report_kernel.metric(M[key]), abs=0.006)


@pytest.mark.parametrize(("name", "quoted"), [
    ("err1.txt", "Could not open report file"),
    ("err2.txt", "is not an Nsight Compute profiler report"),
])
def test_ncus_own_error_text_is_quoted(name: str, quoted: str) -> None:
    with pytest.raises(ReportError) as caught:
        read_report(DATA / name)
    message = str(caught.value)
    assert "\n" not in message and name in message and quoted in message
