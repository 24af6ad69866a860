"""The memory chart's view: the chart item at its own size, shrunk to the width only as far as
its type stays legible, and below that each band wrapped onto rows that fit (taller, never
smaller, never scrolled sideways).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import get_args

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QPainter, QResizeEvent, QTransform
from PySide6.QtWidgets import QFrame, QGraphicsScene, QGraphicsView, QSizePolicy

from viewer.analysis.chart_layout import ChartBand
from viewer.qt.kit.style import Role, Style
from viewer.qt.views.memory.memory_chart_item import MemoryChartItem


def legible_points(style: Style) -> float:
    """The smallest type `style` sets anywhere: the chart's painted text, however it is scaled
    to fit, is never drawn smaller."""
    return min(style.points(role) for role in get_args(Role))


class MemoryChartView(QGraphicsView):
    """Shows a MemoryChartItem at its own size: shrunk to the width only as far as its type
    stays legible (`legible_points`), and below that drawn on more rows (a band wrapped) at the
    width, taller instead of smaller."""

    def __init__(self, bands: Sequence[ChartBand], style: Style) -> None:
        super().__init__()
        self._bands, self._style = list(bands), style
        self.item = MemoryChartItem()
        self.item.set_bands(self._bands, style)
        self._laid_out_for: tuple[float, bool] = (0.0, False)
        scene = QGraphicsScene(self)
        scene.addItem(self.item)
        self.setScene(scene)
        self.setBackgroundBrush(style.color("background"))
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setRenderHints(QPainter.RenderHint.Antialiasing
                            | QPainter.RenderHint.TextAntialiasing)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._fit(self.item.natural_width)

    @property
    def scale_factor(self) -> float:
        return self.transform().m11()

    @property
    def smallest_scale(self) -> float:
        """The smallest scale at which the chart's type is still legible."""
        return min(1.0, legible_points(self._style) / self.item.smallest_points)

    @property
    def painted_points(self) -> float:
        """The smallest type on screen: the chart's smallest font at the scale it is drawn."""
        return self.item.smallest_points * self.scale_factor

    def sizeHint(self) -> QSize:
        rect = self.item.boundingRect()
        return QSize(math.ceil(self.item.natural_width),
                     math.ceil(rect.height() * self.scale_factor))

    def minimumSizeHint(self) -> QSize:
        return QSize(200, self.sizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit(event.size().width())

    def _lay_out(self, width: float, wrap: bool = False) -> QRectF:
        if abs(width - self._laid_out_for[0]) > 0.5 or wrap != self._laid_out_for[1]:
            self.item.set_bands(self._bands, self._style, width, wrap)
            self._laid_out_for = (width, wrap)
        return self.item.boundingRect()

    def _fit(self, available: float) -> None:
        """Fill `available` pixels of width: wider gaps when there is room, narrower labels
        and then a smaller picture when there is not, and where that picture's type would be
        too small to read, each band wrapped onto rows that fit."""
        rect = self._lay_out(available)
        scale = min(1.0, available / rect.width()) if rect.width() > 0 else 1.0
        if scale < self.smallest_scale:
            rect = self._lay_out(available, wrap=True)
            scale = min(1.0, available / rect.width()) if rect.width() > 0 else 1.0
        self.scene().setSceneRect(rect)
        if abs(scale - self.scale_factor) > 1e-6:
            self.setTransform(QTransform.fromScale(scale, scale))
        self.setFixedHeight(math.ceil(rect.height() * scale))
