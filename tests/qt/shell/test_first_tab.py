"""A report opens on the first reading step it can fill: the raw-metrics export of request and
sector counts on the memory chart, with the status bar saying why (in projector mode, which hides
the status bar, the note above the tabs, until Esc); the shipped pair on Speed Of Light, nothing
said."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from tests.qt.windows import SIZES, close_window, open_and_wait, settle
from viewer.core import shipped
from viewer.qt.kit.style import Style
from viewer.qt.shell.main_window import MainWindow, default_tabs

RAW = (Path(__file__).parents[2] / "data" / "corpus" / "ncu-public"
       / "mid-2022-raw-metrics-l1tex-requests-sectors-rowsums-colsums.txt")


def _window(tmp_path: Path) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, tabs=default_tabs(), record_recent=False)
    win.resize(1366, 768)
    win.show()
    return win


def test_a_file_without_speed_of_light_opens_on_the_memory_chart(qapp, tmp_path) -> None:
    win = _window(tmp_path)
    try:
        win.set_tab(0)
        open_and_wait(win, [RAW])
        assert win.current_tab().VIEW == "memory"
        said = win.statusBar().currentMessage()
        assert said.startswith("Opened on 2 Memory chart: this report holds none of 1 Speed "
                               "Of Light's values, and holds Global load requests")
        open_and_wait(win, shipped.comparison())  # the next file opens where it is shown
        assert win.current_tab().VIEW == "memory"
    finally:
        close_window(win)


def test_the_shipped_pair_opens_on_speed_of_light_and_nothing_is_said(qapp, tmp_path) -> None:
    win = _window(tmp_path)
    try:
        win.set_tab(0)
        open_and_wait(win, shipped.comparison())
        assert win.current_tab().VIEW == "sol"
        assert not win.statusBar().currentMessage().startswith("Opened on")
    finally:
        close_window(win)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_projector_mode_says_why_above_the_tabs_until_esc(qapp, tmp_path, size) -> None:
    """The status bar is hidden in a room: the note above the tabs says why, in the
    projector's type; one Esc puts it away and leaves projector mode on, the next leaves."""
    win = _window(tmp_path)
    try:
        win.set_projector(True, full_screen=False)
        win.resize(*size)
        win.set_tab(0)
        open_and_wait(win, [RAW])
        settle()
        note = win.reading.step_note
        assert not win.statusBar().isVisible()
        assert note.isVisible() and note.reason.startswith("Opened on 2 Memory chart: ")
        assert note.font().pointSizeF() == Style(projector=True).points("body")
        assert note.y() < win.reading.tabs.y()  # above the tabs
        assert note.height() < size[1] // 5
        assert win.escape_key.press() == "closed"
        assert not note.isVisible() and win.projector
        assert win.escape_key.press() == "left"
        win.set_projector(True, full_screen=False)  # put away until the next report says one
        settle()
        assert not note.isVisible()
    finally:
        close_window(win)


def test_the_note_says_nothing_at_the_desk_nor_for_a_file_that_fills_step_one(
        qapp, tmp_path) -> None:
    win = _window(tmp_path)
    try:
        win.set_tab(0)
        open_and_wait(win, [RAW])
        settle()
        note = win.reading.step_note
        assert note.reason and not note.isVisible()  # the status bar says it at the desk
        win.set_projector(True, full_screen=False)
        settle()
        assert note.isVisible()
        win.set_tab(0)
        open_and_wait(win, shipped.comparison())
        settle()
        assert not note.reason and not note.isVisible()
    finally:
        close_window(win)
