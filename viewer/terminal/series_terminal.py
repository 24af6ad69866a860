"""The terminal's `series`: several reports as one series (viewer.analysis.series), as a table in
the reading order's words or as one JSON object (series.SCHEMA).

`python -m viewer series FILE... [--json] [--baseline I] [--merge]`: a block per row (numbered
from 0, as --baseline and the JSON number them): each of the lesson's rows with its value, the
derivation where the kernel is the lesson's and the row against the baseline's ('8.00x fewer');
then each step's change and what the series shows and cannot. With --json those sentences go to
stderr, one a line, so stdout is the object alone. A file that does not read: one line on stderr
naming it, exit status 1, the other files still make the series.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from viewer.analysis import series
from viewer.core import formatting as fmt
from viewer.core import shipped
from viewer.core.terminal_text import visible, visible_lines
from viewer.lesson import derivation_check
from viewer.terminal.roofline_terminal import read_each

DESCRIPTION = ("Print several reports as a series: the lesson's rows of each, the derivation "
               "at each N, and ratios against a baseline row.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """series' options, for viewer/cli.py's command tree."""
    parser.add_argument("files", nargs="*", type=Path,
                        help="reports or exports (default: the shipped naive-vs-tiled pair)")
    parser.add_argument("--json", action="store_true", help="one JSON object for the series")
    parser.add_argument("--baseline", type=int, default=0, metavar="I",
                        help="the row the ratios are against, numbered from 0 (default: 0)")
    parser.add_argument("--merge", action="store_true",
                        help="one row for one launch read from several reports (a --metrics "
                             "capture and a details capture)")


def _cell(line: series.Line, value: float | None) -> str:
    return fmt.by_unit(value, line.unit)


def _derived(line: series.Line, r: series.Row) -> str:
    """'derived 8,388,608 (exact)', 'floor 3.15 MB' under the DRAM row, or ''."""
    wanted = r.derived.get(line.key)
    if wanted is None:
        return ""
    if line.key == series.DRAM_READ:
        return f"floor {fmt.size(wanted)}"
    exact = " (exact)" if r.values.get(line.key) == wanted else ""
    return f"derived {_cell(line, wanted)}{exact}"


def row_text(s: series.Series, i: int) -> str:
    """One row's block: its heading, then each of the lesson's rows."""
    r = s.rows[i]
    files = " + ".join(r.files)
    head = f"row {i}  {r.name}  {files}" + ("  (baseline)" if i == s.baseline else "")
    lines = [visible(head)]
    for line in series.LINES:
        both = r.disagree.get(line.key)
        value = _cell(line, r.values.get(line.key))
        if both is not None:
            value = f"{_cell(line, both[0])} / {_cell(line, both[1])} (disagree)"
        words = "" if i == s.baseline else series.against(r, s.base, line.key)
        lines.append(f"     {line.label:<30} {value:>22}   {_derived(line, r):<30} {words}"
                     .rstrip())
    return "\n".join(lines)


def series_text(s: series.Series) -> str:
    """The whole series: its heading, each row's block, its steps and its notes."""
    if not s.rows:
        return "\n".join(s.notes)
    order = "by N" if s.by_size else "in the order given"
    parts = [f"Series: {len(s.rows)} row{'s' if len(s.rows) != 1 else ''} {order}, "
             f"baseline row {s.baseline} ({visible(s.base.name)})"]
    parts += [row_text(s, i) for i in range(len(s.rows))]
    steps = series.steps(s)
    if steps:
        parts.append("Steps:\n" + "\n".join("  " + visible(step) for step in steps))
    notes = list(s.notes)
    if any(_fewer_shared(r) for r in s.rows):
        notes.append(derivation_check.SHARED_LOAD_NOTE)
    if notes:
        parts.append("Notes:\n" + "\n".join("  " + visible(note) for note in notes))
    return "\n\n".join(parts)


def _fewer_shared(r: series.Row) -> bool:
    """Fewer shared loads per thread measured than derived: the compiler merged some."""
    measured, wanted = r.values.get(series.SHARED_PER_THREAD), r.derived.get(
        series.SHARED_PER_THREAD)
    return measured is not None and wanted is not None and measured < wanted


def show(paths: Sequence[str | Path], as_json: bool = False, baseline: int = 0,
         merge: bool = False, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Print the series of the files; 0 when every file was read, else 1 (and 1 with nothing
    printed where no file was, or where the baseline is no row)."""
    out, err = out or sys.stdout, err or sys.stderr
    reports, status = read_each(paths, err)
    if not reports:
        return 1
    try:
        made = series.build(reports, baseline, merge)
    except series.SeriesError as exc:
        print(visible(f"error: {exc}"), file=err)
        return 1
    if as_json:
        print(json.dumps(series.as_json(made)), file=out)
        for note in made.notes:
            print(visible(f"note: {note}"), file=err)
    else:
        print(visible_lines(series_text(made)), file=out)
    return status


def run(args: argparse.Namespace) -> int:
    """The `series` subcommand: the files named, else the shipped comparison."""
    return show(args.files or shipped.comparison(), args.json, args.baseline, args.merge)
