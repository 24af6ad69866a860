"""The kernel list as a dock on the window's left: hidden until a report holds more than two
kernels (or Ctrl+F, Ctrl+L asks for it); shown by any of them, and whenever the window's width
changes while it shows, as wide as its columns and its widest name whole (at least LIST_WIDTH),
at most SHARE of the window."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QDockWidget, QMainWindow

from viewer.qt.kernel_list.kernel_list import KernelList

# The kernel list's least width when it opens, in pixels (at most SHARE of the window).
LIST_WIDTH = 440
SHARE = 1 / 3
"""The most of the window's width the list takes: the tabs keep the rest."""


def dock_width(window_width: int, kernel_list: KernelList) -> int:
    """What the list takes of a window `window_width` wide: its columns and names whole,
    LIST_WIDTH at least, SHARE of the window at most."""
    return min(max(LIST_WIDTH, kernel_list.whole_width()), int(window_width * SHARE))


class DockFit(QObject):
    """Fits `dock` (holding `kernel_list`) to dock_width each time it is shown and each time
    the window's width changes while it shows."""

    def __init__(self, window: QMainWindow, dock: QDockWidget, kernel_list: KernelList) -> None:
        super().__init__(dock)
        self._window, self._dock, self._list = window, dock, kernel_list
        dock.visibilityChanged.connect(self._shown)
        window.installEventFilter(self)

    def _shown(self, visible: bool) -> None:
        if visible:
            QTimer.singleShot(0, self.fit)  # once the dock is laid out in the window

    def fit(self) -> None:
        if self._dock.isVisible() and not self._dock.isFloating():
            self._window.resizeDocks([self._dock], [dock_width(self._window.width(), self._list)],
                                     Qt.Orientation.Horizontal)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.Resize:
            QTimer.singleShot(0, self.fit)
        return super().eventFilter(watched, event)


def kernel_dock(window: QMainWindow, kernel_list: KernelList) -> QDockWidget:
    """`kernel_list` docked on the left of `window`, closable and movable, hidden; fitted to
    its names whenever it shows (DockFit)."""
    dock = QDockWidget("Kernels", window)
    dock.setObjectName("kernel_dock")
    dock.setWidget(kernel_list)
    dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                     | QDockWidget.DockWidgetFeature.DockWidgetMovable)
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
    dock.hide()
    DockFit(window, dock, kernel_list)
    return dock


def show_dock(window: QMainWindow, dock: QDockWidget, kernel_list: KernelList,
              visible: bool) -> None:
    """Show or hide `dock`; shown, it takes dock_width (DockFit)."""
    del window, kernel_list  # DockFit fits it, however it is shown
    dock.setVisible(visible)


def list_key(window: QMainWindow, dock: QDockWidget, kernel_list: KernelList) -> QAction:
    """The kernel list's action (Ctrl+L, the View menu's "Kernel list", checked while it shows):
    hidden, the list shows with its table focused (so G groups at once); shown but the focus
    elsewhere, the focus moves into it; focused, it hides. A toggle alone would hide a list
    shown by a report of many kernels, where the key asked for it."""
    action = QAction("&Kernel list", window)
    action.setCheckable(True)
    action.setChecked(dock.isVisible())
    dock.visibilityChanged.connect(lambda _shown: action.setChecked(dock.isVisible()))

    def pressed() -> None:
        focus = QApplication.focusWidget()
        inside = focus is not None and kernel_list.isAncestorOf(focus)
        if dock.isVisible() and inside:
            dock.hide()
        else:
            dock.show()
            dock.raise_()
            table = kernel_list.group_view if kernel_list.grouped else kernel_list.view
            table.setFocus(Qt.FocusReason.ShortcutFocusReason)
        action.setChecked(dock.isVisible())

    action.triggered.connect(pressed)
    return action
