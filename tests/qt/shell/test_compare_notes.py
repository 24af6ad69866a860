"""The compare line's warnings on the shipped pair (requests against sectors, clocks not locked):
folded to one line that names them at 1366x768 in projector mode and at the desk (a window less
than SHORT_HEIGHT high), opened whole by N or a click and folded again; whole, as before, at the
desk on a 1920x1080 screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication

from viewer.core import shipped
from viewer.lesson.misreads import Misread
from viewer.qt.kit.style import Style
from viewer.qt.shell.compare_line import (
    NOTES_KEY,
    NOTES_LINK,
    SHORT_HEIGHT,
    first_sentence,
    folded_html,
)
from viewer.qt.shell.keys_dialog import every_action, key_rows
from viewer.qt.shell.main_window import MainWindow, default_tabs


def settle() -> None:
    for _ in range(6):
        QApplication.processEvents()


def open_pair(qtbot, tmp_path: Path, size: tuple[int, int], projector: bool) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, tabs=default_tabs(), record_recent=False)
    qtbot.addWidget(win)
    win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    with qtbot.waitSignal(win.loaded, timeout=120_000):
        win.open_paths(shipped.comparison())
    win.set_projector(projector, full_screen=False)
    win.resize(*size)
    win.set_tab(0)
    settle()
    return win


@pytest.fixture
def room(qtbot, tmp_path) -> MainWindow:
    win = open_pair(qtbot, tmp_path, (1366, 768), projector=True)
    yield win
    win.worker.shutdown(30_000)


def test_in_a_room_at_1366_the_warnings_fold_to_one_line_naming_them(room) -> None:
    line = room.reading.compare_line
    assert [m.kind for m in line.misreads] == ["request-ratio", "clocks-not-locked"]
    assert line.folded
    text = line.text()
    assert text.count("Careful:") == 1
    assert "requests against sectors; clocks not locked" in text and f"({NOTES_KEY}:" in text
    assert "16.00x" not in text
    assert all(m.text in line.toolTip() for m in line.misreads)  # whole on hover
    assert line.height() <= 0.2 * room.height()


def test_n_opens_the_warnings_and_folds_them_again(room, qtbot) -> None:
    line = room.reading.compare_line
    folded_height = line.height()
    qtbot.keyClick(room.reading.tabs, Qt.Key.Key_N)
    settle()
    assert not line.folded
    text = line.text()
    assert text.count("Careful:") == 2
    assert all(first_sentence(m.text) in text for m in line.misreads)
    assert line.height() > folded_height
    room.set_tab(1)  # another tab: still open
    settle()
    assert not line.folded
    qtbot.keyClick(room.reading.tabs, Qt.Key.Key_N)
    settle()
    assert line.folded and line.height() == folded_height


def test_a_click_on_the_folded_line_opens_it(room) -> None:
    line = room.reading.compare_line
    assert f"href='{NOTES_LINK}'" in line.text()
    line.linkActivated.emit(NOTES_LINK)
    settle()
    assert not line.folded and line.text().count("Careful:") == 2


def test_f1_lists_n(room) -> None:
    rows = dict(key_rows(every_action(room)))
    assert rows["Open or fold the compare line's warnings"] == NOTES_KEY


def test_at_the_desk_on_a_tall_screen_the_warnings_stay_whole(qtbot, tmp_path) -> None:
    win = open_pair(qtbot, tmp_path, (1920, 1080), projector=False)
    try:
        line = win.reading.compare_line
        assert not line.folded
        assert all(m.text in line.text() for m in line.misreads)
        assert f"href='{NOTES_LINK}'" not in line.text()
        open_height = line.height()
        win.resize(1920, 4 * open_height)  # a short window folds them
        settle()
        assert win.height() < open_height / 0.2 and line.folded
    finally:
        win.worker.shutdown(30_000)


def test_at_the_desk_on_a_laptop_the_warnings_fold_to_one_line(qtbot, tmp_path) -> None:
    """1366x768 at the desk: the five lines of warnings (about 100 px over the tabs) fold to
    one; N still opens them whole."""
    win = open_pair(qtbot, tmp_path, (1366, 768), projector=False)
    try:
        line = win.reading.compare_line
        assert win.height() < SHORT_HEIGHT and line.folded
        text = line.text()
        assert text.count("Careful:") == 1 and "16.00x" not in text
        assert line.height() <= 3 * line.fontMetrics().lineSpacing() + win.tab_style.px(8)
        qtbot.keyClick(win.reading.tabs, Qt.Key.Key_N)
        settle()
        assert not line.folded and all(m.text in line.text() for m in line.misreads)
    finally:
        win.worker.shutdown(30_000)


def test_the_folded_line_names_each_kind_once() -> None:
    found = [Misread("device", "Different GPUs: a on X, b on Y.", "different-gpu"),
             Misread("device", "Different GPUs: again.", "different-gpu")]
    text = folded_html(found, Style(projector=True))
    assert text.count("Different GPUs") == 1
