"""Which reading step a report can fill: a file that holds none of Speed Of Light's values (a
raw-metrics export of request and sector counts, say) opens on the first step whose values it
holds, and says why, rather than on a page of "not in this report"."""

from __future__ import annotations

from collections.abc import Sequence

from viewer.analysis.reading import READING_ORDER, value
from viewer.core import metrics
from viewer.core.model import Kernel

_KEYS = list(metrics.SUMMARY_METRICS)
STEP_KEYS: dict[str, tuple[str, ...]] = {
    "sol": ("compute_sm_throughput_pct", "memory_throughput_pct", "dram_throughput_pct",
            "duration_ns", "l1tex_throughput_pct", "l2_throughput_pct"),
    "memory": tuple(_KEYS[_KEYS.index("global_load_requests"):
                          _KEYS.index("dram_bandwidth_bytes_per_s") + 1]),
    "occupancy": tuple(_KEYS[_KEYS.index("theoretical_occupancy_pct"):
                             _KEYS.index("block_limit_warps") + 1]),
}
"""The summary values each reading step shows (viewer.core.metrics.SUMMARY_METRICS)."""


def fills(step: str, kernels: Sequence[Kernel]) -> bool:
    """Whether any of `kernels` holds a value that reading step `step` shows."""
    return any(value(k, key) is not None for k in kernels for key in STEP_KEYS[step])


def first_filled(kernels: Sequence[Kernel], titles: Sequence[str]) -> tuple[int, str]:
    """The first reading step (an index of READING_ORDER) that `kernels` can fill, and why it
    is not the first, in words naming the steps by `titles`; (0, "") where the first can be
    filled, or where none can (then each step says what it lacks itself)."""
    held = [fills(step, kernels) for step in READING_ORDER]
    if held[0] or not any(held):
        return 0, ""
    first = held.index(True)
    skipped = " or ".join(titles[:first])
    shown = sorted({metrics.row_label(key) for k in kernels for key in STEP_KEYS[
        READING_ORDER[first]] if value(k, key) is not None})
    return first, (f"Opened on {titles[first]}: this report holds none of {skipped}'s values, "
                   f"and holds {', '.join(shown)}.")
