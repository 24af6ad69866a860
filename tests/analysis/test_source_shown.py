"""What the Source view says of a kernel before its table, on the real reports: the function
it shows and the words where there is none, the row it marks by default, naive against tiled."""

from __future__ import annotations

from pathlib import Path

import pytest

from viewer.analysis import source as analysis
from viewer.analysis.source import GLOBAL_LOADS, row_key
from viewer.analysis.source_shown import (
    NO_SASS,
    READING,
    compared,
    function_text,
    hottest_global_load,
    marked_keys,
    reading_text,
)
from viewer.readers.source import read_source

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def pair():
    return (read_source(ROOT / "profiles" / "naive.ncu-rep")[0],
            read_source(ROOT / "profiles" / "tiled.ncu-rep")[0])


def test_an_export_says_what_holds_the_counters(pair) -> None:
    function, said = function_text("raw-csv", pair, None)
    assert function is None and "raw-csv" in said and ".ncu-rep" in said


def test_the_first_function_is_shown_and_the_others_counted(pair) -> None:
    assert function_text("ncu-rep", pair[:1], None) == (pair[0], "")
    function, said = function_text("ncu-rep", pair, None)
    assert function is pair[0] and said == "function 1 of 2 this result ran"


def test_no_function_says_why(pair) -> None:
    assert function_text("ncu-rep", (), None) == (None, NO_SASS)
    assert function_text("ncu-rep", (), "the read stopped") == (None, "the read stopped")
    assert function_text("ncu-rep", None, None) == (None, "")


def test_the_read_says_its_step() -> None:
    assert reading_text("") == READING
    assert reading_text("naive.ncu-rep") == f"{READING} naive.ncu-rep"


def test_the_default_mark_is_the_hottest_global_load(pair) -> None:
    naive = pair[0]
    key = hottest_global_load([None, naive])
    table = analysis.table(naive)
    loads = [r for r in table.lines if r.value(GLOBAL_LOADS)]
    assert key == row_key(analysis.hottest(loads, 1)[0])
    assert hottest_global_load([None]) is None


def test_each_table_marks_its_default_unless_a_row_is_chosen() -> None:
    assert marked_keys(None, False, ["a:1", "b:2"], 2) == ["a:1", "b:2"]
    assert marked_keys("c:3", True, ["a:1", "b:2"], 2) == ["c:3", "c:3"]
    assert marked_keys("a:1", False, ["a:1"], 2) == ["a:1", "a:1"]


def test_two_functions_with_counters_are_compared(pair) -> None:
    comparison = compared(pair)
    assert comparison is not None and comparison.naive_global
    assert compared(pair[:1]) is None and compared([pair[0], None]) is None
