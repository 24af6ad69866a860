"""A kernel's name on one line in the width its column gives it, elided in the middle, keeping
what tells it from the other kernel's (viewer.core.elide); the whole name on hover. Both plain
text: a name is never markup (viewer.qt.kit.plain_text)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from viewer.core.elide import ELLIPSIS, distinct_elisions
from viewer.qt.kit.plain_text import plain_tip


class ElidedName(QLabel):
    """`text()` is the whole name; what is painted is `shown_text()`. It asks for its whole
    width but needs none: a long name never widens its column, its tab or the window."""

    def __init__(self, name: str, others: Sequence[str] = (), tooltip: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(name, parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self._others = [o for o in others if o != name]
        self.setToolTip(plain_tip(tooltip or name))
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def shown_text(self) -> str:
        """The name as it fits the label's width now."""
        metrics = self.fontMetrics()
        width = self.contentsRect().width()
        names = [self.text(), *self._others]
        return distinct_elisions(names, width, metrics.horizontalAdvance)[0]

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(self.fontMetrics().horizontalAdvance(ELLIPSIS * 3), hint.height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setFont(self.font())
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(), int(self.alignment()), self.shown_text())
