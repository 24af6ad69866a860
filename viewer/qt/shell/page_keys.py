"""The keys that do one thing whatever has the focus in the window: PageDown, PageUp and the
arrows Up and Down scroll the page shown (its largest scroll area), not whatever widget Tab
left the focus on; a list or table that has the focus keeps its arrows (they move its row),
and a box that takes typed text keeps every key. Typed letters in such a box stay in it: they
never reach the window's one-letter keys (the views, S, N). One filter on whichever widget has
the focus (`FocusFilter`), since the boxes and lists belong to every view."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QAbstractSlider,
    QApplication,
    QMainWindow,
    QWidget,
)

from viewer.qt.kit.focus_filter import FocusFilter
from viewer.qt.shell.window_menus import is_edit

Step = QAbstractSlider.SliderAction
SCROLLS = {Qt.Key.Key_PageDown: Step.SliderPageStepAdd, Qt.Key.Key_PageUp: Step.SliderPageStepSub,
           Qt.Key.Key_Down: Step.SliderSingleStepAdd, Qt.Key.Key_Up: Step.SliderSingleStepSub}
_ARROWS = (Qt.Key.Key_Down, Qt.Key.Key_Up)
_TYPING = (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier,
           Qt.KeyboardModifier.KeypadModifier)

# F1's words for the keys no action holds (what it does, its keys).
KEY_ROWS = (
    ("Scroll the page shown, whatever has the focus (a text box keeps them)",
     "PageDown or PageUp or Up or Down"),
    ("Pick a second kernel to compare (in the kernel list)", "Ctrl+Down then Ctrl+Space"),
)


def page_scroller(page: QWidget) -> QAbstractScrollArea | None:
    """The scroll area of `page` that scrolls it: the largest visible one that can scroll
    (the page itself where it is one); None where nothing on it scrolls."""
    areas = [page] if isinstance(page, QAbstractScrollArea) else []
    areas += page.findChildren(QAbstractScrollArea)
    live = [a for a in areas if isinstance(a, QAbstractScrollArea) and a.isVisible()
            and a.verticalScrollBar().maximum() > 0]
    return max(live, key=lambda a: a.viewport().width() * a.viewport().height(), default=None)


class PageKeys(FocusFilter):
    """The filter, for `window`, whose page shown is `current()`."""

    def __init__(self, window: QMainWindow, current: Callable[[], QWidget]) -> None:
        super().__init__(window)
        self._window, self._current = window, current

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        focus = QApplication.focusWidget()
        if (not isinstance(event, QKeyEvent) or watched is not focus or focus is None
                or focus.window() is not self._window):
            return False
        if is_edit(focus):
            if kind == QEvent.Type.ShortcutOverride and _typed(event):
                event.accept()  # a letter typed in a box is the box's, never a view's key
            return False
        if kind == QEvent.Type.KeyPress and event.modifiers() == Qt.KeyboardModifier.NoModifier:
            return self._scroll(focus, event.key())
        return False

    def _scroll(self, focus: QWidget, key: int) -> bool:
        step = SCROLLS.get(Qt.Key(key))
        if step is None or (isinstance(focus, QAbstractItemView) and key in _ARROWS):
            return False
        if isinstance(focus, QAbstractScrollArea) and focus.verticalScrollBar().maximum() > 0:
            return False  # a scroll area with the focus (F1's list, say) scrolls itself
        area = page_scroller(self._current())
        if area is None:
            return False
        area.verticalScrollBar().triggerAction(step)
        return True


def _typed(event: QKeyEvent) -> bool:
    """Whether `event` types a character (no Ctrl, Alt or Meta)."""
    text = event.text()
    return bool(text) and text.isprintable() and event.modifiers() in _TYPING
