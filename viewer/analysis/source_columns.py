"""The Source view's columns, as plain data: each one's title, the value it sorts by, the text it
shows and its header's tip; what the projector leaves out, and how it shortens titles and
indents; and the grouping of a kernel's SASS under its source lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePath

from viewer.analysis import source as analysis
from viewer.analysis.source import GLOBAL_LOADS, L2_EXCESSIVE, SHARED_LOADS, Row, SourceTable
from viewer.analysis.stalls import REASONS
from viewer.core import formatting as fmt
from viewer.readers.source import INST_EXECUTED, L2_SECTORS, SAMPLES

HOT = "\u25b2 "  # marks the hottest rows

REASON_LABELS = {r.sampled_key or r.key: r.label.removeprefix("Stall ") for r in REASONS}
"""A sampled stall reason (as its metric spells it) -> its name in ncu's chart."""


@dataclass(frozen=True)
class Column:
    """One column: its header, the value it sorts by, the text it shows and its header's tip."""

    title: str
    key: Callable[[Row], float | str | None]
    text: Callable[[Row], str]
    numeric: bool = True
    tip: str = ""


def place_text(row: Row) -> str:
    """'matmul.py:75' for a line (its file's name alone), the address in hex for SASS."""
    if row.address is None:
        return f"{PurePath(row.file or '').name}:{row.line}"
    return f"{row.address:x}"


def reasons_text(row: Row, n: int = 2) -> str:
    """'Long Scoreboard 1,431, Selected 7': its top sampled stall reasons, '' where none."""
    return ", ".join(f"{REASON_LABELS.get(r, r)} {fmt.count(v)}"
                     for r, v in analysis.stall_reasons(row, n))


_WARP = "counted once per warp that executed it (ncu's warp-level count)"
_TITLES = {
    INST_EXECUTED: ("Warp inst.", f"Instructions executed, each {_WARP}: inst_executed"),
    GLOBAL_LOADS: ("Global loads", f"Global load instructions (LDG) executed, each {_WARP}"),
    SHARED_LOADS: ("Shared loads", f"Shared load instructions (LDS) executed, each {_WARP}"),
    L2_SECTORS: ("L2 sectors", "The sectors the global accesses ask of L2: "
                 "memory_l2_theoretical_sectors_global"),
    L2_EXCESSIVE: ("L2 excess", "The sectors beyond the ideal: "
                   "derived__memory_l2_theoretical_sectors_global_excessive"),
    SAMPLES: ("Stall samples", "Warp stall samples on the row: smsp__pcsamp_sample_count"),
}
_PER_THREAD = {
    INST_EXECUTED: ("instructions / thread",
                    "Every instruction executed on the row, per thread (loads and all)"),
    GLOBAL_LOADS: ("global loads / thread", "Global load instructions executed, per thread"),
    SHARED_LOADS: ("shared loads / thread", "Shared load instructions executed, per thread"),
}


def _value(column: str) -> Column:
    title, tip = _TITLES[column]
    return Column(title, lambda r: r.value(column), lambda r: fmt.count(r.value(column)),
                  tip=tip)


def _per_thread(column: str) -> Column:
    title, tip = _PER_THREAD[column]
    return Column(title, lambda r: r.per_thread(column), lambda r: fmt.count(
        None if (v := r.per_thread(column)) is None else round(v, 2)),
        tip=f"{tip}: the warp-level count times the threads each warp ran it with, over the "
            "kernel's threads")


COLUMNS: tuple[Column, ...] = (
    Column("Line", lambda r: (r.line if r.address is None else r.address) or 0,
           lambda r: str(r.line) if r.address is None else f"{r.address:x}"),
    Column("Source", lambda r: r.text or "", lambda r: r.text or fmt.MISSING, numeric=False),
    _value(GLOBAL_LOADS), _per_thread(GLOBAL_LOADS),
    _value(SHARED_LOADS), _per_thread(SHARED_LOADS),
    _value(INST_EXECUTED), _per_thread(INST_EXECUTED),
    _value(L2_SECTORS), _value(L2_EXCESSIVE), _value(SAMPLES),
    Column("Top stall reasons", lambda r: reasons_text(r), reasons_text, numeric=False),
)
"""The loads first after the source text, so that they stay in view where the rest scrolls."""
LOAD_TITLES = ("Global loads", "global loads / thread", "Shared loads", "shared loads / thread")
"""The load columns: in view beside the source text at the desk too."""
PROJECTOR_HIDDEN = ("Warp inst.", "instructions / thread", "Global loads", "Shared loads",
                    "L2 excess")
"""What the projector leaves out: the warp-level counts and instructions per thread (the loads
per thread stay)."""
PROJECTOR_OPTIONAL = ("Top stall reasons", "L2 sectors", "Stall samples")
"""What the projector leaves out next, in this order, where the table would not fit its width."""


def compact_text(text: str) -> str:
    """A line of source as the projector shows it: each level of indentation two spaces."""
    body = text.lstrip(" ")
    return " " * ((len(text) - len(body)) // 2) + body


def compact_title(title: str) -> str:
    """A column's title a word a line, so narrow ('global\nloads\n/ thread', 'Stall\nsamples')."""
    if " / " in title:
        head, _, tail = title.partition(" / ")
        return "\n".join(head.split()) + f"\n/ {tail}"
    head, _, tail = title.rpartition(" ")
    return f"{head}\n{tail}" if head else title


def sorted_rows(rows: Sequence[Row], column: int, descending: bool) -> list[Row]:
    """`rows` by the column numbered `column`; numbers with the missing values last."""
    spec = COLUMNS[column]
    if spec.numeric:
        present = [r for r in rows if spec.key(r) is not None]
        missing = [r for r in rows if spec.key(r) is None]
        return sorted(present, key=lambda r: spec.key(r) or 0, reverse=descending) + missing
    return sorted(rows, key=lambda r: str(spec.key(r)), reverse=descending)

def line_groups(table: SourceTable | None) -> tuple[list[Row], list[list[Row]]]:
    """The top rows (lines, else SASS) and, under each line, its instructions."""
    if table is None:
        return [], []
    if not table.lines:
        return list(table.sass), [[] for _ in table.sass]
    by_line: dict[tuple[str | None, int | None], list[Row]] = {}
    for row in table.sass:
        by_line.setdefault((row.file, row.line), []).append(row)
    tops = list(table.lines)
    return tops, [by_line.get((r.file, r.line), []) for r in tops]


def first_address(table: SourceTable | None) -> int:
    """The function's first instruction address, which offsets count from (0: none)."""
    if table is None:
        return 0
    return min((r.address for r in table.sass if r.address is not None), default=0)
