"""The timed launches of each kernel, one point per launch, with each kernel's median as a line.

The y axis starts at zero so that the gap between two kernels reads as their ratio, and its top
leaves room for the legend above the highest point.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QWidget

from viewer.qt.kit.plot_style import hold_still, paint_axis, paint_legend
from viewer.qt.kit.style import Style

if TYPE_CHECKING:
    from viewer.kernels.runner import TimingResult

# Per kernel, in the result's order: palette colour, point symbol, median dash.
KERNEL_COLORS = ("compute", "memory", "shared", "latency")
_SYMBOLS = ("o", "s", "t", "d")
_DASHES = (Qt.PenStyle.DashLine, Qt.PenStyle.DotLine, Qt.PenStyle.DashDotLine,
           Qt.PenStyle.DashDotDotLine)

X_LABEL = "timed launch"
Y_LABEL = "GPU time (ms)"


def kernel_color(style: Style, index: int) -> QColor:
    """The colour of the index-th kernel of a result, in the plot and beside it."""
    return style.color(KERNEL_COLORS[index % len(KERNEL_COLORS)])


class LaunchTimesPlot(pg.PlotWidget):  # type: ignore[misc]  # pyqtgraph ships no types
    """`show_timing(result)` draws it; `launch_curves[kernel]` and `median_curves[kernel]` are
    the drawn items (x: launch number from 1, y: ms)."""

    def __init__(self, style: Style | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent=parent, background=(style or Style()).colors.background)
        self._style = style or Style()
        self._result: TimingResult | None = None
        self._x_label = X_LABEL
        self.launch_curves: dict[str, pg.PlotDataItem] = {}
        self.median_curves: dict[str, pg.PlotDataItem] = {}
        item = self.getPlotItem()
        hold_still(item, grid_x=False, alpha=0.25)
        self.legend = item.addLegend(offset=(10, 5))
        self.legend.setColumnCount(2)
        item.getViewBox().sigResized.connect(self._fit_range)
        self.set_style(self._style)

    @property
    def result(self) -> TimingResult | None:
        return self._result

    def set_style(self, style: Style) -> None:
        self._style = style
        c = style.colors
        self.setBackground(c.background)
        item = self.getPlotItem()
        for name, text in (("bottom", self._x_label), ("left", Y_LABEL)):
            paint_axis(item.getAxis(name), style, text, "body")
        paint_legend(self.legend, style)
        self.legend.setOffset((style.px(10), style.px(5)))
        self._draw()

    def set_x_label(self, text: str) -> None:
        """What the launches on the x axis are (the runner's launch order, say)."""
        self._x_label = text
        self.set_style(self._style)

    def show_timing(self, result: TimingResult) -> None:
        self._result = result
        self._draw()

    def clear_timing(self) -> None:
        self._result = None
        self._draw()

    def _draw(self) -> None:
        item = self.getPlotItem()
        for curve in (*self.launch_curves.values(), *self.median_curves.values()):
            item.removeItem(curve)
        self.legend.clear()
        self.launch_curves, self.median_curves = {}, {}
        result = self._result
        if result is None:
            self._fit_range()
            return
        style = self._style
        for i, timing in enumerate(result.kernels):
            color = kernel_color(style, i)
            n = len(timing.launches_ms)
            launches = pg.PlotDataItem(
                list(range(1, n + 1)), list(timing.launches_ms),
                pen=pg.mkPen(color, width=style.px(1)),
                symbol=_SYMBOLS[i % len(_SYMBOLS)], symbolSize=style.px(9),
                symbolBrush=color, symbolPen=pg.mkPen(color),
            )
            median_pen = QPen(color)
            median_pen.setWidthF(style.px(2))
            median_pen.setStyle(_DASHES[i % len(_DASHES)])
            median_pen.setCosmetic(True)
            median = pg.PlotDataItem([0.5, n + 0.5], [timing.median_ms] * 2, pen=median_pen)
            item.addItem(launches)
            item.addItem(median)
            self.launch_curves[timing.kernel] = launches
            self.median_curves[timing.kernel] = median
        for timing in result.kernels:
            self.legend.addItem(self.launch_curves[timing.kernel], timing.kernel)
        for timing in result.kernels:
            self.legend.addItem(self.median_curves[timing.kernel], f"{timing.kernel} median")
        launches_max = max((len(k.launches_ms) for k in result.kernels), default=0)
        self.getPlotItem().getAxis("bottom").setTicks(
            [[(x, str(x)) for x in range(1, launches_max + 1)]])
        self._fit_range()

    def _fit_range(self, *_args: object) -> None:
        """Zero to above the highest launch, leaving the legend's height free at the top."""
        item = self.getPlotItem()
        result = self._result
        if result is None or not result.kernels:
            item.setXRange(0.5, 10.5, padding=0)
            item.setYRange(0.0, 1.0, padding=0)
            return
        launches = max(len(k.launches_ms) for k in result.kernels)
        top = max(max(k.launches_ms, default=0.0) for k in result.kernels)
        height = item.getViewBox().height()
        legend = self.legend.boundingRect().height() + self._style.px(15)
        free = max(0.35, 1.0 - legend / height) if height > 0 else 0.7
        below = min(0.1, self._style.px(8) / height) if height > 0 else 0.02
        span = (top * 1.04 / free) if top > 0 else 1.0
        item.setXRange(0.5, launches + 0.5, padding=0)
        item.setYRange(-below * span, span, padding=0)  # room under 0 for its tick label
