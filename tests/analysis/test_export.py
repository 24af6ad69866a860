"""The comparison as CSV and Markdown, checked against values read from the H200 pair's files.

Values by eye from tests/data/corpus/h200/numba-{naive,tiled}.raw.csv: duration 219.136 us and
47.776 us; global load requests 8,388,608 and 524,288; sectors 16,777,216 and 2,097,152;
shared load instructions 0 and 5,242,880; achieved occupancy 60.24 % and 81.48 %.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from viewer.analysis import export
from viewer.analysis.comparison import COMPARED
from viewer.core.model import Kernel
from viewer.readers import read_report

H200 = Path(__file__).resolve().parents[1] / "data" / "corpus" / "h200"


@pytest.fixture(scope="module")
def pair() -> tuple[Kernel, Kernel]:
    naive = read_report(H200 / "numba-naive.ncu-rep").kernels[0]
    tiled = read_report(H200 / "numba-tiled.ncu-rep").kernels[0]
    return naive, tiled


def rows_by_label(text: str) -> dict[str, dict[str, str]]:
    return {row["row"]: row for row in csv.DictReader(io.StringIO(text))}


def test_csv_holds_every_compared_row_in_the_lessons_order(pair) -> None:
    text = export.comparison_csv(pair, ["naive", "tiled"])
    lines = list(csv.reader(io.StringIO(text)))
    assert lines[0] == ["row", "metric", "unit", "naive", "tiled", "ratio naive / tiled",
                        "reading"]
    assert [line[0] for line in lines[1:]] == [label for _, label in COMPARED]


def test_csv_values_are_base_units_with_full_digits(pair) -> None:
    rows = rows_by_label(export.comparison_csv(pair, ["naive", "tiled"]))
    requests = rows["Global load requests"]
    assert (requests["naive"], requests["tiled"]) == ("8388608", "524288")
    assert requests["unit"] == "request"
    assert requests["metric"] == "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
    assert float(requests["ratio naive / tiled"]) == 16.0
    sectors = rows["Sectors moved (global loads)"]
    assert (sectors["naive"], sectors["tiled"]) == ("16777216", "2097152")
    assert sectors["reading"] == "Sectors moved (global loads): naive 8.00x tiled"
    duration = rows["Duration"]
    assert duration["unit"] == "ns"
    assert float(duration["naive"]) == pytest.approx(219_136, abs=1)
    assert float(duration["tiled"]) == pytest.approx(47_776, abs=1)
    assert float(duration["ratio naive / tiled"]) == pytest.approx(219.136 / 47.776, rel=1e-4)
    per_request = rows["Sectors per request"]
    assert (float(per_request["naive"]), float(per_request["tiled"])) == (2.0, 4.0)
    assert "/" in per_request["metric"]
    shared = rows["Shared load instructions"]
    assert (shared["naive"], shared["tiled"]) == ("0", "5242880")
    assert shared["ratio naive / tiled"] == "0"
    assert shared["reading"] == "Shared load instructions: tiled has some, naive none"
    achieved = rows["Achieved Occupancy"]
    assert achieved["unit"] == "%"
    assert float(achieved["naive"]) == pytest.approx(60.24, abs=0.005)
    assert float(achieved["tiled"]) == pytest.approx(81.48, abs=0.005)


def test_a_missing_value_is_an_empty_cell_not_zero(pair) -> None:
    naive, tiled = pair
    bare = Kernel(index=0, name=tiled.name, display_name=tiled.display_name,
                  metrics={k: v for k, v in tiled.metrics.items()
                           if k != "gpu__time_duration.sum"})
    rows = rows_by_label(export.comparison_csv([naive, bare], ["naive", "tiled"]))
    assert rows["Duration"]["tiled"] == ""
    assert rows["Duration"]["ratio naive / tiled"] == ""
    assert rows["Duration"]["reading"] == "Duration: not in both reports"
    markdown = export.comparison_markdown([naive, bare], ["naive", "tiled"])
    assert "| Duration | 219.14 us | n/a | not in both reports |" in markdown


def test_markdown_is_a_table_of_formatted_values_and_which_has_more(pair) -> None:
    text = export.comparison_markdown(pair, ["naive", "tiled"],
                                      ["numba-naive.ncu-rep", "numba-tiled.ncu-rep"])
    lines = text.splitlines()
    assert lines[0] == "## naive against tiled"
    assert "Files: `numba-naive.ncu-rep`, `numba-tiled.ncu-rep`" in lines
    assert "| Row | naive | tiled | Which has more |" in lines
    assert "| --- | ---: | ---: | --- |" in lines
    assert "| Duration | 219.14 us | 47.78 us | naive 4.59x tiled |" in lines
    assert "| Global load requests | 8,388,608 | 524,288 | naive 16.00x tiled |" in lines
    assert ("| Sectors moved (global loads) | 16,777,216 | 2,097,152 | naive 8.00x tiled |"
            in lines)
    # a ratio under 1 is said the other way round, as the memory step says it
    assert "| Achieved Occupancy | 60.24 % | 81.48 % | tiled 1.35x naive |" in lines
    assert "| Sectors per request | 2.00 | 4.00 | tiled 2.00x naive |" in lines
    assert "| Shared load instructions | 0 | 5,242,880 | tiled has some, naive none |" in lines
    table = [line for line in lines if line.startswith("| ")]
    assert len(table) == 2 + len(COMPARED)
    assert all(line.count(" | ") == 3 for line in table)


def test_one_kernel_gives_its_values_without_ratios(pair) -> None:
    naive = pair[0]
    lines = list(csv.reader(io.StringIO(export.comparison_csv([naive], ["naive"]))))
    assert lines[0] == ["row", "metric", "unit", "naive"]
    assert ["Global load requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
            "request", "8388608"] in lines
    markdown = export.comparison_markdown([naive], ["naive"])
    assert "| Row | naive |" in markdown
    assert "| Sectors per request | 2.00 |" in markdown
    assert not any(line.startswith("- ") for line in markdown.splitlines())


def test_names_with_pipes_do_not_break_the_table(pair) -> None:
    text = export.comparison_markdown(pair, ["a|b", "c"])
    assert "| Row | a\\|b | c | Which has more |" in text
    assert "| Duration | 219.14 us | 47.78 us | a\\|b 4.59x c |" in text


def test_wrong_kernel_counts_are_refused(pair) -> None:
    with pytest.raises(ValueError):
        export.comparison_csv([], [])
    with pytest.raises(ValueError):
        export.comparison_csv([*pair, pair[0]], ["a", "b", "c"])
    with pytest.raises(ValueError):
        export.comparison_markdown(pair, ["only one name"])
