"""The terminal's `source`: python -m viewer source FILE... [-k SPEC] [--json].

Each file (a .ncu-rep, or ncu's `--page source --csv` export) through viewer.readers.source;
per kernel its source lines and SASS with ncu's counters (viewer.analysis.source). `--json`
prints one object per file: {"kernels": [{"name", "notes", "lines": [...], "sass": [...]}]};
values are warp level, a line's the sums over its instructions, null where the report lacks the
counter. Without it: a table per kernel, its lines where it has line info, else its SASS, its
columns warp level as the line over them says, and above them the kernel's instructions and
loads per thread.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from viewer.analysis import source as analysis
from viewer.analysis.terminal import Picks, add_kernel_option
from viewer.core import formatting as fmt
from viewer.core import kernel_filter
from viewer.core.model import Kernel, ReportError
from viewer.core.terminal_text import visible, visible_lines
from viewer.readers.source import INST_EXECUTED, KernelSource, read_source

DESCRIPTION = ("Each kernel's source lines and SASS with ncu's per-instruction counters (warp "
               "level): instructions executed, global and shared loads, L2 theoretical sectors, "
               "warp stall samples.")
FIELDS = ("inst_executed", "global_loads", "shared_loads", "l2_theoretical_sectors", "samples")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", type=Path,
                        help=".ncu-rep reports, or ncu's --page source --csv exports")
    parser.add_argument("--json", action="store_true", help="one JSON object per file")
    add_kernel_option(parser)


def picked(picks: Picks, path: Path, kernels: list[KernelSource]) -> list[KernelSource]:
    """The kernels `picks` picks as summary -k picks them (their function and whole name)."""
    if picks.spec is None:
        return kernels
    test = kernel_filter.matcher(picks.spec)
    return picks.kernels(path, kernels, lambda k: test(
        Kernel(index=0, name=k.function, display_name=k.name)))


def _values(row: analysis.Row) -> dict[str, float | None]:
    return {f: row.value(f) for f in FIELDS}


def kernel_json(kernel: KernelSource) -> dict[str, object]:
    t = analysis.table(kernel)
    return {
        "name": kernel.name,
        "notes": list(t.notes),
        "lines": [{"file": r.file, "line": r.line, "text": r.text, **_values(r)}
                  for r in t.lines],
        "sass": [{"address": f"0x{r.address:x}" if r.address is not None else None,
                  "line": r.line, "text": r.text, **_values(r)} for r in t.sass],
    }


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


COLUMNS_NOTE = ("columns, warp level (a line's the sum over its instructions): warp inst. ="
                " instructions executed (inst_executed); global ld, shared ld = global (LDG) and"
                " shared (LDS) load instructions executed; L2 sect. = L2 theoretical sectors;"
                " samples = warp stall samples")
"""What the table's columns count: every one per warp, none per thread."""


def per_thread_text(t: analysis.SourceTable) -> str:
    """The kernel's instructions and loads per thread, with how they are made; where they
    cannot be made, why."""
    if not t.kernel.has_counters or not t.kernel.threads:
        return t.per_thread_note
    each = analysis.per_thread_totals(t)
    words = ", ".join(f"{_each(each[c])} {what}" for c, what in (
        (INST_EXECUTED, "instructions"), (analysis.GLOBAL_LOADS, "global loads"),
        (analysis.SHARED_LOADS, "shared loads")))
    how = t.per_thread_note.removeprefix("per thread: ")
    return f"per thread, the whole kernel: {words} ({how})"


def _each(value: float | None) -> str:
    return "-" if value is None else fmt.count(round(value, 2))


def kernel_text(kernel: KernelSource) -> str:
    t = analysis.table(kernel)
    rows = t.lines or t.sass
    head = "line" if t.lines else "address"
    out = [visible(kernel.name), *(f"  note: {visible(n)}" for n in t.notes),
           f"  {per_thread_text(t)}", f"  {COLUMNS_NOTE}"]
    out.append(f"  {head:>14} {'warp inst.':>12} {'global ld':>10} {'shared ld':>10}"
               f" {'L2 sect.':>10} {'samples':>8}  text")
    for r in rows:
        where = _place(r) if t.lines else f"{r.address or 0:x}"[-14:]
        out.append(f"  {where:>14} " + " ".join(f"{_cell(r.value(f)):>{w}}" for f, w in zip(
            FIELDS, (12, 10, 10, 10, 8), strict=True)) + f"  {_text(r, 60)}")
    hot = analysis.hottest(rows, 3)
    if hot:
        out.append("  hottest: " + "; ".join(
            f"{_place(r) if t.lines else hex(r.address or 0)} {_text(r, 40)}" for r in hot))
    return "\n".join(out)


def _place(row: analysis.Row) -> str:
    """'matmul.py:75': a line's file name (not its folders) and number."""
    return f"{visible(Path(row.file or '').name)}:{row.line}"


def _text(row: analysis.Row, width: int) -> str:
    """A row's source or SASS text, its first `width` characters, on one line."""
    return visible((row.text or "").strip()[:width])


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """The `source` subcommand: 0, or 1 when a file cannot be read or no kernel is picked."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    status, picks = 0, Picks(args.kernel)
    for path in args.files:
        try:
            kernels = picked(picks, path, read_source(path))
        except ReportError as exc:
            print(visible(f"error: {exc}"), file=err)
            status = 1
            continue
        if not kernels:
            continue
        if args.json:
            print(json.dumps({"file": str(path), "kernels": [kernel_json(k) for k in kernels]}),
                  file=out)
        else:
            print(visible_lines(f"{visible(str(path))}\n"
                                + "\n\n".join(kernel_text(k) for k in kernels)) + "\n", file=out)
    return picks.status(status, err)
