"""A table's header row kept in view: once the row scrolls above the top of its scroll area, a
copy of it is pinned above the viewport, each heading over its own column. It sits in a margin
the viewport gives up for it, never over the viewport: no row scrolls under it, and a row
scrolled into view is in view whole."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer
from PySide6.QtWidgets import QLabel, QScrollArea, QWidget

from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.style import Style


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    STICKY = "sticky"
    STICKY_HEADER = "sticky_header"



class StickyHeader(QWidget):
    """Copies of `headings` (labels inside `area`'s widget) in a margin above `area`'s viewport
    while the originals are scrolled out of view; hidden, the margin gone, while they show. Its
    labels are named `sticky_<n>` after their column."""

    def __init__(self, area: QScrollArea, headings: Sequence[QLabel], style: Style) -> None:
        super().__init__(area)
        self.setObjectName(Names.STICKY_HEADER)
        self._area, self._headings = area, list(headings)
        self.copies: list[QLabel] = []
        for column, heading in enumerate(self._headings):
            copy = QLabel(heading.text(), self)
            copy.setTextFormat(heading.textFormat())  # shows the text as the heading does
            copy.setObjectName(one_of(Names.STICKY, column))
            copy.setFont(heading.font())
            copy.setStyleSheet(heading.styleSheet())
            copy.setAlignment(heading.alignment())
            self.copies.append(copy)
        self._rule = style.px(2)
        self._margin = 0  # the viewport's top margin it holds now
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        self.setStyleSheet(f"StickyHeader {{ background: {style.colors.background};"
                           f" border-bottom: {self._rule}px solid {style.colors.outline}; }}")
        # placed once the event in hand is done: its margin resizes the viewport, which must not
        # happen inside the layout pass that moved a heading
        self._due = False
        area.verticalScrollBar().valueChanged.connect(self._place_later)
        area.viewport().installEventFilter(self)
        for heading in self._headings:
            heading.installEventFilter(self)
        self.hide()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Move):
            self._place_later()
        return False

    def _place_later(self, *_args: object) -> None:
        if not self._due:
            self._due = True
            QTimer.singleShot(0, self, self.place)

    def place(self) -> None:
        """Pin the copies above the viewport where the headings are above its top."""
        self._due = False
        viewport = self._area.viewport()
        shown = [h for h in self._headings if h.text() and viewport.isAncestorOf(h)]
        if not shown or not self._area.isVisible():
            self._pin(0)
            self.hide()
            return
        tops = [h.mapTo(viewport, QPoint(0, 0)).y() for h in shown]
        if min(tops) >= 0:
            self._pin(0)
            self.hide()
            return
        height = max(h.height() for h in shown) + self._rule
        self._pin(height)
        origin = viewport.mapTo(self._area, QPoint(0, 0))
        self.setGeometry(origin.x(), origin.y() - height, viewport.width(), height)
        for heading, copy in zip(self._headings, self.copies, strict=True):
            at = heading.mapTo(viewport, QPoint(0, 0))
            copy.setGeometry(at.x(), height - self._rule - heading.height(), heading.width(),
                             heading.height())
            copy.setVisible(bool(heading.text()))
        self.show()
        self.raise_()

    def _pin(self, height: int) -> None:
        """Give the viewport a top margin of `height` (0: none), scrolled by as much, so what
        shows under the margin stays where it was on the screen."""
        if height == self._margin:
            return
        change, self._margin = height - self._margin, height
        self._area.setViewportMargins(0, height, 0, 0)
        bar = self._area.verticalScrollBar()
        bar.setValue(max(0, bar.value() + change))

    def unpin(self) -> None:
        """Hide the copies and give the viewport its margin back (the table is gone)."""
        self._pin(0)
        self.hide()
