"""The "Every metric" view's words and column widths as plain text and numbers."""

from __future__ import annotations

from pathlib import Path

from viewer.analysis import metric_table
from viewer.analysis.metric_words import (
    METRIC_WIDTH,
    NO_DESCRIPTIONS,
    NOT_READ,
    PAD,
    PROJECTOR_METRIC_WIDTH,
    READING,
    column_widths,
    count_text,
    diff_heading,
    note_text,
    one_sided_text,
    reading_text,
    rows_heading,
    table_csv,
)
from viewer.readers import read_report

ROOT = Path(__file__).resolve().parents[2]


def test_the_headings_count_with_separators() -> None:
    assert rows_heading(2198, "matmul_naive") == "2,198 metrics of matmul_naive."
    desk = diff_heading(2198, ["naive", "tiled"], projector=False)
    assert desk.startswith("2,198 metrics both naive (A) and tiled (B) hold, the largest "
                           "relative change first; coloured")
    assert diff_heading(3, ["a", "b"], projector=True).endswith("the largest change first.")
    assert one_sided_text(1021) == "Also the 1,021 held by one kernel only"


def test_the_count_says_what_the_filter_left() -> None:
    assert count_text(1200, 1200) == "1,200 metrics"
    assert count_text(3, 1200) == "3 of 1,200 metrics"


def test_the_read_says_its_step_capitalised() -> None:
    assert reading_text("") == READING
    assert reading_text("reading naive.ncu-rep") == "Reading naive.ncu-rep..."


def test_the_note_says_a_failure_before_what_an_export_lacks() -> None:
    assert note_text("", exported=False) is None
    assert note_text("", exported=True) == NO_DESCRIPTIONS
    assert note_text("no such file", exported=True) == f"{NOT_READ}: no such file"


def test_the_metric_column_takes_the_longest_name_up_to_its_room() -> None:
    advance = len  # a character a pixel
    columns = ("Metric", "Value", "Unit", "Description")
    short = column_widths(columns, ["a"], advance, 10, room=1000, projector=False)
    assert short == [METRIC_WIDTH * 10, 180, 120, 600]  # each its characters
    long = "x" * 700
    assert column_widths(columns, [long], advance, 1, 1000, False)[0] == 700 + PAD
    assert column_widths(columns, [long], advance, 1, 100, False)[0] == 100
    assert column_widths(columns, [], advance, 1, 100, True)[0] == PROJECTOR_METRIC_WIDTH
    titled = column_widths(("Metric",), [], advance, 0, 100, False)
    assert titled == [len("Metric") + PAD]


def test_the_rows_shown_as_csv_are_a_diff_with_two_names() -> None:
    naive, tiled = (read_report(ROOT / "profiles" / f"{n}.ncu-rep").kernels[0]
                    for n in ("naive", "tiled"))
    diffs = metric_table.diff(naive, tiled)
    assert table_csv(diffs, ["naive", "tiled"]) == metric_table.diff_csv(diffs, "naive", "tiled")
    rows = metric_table.rows(naive)
    assert table_csv(rows, ["naive"]) == metric_table.rows_csv(rows)
