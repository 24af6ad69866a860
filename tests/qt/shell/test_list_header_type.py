"""The kernel list's header row in the rows' type when projector mode starts with the window,
before the list was ever shown (as `python -m viewer --projector` opens it): the header keeps
desk type unless told its own font."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from tests.qt.windows import SIZES, close_window, open_and_wait, settle
from viewer.core import shipped
from viewer.qt.shell.main_window import MainWindow, default_tabs


def test_the_header_row_takes_the_projectors_type_set_at_start(qapp, tmp_path) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, tabs=default_tabs(), record_recent=False)
    win.resize(*SIZES[-1])
    win.show()
    win.set_projector(True, full_screen=False)  # before the reports are read, as at start
    open_and_wait(win, shipped.comparison())
    try:
        win.kernel_dock.show()
        settle()
        view = win.kernel_list.view
        for header in (view.horizontalHeader(), win.kernel_list.group_view.horizontalHeader()):
            assert header.font().pointSizeF() == view.font().pointSizeF()
        assert view.font().pointSizeF() > QApplication.font().pointSizeF()
    finally:
        close_window(win)
