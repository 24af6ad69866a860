"""The Series view's layout as plain data (viewer.analysis.series_layout): columns split into
parts that fit the width, and the rows past those drawn said to be left out."""

from __future__ import annotations

from pathlib import Path

from tests.many_kernels import build
from viewer.analysis import series
from viewer.analysis.series_layout import DRAWN_ROWS, left_out, packed
from viewer.readers import read_report


def test_columns_that_fit_stay_in_one_part() -> None:
    assert packed([100, 50, 50, 50], room=400, spacing=10) == [[1, 2, 3]]


def test_columns_past_the_room_go_to_a_next_part_with_the_row_labels_again() -> None:
    # 100 + (10 + 50) * 2 = 220 fits 230; a third column would take 280
    assert packed([100, 50, 50, 50, 50], room=230, spacing=10) == [[1, 2], [3, 4]]


def test_a_column_wider_than_the_room_has_a_part_of_its_own() -> None:
    assert packed([100, 50, 500, 50], room=300, spacing=10) == [[1], [2], [3]]


def test_every_column_is_in_one_part_in_order() -> None:
    widths = [80, 30, 120, 45, 200, 60, 10, 90]
    for room in range(50, 700, 37):
        parts = packed(widths, room, spacing=7)
        assert [c for p in parts for c in p] == list(range(1, len(widths)))


def test_a_short_series_leaves_nothing_out() -> None:
    root = Path(__file__).resolve().parents[2] / "profiles"
    s = series.build([read_report(root / "naive.ncu-rep"), read_report(root / "tiled.ncu-rep")])
    assert left_out(s) == ""


def test_the_rows_past_those_drawn_are_named(tmp_path: Path) -> None:
    report = read_report(build(tmp_path / "many.ncu-rep", DRAWN_ROWS + 5))
    s = series.build([report])
    assert len(s.rows) == DRAWN_ROWS + 5
    said = left_out(s)
    assert f"Rows {DRAWN_ROWS} to {DRAWN_ROWS + 4} of {DRAWN_ROWS + 5}" in said
    assert "python -m viewer series" in said
