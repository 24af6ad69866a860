"""One keyboard, whatever has the focus: on the shipped pair at 1366x768 and 1920x1080, desk and
projector. The tabs are named one way (the key, then the words), shortened one tab at a time
only as far as the width requires; PageDown and the arrows scroll the page from any focus but
a text box; Ctrl+F reaches the kernel filter and typed letters stay in a box; G works right
after Ctrl+L; Esc closes what is open before it leaves projector mode; F1 says so; one Tab
reaches Predict's first box, and the focus on the tabs shows.

One window per size and mode (module-scoped)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QWidget

from tests.qt.windows import open_and_wait
from viewer.core import shipped
from viewer.qt.lesson.predict_grid import ORDER
from viewer.qt.shell.main_window import MainWindow, default_tabs
from viewer.qt.shell.page_keys import page_scroller
from viewer.qt.shell.tab_titles import _needed
from viewer.qt.views.metrics.metrics_view import MetricsView
from viewer.qt.views.source.source_view import SourceView

SIZES = [(1366, 768), (1920, 1080)]
CTRL = Qt.KeyboardModifier.ControlModifier


def settle() -> None:
    for _ in range(6):
        QApplication.processEvents()


def open_window(tmp: Path, size: tuple[int, int], projector: bool) -> MainWindow:
    settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, tabs=default_tabs(), record_recent=False)
    win.resize(*size)
    win.show()
    open_and_wait(win, shipped.comparison())
    win.set_projector(projector, full_screen=False)
    win.resize(*size)
    win.activateWindow()
    settle()
    return win


@pytest.fixture(scope="module", params=[(size, projector) for size in SIZES
                                        for projector in (False, True)],
                ids=lambda p: f"{p[0][0]}x{p[0][1]}-{'projector' if p[1] else 'desk'}")
def window(request, qapp, tmp_path_factory) -> Iterator[MainWindow]:
    size, projector = request.param
    win = open_window(tmp_path_factory.mktemp("keyboard"), size, projector)
    yield win
    win.worker.shutdown(30_000)
    win.close()
    win.deleteLater()
    settle()


@pytest.fixture
def w(window: MainWindow, qtbot) -> MainWindow:
    """The module's window back at step 1, in its own mode, nothing open, the tabs focused."""
    projector = window.property("projector_wanted")
    if projector is None:
        window.setProperty("projector_wanted", window.projector)
        projector = window.projector
    window.set_projector(bool(projector), full_screen=False)
    for dock in (window.exercise.dock, window.kernel_dock):
        dock.hide()
    if window.keys_dialog is not None:
        window.keys_dialog.close()
    window.kernel_list.set_grouped(False)
    window.set_tab(0)
    window.activateWindow()
    window.focus_tabs()
    settle()
    return window


def press(qtbot, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
          to: QWidget | None = None) -> None:
    qtbot.keyClick(to or QApplication.focusWidget(), key, modifier)
    settle()


def test_each_tab_is_its_key_then_its_words_shortened_only_as_far_as_the_width_needs(w) -> None:
    tabs, bar = w.reading.tabs, w.reading.tabs.tabBar()
    for view in [*w.reading.views, w.reading.views[0]]:  # every tab current in turn
        tabs.setCurrentWidget(view)
        settle()
        texts = [bar.tabText(i) for i in range(bar.count())]
        assert _needed(tabs) <= tabs.width() or texts == [t.key if i != tabs.currentIndex()
                                                          else t.short
                                                          for i, t in enumerate(w.reading.titles)]
        for i, (text, titles) in enumerate(zip(texts, w.reading.titles, strict=True)):
            assert titles.whole.startswith(text) and text.split()[0] == titles.key, text
            level = (titles.whole, titles.short, titles.key).index(text)
            if level and text != titles.whole:  # one level longer would not fit
                longer = (titles.whole, titles.short)[level - 1]
                bar.setTabText(i, longer)
                assert _needed(tabs) > tabs.width(), (text, longer)
                bar.setTabText(i, text)
    if w.width() >= 1920 and not w.projector:
        assert texts == [t.whole for t in w.reading.titles]


def test_the_view_menu_and_f1_name_the_tabs_by_their_whole_titles(w) -> None:
    wholes = [t.whole for t in w.reading.titles]
    assert [a.text().replace("&", "") for a in w.window_actions.views] == wholes
    w.show_keys()
    listed = [what for what, _keys in w.keys_dialog.rows]
    assert all(title in listed for title in wholes)


def test_pagedown_and_the_arrows_scroll_the_page_from_any_focus_but_a_box(w, qtbot) -> None:
    area = None
    for page in w.reading.tab_pages:  # the first reading step that scrolls here
        w.reading.tabs.setCurrentWidget(page)
        settle()
        if (area := page_scroller(page)) is not None:
            break
    assert area is not None
    bar = area.verticalScrollBar()
    bar.setValue(0)
    for focus in (w.reading.tabs.tabBar(), w.kernel_list.view):
        if not focus.isVisible():
            continue
        focus.setFocus()
        press(qtbot, Qt.Key.Key_PageDown)
        assert bar.value() > 0, focus
        press(qtbot, Qt.Key.Key_PageUp)
        assert bar.value() == 0
        if not isinstance(focus, QAbstractItemView):
            press(qtbot, Qt.Key.Key_Down)
            assert bar.value() > 0
            press(qtbot, Qt.Key.Key_Up)
            assert bar.value() == 0


def test_ctrl_f_reaches_the_kernel_filter_and_letters_stay_in_it(w, qtbot) -> None:
    source = next(v for v in w.reading.views if isinstance(v, SourceView))
    w.reading.tabs.setCurrentWidget(source)
    settle()
    qtbot.waitUntil(lambda: any(t.isVisible() for t in source.findChildren(QAbstractItemView)),
                    timeout=60_000)
    table = next(t for t in source.findChildren(QAbstractItemView) if t.isVisible())
    table.setFocus()
    press(qtbot, Qt.Key.Key_F, CTRL)
    box = w.kernel_list.filter_box
    assert box.hasFocus()
    qtbot.keyClicks(box, "xmma")
    settle()
    assert box.text() == "xmma" and w.current_tab() is source
    w.kernel_list.set_filter_text("")
    box.clear()


def test_letters_typed_in_a_number_box_never_switch_views(w, qtbot) -> None:
    metrics = next(v for v in w.reading.views if isinstance(v, MetricsView))
    w.reading.tabs.setCurrentWidget(metrics)
    settle()
    metrics.threshold.setFocus()
    for letter in (Qt.Key.Key_P, Qt.Key.Key_S, Qt.Key.Key_A):
        press(qtbot, letter, to=metrics.threshold)
    assert w.current_tab() is metrics and not w.window_actions.swap.isChecked()
    assert w.names == ["matmul_naive", "matmul_tiled"]


def test_g_right_after_ctrl_l_groups_the_kernels(w, qtbot) -> None:
    press(qtbot, Qt.Key.Key_L, CTRL)
    assert w.kernel_dock.isVisible()
    press(qtbot, Qt.Key.Key_G)
    assert w.kernel_list.grouped
    press(qtbot, Qt.Key.Key_G)
    assert not w.kernel_list.grouped


def test_ctrl_l_on_a_list_already_shown_takes_the_focus_then_hides_it(w, qtbot) -> None:
    """A report of many kernels shows the list by itself: Ctrl+L from the tabs then moves the
    focus into it (G groups at once) rather than hiding it; Ctrl+L inside it hides it, and the
    View menu's entry is checked while it shows."""
    w.kernel_dock.show()
    w.focus_tabs()
    settle()
    action = w.window_actions.kernel_list
    assert action.isChecked()
    press(qtbot, Qt.Key.Key_L, CTRL)
    assert w.kernel_dock.isVisible() and w.kernel_list.isAncestorOf(QApplication.focusWidget())
    press(qtbot, Qt.Key.Key_G)
    assert w.kernel_list.grouped
    press(qtbot, Qt.Key.Key_G)  # and back, the list focused still
    assert not w.kernel_list.grouped
    press(qtbot, Qt.Key.Key_L, CTRL)
    assert not w.kernel_dock.isVisible() and not action.isChecked()
    press(qtbot, Qt.Key.Key_1)  # a key without Ctrl: Qt takes the last key's modifiers as held


def test_ctrl_down_then_ctrl_space_in_the_kernel_list_picks_a_second_kernel(w, qtbot) -> None:
    first = w.kernel_list.entries()[0]
    w.kernel_list.view.selectRow(0)
    w.kernel_list.view.setCurrentIndex(w.kernel_list.proxy.index(0, 0))
    settle()
    assert [e.kernel.name for e in w.picks] == [first.kernel.name]
    w.kernel_list.view.setFocus()
    press(qtbot, Qt.Key.Key_Down, CTRL)
    press(qtbot, Qt.Key.Key_Space, CTRL)
    assert len(w.picks) == 2 and w.picks[0] is first


def test_esc_closes_what_is_open_before_it_leaves_projector_mode(w, qtbot) -> None:
    on = w.projector
    press(qtbot, Qt.Key.Key_F1)
    assert w.keys_dialog is not None and w.keys_dialog.isVisible()
    w.activateWindow()
    w.focus_tabs()
    settle()
    press(qtbot, Qt.Key.Key_E)
    assert w.exercise.dock.isVisible()
    w.focus_tabs()
    press(qtbot, Qt.Key.Key_Escape)
    assert not w.keys_dialog.isVisible() and w.exercise.dock.isVisible() and w.projector == on
    press(qtbot, Qt.Key.Key_Escape)
    assert not w.exercise.dock.isVisible() and w.projector == on
    press(qtbot, Qt.Key.Key_E)
    press(qtbot, Qt.Key.Key_F5)  # F5 toggles the mode whatever is open
    assert w.projector != on and w.exercise.dock.isVisible()
    press(qtbot, Qt.Key.Key_F5)
    assert w.projector == on
    press(qtbot, Qt.Key.Key_Escape)
    press(qtbot, Qt.Key.Key_Escape)
    assert not w.projector


def test_f1_says_what_scrolls_what_esc_closes_and_how_to_pick_a_second_kernel(w) -> None:
    w.show_keys()
    rows = dict(w.keys_dialog.rows)
    keys = {k: what for what, k in rows.items()}
    assert "whatever has the focus" in keys["PageDown or PageUp or Up or Down"]
    assert "second kernel to compare" in keys["Ctrl+Down then Ctrl+Space"]
    esc = keys["Esc"]
    assert "Close what is open" in esc and "else leave projector mode" in esc
    assert "F5 or Ctrl+P" in keys


def test_one_tab_reaches_predict_s_first_box_and_the_focus_on_the_tabs_shows(w, qtbot) -> None:
    w.reading.tabs.setCurrentWidget(w.predict_tab)
    settle()
    bar = w.reading.tabs.tabBar()
    bar.setFocus()
    settle()
    focused = bar.grab().toImage()
    w.predict_tab.setFocus()
    settle()
    assert bar.grab().toImage() != focused  # the focus shows on the current tab
    bar.setFocus()
    press(qtbot, Qt.Key.Key_Tab)
    first = w.predict_tab.rows[ORDER[0]].inputs[0]
    assert QApplication.focusWidget() is first
