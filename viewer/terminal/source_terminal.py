"""The terminal's `source`: python -m viewer source [FILE...] [-k SPEC] [--json] [--all].

Each file (a .ncu-rep, or ncu's `--page source --csv` export; no file: the shipped pair) through
viewer.readers.source; per kernel its source lines and SASS with ncu's counters
(viewer.analysis.source). `--json` prints one object per file (SCHEMA): {"schema", "source",
"kernels": [{"index", "name", "display_name", "notes", "lines": [...], "sass": [...]}]}, every
line and instruction; values are warp level, a line's the sums over its instructions, null where
the report lacks the counter. Without it: a table per kernel, its columns warp level as the line
over them says, and above them the kernel's instructions and loads per thread. Where the kernel
has line info, each source line, and under the lines that load (SHOWN says which) their SASS
instructions with their counters; without it, a SASS section of the instructions that load and
the hottest. `--all` puts the SASS under every line, or prints every instruction.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from viewer.analysis import source as analysis
from viewer.core import formatting as fmt
from viewer.core import kernel_filter, shipped
from viewer.core.model import Kernel, ReportError
from viewer.core.terminal_text import visible, visible_lines
from viewer.readers.source import INST_EXECUTED, KernelSource, read_source
from viewer.terminal.roofline_terminal import Picks, add_kernel_option

DESCRIPTION = ("Each kernel's source lines and SASS with ncu's per-instruction counters (warp "
               "level): instructions executed, global and shared loads, L2 theoretical sectors, "
               "warp stall samples.")
FIELDS = ("inst_executed", "global_loads", "shared_loads", "l2_theoretical_sectors", "samples")
SCHEMA = 2
"""--json's layout; 2: `source` names the file (was `file`), and each kernel's `index` and
`name` (its function's name) and `display_name` (its whole name) are summary --json's (`name`
was the whole name)."""
HOTTEST_LINES = 3
"""Without --all, the SASS is shown under the lines that load and under this many hottest lines."""
HOTTEST_SASS = 10
"""Without --all and without line info, the instructions that load and this many hottest."""
SHOWN = (f"SASS under the lines that load and the {HOTTEST_LINES} hottest (--all: under every"
         " line)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", type=Path,
                        help=".ncu-rep reports, or ncu's --page source --csv exports (default: "
                             "the shipped naive-vs-tiled pair)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per file, every line and instruction")
    parser.add_argument("--all", action="store_true",
                        help="the SASS under every source line, or every instruction of a kernel "
                             f"without line info (default: the lines that load and the "
                             f"{HOTTEST_LINES} hottest, or the instructions that load and the "
                             f"{HOTTEST_SASS} hottest)")
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
        "index": kernel.index,
        # a graph's or range's function is not named by the report: its name is the words
        "name": kernel.function if kernel.kind is None else kernel.name,
        "display_name": kernel.name,
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


def loads(row: analysis.Row) -> bool:
    """Whether the row issues loads: global or shared loads executed, or where the report holds
    no executed counts, a load instruction among its own."""
    executed = [row.value(analysis.GLOBAL_LOADS), row.value(analysis.SHARED_LOADS)]
    if all(v is None for v in executed):
        return any(i.is_global_load or i.is_shared_load for i in row.instructions)
    return any(executed)


def shown_rows(rows: Sequence[analysis.Row], hottest: int) -> set[int]:
    """The places in `rows` of those that load and of the `hottest` hottest."""
    hot = {id(r) for r in analysis.hottest(rows, hottest)}
    return {n for n, r in enumerate(rows) if loads(r) or id(r) in hot}


def _table_row(where: str, row: analysis.Row, text: str) -> str:
    return f"  {where:>14} " + " ".join(f"{_cell(row.value(f)):>{w}}" for f, w in zip(
        FIELDS, (12, 10, 10, 10, 8), strict=True)) + f"  {text}"


def _sass_row(row: analysis.Row, indent: str = "") -> str:
    return _table_row(f"{row.address or 0:x}"[-14:], row, indent + _text(row, 60))


def _left_out(count: int) -> str:
    return f"  {'':>14} ... {count:,} instruction{'' if count == 1 else 's'}"


def lines_text(t: analysis.SourceTable, everything: bool) -> list[str]:
    """Each source line, and under those SHOWN (every one with `everything`) its SASS; then the
    instructions of no line, with `everything`."""
    rows = t.lines
    shown = set(range(len(rows))) if everything else shown_rows(rows, HOTTEST_LINES)
    by_address = {i.address: r for r in t.sass for i in r.instructions}
    out = []
    for n, line in enumerate(rows):
        out.append(_table_row(_place(line), line, _text(line, 60)))
        if n in shown:
            out += [_sass_row(by_address[i.address], "  ") for i in line.instructions]
    lineless = [r for r in t.sass if r.line is None]
    if lineless and everything:
        out.append(f"  {'(no line)':>14}  the instructions the report ties to no source line")
        out += [_sass_row(r, "  ") for r in lineless]
    under = sum(len(rows[n].instructions) for n in shown)
    note = f"  {SHOWN}: {under:,} of {len(t.sass):,} instructions"
    if lineless:
        note += f"; {len(lineless):,} tied to no line" + ("" if everything else " not shown")
    return [*out, note]


def sass_text(t: analysis.SourceTable, everything: bool) -> list[str]:
    """The SASS section of a kernel without line info: the instructions that load and the
    hottest (every one with `everything`), in address order, a gap said where some are left
    out."""
    rows = t.sass
    shown = set(range(len(rows))) if everything else shown_rows(rows, HOTTEST_SASS)
    out, gap = [], 0
    for n, row in enumerate(rows):
        if n not in shown:
            gap += 1
            continue
        if gap:
            out.append(_left_out(gap))
        out.append(_sass_row(row))
        gap = 0
    if gap:
        out.append(_left_out(gap))
    if not everything:
        out.append(f"  SASS: the instructions that load and the {HOTTEST_SASS} hottest,"
                   f" {len(shown):,} of {len(rows):,} (--all: every one)")
    return out


def kernel_text(kernel: KernelSource, everything: bool = False) -> str:
    t = analysis.table(kernel)
    head = "line" if t.lines else "address"
    out = [visible(kernel.name), *(f"  note: {visible(n)}" for n in t.notes),
           f"  {per_thread_text(t)}", f"  {COLUMNS_NOTE}"]
    out.append(f"  {head:>14} {'warp inst.':>12} {'global ld':>10} {'shared ld':>10}"
               f" {'L2 sect.':>10} {'samples':>8}  text")
    out += lines_text(t, everything) if t.lines else sass_text(t, everything)
    hot = analysis.hottest(t.lines or t.sass, 3)
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
    for path in args.files or shipped.comparison():
        try:
            kernels = picked(picks, path, read_source(path))
        except ReportError as exc:
            print(visible(f"error: {exc}"), file=err)
            status = 1
            continue
        if not kernels:
            continue
        if args.json:
            print(json.dumps({"schema": SCHEMA, "source": str(path),
                              "kernels": [kernel_json(k) for k in kernels]}), file=out)
        else:
            print(visible_lines(f"{visible(str(path))}\n" + "\n\n".join(
                kernel_text(k, args.all) for k in kernels)) + "\n", file=out)
    return picks.status(status, err)
