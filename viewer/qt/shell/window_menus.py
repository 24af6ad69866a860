"""The window's actions: File, View and Help, and the keys that work with the menu bar hidden
(projector mode), so F1's list of keys is read from the same actions.

`build_menus` makes the actions and menus and hands them back as one `WindowActions`;
`connect_actions` wires them to what the window does (a `WindowCommands`), so this module knows
no window but a QMainWindow. `EscapeFromEdits` gives Esc in a search, threshold or prediction
box its own meaning: the focus goes back to the tabs, so that the letter keys work again; Esc
elsewhere is viewer.qt.shell.escape_key's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDockWidget,
    QLineEdit,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from viewer.qt.kit.focus_filter import FocusFilter


@dataclass(frozen=True)
class WindowActions:
    """Every action of the window, each on the window itself, in its menu where it has one."""

    open: QAction
    recent: QMenu
    view_menu: QMenu  # where a part added later (the exercise) puts its own action
    capture: QAction
    export: QAction
    quit: QAction
    views: tuple[QAction, ...]  # one for each tab, in tab order, each with its key
    next_step: QAction
    previous_step: QAction
    reveal: QAction
    swap: QAction
    find: QAction
    kernel_list: QAction
    projector: QAction
    escape: QAction  # Esc: close what is open, else leave projector mode (escape_key)
    keys: QAction


class WindowCommands(Protocol):
    """What the actions ask of the window."""

    def open_dialog(self) -> None: ...
    def open_capture(self) -> None: ...
    def export_dialog(self) -> object: ...
    def show_tab(self, index: int) -> None: ...
    def next_tab(self) -> None: ...
    def previous_tab(self) -> None: ...
    def reveal_next(self) -> None: ...
    def swap(self) -> None: ...
    def find_kernel(self) -> None: ...
    def show_keys(self) -> None: ...


def add_action(window: QMainWindow, text: str,
               shortcuts: Sequence[QKeySequence | QKeySequence.StandardKey | str] = (),
               menu: QMenu | None = None) -> QAction:
    """An action on the window itself (its keys work with the menu bar hidden), in `menu`."""
    action = QAction(text, window)
    action.setShortcuts([QKeySequence(s) for s in shortcuts])
    window.addAction(action)
    if menu is not None:
        menu.addAction(action)
    return action


def on_trigger(action: QAction, slot: Callable[[], object]) -> None:
    """Run `slot` when `action` is triggered, without the `checked` argument Qt passes."""

    def run(_checked: bool = False) -> None:
        slot()

    action.triggered.connect(run)


def build_menus(window: QMainWindow, views: Sequence[tuple[str, str]], kernel_list: QAction,
                capture_key: str) -> WindowActions:
    """File (open, recent, capture, export, quit), View (the tabs' `views` by their words and
    key, in tab order, the steps, swap, find, the `kernel_list` dock's action, projector mode)
    and Help (keys). Quit closes `window`; `connect_actions` wires the rest."""
    w = window
    file_menu = w.menuBar().addMenu("&File")
    open_action = add_action(w, "&Open...", [QKeySequence.StandardKey.Open], file_menu)
    recent = file_menu.addMenu("Open &Recent")
    capture = add_action(w, "&Capture...", [capture_key], file_menu)
    file_menu.addSeparator()
    export = add_action(w, "&Export...", ["Ctrl+E"], file_menu)
    file_menu.addSeparator()
    quit_action = add_action(w, "&Quit", [QKeySequence.StandardKey.Quit], file_menu)
    on_trigger(quit_action, w.close)

    view = w.menuBar().addMenu("&View")
    view_actions = tuple(add_action(w, text, [key], view) for text, key in views)
    next_step = add_action(w, "Next step", ["Right", "Ctrl+Tab"], view)
    previous_step = add_action(w, "Previous step", ["Left", "Ctrl+Shift+Tab"], view)
    # Space and Enter reveal only while Predict is shown (the window enables it): elsewhere they
    # stay the keys of the focused button or row.
    reveal = add_action(w, "Reveal the next row (Predict)", ["Space", "Return", "Enter"], view)
    view.addSeparator()
    swap = add_action(w, "&Swap A and B", ["S"], view)
    find = add_action(w, "&Find kernel...", [QKeySequence.StandardKey.Find], view)
    kernel_list.setText("&Kernel list")
    kernel_list.setShortcut(QKeySequence("Ctrl+L"))
    w.addAction(kernel_list)
    view.addAction(kernel_list)
    view.addSeparator()
    projector = add_action(w, "&Projector mode", ["F5", "Ctrl+P"], view)
    projector.setCheckable(True)
    escape = add_action(w, "Close what is open (the keys list, the exercise, the warnings "
                        "opened, a kernel list opened in projector mode), else leave projector "
                        "mode", ["Esc"])
    help_menu = w.menuBar().addMenu("&Help")
    keys = add_action(w, "&Keys", ["F1", "?"], help_menu)
    return WindowActions(open_action, recent, view, capture, export, quit_action, view_actions,
                         next_step, previous_step, reveal, swap, find, kernel_list, projector,
                         escape, keys)


def connect_actions(actions: WindowActions, commands: WindowCommands) -> None:
    """Each action runs its command (projector mode and Esc wire their own)."""
    a, c = actions, commands
    for action, slot in ((a.open, c.open_dialog), (a.capture, c.open_capture),
                         (a.export, c.export_dialog),
                         (a.next_step, c.next_tab), (a.previous_step, c.previous_tab),
                         (a.reveal, c.reveal_next), (a.swap, c.swap), (a.find, c.find_kernel),
                         (a.keys, c.show_keys)):
        on_trigger(action, slot)
    for index, action in enumerate(a.views):
        on_trigger(action, _with(c.show_tab, index))


def _with(slot: Callable[[int], None], index: int) -> Callable[[], None]:
    return lambda: slot(index)


def is_edit(widget: QWidget | None) -> bool:
    """Whether `widget` takes typed text (a line, a number, an editable list)."""
    if isinstance(widget, QComboBox):
        return widget.isEditable()
    return isinstance(widget, QLineEdit | QAbstractSpinBox | QTextEdit | QPlainTextEdit)


class EscapeFromEdits(FocusFilter):
    """Esc in a box that takes typed text anywhere in `window` calls `back` (the window gives
    the focus to its tabs) and nothing else; Esc elsewhere keeps its meaning (closing what is
    open, else leaving projector mode). A filter on whichever widget has the focus
    (`FocusFilter`), since the boxes belong to every view."""

    def __init__(self, window: QMainWindow, back: Callable[[], object]) -> None:
        super().__init__(window)
        self._window, self._back = window, back

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        if not (isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Escape
                and event.modifiers() == Qt.KeyboardModifier.NoModifier):
            return False
        focus = QApplication.focusWidget()
        if watched is not focus or not is_edit(focus) or not self._holds(focus):
            return False
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()  # the key goes to the box, not to the Esc of projector mode
        else:
            self._back()
        return True

    def _holds(self, widget: QWidget) -> bool:
        """Whether `widget` is in the window itself or in one of its docks set floating (not
        in a dialog, where Esc closes the dialog)."""
        window = widget.window()
        return window is self._window or (isinstance(window, QDockWidget)
                                          and window.parentWidget() is self._window)
