"""The kernel list as a dock on the window's left: hidden until a report holds more than two
kernels (or Ctrl+F, Ctrl+L asks for it); opening, as wide as its columns whole (at least
LIST_WIDTH), at most a third of the window."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow

from viewer.qt.kernel_list.kernel_list import KernelList

# The kernel list's width when it opens, in pixels (at most a third of the window).
LIST_WIDTH = 440


def kernel_dock(window: QMainWindow, kernel_list: KernelList) -> QDockWidget:
    """`kernel_list` docked on the left of `window`, closable and movable, hidden."""
    dock = QDockWidget("Kernels", window)
    dock.setObjectName("kernel_dock")
    dock.setWidget(kernel_list)
    dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                     | QDockWidget.DockWidgetFeature.DockWidgetMovable)
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
    dock.hide()
    return dock


def show_dock(window: QMainWindow, dock: QDockWidget, kernel_list: KernelList,
              visible: bool) -> None:
    """Show or hide `dock`; opening, it takes what `kernel_list`'s columns need whole
    (LIST_WIDTH at least), or a third of the window if less."""
    was = dock.isVisible()
    dock.setVisible(visible)
    if visible and not was:
        width = min(max(LIST_WIDTH, kernel_list.whole_width()), window.width() // 3)
        window.resizeDocks([dock], [width], Qt.Orientation.Horizontal)
