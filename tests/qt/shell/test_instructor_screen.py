"""The instructor's screen: the real 400-kernel PyTorch capture at 1366x768, two long cuBLAS
names picked (kernels #2 and #7: sm80_xmma_gemm_..._tn_n_tilesize64x64x8_... and
..._tilesize32x32x8_..., 121 characters each), desk and projector; the keys after a box."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea, QToolButton

from viewer import cli
from viewer.qt.kernel_list.kernel_list import NAME_ROOM, PERCENT_COLUMNS
from viewer.qt.kernel_list.kernel_table import NAME_COLUMN
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.reading_tab_names import Names as TabNames
from viewer.qt.kit.style import Style
from viewer.qt.shell import app as shell_app
from viewer.qt.shell.keys_dialog import every_action, key_rows
from viewer.qt.shell.main_window import MainWindow, default_tabs
from viewer.qt.shell.opening import StartPicks
from viewer.qt.shell.page_keys import KEY_ROWS

ROOT = Path(__file__).resolve().parents[3]
TORCH = ROOT / "tests/data/corpus/h200/torch-transformer-400.details.txt.gz"
LAPTOP = (1366, 768)


@pytest.fixture
def window(qtbot, tmp_path) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, tabs=default_tabs(), record_recent=False)
    qtbot.addWidget(win)
    win.resize(*LAPTOP)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    with qtbot.waitSignal(win.loaded, timeout=120_000):
        win.open_paths([TORCH])
    yield win
    win.worker.shutdown(30_000)


def pick(window: MainWindow, *numbers: int) -> None:
    entries = {e.kernel.index: e for e in window.kernel_list.entries()}
    window.show_entries([entries[n] for n in numbers])
    window.kernel_list.set_picks(window.picks)
    for _ in range(5):
        QApplication.processEvents()


def settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


def test_two_long_names_keep_the_window_on_a_1366_screen(window) -> None:
    pick(window, 2, 7)
    assert window.kernel_dock.isVisible()
    assert window.width() <= LAPTOP[0]
    assert window.minimumSizeHint().width() <= LAPTOP[0]
    assert window.reading.minimumSizeHint().width() <= LAPTOP[0] - window.kernel_dock.width()
    pick(window, 9, 12)  # short names after long ones: nothing stays wide
    assert window.width() <= LAPTOP[0]


def test_the_compared_names_are_elided_apart_and_whole_on_hover(window) -> None:
    pick(window, 2, 7)
    a, b = window.names
    assert a != b and len(a) <= 40 and len(b) <= 40
    assert "64x64" in a and "32x32" in b
    tip = window.reading.compare_line.toolTip()
    assert all(e.kernel.display_name in tip for e in window.picks)
    sol = window.tab_pages[0]
    names = [sol.findChild(QLabel, one_of(TabNames.KERNEL_NAME, c)) for c in (1, 2)]
    assert [n.toolTip() for n in names] == [e.kernel.display_name for e in window.picks]
    assert names[0].shown_text() != names[1].shown_text()
    assert all(n.minimumSizeHint().width() < 200 for n in names)


@pytest.mark.parametrize("projector", [False, True])
def test_the_occupancy_tab_needs_no_sideways_scrolling(window, projector) -> None:
    window.set_projector(projector, full_screen=False)
    window.resize(*LAPTOP)
    pick(window, 2, 7)
    occupancy = window.tab_pages[2]
    window.reading.tabs.setCurrentWidget(occupancy)
    settle()
    area = occupancy.findChild(QScrollArea)
    assert area.widget().width() <= area.viewport().width()


def test_the_speed_of_light_tab_needs_no_sideways_scrolling(window) -> None:
    pick(window, 2, 7)
    settle()
    area = window.tab_pages[0].findChild(QScrollArea)
    assert area.widget().width() <= area.viewport().width()


@pytest.mark.parametrize("projector", [False, True])
@pytest.mark.parametrize("view", ["predict", "memory", "reference"])
def test_predict_the_memory_chart_and_the_t4_need_no_sideways_scrolling(window, view,
                                                                       projector) -> None:
    window.set_projector(projector, full_screen=False)
    window.resize(*LAPTOP)
    pick(window, 2, 7)
    window.navigate(view, "")
    settle()
    area = window.reading.tabs.currentWidget().findChild(QScrollArea)
    assert area.widget().width() <= area.viewport().width()


@pytest.mark.parametrize("projector", [False, True])
def test_every_tab_is_on_screen_at_1366(window, projector) -> None:
    window.set_projector(projector, full_screen=False)
    window.resize(*LAPTOP)
    settle()
    bar = window.reading.tabs.tabBar()
    right = max(bar.tabRect(i).right() for i in range(bar.count()))
    assert right <= bar.width()
    texts = [bar.tabText(i) for i in range(bar.count())]
    assert all(texts) and len(set(texts)) == len(texts)
    assert "Speed" in bar.tabText(bar.currentIndex())


def test_the_scroll_arrows_grow_with_the_projector_style(window) -> None:
    window.set_projector(True, full_screen=False)
    window.resize(500, 600)
    settle()
    arrows = [b for b in window.reading.tabs.tabBar().findChildren(QToolButton)
              if b.isVisible()]
    assert arrows and all(b.width() >= Style(projector=True).px(22) for b in arrows)


def test_the_group_view_shows_its_times_and_shares_whole(window) -> None:
    window.kernel_list.set_grouped(True)
    settle()
    view = window.kernel_list.group_view
    header = view.horizontalHeader()
    for column in (1, 2, 3, 4):
        assert header.sectionViewportPosition(column) >= 0
        assert header.sectionViewportPosition(column) + header.sectionSize(column) \
            <= view.viewport().width()
    cells = [view.groups.row(r).cells[0] for r in range(view.groups.rowCount())]
    assert len(set(cells)) == len(cells)


def test_the_kernel_list_shows_its_columns_whole_at_1366(window) -> None:
    kernel_list = window.kernel_list
    view = kernel_list.view
    header = view.horizontalHeader()
    shown = [c for c in range(header.count()) if not view.isColumnHidden(c)]
    assert view.horizontalScrollBar().maximum() == 0
    assert all(header.sectionViewportPosition(c) >= 0 and header.sectionViewportPosition(c)
               + header.sectionSize(c) <= view.viewport().width() for c in shown)
    name = header.sectionSize(NAME_COLUMN)
    assert name >= NAME_ROOM * view.fontMetrics().averageCharWidth()
    assert set(shown) == {0, NAME_COLUMN, 2, 5}  # the percentages stepped aside
    assert "Compute " in view.model().index(0, NAME_COLUMN).data(Qt.ItemDataRole.ToolTipRole)


def test_a_wider_kernel_list_brings_the_percentages_back(window) -> None:
    window.resizeDocks([window.kernel_dock], [700], Qt.Orientation.Horizontal)
    settle()
    view = window.kernel_list.view
    assert not any(view.isColumnHidden(c) for c in PERCENT_COLUMNS)
    assert view.horizontalScrollBar().maximum() == 0


def test_esc_in_a_box_gives_the_letter_keys_back(window, qtbot) -> None:
    window.find_kernel()
    box = window.kernel_list.filter_box
    assert box.hasFocus()
    qtbot.keyClicks(box, "gemm")
    assert window.reading.tabs.currentWidget() is window.tab_pages[0]
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    assert not box.hasFocus() and box.text() == "gemm"
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_2)
    assert window.reading.tabs.currentWidget() is window.tab_pages[1]


def test_esc_in_a_box_keeps_projector_mode_and_esc_after_leaves_it(window, qtbot) -> None:
    window.set_projector(True, full_screen=False)
    metrics = window.reading.analysis_pages[-1]
    window.reading.tabs.setCurrentWidget(metrics)
    metrics.search.setFocus()
    settle()
    qtbot.keyClick(metrics.search, Qt.Key.Key_Escape)
    assert window.projector and not metrics.search.hasFocus()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
    assert not window.projector


def test_f1_lists_g_and_ctrl_r(window) -> None:
    rows = dict(key_rows(every_action(window)))
    assert rows["Group by name"] == "G"
    assert rows["Run kernel timing"] == "Ctrl+R"


def readme_keys() -> set[str]:
    """Every key README's key table names (its first column, 'A, B / C or D (where)')."""
    text = (ROOT / "README.md").read_text()
    table = re.search(r"^\| key \| does \|\n\|---\|---\|\n((?:\|.*\n)+)", text, re.M)
    assert table is not None
    keys: set[str] = set()
    for line in table.group(1).splitlines():
        cell = re.sub(r"\([^)]*\)", "", line.split("|")[1])
        keys |= {k.strip() for k in re.split(r",|/| or ", cell) if k.strip()}
    return keys


def test_readme_names_every_key_the_window_answers_and_no_other(window) -> None:
    rows = [*key_rows(every_action(window)), *KEY_ROWS]  # F1's rows
    answered = {key for _, keys in rows for key in keys.split(" or ")}
    assert readme_keys() == answered


def test_kernels_opens_the_window_on_those_two(qtbot) -> None:
    args = cli.parse([str(TORCH), "--kernels", "2,7", "--screenshot", "unused.png"])
    win = shell_app.open_window(args)
    qtbot.addWidget(win)
    assert shell_app.wait_for_loading(win)
    assert [e.kernel.index for e in win.picks] == [2, 7] and not win.last_error
    win.worker.shutdown(30_000)


def test_a_kernel_spec_opens_its_first_two_and_a_missing_number_is_said(qtbot) -> None:
    args = cli.parse([str(TORCH), "-k", "regex:^fmha_cutlassF", "--screenshot", "unused.png"])
    win = shell_app.open_window(args)
    qtbot.addWidget(win)
    assert shell_app.wait_for_loading(win)
    assert [e.kernel.name for e in win.picks] == ["fmha_cutlassF_f32_aligned_64x64_rf_sm80"] * 2
    with qtbot.waitSignal(win.loaded, timeout=120_000):
        win.start_picks = StartPicks((4000,))
        win.open_paths([TORCH])
    assert "no kernel #4000" in win.last_error and len(win.picks) == 1
    win.worker.shutdown(30_000)


@pytest.mark.parametrize("bad", ["a,b", "1,2,3", ""])
def test_kernels_takes_one_or_two_numbers(bad) -> None:
    with pytest.raises(SystemExit):
        cli.parse(["--kernels", bad])
