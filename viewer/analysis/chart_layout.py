"""The memory chart as plain data: its boxes, its arrows, their labels and their widths.

One band per kernel, as in the lesson's diagram: the kernel on the left; shared memory on a lane of
its own, where shared loads stop; and the path of global loads through L1/TEX and L2 to DRAM. Each
arrow carries the traffic that crossed it, or says the report does not hold it.

Arrow widths follow the traffic on a log scale: load instructions (shared loads, global load
requests) share one scale and bytes (sectors read from L1/TEX by L2, DRAM bytes) another, each
scale shared by every kernel shown so two bands can be compared by eye.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from viewer.analysis import reading
from viewer.analysis.comparison import compare
from viewer.analysis.memory_traffic import MemoryChart, hit_rate_note, memory_chart
from viewer.analysis.predict import SECTOR_BYTES, WARP_SIZE
from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.core.formatting import NOT_IN_REPORT
from viewer.core.model import Kernel

INSTRUCTIONS = "load instructions"
BYTES = "bytes"
# How many decades of traffic below the largest arrow still get a wider line than the thinnest.
WIDTH_DECADES = 3.0
# Shared memory sits in the L1/TEX unit (Turing's 96 KB of L1 and shared, Hopper's too): a shared
# load fetches no sector from L2 or DRAM, and it does use L1/TEX's data pipe.
SHARED_NOTE = "a shared load fetches no sector from L2 or DRAM, and it does use the L1/TEX unit"


@dataclass(frozen=True)
class ChartBox:
    key: str  # "kernel", "shared", "l1tex", "l2", "dram"
    title: str
    lines: tuple[str, ...] = ()

    @property
    def title_lines(self) -> tuple[str, ...]:
        """The title one word a line, so a box is only as wide as its widest word or value."""
        return tuple(self.title.split())


@dataclass(frozen=True)
class ChartArrow:
    key: str  # "shared", "global", "l1_to_l2", "dram_read", "dram_write"
    source: str  # box key
    target: str  # box key
    above: tuple[str, ...]
    below: tuple[str, ...]
    amount: float | None  # what sets the width, in units of `family`; None: not in the report
    family: str  # INSTRUCTIONS or BYTES
    leftward: bool = False  # the data flows from target back to source (DRAM reads)

    @property
    def missing(self) -> bool:
        return self.amount is None


@dataclass(frozen=True)
class ChartBand:
    name: str
    caption: str
    boxes: tuple[ChartBox, ...]
    arrows: tuple[ChartArrow, ...]
    shared_note: str = ""  # written beside the shared memory box

    def box(self, key: str) -> ChartBox:
        return next(b for b in self.boxes if b.key == key)

    def arrow(self, key: str) -> ChartArrow:
        return next(a for a in self.arrows if a.key == key)


def warps(kernel: Kernel) -> int | None:
    """Warps in the launch: blocks times the warps of one block (a partial warp counts whole)."""
    if kernel.grid is None or kernel.block is None:
        return None
    blocks = math.prod(kernel.grid)
    threads_per_block = math.prod(kernel.block)
    if blocks <= 0 or threads_per_block <= 0:
        return None
    return blocks * -(-threads_per_block // WARP_SIZE)


def per_thread(instructions: float | None, kernel: Kernel) -> float | None:
    """Warp-level instructions per thread: a warp instruction is one instruction per lane."""
    n = warps(kernel)
    if instructions is None or n is None:
        return None
    return instructions / n


def log_width(amount: float, largest: float, thin: float, thick: float,
              decades: float = WIDTH_DECADES) -> float:
    """A line width for `amount`: `thick` at `largest`, `thin` `decades` decades below or at zero.

    Log-scaled, so an 8x difference is a visible step and a small arrow is never invisible.
    """
    if amount <= 0 or largest <= 0:
        return thin
    position = 1.0 + (math.log10(min(amount, largest)) - math.log10(largest)) / decades
    return thin + (thick - thin) * max(0.0, position)


def largest_by_family(bands: Iterable[ChartBand]) -> dict[str, float]:
    """The largest amount of each width family across all bands shown together."""
    largest: dict[str, float] = {}
    for band in bands:
        for arrow in band.arrows:
            if arrow.amount is not None:
                largest[arrow.family] = max(largest.get(arrow.family, 0.0), arrow.amount)
    return largest


def _counted(value: float | None, noun: str) -> tuple[str, ...]:
    """'16,777,216 sectors', or the noun and NOT_IN_REPORT on two lines."""
    if value is None:
        return (f"{noun}:", NOT_IN_REPORT)
    return (f"{fmt.count(value)} {noun}",)


def _per_thread_line(value: float | None, kernel: Kernel) -> tuple[str, ...]:
    each = per_thread(value, kernel)
    return (f"{fmt.count(round(each, 2))} per thread",) if each is not None else ()


def chart_band(kernel: Kernel, name: str) -> ChartBand:
    """The memory chart of one kernel, every number read from its metrics."""
    chart = memory_chart(kernel)
    shared = chart.shared_load_instructions
    requests, sectors = chart.global_load_requests, chart.global_load_sectors
    from_l1 = chart.l2_read_sectors_from_l1
    read, written = chart.dram_bytes_read, chart.dram_bytes_write

    spr = chart.sectors_per_request
    global_below = _counted(sectors, "sectors")
    if spr is not None:
        global_below += (f"{fmt.sectors_per_request(spr)} per request",)
    l1_below = (f"{fmt.size(from_l1 * SECTOR_BYTES)}",) if from_l1 is not None else ()
    arrows = (
        ChartArrow("shared", "kernel", "shared",
                   _counted(shared, "shared loads") + _per_thread_line(shared, kernel), (),
                   shared, INSTRUCTIONS),
        ChartArrow("global", "kernel", "l1tex",
                   _counted(requests, "requests") + _per_thread_line(requests, kernel),
                   global_below, requests, INSTRUCTIONS),
        ChartArrow("l1_to_l2", "l1tex", "l2", _counted(from_l1, "sectors"), l1_below,
                   None if from_l1 is None else from_l1 * SECTOR_BYTES, BYTES),
        ChartArrow("dram_read", "l2", "dram", _amount_lines("read", read), (), read, BYTES,
                   leftward=True),
        ChartArrow("dram_write", "l2", "dram", (), _amount_lines("written", written), written,
                   BYTES),
    )
    boxes = (
        ChartBox("kernel", "Kernel"),
        ChartBox("shared", "Shared memory"),
        ChartBox("l1tex", "L1/TEX", _hit_lines("l1tex_hit_rate_pct", chart.l1tex_hit_rate_pct)),
        ChartBox("l2", "L2", _hit_lines("l2_hit_rate_pct", chart.l2_hit_rate_pct)),
        ChartBox("dram", "DRAM", dram_lines(chart, kernel)),
    )
    note = shared_note(kernel) if shared is not None else ""
    return ChartBand(name, caption(kernel, chart), boxes, arrows, note)


def shared_note(kernel: Kernel) -> str:
    """SHARED_NOTE, and how much of L1/TEX's throughput shared wavefronts took where the report
    holds l1tex__data_pipe_lsu_wavefronts_mem_shared (nothing said of it where it does not)."""
    shared = kernel.metric(metrics.SHARED_WAVEFRONTS)
    if shared is None:
        return SHARED_NOTE
    text = (f"{SHARED_NOTE}: shared wavefronts took {_kept(shared)} of L1/TEX's peak "
            f"{metrics.per_cycle(metrics.SHARED_WAVEFRONTS)}")
    whole = kernel.metric(metrics.L1TEX_ELAPSED)
    return text + (f", of the {_kept(whole)} L1/TEX reached" if whole is not None else "")


def _kept(pct: float) -> str:
    """'60.99 %' that a wrapped note never breaks before its '%'."""
    return fmt.percent(pct).replace(" ", "\u00a0")


def _amount_lines(verb: str, nbytes: float | None) -> tuple[str, ...]:
    return (f"{verb} {fmt.size(nbytes)}",) if nbytes is not None else (f"{verb}:", NOT_IN_REPORT)


def _hit_lines(key: str, pct: float | None) -> tuple[str, ...]:
    """'hit 97.91 %'; a rate above 100 % is marked as not measured (the memory tab's row and
    `summary` say why: hit_rate_note)."""
    if pct is None:
        return (f"hit rate {NOT_IN_REPORT}",)
    over = hit_rate_note(metrics.SUMMARY_METRICS[key], pct) is not None
    return (f"hit {fmt.percent(pct)}",) + (OVER_100_LINES if over else ())


OVER_100_LINES = ("over 100 %:", "not measured")


def hit_rate_notes(chart: MemoryChart) -> tuple[tuple[str, str], ...]:
    """(summary key, what it means) of each of the chart's hit rates above 100 %."""
    found = ((key, hit_rate_note(metrics.SUMMARY_METRICS[key], pct)) for key, pct in (
        ("l1tex_hit_rate_pct", chart.l1tex_hit_rate_pct),
        ("l2_hit_rate_pct", chart.l2_hit_rate_pct)))
    return tuple((key, note) for key, note in found if note is not None)


DRAM_SUM = "dram__bytes.sum"  # ncu's read + written, as one metric (the T4 table holds it)


def dram_lines(chart: MemoryChart, kernel: Kernel | None = None) -> tuple[str, ...]:
    """DRAM bytes moved, and against the compulsory floor when the problem size is known. A
    report that holds only the read + written sum (`kernel`'s dram__bytes.sum) shows it as
    that sum."""
    moved, words = chart.dram_bytes, "moved"
    if moved is None and kernel is not None:
        moved, words = kernel.metric(DRAM_SUM), "read + written"
    if moved is None:
        return (f"bytes {NOT_IN_REPORT}",)
    lines = [f"{fmt.size(moved)} {words}"]
    floor = chart.compulsory_bytes
    if floor:
        lines += [f"floor {fmt.size(floor)}", f"{fmt.ratio(moved / floor)} floor"]
    return tuple(lines)


def caption(kernel: Kernel, chart: MemoryChart) -> str:
    """The band's caption in the lesson's words, from this kernel's counters."""
    parts = []
    global_loads = _loads(chart.global_load_requests, kernel, "global loads per thread",
                          "global load requests")
    if global_loads:
        parts.append(global_loads)
    if chart.sectors_per_request is not None:
        parts.append(f"{fmt.sectors_per_request(chart.sectors_per_request)} sectors each")
    if chart.global_load_sectors is not None:
        parts.append(f"{fmt.count(chart.global_load_sectors)} sectors across the grid")
    parts.append(_loads(chart.shared_load_instructions, kernel, "shared loads per thread",
                        "shared load instructions") or f"shared loads {NOT_IN_REPORT}")
    return ", ".join(parts) + "."


def _loads(instructions: float | None, kernel: Kernel, per_thread_noun: str,
           total_noun: str) -> str:
    """Warp-wide load instructions as loads per thread where the grid is known, else as a
    total ('' when the report lacks the counter)."""
    each = per_thread(instructions, kernel)
    if each is not None:
        return f"{fmt.count(round(each, 2))} {per_thread_noun}"
    if instructions is not None:
        return f"{fmt.count(instructions)} {total_noun}"
    return ""


# The comparison rows of the memory chart, in the order the lesson reads them.
MEMORY_COMPARED = ("global_load_sectors", "global_load_requests", "sectors_per_request",
                   "shared_load_instructions", "l2_read_sectors_from_l1", "dram_bytes_read",
                   "dram_bytes_write", "l1tex_hit_rate_pct", "l2_hit_rate_pct", "duration_ns")


@dataclass(frozen=True)
class RatioRow:
    key: str
    label: str
    first: str
    second: str
    direction: str  # "matmul_naive 8.00x matmul_tiled", "equal", "not in both reports"


def value_text(key: str, value: float | None) -> str:
    """A compared value written in its own unit, or NOT_IN_REPORT."""
    return NOT_IN_REPORT if value is None else fmt.by_unit(value, metrics.unit(key))


def memory_values(kernel: Kernel) -> list[tuple[str, str, str]]:
    """The compared rows for one kernel: (key, label, value written in its unit)."""
    return [(key, metrics.row_label(key), value_text(key, reading.value(kernel, key)))
            for key in MEMORY_COMPARED]


def memory_ratios(first: Kernel, second: Kernel, first_name: str,
                  second_name: str) -> list[RatioRow]:
    """The compared rows: both values, and which kernel has more and by how much."""
    differences = {d.key: d for d in compare(first, second)}
    rows = []
    for key in MEMORY_COMPARED:
        diff = differences[key]
        direction = diff.more(first_name, second_name)
        rows.append(RatioRow(key, diff.label, value_text(key, diff.first),
                             value_text(key, diff.second), direction))
    return rows
