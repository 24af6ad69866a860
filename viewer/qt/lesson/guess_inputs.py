"""The Predict step's inputs: a number field and a which-is-faster box that keep their keys.

The window's one-letter keys (S, T, P, R, the digits, Space and Enter for Reveal) are shortcuts
on the window; a widget with focus gets a key first only when it claims it (ShortcutOverride).
A QLineEdit claims printable keys and the arrows already; these also claim Enter (the field's
returnPressed: the Predict step decides what it does) and, in the box, letters and Space, so
typing a prediction never swaps A and B or reveals a row by accident.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QComboBox, QLineEdit, QWidget

_ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
_PLAIN = (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier,
          Qt.KeyboardModifier.KeypadModifier)
# Keys the box leaves to the window: the steps, leaving projector mode, the keys list.
_WINDOW_KEYS = (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Escape, Qt.Key.Key_Tab,
                Qt.Key.Key_Backtab)


def _plain(event: QKeyEvent) -> bool:
    return event.modifiers() in _PLAIN


class GuessEdit(QLineEdit):
    """A field for one predicted number that keeps Enter for its returnPressed."""

    def event(self, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent)
                and event.key() in _ENTER and _plain(event)):
            event.accept()
            return True
        return super().event(event)


class FasterBox(QComboBox):
    """Which kernel will be faster: '?' (no guess) or one of the two, by the names shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def event(self, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent)
                and _plain(event) and event.key() not in _WINDOW_KEYS
                and not Qt.Key.Key_F1 <= event.key() <= Qt.Key.Key_F35):
            event.accept()
            return True
        return super().event(event)
