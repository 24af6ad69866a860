"""A report opens on the first reading step it can fill: the raw-metrics export of request and
sector counts on the memory chart, with the status bar saying why; the shipped pair on Speed Of
Light, nothing said."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from tests.qt.windows import close_window, open_and_wait
from viewer.core import shipped
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
