"""Time by kernel in the kernel list: grouped by name, picking a group reads its longest launch."""

from __future__ import annotations

import dataclasses
import time

import pytest
from PySide6.QtCore import Qt

from tests.many_kernels import BASIC, build
from viewer.analysis.time_by_kernel import DURATION
from viewer.core.model import Kernel, Report
from viewer.qt.kernel_list.kernel_groups import GROUP_COLUMNS, GROUP_FILE_COLUMN, group_rows
from viewer.qt.kernel_list.kernel_list import KernelList, kernel_entries
from viewer.readers import read_report


@pytest.fixture(scope="module")
def many(tmp_path_factory) -> Report:
    """A 41-kernel .ncu-rep: the naive and tiled matmuls alternating (21 naive, 20 tiled)."""
    return read_report(build(tmp_path_factory.mktemp("many") / "many.ncu-rep", 41))


@pytest.fixture
def kernel_list(qtbot, many) -> KernelList:
    widget = KernelList()
    qtbot.addWidget(widget)
    widget.resize(700, 400)
    widget.set_entries(kernel_entries([many]))
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def cells(widget: KernelList) -> list[tuple[str, ...]]:
    model = widget.group_view.groups
    return [tuple(model.data(model.index(r, c)) for c in range(len(GROUP_COLUMNS)))
            for r in range(model.rowCount())]


def test_groups_show_launches_total_mean_and_share(kernel_list, many) -> None:
    kernel_list.set_grouped(True)
    assert kernel_list.group_view.isVisible() and not kernel_list.view.isVisible()
    rows = kernel_list.group_view.groups.rows()
    assert [(r.group.name, r.group.launches) for r in rows] == [("matmul_naive", 21),
                                                                ("matmul_tiled", 20)]
    naive = [k for k in many.kernels if k.name == "matmul_naive"]
    total = sum(k.metric(DURATION) for k in naive)
    everything = sum(k.metric(DURATION) for k in many.kernels)
    assert rows[0].group.total_ns == pytest.approx(total)
    assert rows[0].group.mean_ns == pytest.approx(total / 21)
    assert rows[0].group.share_pct == pytest.approx(100 * total / everything)
    first = cells(kernel_list)[0]
    assert first[0] == "matmul_naive" and first[1] == "21" and first[4].endswith("%")
    assert kernel_list.group_view.isColumnHidden(GROUP_FILE_COLUMN)
    assert kernel_list.count_label.text() == "2 names, 41 kernels"


def test_g_toggles_the_grouping_where_the_list_has_focus(kernel_list, qtbot) -> None:
    kernel_list.view.setFocus()
    qtbot.keyClick(kernel_list.view, Qt.Key.Key_G)
    assert kernel_list.grouped and kernel_list.group_box.isChecked()
    qtbot.keyClick(kernel_list.group_view, Qt.Key.Key_G)
    assert not kernel_list.grouped and kernel_list.view.isVisible()
    kernel_list.filter_box.setFocus()
    qtbot.keyClicks(kernel_list.filter_box, "g")  # typing a g in the filter is text
    assert not kernel_list.grouped and kernel_list.filter_box.text() == "g"


def test_picking_a_group_reads_its_longest_launch(kernel_list, many, qtbot) -> None:
    kernel_list.set_grouped(True)
    view = kernel_list.group_view
    tiled = [k for k in many.kernels if k.name == "matmul_tiled"]
    longest = max(k.metric(DURATION) for k in tiled)  # copies of one launch: ties
    with qtbot.waitSignal(kernel_list.picked) as signal:
        view.selectRow(1)
    [picked] = [e.kernel for e in signal.args[0]]
    assert picked.name == "matmul_tiled" and picked.metric(DURATION) == longest
    assert picked.index == view.groups.row(1).group.longest
    assert kernel_list.picks()[0].kernel is picked
    with qtbot.waitSignal(kernel_list.picked) as signal:
        rect = view.visualRect(view.groups.index(0, 0))
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.ControlModifier, rect.center())
    assert [e.kernel.name for e in signal.args[0]] == ["matmul_tiled", "matmul_naive"]
    kernel_list.set_grouped(False)  # back to launches: the picks are selected there
    selected = {kernel_list.model.entry(kernel_list.proxy.mapToSource(i).row()).kernel.index
                for i in kernel_list.view.selectionModel().selectedRows()}
    assert selected == {e.kernel.index for e in kernel_list.picks()}


def test_the_filter_narrows_the_groups(kernel_list) -> None:
    kernel_list.set_grouped(True)
    kernel_list.set_filter_text("tiled")
    assert [r[0] for r in cells(kernel_list)] == ["matmul_tiled"]
    assert kernel_list.count_label.text() == "1 of 2 names, 41 kernels"


def test_a_basic_capture_groups_too_and_files_stay_apart(qtbot, tmp_path, many) -> None:
    basic = read_report(build(tmp_path / "basic.ncu-rep", 7, BASIC))
    rows = group_rows(kernel_entries([many, basic]))
    assert {(r.group.name, r.file_name) for r in rows} == {
        ("matmul_naive", "many.ncu-rep"), ("matmul_tiled", "many.ncu-rep"),
        ("scale", "basic.ncu-rep"), ("add", "basic.ncu-rep")}
    totals = [r.group.total_ns for r in rows]
    assert totals == sorted(totals, reverse=True)


def test_ten_thousand_kernels_group_without_stalling(qtbot, many) -> None:
    pair = many.kernels[:2]
    kernels = [dataclasses.replace(pair[i % 2], index=i, name=f"k{i % 300}") for i in
               range(10_000)]
    report = Report("/tmp/ten-thousand.ncu-rep", "ncu-rep", kernels)
    widget = KernelList()
    qtbot.addWidget(widget)
    widget.set_entries(kernel_entries([report]))
    widget.show()
    start = time.perf_counter()
    widget.set_grouped(True)
    elapsed = time.perf_counter() - start
    assert widget.group_view.groups.total() == 300
    assert elapsed < 1.0  # milliseconds in practice; generous for a loaded test machine
    assert sum(r.group.launches for r in widget.group_view.groups.rows()) == 10_000


def test_untimed_kernels_have_no_longest_and_pick_nothing(qtbot) -> None:
    kernels = [Kernel(i, "quiet", "quiet()") for i in range(3)]
    widget = KernelList()
    qtbot.addWidget(widget)
    widget.set_entries(kernel_entries([Report("/tmp/q.csv", "csv", kernels)]))
    widget.set_grouped(True)
    row = widget.group_view.groups.rows()[0]
    assert row.longest is None and row.cells[2] == row.cells[3] == row.cells[4]
    with qtbot.assertNotEmitted(widget.picked):
        widget.group_view.selectRow(0)
