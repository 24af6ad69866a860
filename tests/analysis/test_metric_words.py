"""The "Every metric" view's words and column widths as plain text and numbers."""

from __future__ import annotations

from pathlib import Path

from viewer.analysis import metric_table
from viewer.analysis.metric_words import (
    DESCRIPTION_CHARS,
    METRIC_CHARS,
    NAME_CHARS,
    NAME_SHARE,
    NO_DESCRIPTIONS,
    NOT_READ,
    PAD,
    READING,
    TITLE_CHARS,
    column_widths,
    count_text,
    diff_heading,
    note_text,
    one_sided_text,
    reading_text,
    rows_heading,
    scroll_note,
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


def test_the_values_take_their_width_first_and_the_names_what_is_left() -> None:
    advance = len  # a character a pixel
    columns = ("Metric", "A sm80_xmma_gemm_f32f32_tn", "B sm80_xmma_gemm_f32f32_nt", "Unit")
    values = [[], ["1,654,784", "2.704e+04"], ["16"], ["cycle"]]
    names = ["x" * 700]
    widths = column_widths(columns, names, values, advance, 1, room=400)
    assert widths[1:] == [TITLE_CHARS + PAD, TITLE_CHARS + PAD, len("cycle") + PAD]
    assert sum(widths) == 400  # every value inside the room, the name the rest
    wide = column_widths(columns, names, [[], ["9" * 30], [], []], advance, 1, room=400)
    assert wide[1] == 30 + PAD  # a value is never cut for its title's sake
    least = max(len("Metric") + PAD, METRIC_CHARS)
    short = column_widths(columns, ["a"], values, advance, 1, room=4000)
    assert short[0] == least  # a short name keeps the column's least
    narrow = column_widths(columns, names, values, advance, 1, room=50)
    assert narrow[0] == least  # too little room: the name keeps its least


def test_the_names_keep_a_readable_least_and_past_it_the_columns_scroll() -> None:
    """Values that leave the names less than NAME_CHARS (or NAME_SHARE of the table) leave
    them that least all the same: the columns add up to more than the table, which says so."""
    columns = ("Metric", "A naive", "B tiled", "Unit")
    values = [[], ["9" * 30], ["9" * 30], ["byte/sector"]]
    names = ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]
    room = 100 + NAME_CHARS
    widths = column_widths(columns, names, values, len, 1, room=room)
    assert widths[0] == min(NAME_CHARS, int(NAME_SHARE * room))
    assert sum(widths) > room
    assert "scroll sideways" in scroll_note(widths, room)
    wide = column_widths(columns, names, values, len, 1, room=1000)
    assert wide[0] == len(names[0]) + PAD and sum(wide) < 1000  # room: the name whole
    assert scroll_note(wide, 1000) == ""
    short = column_widths(columns, ["a.sum"], values, len, 1, room=room)
    assert short[0] == max(len("Metric") + PAD, METRIC_CHARS)  # a short name needs no more


def test_a_hidden_column_takes_no_room() -> None:
    columns = ("Metric", "Value", "Better when", "Unit")
    values = [[], ["12"], ["higher"], ["byte"]]
    widths = column_widths(columns, ["n" * 500], values, len, 1, 200, hidden=("Better when",))
    assert widths[2] == 0 and sum(widths) == 200


def test_one_kernels_description_keeps_its_room_beside_the_values() -> None:
    advance = len
    columns = ("Metric", "Value", "Unit", "Description")
    widths = column_widths(columns, ["n" * 500], [[], ["12.5 %"], ["%"], ["d" * 300]],
                           advance, 1, room=300)
    assert widths[3] == max(len("Description") + PAD, DESCRIPTION_CHARS)
    assert sum(widths) == 300


def test_the_rows_shown_as_csv_are_a_diff_with_two_names() -> None:
    naive, tiled = (read_report(ROOT / "profiles" / f"{n}.ncu-rep").kernels[0]
                    for n in ("naive", "tiled"))
    diffs = metric_table.diff(naive, tiled)
    assert table_csv(diffs, ["naive", "tiled"]) == metric_table.diff_csv(diffs, "naive", "tiled")
    rows = metric_table.rows(naive)
    assert table_csv(rows, ["naive"]) == metric_table.rows_csv(rows)
