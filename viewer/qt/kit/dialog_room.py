"""The room a dialog has: the window it opens over (in projector mode the whole screen), less
its frame, so a dialog centred over that window is on screen whole, however large its type."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QWidget

FRAME = 48  # a window manager's title bar and borders, with a little to spare


def dialog_room(parent: QWidget | None) -> QSize:
    """The most a dialog over `parent`'s window may take; the screen's free part where there is
    no window shown."""
    window = parent.window() if parent is not None else None
    if window is not None and window.isVisible():
        size = window.size()
    else:
        screen = (window.screen() if window is not None else None)
        if screen is None:
            return QSize(1024, 768)
        size = screen.availableGeometry().size()
    return QSize(max(size.width() - FRAME, 320), max(size.height() - FRAME, 240))


def fit_dialog(dialog: QWidget, wanted: QSize, parent: QWidget | None) -> QSize:
    """Size `dialog` to `wanted`, within its room over `parent` (which it cannot outgrow);
    returns the size given."""
    room = dialog_room(parent)
    dialog.setMaximumSize(room)
    size = wanted.boundedTo(room)
    dialog.resize(size)
    return size
