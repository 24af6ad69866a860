"""The window's actions: File, View and Help, and the keys that work with the menu bar hidden
(projector mode), so F1's list of keys is read from the same actions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from viewer.qt.capture.capture_dialog import SHORTCUT as CAPTURE_KEY
from viewer.qt.capture.capture_dialog import open_capture
from viewer.qt.shell import recent as recent_files
from viewer.qt.shell.keys_dialog import KeysDialog

if TYPE_CHECKING:
    from viewer.qt.shell.main_window import MainWindow


def add_action(window: MainWindow, text: str, slot: Callable[[], object],
               shortcuts: Sequence[QKeySequence | QKeySequence.StandardKey | str] = (),
               menu: QMenu | None = None) -> QAction:
    """An action on the window itself (its keys work with the menu bar hidden), in `menu`."""
    action = QAction(text, window)
    action.setShortcuts([QKeySequence(s) for s in shortcuts])

    def run(_checked: bool = False) -> None:
        slot()

    action.triggered.connect(run)
    window.addAction(action)
    if menu is not None:
        menu.addAction(action)
    return action


def build_menus(window: MainWindow) -> None:
    """File (open, recent, capture, export, quit), View (the reading steps, timing, swap, find,
    the kernel list, projector mode) and Help (keys), each action kept on the window."""
    w = window
    file_menu = w.menuBar().addMenu("&File")
    w.open_action = add_action(w, "&Open...", w.open_dialog, [QKeySequence.StandardKey.Open],
                               file_menu)
    w.recent_menu = file_menu.addMenu("Open &Recent")
    w.recent_menu.aboutToShow.connect(lambda: fill_recent(w))
    fill_recent(w)
    w.capture_action = add_action(w, "&Capture...", lambda: open_capture(w), [CAPTURE_KEY],
                                  file_menu)
    file_menu.addSeparator()
    w.export_action = add_action(w, "&Export...", w.export_dialog, ["Ctrl+E"], file_menu)
    file_menu.addSeparator()
    add_action(w, "&Quit", w.close, [QKeySequence.StandardKey.Quit], file_menu)

    view = w.menuBar().addMenu("&View")
    w.predict_action = add_action(w, "&Predict, then reveal",
                                  lambda: w.tabs.setCurrentWidget(w.predict_tab), ["P"], view)
    w.tab_actions = [add_action(w, w.tabs.tabText(w.tabs.indexOf(page)), _setter(w, i),
                                [str(i + 1)], view)
                     for i, page in enumerate(w.tab_pages)]
    w.timing_action = add_action(w, "Kernel &timing",
                                 lambda: w.tabs.setCurrentWidget(w.timing_scroll), ["T"], view)
    w.reference_action = add_action(w, "T4 vs this &report",
                                    lambda: w.tabs.setCurrentWidget(w.reference_tab), ["R"],
                                    view)
    w.analysis_actions = [add_action(w, page.TITLE, _shower(w, page), [page.KEY], view)
                          for page in w.analysis_pages]
    add_action(w, "Next step", w.next_tab, ["Right", "Ctrl+Tab"], view)
    add_action(w, "Previous step", w.previous_tab, ["Left", "Ctrl+Shift+Tab"], view)
    # Space and Enter reveal only while Predict is shown (enable_reveal): elsewhere they stay
    # the keys of the focused button or row.
    w.reveal_action = add_action(w, "Reveal the next row (Predict)", w.predict_tab.reveal_next,
                                 ["Space", "Return", "Enter"], view)
    enable_reveal(w)
    view.addSeparator()
    w.swap_action = add_action(w, "&Swap A and B", w.swap, ["S"], view)
    w.find_action = add_action(w, "&Find kernel...", w.find_kernel,
                               [QKeySequence.StandardKey.Find], view)
    w.list_action = w.kernel_dock.toggleViewAction()
    w.list_action.setText("&Kernel list")
    w.list_action.setShortcut(QKeySequence("Ctrl+L"))
    w.addAction(w.list_action)
    view.addAction(w.list_action)
    view.addSeparator()
    w.projector_action = add_action(w, "&Projector mode", w.toggle_projector, ["F5", "Ctrl+P"],
                                    view)
    w.projector_action.setCheckable(True)
    w.leave_projector_action = add_action(w, "Leave projector mode",
                                          lambda: w.set_projector(False), ["Esc"])
    w.leave_projector_action.setEnabled(False)
    help_menu = w.menuBar().addMenu("&Help")
    w.keys_action = add_action(w, "&Keys", w.show_keys, ["F1", "?"], help_menu)


def show_keys(window: MainWindow) -> None:
    """Show (or hide again) the list of keys, read from the window's actions, in its style."""
    if window.keys_dialog is not None and window.keys_dialog.isVisible():
        window.keys_dialog.close()
        return
    window.keys_dialog = KeysDialog(window.actions(), window.tab_style, window)
    window.keys_dialog.addAction(window.keys_action)
    window.keys_dialog.show()


def enable_reveal(window: MainWindow) -> None:
    """Space and Enter reveal a prediction only while the Predict tab is shown."""
    window.reveal_action.setEnabled(window.tabs.currentWidget() is window.predict_tab)


def fill_recent(window: MainWindow) -> None:
    recent_files.fill_menu(window.recent_menu, window.recent, window.open_paths)


def _setter(window: MainWindow, index: int) -> Callable[[], None]:
    return lambda: window.set_tab(index)


def _shower(window: MainWindow, page: QWidget) -> Callable[[], None]:
    return lambda: window.tabs.setCurrentWidget(page)
