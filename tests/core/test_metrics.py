"""One label table: a label means something only together with its section."""

from __future__ import annotations

import pytest

from viewer.core.metrics import (
    BARRIER_LIMIT,
    BLOCK_LIMITS,
    KNOWN_METRICS,
    LABELS,
    SUMMARY_KEYS,
    SUMMARY_METRICS,
    is_metric_name,
    label,
    resolve,
    row_label,
    row_words,
    unit,
)

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


@pytest.mark.parametrize(("metric", "today"), [
    ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "Compute (SM) Throughput"),
    ("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "Memory Throughput"),
    ("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", "DRAM Throughput"),
    ("dram__cycles_elapsed.avg.per_second", "DRAM Frequency"),
    ("l1tex__t_sector_hit_rate.pct", "L1/TEX Hit Rate"),
    ("launch__waves_per_multiprocessor", "Waves Per SM"),
])
def test_a_metric_is_labelled_with_todays_spelling(metric: str, today: str) -> None:
    assert label(metric) == today


def test_todays_label_is_printed_in_the_same_section_as_the_older_ones() -> None:
    for (section, text), metric in LABELS.items():
        assert LABELS.get((section, label(metric))) == metric, (section, text)
    with pytest.raises(KeyError):
        label("not__a_metric")


def test_block_limits_in_the_order_ncu_prints_them() -> None:
    assert [label(m) for m in BLOCK_LIMITS] == [
        "Block Limit SM", "Block Limit Registers", "Block Limit Shared Mem",
        "Block Limit Warps", "Block Limit Barriers"]
    assert BARRIER_LIMIT == BLOCK_LIMITS[-1] == "launch__occupancy_limit_barriers"


def test_every_summary_value_has_a_unit_and_a_label() -> None:
    for key in SUMMARY_KEYS:
        assert unit(key) and row_label(key)
    assert unit("achieved_occupancy_pct") == "%" and unit("duration_ns") == "ns"
    assert unit("sectors_per_request") == "sector/request"
    assert row_label("l2_hit_rate_pct") == "L2 Hit Rate"  # the report's own label
    assert row_label("dram_bandwidth_bytes_per_s") == "Memory Throughput"
    assert row_label("global_load_sectors") == "Sectors moved (global loads)"  # the lesson's
    with pytest.raises(KeyError):
        unit("made_up_pct")


@pytest.mark.parametrize(("key", "words"), [
    ("global_load_sectors", "Sectors moved (global loads)"),  # a summary key
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "Sectors moved (global loads)"),
    ("lts__t_sector_hit_rate.pct", "L2 Hit Rate"),  # a section's row
    ("launch__waves_per_multiprocessor", "Waves Per SM"),
    ("dram__bytes.sum", "DRAM bytes moved"),  # the memory chart's DRAM box
    ("smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
     "Warps stalled at a barrier, per issued instruction"),  # Occupancy's own row
    ("smsp__made_up.sum", None),
])
def test_a_row_is_named_as_the_app_labels_it(key: str, words: str | None) -> None:
    assert row_words(key) == words
