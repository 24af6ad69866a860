"""An event filter on whichever widget has the focus, moved along as the focus moves: what a
window-wide key handler needs (the focus widget's key events, and the ShortcutOverride Qt asks
it before a shortcut fires) with no other event of the application passing through Python, as
an application-wide filter would make every paint and layout event do."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QWidget


class FocusFilter(QObject):
    """Subclasses define `eventFilter`; it is called only for the widget with the focus."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._follow)  # a slot of self: gone when self is
            self._follow(None, app.focusWidget())

    def _follow(self, old: QWidget | None, new: QWidget | None) -> None:
        if old is not None:
            old.removeEventFilter(self)
        if new is not None:
            new.installEventFilter(self)
