"""Two kernels compared: the lesson's rows side by side, matched by metric name, each with its
ratio and its direction in plain words."""

from __future__ import annotations

from dataclasses import dataclass

from viewer.analysis.reading import value
from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.core.model import Kernel


@dataclass(frozen=True)
class Difference:
    key: str
    label: str
    first: float | None
    second: float | None

    @property
    def ratio(self) -> float | None:
        """first / second, or None when either is missing or second is zero."""
        if self.first is None or self.second is None or self.second == 0:
            return None
        return self.first / self.second

    def direction(self, first_name: str, second_name: str) -> str:
        """'Sectors moved: naive 8.05x tiled', in plain words (the label, then `more`)."""
        return f"{self.label}: {self.more(first_name, second_name)}"

    def more(self, first_name: str, second_name: str) -> str:
        """Which kernel has more and by how much, as the memory step says it: 'naive 8.05x
        tiled', 'equal', 'tiled has some, naive none', 'not in both reports'."""
        if self.first is None or self.second is None:
            return "not in both reports"
        if self.first == self.second:
            return "equal"
        big, small = (first_name, second_name) if self.first > self.second else (
            second_name, first_name)
        hi, lo = max(self.first, self.second), min(self.first, self.second)
        if lo == 0:
            return f"{big} has some, {small} none"
        return f"{big} {hi / lo:.2f}x {small}"

    def against(self, unit: str = "", other: str = "the other") -> str:
        """`first` against `second` in words that never print a ratio below one: '8.00x fewer',
        '1.59x more' ('shorter' and 'longer' for a duration in ns, 'lower' and 'higher' for a
        percent), 'equal', 'not in both reports'; against a zero, the value and `other` by name
        ('640 where row 0 has 0', 'none where row 0 has 640')."""
        if self.first is None or self.second is None:
            return "not in both reports"
        if self.first == self.second:
            return "equal"
        if self.first == 0:
            return f"none where {other} has {fmt.by_unit(self.second, unit)}"
        if self.second == 0:
            return f"{fmt.by_unit(self.first, unit)} where {other} has 0"
        less, more = _WORDS.get(unit, ("fewer", "more"))
        hi, lo = max(self.first, self.second), min(self.first, self.second)
        return f"{fmt.ratio(hi / lo)} {more if self.first > self.second else less}"


# Words for less and more by a value's unit; a count or bytes: fewer and more.
_WORDS = {"ns": ("shorter", "longer"), "%": ("lower", "higher")}


# The ratios that carry the lesson, in the order the comparison shows them: (key, label).
COMPARED: tuple[tuple[str, str], ...] = tuple((key, metrics.row_label(key)) for key in (
    "duration_ns", "global_load_sectors", "global_load_requests", "sectors_per_request",
    "shared_load_instructions", "l2_read_sectors_from_l1", "dram_bytes_read",
    "dram_bytes_write", "memory_throughput_pct", "dram_throughput_pct",
    "compute_sm_throughput_pct", "l1tex_hit_rate_pct", "l2_hit_rate_pct",
    "theoretical_occupancy_pct", "achieved_occupancy_pct"))


def compare(first: Kernel, second: Kernel) -> tuple[Difference, ...]:
    """The lesson's rows for two kernels, matched by metric name (any ncu version or GPU)."""
    return tuple(Difference(key, label, value(first, key), value(second, key))
                 for key, label in COMPARED)
