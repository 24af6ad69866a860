"""The "Every metric" view's words and column widths, as plain text and numbers: its headings,
the note on what an export lacks, the count of the rows shown, the read's progress line, the
width each column takes, and the rows shown as CSV."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from viewer.analysis import metric_table
from viewer.analysis.metric_table import MetricDiff, MetricRow, OneSided

NO_DESCRIPTIONS = ("This file is an export: it carries values and names but not ncu's units or "
                   "descriptions (a .ncu-rep does).")
NOT_READ = "Could not read the rest of the metrics"
NO_SELECTION = "Open a report and pick a kernel to list its metrics."
READING = "Reading every metric..."

WIDTHS = {"Description": 60, "Unit": 12, "Better when": 12, "Verdict": 9, "B/A": 9, "Change": 14}
"""Each column's width in average characters (the rest 18; the Metric column METRIC_WIDTH)."""
METRIC_WIDTH, PROJECTOR_METRIC_WIDTH = 46, 40
NAME_ROOM = 0.7
"""The share of the table's width the longest metric name shown may take."""
PAD = 24


def diff_heading(count: int, names: Sequence[str], projector: bool) -> str:
    """Over the diff: how many metrics both kernels hold, and how they are ordered."""
    both = f"{count:,} metrics both {names[0]} (A) and {names[1]} (B) hold"
    return (f"{both}, the largest change first." if projector
            else f"{both}, the largest relative change first; coloured "
            "where higher or lower is known to be better.")


def rows_heading(count: int, name: str) -> str:
    return f"{count:,} metrics of {name}."


def one_sided_text(count: int) -> str:
    """The box that adds the metrics one kernel holds to the diff."""
    return f"Also the {count:,} held by one kernel only"


def count_text(shown: int, total: int) -> str:
    """Under the table: the rows the search and the threshold leave, of all."""
    return f"{total:,} metrics" if shown == total else f"{shown:,} of {total:,} metrics"


def reading_text(message: str) -> str:
    """The read's progress line: its own step, capitalised, else READING."""
    return message[:1].upper() + message[1:] + "..." if message else READING


def note_text(error: str, exported: bool) -> str | None:
    """The note under the warnings: why the read failed, else what an export lacks; None
    where there is nothing to say."""
    if error:
        return f"{NOT_READ}: {error}"
    return NO_DESCRIPTIONS if exported else None


def column_widths(columns: Sequence[str], names: Sequence[str], advance: Callable[[str], int],
                  char_width: int, room: int, projector: bool) -> list[int]:
    """Each column's width in pixels: its title's or its characters' (`advance` measures a
    text, `char_width` is an average character's), the Metric column the longest of `names`
    up to `room` (names are the point of this page: two must never read alike for a cut)."""
    longest = max((advance(n) for n in names), default=0) + PAD
    widths = []
    for title in columns:
        chars = (PROJECTOR_METRIC_WIDTH if projector else METRIC_WIDTH) if title == "Metric" \
            else WIDTHS.get(title, 18)
        width = max(advance(title) + PAD, chars * char_width)
        if title == "Metric":
            width = max(width, min(longest, room))
        widths.append(width)
    return widths


def table_csv(shown: Sequence[MetricRow | MetricDiff | OneSided], names: Sequence[str]) -> str:
    """The rows shown as CSV: a diff's (two `names`, A first; what one kernel holds left out)
    or one kernel's."""
    if len(names) == 2:
        return metric_table.diff_csv([d for d in shown if isinstance(d, MetricDiff)], *names)
    return metric_table.rows_csv([r for r in shown if isinstance(r, MetricRow)])
