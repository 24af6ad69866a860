"""The kernel list: rows from real reports, filtering, sorting, picking, and 10,000 kernels.

Values by eye from tests/data/corpus/ncu-public/new-2025-details-3mm-multikernel-cc86.txt:
mm3_kernel1 2.57 ms, Compute 66.86 %, Memory 66.86 %; mm3_kernel2 2.53 ms, 66.69 %, 67.88 %;
mm3_kernel3 2.57 ms, 66.94 %, 66.94 %. And from mid-spelling-2022-multikernel-...-details.txt:
row_sums 11.97 ms, Memory [%] 72.28; column_sums 3.02 ms, Memory [%] 92.97.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt

from viewer.core.model import Kernel, Report
from viewer.qt.kernel_list.kernel_list import (
    COLUMNS,
    KernelList,
    KernelTableModel,
    compare_names,
    kernel_entries,
)
from viewer.readers import read_report

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"
THREE_MM = CORPUS / "ncu-public" / "new-2025-details-3mm-multikernel-cc86.txt"
SUMS = CORPUS / "ncu-public" / "mid-spelling-2022-multikernel-rowsums-colsums-details.txt"
H200 = CORPUS / "h200"
DURATION, COMPUTE, MEMORY, VERDICT, FILE = 2, 3, 4, 5, 6


@pytest.fixture(scope="module")
def reports() -> list[Report]:
    return [read_report(THREE_MM), read_report(SUMS)]


@pytest.fixture
def kernel_list(qtbot, reports) -> KernelList:
    widget = KernelList()
    qtbot.addWidget(widget)
    widget.resize(700, 400)
    widget.set_entries(kernel_entries(reports))
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def shown(widget: KernelList, column: int = 1) -> list[str]:
    proxy = widget.proxy
    return [proxy.index(r, column).data() for r in range(proxy.rowCount())]


def test_rows_carry_the_reports_values(reports) -> None:
    entries = kernel_entries(reports)
    assert [e.cells for e in entries] == [
        ("0", "mm3_kernel1", "2.57 ms", "66.86 %", "66.86 %", "compute- and memory-bound",
         THREE_MM.name),
        ("1", "mm3_kernel2", "2.53 ms", "66.69 %", "67.88 %", "memory-bound", THREE_MM.name),
        ("2", "mm3_kernel3", "2.57 ms", "66.94 %", "66.94 %", "compute- and memory-bound",
         THREE_MM.name),
        ("0", "row_sums", "11.97 ms", "4.52 %", "72.28 %", "memory-bound", SUMS.name),
        ("1", "column_sums", "3.02 ms", "17.86 %", "92.97 %", "memory-bound", SUMS.name),
    ]
    assert [e.report_index for e in entries] == [0, 0, 0, 1, 1]


def test_the_model_answers_display_alignment_and_tooltip(reports) -> None:
    model = KernelTableModel()
    model.set_entries(kernel_entries(reports))
    assert (model.rowCount(), model.columnCount()) == (5, len(COLUMNS))
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(len(COLUMNS))] == list(
        COLUMNS)
    assert model.index(3, 1).data() == "row_sums"
    right = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    assert model.index(3, DURATION).data(Qt.ItemDataRole.TextAlignmentRole) == right
    assert model.index(3, 1).data(Qt.ItemDataRole.TextAlignmentRole) != right
    tip = model.index(3, 1).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("row_sums(const float *, float *, unsigned long)")
    assert str(SUMS) in tip


def test_a_missing_value_shows_as_missing_and_sorts_last_both_ways(qtbot, reports) -> None:
    kernel = reports[1].kernels[0]
    bare = dataclasses.replace(kernel, index=7, metrics={
        k: v for k, v in kernel.metrics.items() if k != "gpu__time_duration.sum"})
    model = KernelTableModel()
    model.set_entries(kernel_entries([*reports, Report("bare.txt", "details-text", [bare])]))
    assert model.index(5, DURATION).data() == "n/a"
    model.sort(DURATION, Qt.SortOrder.AscendingOrder)
    assert [model.index(r, DURATION).data() for r in range(6)] == [
        "2.53 ms", "2.57 ms", "2.57 ms", "3.02 ms", "11.97 ms", "n/a"]
    model.sort(DURATION, Qt.SortOrder.DescendingOrder)
    assert [model.index(r, DURATION).data() for r in range(6)] == [
        "11.97 ms", "3.02 ms", "2.57 ms", "2.57 ms", "2.53 ms", "n/a"]


def test_the_filter_matches_every_word_in_any_column(kernel_list) -> None:
    assert kernel_list.count_label.text() == "5 kernels"
    kernel_list.filter_box.setText("kernel2")
    assert shown(kernel_list) == ["mm3_kernel2"]
    assert kernel_list.count_label.text() == "1 of 5 kernels"
    kernel_list.filter_box.setText("MEMORY-bound mm3")  # equal rows read compute- and memory-
    assert shown(kernel_list) == ["mm3_kernel1", "mm3_kernel2", "mm3_kernel3"]
    kernel_list.filter_box.setText("memory-bound")
    assert shown(kernel_list) == ["mm3_kernel1", "mm3_kernel2", "mm3_kernel3", "row_sums",
                                  "column_sums"]
    kernel_list.filter_box.setText("rowsums")  # the file name
    assert shown(kernel_list) == ["row_sums", "column_sums"]
    kernel_list.filter_box.setText("unsigned long")  # the demangled signature
    assert shown(kernel_list) == ["row_sums", "column_sums"]
    kernel_list.filter_box.setText("no such kernel")
    assert shown(kernel_list) == []
    assert kernel_list.count_label.text() == "0 of 5 kernels"
    kernel_list.filter_box.clear()
    assert len(shown(kernel_list)) == 5


def test_the_header_sorts_by_the_values_not_the_text(kernel_list) -> None:
    kernel_list.view.sortByColumn(DURATION, Qt.SortOrder.DescendingOrder)
    assert shown(kernel_list) == ["row_sums", "column_sums", "mm3_kernel1", "mm3_kernel3",
                                  "mm3_kernel2"]
    kernel_list.view.sortByColumn(MEMORY, Qt.SortOrder.AscendingOrder)
    assert shown(kernel_list, MEMORY) == ["66.86 %", "66.94 %", "67.88 %", "72.28 %", "92.97 %"]
    kernel_list.filter_box.setText("mm3")
    assert shown(kernel_list) == ["mm3_kernel1", "mm3_kernel3", "mm3_kernel2"]
    kernel_list.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    assert shown(kernel_list) == ["mm3_kernel1", "mm3_kernel2", "mm3_kernel3"]


def test_the_file_column_shows_only_with_several_files(qtbot, reports) -> None:
    widget = KernelList()
    qtbot.addWidget(widget)
    widget.set_entries(kernel_entries(reports))
    assert not widget.view.isColumnHidden(FILE)
    widget.set_entries(kernel_entries(reports[:1]))
    assert widget.view.isColumnHidden(FILE)


def click_row(widget: KernelList, qtbot, row: int, ctrl: bool = False) -> None:
    view = widget.view
    rect = view.visualRect(widget.proxy.index(row, 1))
    modifier = Qt.KeyboardModifier.ControlModifier if ctrl else Qt.KeyboardModifier.NoModifier
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())


def test_one_click_reads_a_kernel_a_second_compares(kernel_list, qtbot) -> None:
    picked: list[list[str]] = []
    kernel_list.picked.connect(lambda es: picked.append([e.kernel.name for e in es]))
    click_row(kernel_list, qtbot, 0)
    click_row(kernel_list, qtbot, 4, ctrl=True)
    assert picked == [["mm3_kernel1"], ["mm3_kernel1", "column_sums"]]
    click_row(kernel_list, qtbot, 3, ctrl=True)  # a third drops the oldest
    assert picked[-1] == ["column_sums", "row_sums"]
    rows = sorted(i.row() for i in kernel_list.view.selectionModel().selectedRows())
    assert rows == [3, 4]


def test_filtering_keeps_the_picks(kernel_list, qtbot) -> None:
    click_row(kernel_list, qtbot, 1)
    click_row(kernel_list, qtbot, 3, ctrl=True)
    picked: list[object] = []
    kernel_list.picked.connect(picked.append)
    kernel_list.filter_box.setText("mm3")
    kernel_list.filter_box.clear()
    assert picked == []
    assert [e.kernel.name for e in kernel_list.picks()] == ["mm3_kernel2", "row_sums"]
    rows = sorted(i.row() for i in kernel_list.view.selectionModel().selectedRows())
    assert rows == [1, 3]


def test_set_picks_selects_without_signalling(kernel_list) -> None:
    entries = kernel_list.entries()
    picked: list[object] = []
    kernel_list.picked.connect(picked.append)
    kernel_list.set_picks([entries[4], entries[0]])
    assert picked == []
    selection = kernel_list.view.selectionModel()
    assert sorted(i.row() for i in selection.selectedRows()) == [0, 4]
    selection.select(kernel_list.proxy.index(2, 0),
                     QItemSelectionModel.SelectionFlag.ClearAndSelect
                     | QItemSelectionModel.SelectionFlag.Rows)
    assert [e.kernel.name for e in picked[-1]] == ["mm3_kernel3"]


def test_compare_names_tell_the_kernels_apart(reports) -> None:
    entries = kernel_entries(reports)
    assert compare_names([entries[0], entries[3]]) == ["mm3_kernel1", "row_sums"]
    naive = read_report(H200 / "numba-naive.ncu-rep")
    again = Report("/elsewhere/other.ncu-rep", "ncu-rep", naive.kernels)
    same = kernel_entries([naive, again])
    assert compare_names(same) == ["numba-naive", "other"]
    twice = kernel_entries([naive, naive])
    assert compare_names(twice) == ["#0 matmul_naive (A)", "#0 matmul_naive (B)"]


# ---------------------------------------------------------------- 10,000 kernels


@pytest.fixture(scope="module")
def ten_thousand() -> list[Report]:
    """10,000 kernels made of the real naive and tiled launches, as one report."""
    naive = read_report(H200 / "numba-naive.ncu-rep").kernels[0]
    tiled = read_report(H200 / "numba-tiled.ncu-rep").kernels[0]
    kernels: list[Kernel] = [dataclasses.replace((naive, tiled)[i % 2], index=i)
                             for i in range(10_000)]
    return [Report("big.ncu-rep", "ncu-rep", kernels)]


def test_ten_thousand_kernels_answer_every_cell(qtbot, ten_thousand) -> None:
    """Every cell of 10,000 rows answers (how fast: benchmarks/bench_kernel_list.py)."""
    entries = kernel_entries(ten_thousand)
    model = KernelTableModel()
    model.set_entries(entries)
    assert model.rowCount() == 10_000
    for row in range(10_000):
        for column in range(len(COLUMNS)):
            index = model.index(row, column)
            assert index.data(Qt.ItemDataRole.DisplayRole) is not None
    assert model.index(9_999, 1).data() == "matmul_tiled"


def test_ten_thousand_kernels_sort_filter_and_scroll(qtbot, ten_thousand) -> None:
    """Sorting, filtering and scrolling 10,000 rows work (how fast: the benchmark)."""
    widget = KernelList()
    qtbot.addWidget(widget)
    widget.resize(700, 500)
    entries = kernel_entries(ten_thousand)  # the loading job builds these off the GUI thread
    widget.set_entries(entries)
    widget.show()
    qtbot.waitExposed(widget)
    widget.view.sortByColumn(DURATION, Qt.SortOrder.DescendingOrder)
    assert shown(widget)[:2] == ["matmul_naive", "matmul_naive"]
    assert shown(widget)[-1] == "matmul_tiled"
    widget.filter_box.setText("tiled")
    assert widget.proxy.rowCount() == 5_000
    widget.view.scrollToBottom()
    widget.view.viewport().repaint()
    last = widget.proxy.index(widget.proxy.rowCount() - 1, 0)
    assert widget.view.visualRect(last).intersects(widget.view.viewport().rect())
