"""Rows a student can pick as an answer: click one, or Tab to it and press Enter or Space.

A pickable widget carries the row it shows (`row_key`: a summary key of viewer.core.metrics or an
ncu metric name). While picking is on (`set_picking(True)`: the exercise is open) it takes the
keyboard focus, emits `picked(row_key)` on a click or Enter, and says so with a pointing cursor, a
light fill and frame under the mouse and a dashed accent frame with the focus. `set_marked(True)`
draws, picking or not, the thick frame of a row jumped to. The cues are painted inside the
widget's own rectangle, so rows keep their size either way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QRectF, Qt, Signal, SignalInstance
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QLabel, QWidget

from viewer.core import metrics
from viewer.qt.kit.plain_text import plain_tip
from viewer.qt.kit.style import Role, Style

PICK_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space)
PICK_TIP = "Click, or press Enter, to answer the exercise with this row"


def same_row(a: str, b: str) -> bool:
    """Whether two row keys name the same row: a summary key and its ncu metric are one row."""
    return a == b or metrics.SUMMARY_METRICS.get(a, a) == metrics.SUMMARY_METRICS.get(b, b)


def row_name(key: str) -> str:
    """A row key for people: 'DRAM Throughput', 'Sectors per request', else the metric name."""
    return metrics.row_words(key) or key


def paint_fill(painter: QPainter, rect: QRectF, style: Style, *, hovered: bool,
               marked: bool) -> None:
    """Under the text: a light tint under the mouse, an accent tint on the row jumped to."""
    if hovered or marked:
        tint = QColor(style.color("accent" if marked else "outline"))
        tint.setAlpha(40 if marked else 28)
        painter.fillRect(rect, tint)


def paint_frame(painter: QPainter, rect: QRectF, style: Style, *, hovered: bool, focused: bool,
                marked: bool) -> None:
    """Over the text: a thin frame under the mouse, a dashed accent frame with the keyboard
    focus, a thick accent frame on the row jumped to."""
    if not (hovered or focused or marked):
        return
    width = style.px(3) if marked else style.px(2) if focused else max(1, style.px(1))
    color = style.color("accent" if marked or focused else "outline")
    dashed = focused and not marked
    painter.setPen(QPen(color, width, Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    half = width / 2
    painter.drawRect(rect.adjusted(half, half, -half, -half))


if TYPE_CHECKING:  # the mixin is only ever mixed into a QWidget: let the checker see one
    _Widget = QWidget
else:
    _Widget = object


class Pickable(_Widget):
    """What a pickable widget shares (mixed into a QWidget that defines `picked = Signal(str)`)."""

    picked: Signal

    row_key: str | None = None
    marked: bool = False
    picking: bool = False
    _hovered: bool = False
    _focus_policy: Qt.FocusPolicy = Qt.FocusPolicy.NoFocus
    _tip: str = ""  # what the row says of itself on hover, picking or not

    def make_pickable(self, key: str) -> None:
        """This widget shows the row `key`: it can be marked, and picked while picking is on."""
        widget: QWidget = self
        self.row_key = key
        self._focus_policy = widget.focusPolicy()
        widget.setAttribute(Qt.WidgetAttribute.WA_Hover)

    def set_picking(self, on: bool) -> None:
        """Let the student pick this row (focus, cursor, cues), or stop."""
        widget: QWidget = self
        if self.row_key is None or on == self.picking:
            return
        self.picking = on
        widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus if on else self._focus_policy)
        if on:
            widget.setCursor(Qt.CursorShape.PointingHandCursor)
        else:
            widget.unsetCursor()
        self._show_tip()
        widget.setAccessibleDescription(PICK_TIP if on else "")
        widget.update()

    def set_tip(self, text: str) -> None:
        """What the row says of itself on hover; while picking, the way to pick it follows."""
        self._tip = text
        self._show_tip()

    def _show_tip(self) -> None:
        widget: QWidget = self
        pick = f"{row_name(self.row_key or '')}: {PICK_TIP.lower()}" if self.picking else ""
        widget.setToolTip(plain_tip("\n\n".join(t for t in (self._tip, pick) if t)))

    def set_marked(self, marked: bool) -> None:
        if marked != self.marked:
            self.marked = marked
            self.update()

    def _pick_event(self, event: QEvent) -> bool:
        """Handle hover, a click and Enter/Space; True when the event picked the row."""
        kind = event.type()
        if kind in (QEvent.Type.Enter, QEvent.Type.Leave):
            self._hovered = kind == QEvent.Type.Enter
        if self.row_key is None or not self.picking:
            return False
        if kind in (QEvent.Type.Enter, QEvent.Type.Leave, QEvent.Type.FocusIn,
                    QEvent.Type.FocusOut):
            self.update()
            return False
        if self._picks(event):
            self.picked.emit(self.row_key)
            return True
        return False

    def _picks(self, event: QEvent) -> bool:
        """A left click released on the widget (not a drag that selected text), or Enter or
        Space without a modifier."""
        if isinstance(event, QMouseEvent):
            return (event.type() == QEvent.Type.MouseButtonRelease
                    and event.button() == Qt.MouseButton.LeftButton
                    and self.rect().contains(event.position().toPoint())
                    and not self._selecting())
        keypad = Qt.KeyboardModifier.KeypadModifier  # Enter on the number pad
        return (isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress
                and event.key() in PICK_KEYS
                and event.modifiers() & ~keypad == Qt.KeyboardModifier.NoModifier)

    def _selecting(self) -> bool:
        return False

    def _paint_fill(self, painter: QPainter, style: Style) -> None:
        if self.row_key is not None:
            paint_fill(painter, QRectF(self.rect()), style,
                       hovered=self.picking and self._hovered, marked=self.marked)

    def _paint_frame(self, painter: QPainter, style: Style) -> None:
        if self.row_key is not None:
            paint_frame(painter, QRectF(self.rect()), style,
                        hovered=self.picking and self._hovered,
                        focused=self.picking and self.hasFocus(),
                        marked=self.marked)


class RowLabel(Pickable, QLabel):
    """A label in the style's type that picks the row `key` (see `Style.label`)."""

    picked = Signal(str)

    def __init__(self, text: str, style: Style, key: str, role: Role = "body", *,
                 bold: bool = False, color: str = "text", highlight: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self._style = style
        self.setTextFormat(Qt.TextFormat.PlainText)  # a name from a file is never markup
        style.paint_label(self, role, bold=bold, color=color, highlight=highlight)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        pad = style.px(3)
        self.setContentsMargins(pad, 0, pad, 0)
        self.make_pickable(key)

    def _selecting(self) -> bool:
        return self.hasSelectedText()

    def event(self, event: QEvent) -> bool:
        handled = super().event(event)  # a drag first selects text, and then picks nothing
        if self._pick_event(event):
            event.accept()
            return True
        return handled

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        self._paint_fill(painter, self._style)
        painter.end()
        super().paintEvent(event)
        painter = QPainter(self)
        self._paint_frame(painter, self._style)
        painter.end()


class RowPicks:
    """The rows a tab shows that can be picked: each one's `picked` passed on to `picked`,
    picking turned on and off for all of them, and the row framed (`marked`, which outlives
    the widgets of one build)."""

    def __init__(self, picked: SignalInstance) -> None:
        self._picked = picked
        self._widgets: list[Pickable] = []
        self.marked: str | None = None
        self.picking = False

    def clear(self) -> None:
        """The tab is built again: its widgets go."""
        self._widgets = []

    def add(self, widget: Pickable) -> None:
        self._widgets.append(widget)
        widget.set_picking(self.picking)
        widget.picked.connect(self._picked)

    def keys(self) -> list[str]:
        """The rows that can be picked, each once, in the order they were added."""
        return list(dict.fromkeys(w.row_key for w in self._widgets if w.row_key))

    def widgets(self, key: str) -> list[Pickable]:
        """The widgets that show row `key` (a summary key or its metric name)."""
        return [w for w in self._widgets if w.row_key is not None and same_row(w.row_key, key)]

    def mark(self, key: str | None) -> list[Pickable]:
        """Frame row `key` (None: no row); returns the widgets that show it."""
        self.marked = key
        found = self.widgets(key) if key is not None else []
        for widget in self._widgets:
            widget.set_marked(widget in found)
        return found

    def set_picking(self, on: bool) -> None:
        self.picking = on
        for widget in self._widgets:
            widget.set_picking(on)
