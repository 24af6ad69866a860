"""One label table: a label means something only together with its section."""

from __future__ import annotations

import pytest

from viewer.metrics import KNOWN_METRICS, SUMMARY_KEYS, SUMMARY_METRICS, is_metric_name, resolve

SOL_PCT = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"


def test_memory_throughput_means_two_things() -> None:
    assert resolve("GPU Speed Of Light Throughput", "Memory Throughput") == SOL_PCT
    assert resolve("Memory Workload Analysis", "Memory Throughput") == "dram__bytes.sum.per_second"


@pytest.mark.parametrize("label", ["Compute (SM) Throughput", "Compute (SM) [%]", "SM [%]"])
def test_compute_row_across_generations(label: str) -> None:
    for section in ("GPU Speed Of Light Throughput", "GPU Speed Of Light", "SpeedOfLight"):
        assert resolve(section, label) == "sm__throughput.avg.pct_of_peak_sustained_elapsed"


def test_old_spellings() -> None:
    assert resolve("GPU Speed Of Light", "SOL FB") == (
        "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed")
    assert resolve("GPU Speed Of Light", "Memory [%]") == SOL_PCT
    assert resolve("Memory Workload Analysis", "L1 Hit Rate") == "l1tex__t_sector_hit_rate.pct"


def test_a_label_outside_its_section_is_unknown() -> None:
    assert resolve("Occupancy", "Memory Throughput") is None
    assert resolve("Some Other Section", "Duration") is None


def test_metric_names_resolve_to_themselves_anywhere() -> None:
    name = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
    assert is_metric_name(name)
    assert resolve("Command line profiler metrics", name) == name
    assert resolve("Anything", name) == name
    assert not is_metric_name("Memory Throughput")


def test_summary_keys_are_the_contract() -> None:
    assert SUMMARY_KEYS == (
        "compute_sm_throughput_pct", "memory_throughput_pct", "dram_throughput_pct",
        "duration_ns", "l1tex_throughput_pct", "l2_throughput_pct", "global_load_requests",
        "global_load_sectors", "sectors_per_request", "shared_load_instructions",
        "l2_read_sectors_from_l1", "l1tex_hit_rate_pct", "l2_hit_rate_pct", "dram_bytes_read",
        "dram_bytes_write", "dram_bandwidth_bytes_per_s", "theoretical_occupancy_pct",
        "achieved_occupancy_pct", "block_limit_sm", "block_limit_registers",
        "block_limit_shared_mem", "block_limit_warps", "registers_per_thread")
    assert set(SUMMARY_METRICS.values()) <= KNOWN_METRICS
