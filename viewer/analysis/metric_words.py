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

TITLE_CHARS = 16
"""The most average characters a value column's title widens it by (a kernel's long name, whole
on hover, cut at the right: 'A sm80_xmma_gem...')."""
DESCRIPTION_CHARS, METRIC_CHARS = 24, 8
"""The least room, in average characters, one kernel's Description column and the Metric
column keep beside the values."""
NAME_CHARS, NAME_SHARE = 32, 0.4
"""The least the Metric column keeps for names longer than it: NAME_CHARS average characters
(the part of a name that tells it from its neighbours, 'l1tex__data_bank...shared_op_ld.sum'),
at most NAME_SHARE of the table's width; a name cut to a few characters ('l1t...sum') tells the
room nothing. Where the values leave less, the columns scroll sideways and the table says so
(scroll_note)."""
PAD = 16
PROJECTOR_HIDDEN = ("Better when",)
"""What the projector leaves out of a diff: the Verdict and the colours say it."""


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


def column_widths(columns: Sequence[str], names: Sequence[str],
                  values: Sequence[Sequence[str]], advance: Callable[[str], int],
                  char_width: int, room: int, hidden: Sequence[str] = ()) -> list[int]:
    """Each column's width in pixels, the values first: a value column (all but the Metric and
    the Description) takes its widest value in `values` (each column's texts) and its title up
    to TITLE_CHARS (`advance` measures a text, `char_width` is an average character's), so
    every number lies inside `room`, the table's width, where the names keep their least; the
    Description keeps DESCRIPTION_CHARS, and the Metric column the longest of `names` up to
    what is left, at least METRIC_CHARS, and NAME_CHARS or NAME_SHARE of `room` if less (or the
    longest name, if shorter): a name too long elides in the middle, whole on hover. Where
    the values leave the names less than that least, the widths add up to more than `room`
    (the columns scroll); the `hidden` columns take none."""
    widths = []
    for title, texts in zip(columns, values, strict=True):
        if title in ("Metric", "Description", *hidden):
            widths.append(0)
            continue
        widest = max((advance(t) for t in texts), default=0)
        widths.append(max(widest, min(advance(title), TITLE_CHARS * char_width)) + PAD)
    if "Description" in columns:
        widths[columns.index("Description")] = max(advance("Description") + PAD,
                                                   DESCRIPTION_CHARS * char_width)
    if "Metric" in columns:
        longest = max((advance(n) for n in names), default=0) + PAD
        least = max(advance("Metric") + PAD, METRIC_CHARS * char_width,
                    min(longest, NAME_CHARS * char_width, int(NAME_SHARE * room)))
        widths[columns.index("Metric")] = max(least, min(longest, room - sum(widths)))
    return widths


def scroll_note(widths: Sequence[int], room: int) -> str:
    """Under a table whose columns add up to more than its `room`: that they scroll, and where
    a name is whole ('' where they fit)."""
    if sum(widths) <= room:
        return ""
    return "The columns scroll sideways (Shift+wheel); a name is whole on hover."


def table_csv(shown: Sequence[MetricRow | MetricDiff | OneSided], names: Sequence[str]) -> str:
    """The rows shown as CSV: a diff's (two `names`, A first; what one kernel holds left out)
    or one kernel's."""
    if len(names) == 2:
        return metric_table.diff_csv([d for d in shown if isinstance(d, MetricDiff)], *names)
    return metric_table.rows_csv([r for r in shown if isinstance(r, MetricRow)])
