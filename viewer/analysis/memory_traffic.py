"""The memory chart's reading: the traffic that crossed each arrow from the kernel through shared
memory, L1/TEX and L2 to DRAM, sectors per request, and DRAM's bytes against the compulsory floor.

Every value comes from the kernel's metrics; a metric the report lacks stays None, and the text
says what is missing instead of inventing a number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from viewer.analysis.predict import compulsory_dram_bytes
from viewer.analysis.reading import M, problem_dim, value
from viewer.core import formatting as fmt
from viewer.core.model import Kernel


@dataclass(frozen=True)
class Traffic:
    """What crossed one arrow of the memory chart (None: the report lacks the metric)."""

    source: str
    target: str
    label: str
    amount: float | None  # in `unit`
    unit: str  # "request", "sector", "instruction", "byte"
    metric: str
    note: str = ""


@dataclass(frozen=True)
class MemoryChart:
    global_load_requests: float | None
    global_load_sectors: float | None
    sectors_per_request: float | None
    shared_load_instructions: float | None
    l2_read_sectors_from_l1: float | None
    l1tex_hit_rate_pct: float | None
    l2_hit_rate_pct: float | None
    dram_bytes_read: float | None
    dram_bytes_write: float | None
    dram_bandwidth_bytes_per_s: float | None
    problem_dim: int | None
    arrows: tuple[Traffic, ...] = field(default_factory=tuple)
    dram_rounded: bool = False  # the DRAM bytes may be an export's three-figure rounding

    @property
    def dram_bytes(self) -> float | None:
        if self.dram_bytes_read is None or self.dram_bytes_write is None:
            return None
        return self.dram_bytes_read + self.dram_bytes_write

    @property
    def compulsory_bytes(self) -> int | None:
        """A, B and C read or written once each: the floor on DRAM traffic for a square matmul."""
        if self.problem_dim is None:
            return None
        return compulsory_dram_bytes(self.problem_dim)

    @property
    def times_compulsory(self) -> float | None:
        floor, moved = self.compulsory_bytes, self.dram_bytes
        if floor is None or moved is None or floor == 0:
            return None
        return moved / floor

    @property
    def floor_note(self) -> str:
        """DRAM traffic against the compulsory floor, in words from the two counters: bytes
        read against A and B, bytes written against C ('' when unknown)."""
        times, reasons = self.times_compulsory, self.floor_reasons
        if times is None or not reasons:
            return ""
        lead = "below the floor" if times < 1 else f"{times:.2f}x the floor"
        return f"{lead}: {reasons}"

    @property
    def floor_reasons(self) -> str:
        """What the two counters say of A, B and C: 'DRAM read 2,104,320 B against A and B's
        2,097,152 B, so ...; it wrote 0 B against C's 1,048,576 B, so ...' ('' when unknown)."""
        dim, read, written = self.problem_dim, self.dram_bytes_read, self.dram_bytes_write
        if dim is None or read is None or written is None:
            return ""
        matrix = compulsory_dram_bytes(dim) // 3  # one of A, B and C
        shown = fmt.size if self.dram_rounded else _bytes  # never more digits than were printed
        near = _ROUNDING if self.dram_rounded else 0.0
        read_words = f"DRAM read {shown(read)} against A and B's {_bytes(2 * matrix)}, so "
        if read < 2 * matrix * (1 - near):
            read_words += "part of A and B did not cross DRAM while the kernel ran"
        elif read < 2 * matrix * (1 + near):
            read_words += ("A and B crossed it about once, as far as the rounded value shows, "
                           "and the caches kept the re-reads")
        elif read < 4 * matrix:
            read_words += "A and B crossed it at least once and the caches kept most re-reads"
        else:
            read_words += "re-reads of A and B reached DRAM"
        written_words = f"it wrote {shown(written)} against C's {_bytes(matrix)}, so "
        if written == 0:
            written_words += "C was not written back to DRAM while the kernel ran"
        elif written < matrix * (1 - near):
            written_words += "only part of C was written back to DRAM while the kernel ran"
        elif written < matrix * (1 + near):
            written_words += "about C was written back, as far as the rounded value shows"
        else:
            written_words += "C was written back"
        return f"{read_words}; {written_words}"


# An export prints a size with three significant figures ("2.10 MB"): up to half a percent off.
_ROUNDING = 0.005


def _maybe_rounded(n: float | None) -> bool:
    """Whether a byte count may be an export's rounding ('2.10 MB' read back as 2,100,000):
    three significant figures or fewer, over a thousand. A count that merely looks so is then
    worded as the rounded one would be, which stays true."""
    return n is not None and n >= 1000 and float(f"{n:.3g}") == n


def _bytes(n: float) -> str:
    """'2,104,320 B': exact, since the floor's sizes differ from the counters in a few bytes."""
    return f"{fmt.count(n)} B"


_HIT_RATE = re.compile(r"_hit_rate\.pct$")
HIT_RATE_SOURCE = "https://forums.developer.nvidia.com/t/weird-number-for-l2-cache-hitrate/120341"


def hit_rate_note(metric: str, pct: float | None) -> str | None:
    """What a hit rate above 100 % means, where ncu reports one (None otherwise)."""
    if pct is None or pct <= 100.0 or not _HIT_RATE.search(metric):
        return None
    return (f"ncu reports {metric} at {fmt.percent(pct)}, above 100 %. A hit rate is hits over "
            "queries; ncu can count the two on different replay passes, and L2's counters take "
            "in every client (copy engines, the display) too, so on a kernel too short or "
            "uneven to reach a steady state the ratio can pass 100 %. NVIDIA's answer is that "
            "such a value was not collected accurately: read it as not measured, not as more "
            f"hits than queries ({HIT_RATE_SOURCE}).")


def memory_chart(kernel: Kernel) -> MemoryChart:
    v = {key: value(kernel, key) for key in (
        "global_load_requests", "global_load_sectors", "sectors_per_request",
        "shared_load_instructions", "l2_read_sectors_from_l1", "l1tex_hit_rate_pct",
        "l2_hit_rate_pct", "dram_bytes_read", "dram_bytes_write", "dram_bandwidth_bytes_per_s")}
    arrows = (
        Traffic("Kernel", "Shared memory", "shared load instructions",
                v["shared_load_instructions"], "instruction", M["shared_load_instructions"],
                "a shared load fetches no sector from L2 or DRAM"),
        Traffic("Kernel", "L1/TEX", "global load requests", v["global_load_requests"],
                "request", M["global_load_requests"]),
        Traffic("Kernel", "L1/TEX", "global load sectors", v["global_load_sectors"], "sector",
                M["global_load_sectors"]),
        Traffic("L1/TEX", "L2", "sectors read from L1/TEX", v["l2_read_sectors_from_l1"],
                "sector", M["l2_read_sectors_from_l1"]),
        Traffic("L2", "DRAM", "bytes read", v["dram_bytes_read"], "byte", M["dram_bytes_read"]),
        Traffic("L2", "DRAM", "bytes written", v["dram_bytes_write"], "byte",
                M["dram_bytes_write"]),
    )
    rounded = any(_maybe_rounded(v[key]) for key in ("dram_bytes_read", "dram_bytes_write"))
    return MemoryChart(**v, problem_dim=problem_dim(kernel), arrows=arrows,
                       dram_rounded=rounded)
