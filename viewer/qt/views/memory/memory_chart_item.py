"""The memory chart drawn: one band of boxes and arrows per kernel, painted once into a QPicture.

Geometry is measured from the style's fonts (viewer.qt.views.memory.chart_painter paints it), so
the chart is as large as its text needs; the item reports that exact rectangle as its boundingRect.
Bands shown together share their column widths and their arrow-width scales, so the same arrow in
two bands can be compared by eye.

Every number on the chart is a row the student can pick while `set_picking(True)`: a click on it
emits `picked(key)` (the summary key of viewer.core.metrics it shows) and the mouse over it frames
it; `mark(key)` frames the row the exercise jumped to. The tables under the chart carry the same
rows for the keyboard.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import QPainter, QPicture
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsSceneHoverEvent,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from viewer.analysis.chart_layout import ChartBand
from viewer.qt.kit.row_pick import paint_fill, paint_frame, same_row
from viewer.qt.kit.style import Style
from viewer.qt.views.memory.chart_painter import ChartPainter


class MemoryChartItem(QGraphicsObject):
    """Bands of the memory chart. After `set_bands`, `arrow_widths`, `dashed` and `texts` say
    what was drawn: (band index, arrow key) -> line width in pixels, the arrows drawn dashed
    because the report lacks their metric, and every string painted, in painting order;
    `regions` holds (rectangle, row key) for each number that picks a row."""

    picked = Signal(str)

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self._picture = QPicture()
        self._rect = QRectF()
        self._style = Style()
        self.arrow_widths: dict[tuple[int, str], float] = {}
        self.dashed: set[tuple[int, str]] = set()
        self.texts: list[str] = []
        self.regions: list[tuple[QRectF, str]] = []
        self.natural_width = 0.0
        self.smallest_points = 0.0  # the smallest type painted, before the view scales it
        self.wrapped = False
        self.hovered: str | None = None
        self.marked: str | None = None
        self.picking = False
        self.setAcceptHoverEvents(True)
        self.setAcceptedMouseButtons(Qt.MouseButton.LeftButton)

    def boundingRect(self) -> QRectF:
        return QRectF(self._rect)

    def painted_rect(self) -> QRect:
        """Where the last set of bands painted, inside the bounding rect."""
        return self._picture.boundingRect()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        self._picture.play(painter)
        for rect, key in self.regions:
            hovered, marked = key == self.hovered, self.marked is not None and same_row(
                key, self.marked)
            if hovered or marked:
                paint_fill(painter, rect, self._style, hovered=hovered, marked=marked)
                paint_frame(painter, rect, self._style, hovered=hovered, focused=False,
                            marked=marked)

    # ---------------------------------------------------------------- rows to pick

    def set_picking(self, on: bool) -> None:
        """Let the student pick the chart's numbers (the exercise is open), or stop."""
        self.picking = on
        if not on:
            self._hover(None)

    def key_at(self, pos: QPointF) -> str | None:
        """The row of the number at `pos` (item coordinates), or None."""
        return next((key for rect, key in self.regions if rect.contains(pos)), None)

    def row_keys(self) -> list[str]:
        return list(dict.fromkeys(key for _, key in self.regions))

    def mark(self, key: str | None) -> bool:
        """Frame every number of row `key` (None: none); False when the chart shows no such row."""
        self.marked = key
        self.update()
        return key is not None and any(same_row(k, key) for _, k in self.regions)

    def _hover(self, key: str | None) -> None:
        if key != self.hovered:
            self.hovered = key
            self.setCursor(Qt.CursorShape.PointingHandCursor if key else
                           Qt.CursorShape.ArrowCursor)
            self.update()

    def hoverMoveEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        self._hover(self.key_at(event.pos()) if self.picking else None)

    def hoverLeaveEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        self._hover(None)

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if not self.picking or self.key_at(event.pos()) is None:
            event.ignore()
        else:
            event.accept()

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        key = self.key_at(event.pos())
        if key is not None:
            self.picked.emit(key)

    def set_bands(self, bands: Sequence[ChartBand], style: Style, width: float = 0.0,
                  wrap: bool = False) -> None:
        """Lay out and paint `bands`; the gaps between boxes widen to fill `width` if given.
        With `wrap`, each band is drawn on as many rows as `width` needs (ChartPainter.run)."""
        self.prepareGeometryChange()
        self._style = style
        self._picture = QPicture()
        painter = QPainter(self._picture)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        chart = ChartPainter(painter, bands, style)
        width, height = chart.run(width, wrap)
        self.natural_width, self.wrapped = chart.natural_width, wrap
        self.smallest_points = chart.smallest_points
        painter.end()
        drawn = chart.drawn
        self.arrow_widths, self.dashed = drawn.arrow_widths, drawn.dashed
        self.texts, self.regions = drawn.texts, drawn.regions
        self._rect = QRectF(0, 0, width, height)
        self.update()
