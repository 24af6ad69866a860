"""The memory chart's label lines (viewer.analysis.chart_labels): the lines a narrowed chart
breaks them onto, and the row each number picks."""

from __future__ import annotations

import pytest

from viewer.analysis import chart_labels
from viewer.analysis import chart_layout as cl
from viewer.core.formatting import NOT_IN_REPORT
from viewer.core.model import Kernel


def test_a_count_goes_over_its_noun_and_a_verb_over_its_size() -> None:
    assert chart_labels.narrowed(("16,777,216 sectors", "read 2.10 MB")) == (
        "16,777,216", "sectors", "read", "2.10 MB")


@pytest.mark.parametrize("line", ["2.00 per request", "53.96 MB", "0 B", "1,024",
                                  f"sectors {NOT_IN_REPORT}"])
def test_a_rate_a_size_a_lone_word_and_a_missing_value_stay_whole(line: str) -> None:
    assert chart_labels.narrowed((line,)) == (line,)


def test_a_box_breaks_only_before_the_words_of_a_missing_value() -> None:
    assert chart_labels.box_parts(f"hit rate {NOT_IN_REPORT}") == ("hit rate", NOT_IN_REPORT)
    assert chart_labels.box_parts(NOT_IN_REPORT) == (NOT_IN_REPORT,)
    assert chart_labels.box_parts("hit 88.20 %") == ("hit 88.20 %",)


def test_under_the_global_load_arrow_sectors_and_their_rate_are_rows_of_their_own() -> None:
    assert chart_labels.line_row("global", "16,777,216 sectors", below=True) == (
        "global_load_sectors")
    assert chart_labels.line_row("global", "2.00 per request", below=True) == (
        "sectors_per_request")
    assert chart_labels.line_row("global", "8,388,608 requests", below=False) == (
        "global_load_requests")


def test_every_row_the_tables_compare_but_the_duration_is_a_number_on_the_chart(
        naive: Kernel) -> None:
    band = cl.chart_band(naive, "naive")
    rows = {chart_labels.line_row(a.key, line, below)
            for a in band.arrows for below, lines in ((False, a.above), (True, a.below))
            for line in lines}
    rows |= set(chart_labels.BOX_ROWS.values())
    assert rows - {cl.DRAM_SUM} == set(cl.MEMORY_COMPARED) - {"duration_ns"}
