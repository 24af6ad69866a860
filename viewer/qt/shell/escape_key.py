"""Esc with no box focused: it closes what is open first, one thing a press (the keys list, the
exercise, the compare line's warnings opened with N, the note of a later step opened on, a kernel
list opened in projector mode), and leaves projector mode only when nothing else is open. F5
and Ctrl+P toggle the mode whatever is open. (Esc in a box gives the box up:
viewer.qt.shell.window_menus.)"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QWidget

from viewer.qt.shell.projector_mode import ProjectorMode

Closer = Callable[[], bool]


def hide_shown(widget: QWidget | None) -> bool:
    """Hide `widget` where it is shown; whether it was."""
    if widget is None or not widget.isVisible():
        return False
    widget.close()
    return True


class EscapeKey(QObject):
    """`action` (Esc) runs `closers` in order until one closes something, else leaves
    `projector`."""

    def __init__(self, action: QAction, projector: ProjectorMode,
                 closers: Sequence[Closer]) -> None:
        super().__init__(action)
        self._projector, self._closers = projector, list(closers)
        action.triggered.connect(lambda _checked=False: self.press())

    def press(self) -> str:
        """One press: 'closed' where something was open, else 'left' projector mode, or
        'nothing' at the desk with nothing open."""
        if any(close() for close in self._closers):
            return "closed"
        if self._projector.on:
            self._projector.set(False)
            return "left"
        return "nothing"
