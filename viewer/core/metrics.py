"""The one table that turns a (section, label) pair from an export into an ncu metric name.

A label means something only together with its section: "Memory Throughput" is a percent in
GPU Speed Of Light Throughput and bytes/s in Memory Workload Analysis. Older ncu generations spell
the same rows differently ("SM [%]", "Compute (SM) [%]", "Compute (SM) Throughput"; "SOL FB" for
DRAM Throughput; "L1 Hit Rate" for L1/TEX Hit Rate). Everything else in the app uses metric names,
and writes a metric's name for people with `label(metric)` (today's spelling) or a summary value's
with `row_label(key)`, so every label the app shows is spelled here once.
"""

from __future__ import annotations

import re

from viewer.core import units

# Section names as printed, across generations, mapped to one canonical section key.
SECTION_ALIASES: dict[str, str] = {
    "gpu speed of light throughput": "sol",
    "gpu speed of light": "sol",
    "speedoflight": "sol",
    "memory workload analysis": "memory",
    "memoryworkloadanalysis": "memory",
    "memory workload analysis tables": "memory",
    "memoryworkloadanalysis_tables": "memory",
    "occupancy": "occupancy",
    "launch statistics": "launch",
    "launchstats": "launch",
    "launchstatistics": "launch",
    "command line profiler metrics": "metrics",
    "compute workload analysis": "compute",
    "computeworkloadanalysis": "compute",
}

SOL = "sol"
MEMORY = "memory"
OCCUPANCY = "occupancy"
LAUNCH = "launch"

# (canonical section, label as printed) -> ncu metric name. Today's spelling of a metric comes
# first; older spellings of the same metric follow it (label() relies on that order).
LABELS: dict[tuple[str, str], str] = {
    # GPU Speed Of Light Throughput
    (SOL, "Compute (SM) Throughput"): "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    (SOL, "Compute (SM) [%]"): "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    (SOL, "SM [%]"): "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    (SOL, "Memory Throughput"): "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    (SOL, "Memory [%]"): "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    (SOL, "DRAM Throughput"): "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
    (SOL, "SOL FB"): "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
    (SOL, "L1/TEX Cache Throughput"): "l1tex__throughput.avg.pct_of_peak_sustained_active",
    (SOL, "SOL TEX"): "l1tex__throughput.avg.pct_of_peak_sustained_active",
    (SOL, "L2 Cache Throughput"): "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    (SOL, "SOL L2"): "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    (SOL, "Duration"): "gpu__time_duration.sum",
    (SOL, "Elapsed Cycles"): "gpc__cycles_elapsed.max",
    (SOL, "SM Active Cycles"): "sm__cycles_active.avg",
    (SOL, "SM Frequency"): "gpc__cycles_elapsed.avg.per_second",
    (SOL, "DRAM Frequency"): "dram__cycles_elapsed.avg.per_second",
    (SOL, "Memory Frequency"): "dram__cycles_elapsed.avg.per_second",
    # Memory Workload Analysis
    (MEMORY, "Memory Throughput"): "dram__bytes.sum.per_second",
    (MEMORY, "Mem Busy"): "gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed",
    (MEMORY, "Max Bandwidth"): (
        "gpu__compute_memory_request_throughput.avg.pct_of_peak_sustained_elapsed"
    ),
    (MEMORY, "Mem Pipes Busy"): "sm__memory_throughput.avg.pct_of_peak_sustained_elapsed",
    (MEMORY, "L1/TEX Hit Rate"): "l1tex__t_sector_hit_rate.pct",
    (MEMORY, "L1 Hit Rate"): "l1tex__t_sector_hit_rate.pct",
    (MEMORY, "L2 Hit Rate"): "lts__t_sector_hit_rate.pct",
    # Occupancy
    (OCCUPANCY, "Theoretical Occupancy"): "sm__maximum_warps_per_active_cycle_pct",
    (OCCUPANCY, "Achieved Occupancy"): "sm__warps_active.avg.pct_of_peak_sustained_active",
    (OCCUPANCY, "Block Limit SM"): "launch__occupancy_limit_blocks",
    (OCCUPANCY, "Block Limit Registers"): "launch__occupancy_limit_registers",
    (OCCUPANCY, "Block Limit Shared Mem"): "launch__occupancy_limit_shared_mem",
    (OCCUPANCY, "Block Limit Warps"): "launch__occupancy_limit_warps",
    (OCCUPANCY, "Block Limit Barriers"): "launch__occupancy_limit_barriers",
    (OCCUPANCY, "Theoretical Active Warps per SM"): "sm__maximum_warps_avg_per_active_cycle",
    (OCCUPANCY, "Achieved Active Warps Per SM"): "sm__warps_active.avg.per_cycle_active",
    # Launch Statistics
    (LAUNCH, "Registers Per Thread"): "launch__registers_per_thread",
    (LAUNCH, "Block Size"): "launch__block_size",
    (LAUNCH, "Grid Size"): "launch__grid_size",
    (LAUNCH, "Waves Per SM"): "launch__waves_per_multiprocessor",
    (LAUNCH, "Shared Memory Configuration Size"): "launch__shared_mem_config_size",
    (LAUNCH, "Static Shared Memory Per Block"): "launch__shared_mem_per_block_static",
    (LAUNCH, "Dynamic Shared Memory Per Block"): "launch__shared_mem_per_block_dynamic",
    (LAUNCH, "Threads"): "launch__thread_count",
    (LAUNCH, "# SMs"): "launch__sm_count",
}

_METRIC_NAME = re.compile(r"^[a-z0-9_]+__[A-Za-z0-9_.]+$")

# Today's label of each metric: the first row of LABELS that names it.
_TODAY: dict[str, str] = {metric: text for (_, text), metric in reversed(LABELS.items())}

# The block limits of the Occupancy section, in the order ncu prints them.
BLOCK_LIMITS: tuple[str, ...] = tuple(
    metric for (section, text), metric in LABELS.items()
    if section == OCCUPANCY and text.startswith("Block Limit"))
# Newer ncu prints this limit; a report from an older one lacks the row altogether.
BARRIER_LIMIT = LABELS[(OCCUPANCY, "Block Limit Barriers")]
WAVES_PER_SM = LABELS[(LAUNCH, "Waves Per SM")]
BARRIER_COUNT = "launch__barrier_count"  # hardware barriers a block reserves, not syncs
DEVICE_SMS = "device__attribute_multiprocessor_count"
BARRIER_STALL = "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"
# L1/TEX per elapsed cycle, Memory Throughput's measure (its row, above, is per active cycle).
L1TEX_ELAPSED = "l1tex__throughput.avg.pct_of_peak_sustained_elapsed"
# The L1/TEX data pipe's shared-memory wavefronts: how much of L1/TEX shared loads and stores use.
SHARED_WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed"


def label(metric: str) -> str:
    """The label today's ncu prints for `metric` ('launch__block_size' -> 'Block Size');
    KeyError for a metric no section row names."""
    return _TODAY[metric]


def section_key(section: str) -> str | None:
    """Canonical key of a section as printed (name or identifier), or None when not one we read."""
    return SECTION_ALIASES.get(" ".join(section.split()).lower())


def is_metric_name(label: str) -> bool:
    """Whether a row label is itself an ncu metric name (--metrics, --print-metric-name name)."""
    return bool(_METRIC_NAME.match(label.strip()))


def resolve(section: str, label: str) -> str | None:
    """The metric name of a row `label` printed under `section`, or None when unknown.

    A label that already is a metric name resolves to itself in any section.
    """
    label = label.strip()
    if is_metric_name(label):
        return label
    key = section_key(section)
    if key is None:
        return None
    return LABELS.get((key, label))


# The summary contract: JSON key -> metric name (sectors_per_request is derived).
SUMMARY_METRICS: dict[str, str] = {
    "compute_sm_throughput_pct": "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "memory_throughput_pct": "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "dram_throughput_pct": "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
    "duration_ns": "gpu__time_duration.sum",
    "l1tex_throughput_pct": "l1tex__throughput.avg.pct_of_peak_sustained_active",
    "l2_throughput_pct": "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "global_load_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "global_load_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "shared_load_instructions": "smsp__sass_inst_executed_op_shared_ld.sum",
    "l2_read_sectors_from_l1": "lts__t_sectors_srcunit_tex_op_read.sum",
    "l1tex_hit_rate_pct": "l1tex__t_sector_hit_rate.pct",
    "l2_hit_rate_pct": "lts__t_sector_hit_rate.pct",
    "dram_bytes_read": "dram__bytes_read.sum",
    "dram_bytes_write": "dram__bytes_write.sum",
    "dram_bandwidth_bytes_per_s": "dram__bytes.sum.per_second",
    "theoretical_occupancy_pct": "sm__maximum_warps_per_active_cycle_pct",
    "achieved_occupancy_pct": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "block_limit_sm": "launch__occupancy_limit_blocks",
    "block_limit_registers": "launch__occupancy_limit_registers",
    "block_limit_shared_mem": "launch__occupancy_limit_shared_mem",
    "block_limit_warps": "launch__occupancy_limit_warps",
    "registers_per_thread": "launch__registers_per_thread",
}

SUMMARY_KEYS: tuple[str, ...] = (
    *list(SUMMARY_METRICS)[:8],
    "sectors_per_request",
    *list(SUMMARY_METRICS)[8:],
)

# The unit of each summary value in the words the lesson counts in; every *_pct key is '%'.
_UNITS: dict[str, str] = {
    "duration_ns": "ns",
    "global_load_requests": "request",
    "global_load_sectors": "sector",
    "sectors_per_request": "sector/request",
    "shared_load_instructions": "instruction",
    "l2_read_sectors_from_l1": "sector",
    "dram_bytes_read": "byte",
    "dram_bytes_write": "byte",
    "dram_bandwidth_bytes_per_s": "byte/s",
    "block_limit_sm": "block",
    "block_limit_registers": "block",
    "block_limit_shared_mem": "block",
    "block_limit_warps": "block",
    "registers_per_thread": "register/thread",
}

# The lesson's words for the summary values no report row labels (the others use label()).
_LESSON_LABELS: dict[str, str] = {
    "global_load_sectors": "Sectors moved (global loads)",
    "global_load_requests": "Global load requests",
    "sectors_per_request": "Sectors per request",
    "shared_load_instructions": "Shared load instructions",
    "l2_read_sectors_from_l1": "L2 sectors read from L1/TEX",
    "dram_bytes_read": "DRAM bytes read",
    "dram_bytes_write": "DRAM bytes written",
}


def unit(key: str) -> str:
    """The unit of a summary value: 'ns', 'sector', 'sector/request', '%' ...; KeyError for a
    key outside the summary."""
    if key.endswith("_pct") and key in SUMMARY_KEYS:
        return "%"
    return _UNITS[key]


def row_label(key: str) -> str:
    """A summary value's name for people: the report's own label where a section prints the
    metric ('Duration', 'L2 Hit Rate'), else the lesson's words ('Sectors per request')."""
    if key in _LESSON_LABELS:
        return _LESSON_LABELS[key]
    return label(SUMMARY_METRICS[key])


# Rows the reading tabs show that no section prints and no summary key holds, in the app's words:
# the memory chart's DRAM box (bytes read + written, '2.10 MB moved') and Occupancy's two
# barrier rows.
VIEW_LABELS: dict[str, str] = {
    "dram__bytes.sum": "DRAM bytes moved",
    BARRIER_COUNT: "Barriers used (hardware)",
    BARRIER_STALL: "Warps stalled at a barrier, per issued instruction",
}


def row_words(key: str) -> str | None:
    """A row key (a summary key or an ncu metric name) as the app labels the row: the summary
    value's row_label (also for its metric name), a section row's label, a reading tab's own
    words; None for a key the app shows under no label."""
    if key in SUMMARY_KEYS:
        return row_label(key)
    summary = next((k for k, metric in SUMMARY_METRICS.items() if metric == key), None)
    if summary is not None:
        return row_label(summary)
    return _TODAY.get(key) or VIEW_LABELS.get(key)


# Every metric name the app reads: readers of large files may keep only these.
KNOWN_METRICS: frozenset[str] = frozenset(LABELS.values()) | frozenset(SUMMARY_METRICS.values()) | {
    "dram__bytes.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "launch__grid_dim_x", "launch__grid_dim_y", "launch__grid_dim_z",
    "launch__block_dim_x", "launch__block_dim_y", "launch__block_dim_z",
    WAVES_PER_SM, BARRIER_COUNT, BARRIER_STALL, DEVICE_SMS, L1TEX_ELAPSED, SHARED_WAVEFRONTS,
}


def per_cycle(metric: str) -> str | None:
    """'per active cycle' or 'per elapsed cycle', as a percent-of-peak metric's name says
    (its '.pct_of_peak_sustained_active' or '_elapsed'); None for a metric that says neither."""
    for measure in ("active", "elapsed"):
        if metric.endswith(f".pct_of_peak_sustained_{measure}"):
            return f"per {measure} cycle"
    return None


# What the metrics the app reads hold, where it is not a count; a metric whose name says percent
# ('pct') holds a percent. A value printed in a unit of another kind is not understood for it.
_KINDS: dict[str, str] = {
    "gpu__time_duration.sum": units.TIME,
    "gpc__cycles_elapsed.avg.per_second": units.FREQUENCY,
    "dram__cycles_elapsed.avg.per_second": units.FREQUENCY,
    "dram__bytes.sum.per_second": units.RATE,
    "dram__bytes.sum": units.SIZE,
    "dram__bytes_read.sum": units.SIZE,
    "dram__bytes_write.sum": units.SIZE,
    "launch__shared_mem_config_size": units.SIZE,
    "launch__shared_mem_per_block_static": units.SIZE,
    "launch__shared_mem_per_block_dynamic": units.SIZE,
}


def kind(metric: str) -> str | None:
    """What `metric` holds (units.TIME, SIZE, RATE, FREQUENCY, PERCENT or COUNT) for the metrics
    the app reads (KNOWN_METRICS); None for any other, whose kind is not known."""
    if metric not in KNOWN_METRICS:
        return None
    if "pct" in metric:
        return units.PERCENT
    return _KINDS.get(metric, units.COUNT)
