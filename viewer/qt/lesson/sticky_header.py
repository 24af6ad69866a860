"""A table's header row kept in view: once the row scrolls above the top of its scroll area, a
copy of it is laid over the top of the viewport, each heading over its own column."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtWidgets import QLabel, QScrollArea, QWidget

from viewer.qt.kit.style import Style


class StickyHeader(QWidget):
    """Copies of `headings` (labels inside `area`'s widget) over the top of `area`'s viewport
    while the originals are scrolled out of view; hidden while they show. Its labels are named
    `sticky_<n>` after their column."""

    def __init__(self, area: QScrollArea, headings: Sequence[QLabel], style: Style) -> None:
        super().__init__(area)
        self.setObjectName("sticky_header")
        self._area, self._headings = area, list(headings)
        self.copies: list[QLabel] = []
        for column, heading in enumerate(self._headings):
            copy = QLabel(heading.text(), self)
            copy.setTextFormat(heading.textFormat())  # shows the text as the heading does
            copy.setObjectName(f"sticky_{column}")
            copy.setFont(heading.font())
            copy.setStyleSheet(heading.styleSheet())
            copy.setAlignment(heading.alignment())
            self.copies.append(copy)
        self._rule = style.px(2)
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        self.setStyleSheet(f"StickyHeader {{ background: {style.colors.background};"
                           f" border-bottom: {self._rule}px solid {style.colors.outline}; }}")
        area.verticalScrollBar().valueChanged.connect(self.place)
        area.viewport().installEventFilter(self)
        for heading in self._headings:
            heading.installEventFilter(self)
        self.hide()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Move):
            self.place()
        return False

    def place(self) -> None:
        """Show the copies over the viewport's top where the headings are above it."""
        viewport = self._area.viewport()
        shown = [h for h in self._headings if h.text() and viewport.isAncestorOf(h)]
        if not shown or not viewport.isVisible():
            self.hide()
            return
        tops = [h.mapTo(viewport, QPoint(0, 0)).y() for h in shown]
        if min(tops) >= 0:
            self.hide()
            return
        height = max(h.height() for h in shown) + self._rule
        origin = viewport.mapTo(self._area, QPoint(0, 0))
        self.setGeometry(origin.x(), origin.y(), viewport.width(), height)
        bottom = max(h.mapTo(viewport, QPoint(0, h.height())).y() for h in shown)
        for heading, copy in zip(self._headings, self.copies, strict=True):
            at = heading.mapTo(viewport, QPoint(0, 0))
            copy.setGeometry(at.x(), at.y() - bottom + height - self._rule, heading.width(),
                             heading.height())
            copy.setVisible(bool(heading.text()))
        self.show()
        self.raise_()
