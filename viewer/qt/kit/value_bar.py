"""One value drawn as a horizontal bar against its full scale, with the value written beside it.

Given a `row_key`, the bar is a row the student can pick (viewer.qt.kit.row_pick)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QFontMetricsF, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from viewer.core.formatting import NOT_IN_REPORT
from viewer.qt.kit.row_pick import Pickable
from viewer.qt.kit.style import Style


class ValueBar(Pickable, QWidget):
    """`value` of `full` as a filled bar; None draws an empty track that says so.

    `threshold` draws a tick at that value (the HIGH_PCT line of a speed-of-light row);
    `emphasis` writes the value in bold (the busiest unit, the binding limit); `row_key` makes
    it a row the student can pick (`picked(row_key)`).
    """

    picked = Signal(str)

    def __init__(self, style: Style, value: float | None, full: float, text: str, *,
                 color: str = "memory", threshold: float | None = None,
                 emphasis: bool = False, text_sample: str = "100.00 %",
                 row_key: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.value = value
        self.full = full
        self.text = text if value is not None else NOT_IN_REPORT
        self.threshold = threshold
        self.emphasis = emphasis
        self._style = style
        self.fill = color  # the Colors field the bar is filled with
        self._font = style.font("body", bold=emphasis)
        metrics = QFontMetricsF(style.font("body", bold=True))
        self._text_width = max(metrics.horizontalAdvance(text_sample),
                               metrics.horizontalAdvance(self.text if value is not None else ""))
        self._text_width += style.px(14)
        self._line = metrics.height()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName(self.text)
        if row_key is not None:
            self.make_pickable(row_key)

    @property
    def fraction(self) -> float | None:
        """How much of the track is filled, 0..1 (a value above `full` fills it)."""
        if self.value is None or self.full <= 0:
            return None
        return max(0.0, min(1.0, self.value / self.full))

    def sizeHint(self) -> QSize:
        return QSize(round(self._text_width) + self._style.px(240), self._height())

    def minimumSizeHint(self) -> QSize:
        return QSize(round(self._text_width) + self._style.px(80), self._height())

    def _height(self) -> int:
        return round(max(self._line, self._style.px(16))) + self._style.px(6)

    def event(self, event: QEvent) -> bool:
        if self._pick_event(event):
            event.accept()
            return True
        return super().event(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        style = self._style
        painter = QPainter(self)
        self._paint_fill(painter, style)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        bar_h = style.px(16)
        track = QRectF(0.5, (self.height() - bar_h) / 2,
                       max(10.0, self.width() - self._text_width - 1), bar_h)
        painter.setPen(QPen(style.color("outline"), max(1, style.px(1))))
        painter.setBrush(style.color("track"))
        painter.drawRect(track)
        fraction = self.fraction
        if fraction is not None and fraction > 0:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.color(self.fill))
            painter.drawRect(QRectF(track.left(), track.top(), track.width() * fraction, bar_h))
        if self.threshold is not None and self.full > 0:
            x = track.left() + track.width() * min(1.0, self.threshold / self.full)
            painter.setPen(QPen(style.color("text"), style.px(2), Qt.PenStyle.DashLine))
            painter.drawLine(round(x), round(track.top() - style.px(3)),
                             round(x), round(track.bottom() + style.px(3)))
        painter.setFont(self._font)
        if self.value is None:
            painter.setPen(QPen(style.color("missing")))
            painter.drawText(track.adjusted(style.px(6), 0, 0, 0),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, self.text)
        else:
            area = QRectF(track.right() + style.px(8), 0, self._text_width - style.px(8),
                          self.height())
            if self.emphasis:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(style.color("highlight"))
                painter.drawRect(area)
                area = area.adjusted(style.px(3), 0, 0, 0)
            painter.setPen(QPen(style.color("text")))
            painter.drawText(area, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                             self.text)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        self._paint_frame(painter, style)
        painter.end()
