"""The lesson at the line of code: which lines of the kernels' source issue the loads.

The lesson says tiling moves load instructions from global to shared memory. With the kernels'
source counters read (viewer.readers.source, a .ncu-rep captured with `--set full`), that move is
a line of code: the naive kernel's global loads come from its inner loop's loads, the tiled
kernel's from the two lines that fill the tiles, and its shared loads from the multiply-add line.
`load_lines` (the exercise's question 2) words that from the two functions' counters and names
the line to show (the tiled kernel's shared-load line, where the loads went); without line info
it says the loads are instructions only. `request_lines` (Predict's requests row) names the
lines whose global loads make each kernel's requests. The counts are the report's, never the
lesson's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

from viewer.analysis import source as analysis
from viewer.core import formatting as fmt
from viewer.readers.source import KernelSource

NO_LINE_INFO = ("Its kernels were compiled without line info, so the Source view (C) shows the "
                "load instructions of the SASS rather than lines of code.")


@dataclass(frozen=True)
class LoadLines:
    """The sentence, and the row of the Source view that answers the question ('file:line'
    or an instruction's address, as `analysis.row_key` names it; None: no row to show)."""

    text: str
    row: str | None
    place: str  # 'matmul.py:122': how the row is named on a button


def _place(row: analysis.Row) -> str:
    return f"{PurePath(row.file or '').name}:{row.line}"


def _lines(rows: Sequence[analysis.Row]) -> str:
    """'line 122 (`acc += …`)', 'lines 112 (`…`) and 116 (`…`)', 'lines 75-82 (`a0 = …` to
    `b3 = …`)' for a run of consecutive lines."""
    if len(rows) == 1:
        return f"line {rows[0].line} (`{(rows[0].text or '').strip()}`)"
    numbers = [r.line or 0 for r in rows]
    if len(rows) > 2 and numbers == list(range(numbers[0], numbers[0] + len(rows))):
        first, last = (rows[0].text or "").strip(), (rows[-1].text or "").strip()
        return f"lines {numbers[0]}-{numbers[-1]} (`{first}` to `{last}`)"
    said = [f"{r.line} (`{(r.text or '').strip()}`)" for r in rows]
    return "lines " + (", ".join(said[:-1]) + " and " + said[-1])


def _per_thread(value: float | None) -> str:
    return "" if value is None else f" ({fmt.count(round(value, 2))} per thread)"


def load_lines(naive: KernelSource, tiled: KernelSource, names: Sequence[str]
               ) -> LoadLines | None:
    """The lines that issue each kernel's loads, in words from the counters; None where the
    report holds no source counters for either kernel."""
    if not (naive.has_counters and tiled.has_counters):
        return None
    c = analysis.compare(naive, tiled)
    if not c.tiled_shared or not c.naive_global:
        return None
    if not c.by_line:
        return LoadLines(NO_LINE_INFO, analysis.row_key(c.tiled_shared[0]),
                         f"{c.tiled_shared[0].address or 0:x}")
    n_name, t_name = names
    text = (f"{n_name}'s global loads"
            f"{_per_thread(c.naive_global_per_thread)} come from {_lines(c.naive_global)}; "
            f"{t_name}'s global loads{_per_thread(c.tiled_global_per_thread)} from "
            f"{_lines(c.tiled_global)}, and its shared loads"
            f"{_per_thread(c.tiled_shared_per_thread)} from {_lines(c.tiled_shared)}: that "
            "is where the loads went, and a shared load fetches no sector.")
    shared = max(c.tiled_shared, key=lambda r: r.value(analysis.SHARED_LOADS) or 0.0)
    return LoadLines(text, analysis.row_key(shared), _place(shared))


def request_lines(naive: KernelSource, tiled: KernelSource, names: Sequence[str],
                  requests: Sequence[float | None]) -> LoadLines | None:
    """Predict's first row at its lines of code: the lines whose global load instructions
    make each kernel's requests (`requests`, naive then tiled, from the report's counters,
    said beside the instructions' count where they agree); None without source counters or
    line info."""
    if not (naive.has_counters and tiled.has_counters):
        return None
    c = analysis.compare(naive, tiled)
    if not c.by_line or not c.naive_global or not c.tiled_global:
        return None
    said = []
    for name, rows, asked in ((names[0], c.naive_global, requests[0]),
                              (names[1], c.tiled_global, requests[1])):
        count = sum(r.value(analysis.GLOBAL_LOADS) or 0.0 for r in rows)
        lead = (f"{name}'s {fmt.count(count)} requests are its warp-level global load "
                "instructions, one request each,") if asked is not None and count == asked \
            else f"{name}'s {fmt.count(count)} warp-level global load instructions are"
        said.append(f"{lead} issued from {_lines(rows)}")
    first = c.naive_global[0]
    return LoadLines("; ".join(said) + ".", analysis.row_key(first), _place(first))
