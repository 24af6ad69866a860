"""The terminal's `series`: several reports as one series (viewer.analysis.series), as a table in
the reading order's words or as one JSON object (series.SCHEMA).

`python -m viewer series FILE... [--json] [--baseline I] [--merge]` (no file: the shipped
sweep, profiles/sweep/*.ncu-rep[.gz], where it is shipped, else the shipped pair, a line on
stderr saying which): a block per row (numbered from 0, as --baseline and the JSON number them):
each of the lesson's rows with its value, the derivation where the kernel is the lesson's
(viewer.analysis.series_words: '(exact)' only where equal, else both) and the row against the
baseline's ('8.00x fewer'); then each step's change (series.step_pairs: within one N in a
sweep), what the series shows and cannot, the naive-over-tiled ratios across N, and where the
report and the derivation differ (series_words.notes). With --json those sentences go to
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

from viewer.analysis import series, series_words
from viewer.core import formatting as fmt
from viewer.core import shipped
from viewer.core.terminal_text import visible, visible_lines
from viewer.terminal.roofline_terminal import read_each

DESCRIPTION = ("Print several reports as a series: the lesson's rows of each, the derivation "
               "at each N, and ratios against a baseline row.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """series' options, for viewer/cli.py's command tree."""
    parser.add_argument("files", nargs="*", type=Path,
                        help="reports or exports (default: the shipped sweep, profiles/sweep/, "
                             "where it is shipped, else the shipped naive-vs-tiled pair)")
    parser.add_argument("--json", action="store_true", help="one JSON object for the series")
    parser.add_argument("--baseline", type=int, default=0, metavar="I",
                        help="the row the ratios are against, numbered from 0 (default: 0)")
    parser.add_argument("--merge", action="store_true",
                        help="one row for one launch read from several reports (a --metrics "
                             "capture and a details capture)")


def _cell(line: series.Line, value: float | None) -> str:
    return fmt.by_unit(value, line.unit)


def derived_width(s: series.Series) -> int:
    """The derivation column's width: its longest words in the series, at least 30."""
    return max([30, *(len(series_words.derived_words(line, r, "derived ")) for r in s.rows
                      for line in series.LINES)])


def row_text(s: series.Series, i: int, width: int = 30) -> str:
    """One row's block: its heading, then each of the lesson's rows, the derivation's words in
    a column `width` wide."""
    r = s.rows[i]
    files = " + ".join(r.files)
    head = f"row {i}  {r.name}  {files}" + ("  (baseline)" if i == s.baseline else "")
    lines = [visible(head)]
    for line in series.LINES:
        both = r.disagree.get(line.key)
        value = _cell(line, r.values.get(line.key))
        if both is not None:
            value = f"{_cell(line, both[0])} / {_cell(line, both[1])} (disagree)"
        words = "" if i == s.baseline else series.against(r, s.base, line.key,
                                                              f"row {s.baseline}")
        derived = series_words.derived_words(line, r, "derived ")
        lines.append(f"     {line.label:<30} {value:>22}   {derived:<{width}}   {words}".rstrip())
    return "\n".join(lines)


def series_text(s: series.Series) -> str:
    """The whole series: its heading, each row's block, its steps and its notes."""
    if not s.rows:
        return "\n".join(s.notes)
    parts = [visible(f"Series: {s.heading}")]
    width = derived_width(s)
    parts += [row_text(s, i, width) for i in range(len(s.rows))]
    steps = series.steps(s)
    if steps:
        parts.append("Steps:\n" + "\n".join("  " + visible(step) for step in steps))
    notes = series_words.notes(s)
    if notes:
        parts.append("Notes:\n" + "\n".join("  " + visible(note) for note in notes))
    return "\n\n".join(parts)


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
        for note in series_words.notes(made):
            print(visible(f"note: {note}"), file=err)
    else:
        print(visible_lines(series_text(made)), file=out)
    return status


def default_files(err: TextIO | None = None) -> list[Path]:
    """The files `series` reads when none is named: the shipped sweep where it is shipped, else
    the shipped pair; a line on `err` says which."""
    err = err or sys.stderr
    found = shipped.sweep()
    if found:
        print(visible(f"series: no file named: reading the shipped sweep, {len(found)} "
                      f"report{'s' if len(found) != 1 else ''} in {found[0].parent}"), file=err)
        return found
    pair = shipped.comparison()
    print(visible(f"series: no file named: reading the shipped pair, "
                  f"{' and '.join(p.name for p in pair)} in {pair[0].parent} (no sweep is "
                  "shipped)"), file=err)
    return pair


def run(args: argparse.Namespace) -> int:
    """The `series` subcommand: the files named, else the shipped sweep, else the shipped
    pair (default_files)."""
    return show(args.files or default_files(), args.json, args.baseline, args.merge)
