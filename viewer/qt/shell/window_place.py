"""Where the window opens: the user's last size and place when they fit a screen now, else the
screen's available geometry, less room for the window manager's frame: a 1920x1080 screen gets a
window as large as it allows, a 1366x768 laptop the whole window, status line included. Kept in
QSettings under `window/`.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QMargins, QRect, QSettings, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

# The size of a desk screenshot, and the window's size hint.
DESK_SIZE = QSize(1280, 800)
# Room left around the first window for what the window manager adds: a title bar above, a frame.
FRAME = QMargins(8, 40, 8, 8)
GEOMETRY_KEY = "window/geometry"
MAXIMIZED_KEY = "window/maximized"


def first_geometry(available: QRect, frame: QMargins = FRAME) -> QRect:
    """All of `available` less the frame the window manager adds around the window."""
    return available.marginsRemoved(frame)


def fits(rect: QRect, available: Sequence[QRect]) -> bool:
    """Whether `rect` lies whole within one of the screens' available geometries."""
    return rect.isValid() and any(a.contains(rect) for a in available)


def available_geometries() -> list[QRect]:
    return [screen.availableGeometry() for screen in QGuiApplication.screens()]


def saved_geometry(settings: QSettings) -> tuple[QRect, bool] | None:
    """The size and place saved last, and whether the window was maximized; None if none."""
    value = settings.value(GEOMETRY_KEY)
    if not isinstance(value, QRect) or not value.isValid():
        return None
    maximized = str(settings.value(MAXIMIZED_KEY, "false")).lower() == "true"
    return value, maximized


def save_geometry(settings: QSettings, window: QWidget) -> None:
    """Remember the window's normal (not maximized, not full-screen) size and place."""
    rect = window.normalGeometry() if window.isMaximized() or window.isFullScreen() \
        else window.geometry()
    if not rect.isValid():
        return
    settings.setValue(GEOMETRY_KEY, rect)
    settings.setValue(MAXIMIZED_KEY, window.isMaximized())
    settings.sync()


def place(window: QWidget, settings: QSettings,
          available: Sequence[QRect] | None = None) -> bool:
    """Give `window` its saved size and place where they fit one of the screens, else the first
    geometry on the window's screen. Returns whether it should open maximized."""
    screens = available_geometries() if available is None else list(available)
    saved = saved_geometry(settings)
    if saved is not None and fits(saved[0], screens):
        window.setGeometry(saved[0])
        return saved[1]
    if available is not None:
        here = screens[0] if screens else QRect()
    else:
        screen = window.screen() or QGuiApplication.primaryScreen()
        here = screen.availableGeometry() if screen is not None else QRect()
    if here.isValid():
        window.setGeometry(first_geometry(here))
    else:
        window.resize(DESK_SIZE)
    return False
