"""The memory chart's layout arithmetic (viewer.analysis.chart_columns): a band on one row
spread to a width, and wrapped onto rows that each fit."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from viewer.analysis import chart_columns as cc

COLUMNS = [60.0, 100.0, 70.0, 90.0]
GAPS = [200.0, 150.0, 120.0]
MARGIN = 8.0
NATURAL = sum(COLUMNS) + sum(GAPS) + 2 * MARGIN  # 806


def test_the_path_runs_through_l1tex_not_shared_memory() -> None:
    assert [cc.path_box(c) for c in range(len(cc.COLUMNS))] == ["kernel", "l1tex", "l2", "dram"]
    assert len(cc.GAP_ARROWS) == len(cc.COLUMNS) - 1


def test_at_its_natural_width_each_column_follows_the_gap_before_it() -> None:
    lefts, width = cc.spread(COLUMNS, GAPS, 0, MARGIN)
    assert lefts == [8.0, 268.0, 518.0, 708.0]
    assert width == NATURAL == cc.span_width(COLUMNS, GAPS, 0, 3, MARGIN)


def test_room_past_the_natural_width_is_shared_out_among_the_gaps() -> None:
    lefts, width = cc.spread(COLUMNS, GAPS, NATURAL + 300, MARGIN)
    assert width == NATURAL + 300
    assert lefts == [8.0, 368.0, 718.0, 1008.0]


def test_a_narrower_width_never_squeezes_a_gap() -> None:
    assert cc.spread(COLUMNS, GAPS, NATURAL - 300, MARGIN) == cc.spread(COLUMNS, GAPS, 0, MARGIN)


@pytest.mark.parametrize(("wanted", "rows"), [
    (NATURAL, [(0, 3)]),
    (NATURAL - 1, [(0, 2), (2, 3)]),
    (1.0, [(0, 1), (1, 2), (2, 3)]),
])
def test_a_wrapped_band_starts_each_row_on_the_column_the_last_ended_on(
        wanted: float, rows: list[tuple[int, int]]) -> None:
    assert cc.spans(COLUMNS, GAPS, wanted, MARGIN) == rows


@given(st.floats(1, 2000))
def test_every_row_fits_where_more_than_two_columns_are_on_it(wanted: float) -> None:
    rows = cc.spans(COLUMNS, GAPS, wanted, MARGIN)
    assert rows[0][0] == 0 and rows[-1][1] == len(COLUMNS) - 1
    assert all(a[1] == b[0] for a, b in pairwise(rows))
    for first, last in rows:
        assert last - first == 1 or cc.span_width(COLUMNS, GAPS, first, last, MARGIN) <= wanted


def test_a_row_that_starts_past_the_kernel_starts_at_the_margin() -> None:
    assert cc.row_lefts(COLUMNS, GAPS, 2, 3, MARGIN) == {2: 8.0, 3: 198.0}
    assert cc.row_lefts(COLUMNS, GAPS, 0, 1, MARGIN) == {0: 8.0, 1: 268.0}
