"""A timing over sizes plotted: each kernel's median against N with its runs' spread as error bars
(min..max of the timed launches), the points over 2 % ringed, and below it the ratio of the
medians against N.

Both axes of the durations are logarithmic (a matmul's time grows as N cubed), drawn in log10
coordinates so that the error bars follow them; a point whose time is not positive is left out.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from viewer.analysis.timing_sizes import FLAG_TEXT, median_legend, ratio_heading
from viewer.qt.kit.log_ticks import decade_ticks, value_ticks
from viewer.qt.kit.plot_style import hold_still, paint_axis, paint_legend
from viewer.qt.kit.style import Style
from viewer.qt.views.timing.timing_plot import Y_LABEL, kernel_color

if TYPE_CHECKING:
    from viewer.kernels.sizes import SizesTiming

X_LABEL = "N (each N x N x N, log scale)"
RATIO_LABEL = "ratio"
_SYMBOLS = ("o", "s", "t", "d")  # per kernel, as in the launches' plot


class SizesPlot(pg.GraphicsLayoutWidget):  # type: ignore[misc]  # pyqtgraph ships no types
    """`show_sizes(timing)` draws it. `points[kernel]` (x: log10 N, y: log10 median ms),
    `bars[kernel]` (their min..max), `flags` (the points over 2 %) and `ratio_curve` are the
    drawn items; `times` and `ratios` the two plots."""

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent=parent)
        self._style = style
        self._timing: SizesTiming | None = None
        self.times = self.addPlot(row=0, col=0)
        self.ratios = self.addPlot(row=1, col=0)
        self.ci.layout.setRowStretchFactor(0, 3)
        self.ci.layout.setRowStretchFactor(1, 1)
        for item in (self.times, self.ratios):
            hold_still(item, grid_x=False, alpha=0.25)
        self.legend = self.times.addLegend(offset=(10, 5))
        self.points: dict[str, pg.PlotDataItem] = {}
        self.bars: dict[str, pg.ErrorBarItem] = {}
        self.flags: pg.ScatterPlotItem | None = None
        self.ratio_curve: pg.PlotDataItem | None = None
        self.set_style(style)

    @property
    def timing(self) -> SizesTiming | None:
        return self._timing

    def set_style(self, style: Style) -> None:
        self._style = style
        c = style.colors
        self.setBackground(c.background)
        for item, left in ((self.times, Y_LABEL), (self.ratios, RATIO_LABEL)):
            for name, text in (("bottom", X_LABEL), ("left", left)):
                paint_axis(item.getAxis(name), style,
                           text if item is self.ratios or name == "left" else "", "body")
            item.getAxis("left").setWidth(style.px(70))
        paint_legend(self.legend, style)
        self._draw()

    def show_sizes(self, timing: SizesTiming) -> None:
        self._timing = timing
        self._draw()

    def _clear(self) -> None:
        for item in (*self.points.values(), *self.bars.values()):
            self.times.removeItem(item)
        if self.flags is not None:
            self.times.removeItem(self.flags)
        self.ratios.clear()
        self.legend.clear()
        self.points, self.bars, self.flags, self.ratio_curve = {}, {}, None, None

    def _draw(self) -> None:
        self._clear()
        timing = self._timing
        if timing is None:
            return
        style = self._style
        for i, kernel in enumerate(timing.kernels):
            self._draw_kernel(timing, i, kernel)
        flagged = [(math.log10(s.dim), math.log10(s.median_ms)) for s in timing.unstable()
                   if s.min_ms > 0]
        warning = style.color("warning")
        self.flags = pg.ScatterPlotItem(
            [x for x, _ in flagged], [y for _, y in flagged], symbol="o",
            size=style.px(20), brush=None, pen=pg.mkPen(warning, width=style.px(3)))
        self.times.addItem(self.flags)
        self.legend.addItem(self.flags, FLAG_TEXT)
        self._draw_ratio(timing)
        ticks = value_ticks(timing.dims)
        for item in (self.times, self.ratios):
            item.getAxis("bottom").setTicks(ticks)
            xs = [math.log10(d) for d in timing.dims]
            item.setXRange(min(xs) - 0.08, max(xs) + 0.08, padding=0)
        self._fit_times(timing)

    def _draw_kernel(self, timing: SizesTiming, index: int, kernel: str) -> None:
        style = self._style
        color = kernel_color(style, index)
        spreads = [size.spread(kernel) for size in timing.sizes]
        shown = [s for s in spreads if s.min_ms > 0]
        xs = [math.log10(s.dim) for s in shown]
        ys = [math.log10(s.median_ms) for s in shown]
        points = pg.PlotDataItem(
            xs, ys, pen=pg.mkPen(color, width=style.px(2)),
            symbol=_SYMBOLS[index % len(_SYMBOLS)], symbolSize=style.px(10),
            symbolBrush=color, symbolPen=pg.mkPen(color))
        bars = pg.ErrorBarItem(
            x=np.array(xs), y=np.array(ys),
            top=np.array([math.log10(s.max_ms) - y for s, y in zip(shown, ys, strict=True)]),
            bottom=np.array([y - math.log10(s.min_ms) for s, y in zip(shown, ys, strict=True)]),
            beam=0.03, pen=pg.mkPen(color, width=style.px(2)))
        self.times.addItem(bars)
        self.times.addItem(points)
        self.points[kernel], self.bars[kernel] = points, bars
        self.legend.addItem(points, median_legend(kernel))

    def _draw_ratio(self, timing: SizesTiming) -> None:
        style = self._style
        shown = [(math.log10(s.dim), s.ratio) for s in timing.sizes if s.ratio is not None]
        color = style.color("text")
        self.ratio_curve = pg.PlotDataItem(
            [x for x, _ in shown], [r for _, r in shown], pen=pg.mkPen(color, width=style.px(2)),
            symbol="d", symbolSize=style.px(10), symbolBrush=color, symbolPen=pg.mkPen(color))
        self.ratios.addItem(self.ratio_curve)
        self.ratios.addItem(pg.InfiniteLine(1.0, angle=0, pen=pg.mkPen(
            style.colors.outline, width=style.px(1))))
        self.ratios.getAxis("left").setLabel(f"{ratio_heading(timing)}", **{
            "color": style.colors.text, "font-size": f"{style.points('body')}pt"})
        top = max((r for _, r in shown), default=1.0)
        self.ratios.setYRange(0.0, max(1.2, top * 1.25), padding=0)

    def _fit_times(self, timing: SizesTiming) -> None:
        """Every bar in view, a decade's ticks, and room at the top for the legend."""
        spreads = [s for size in timing.sizes for s in size.spreads if s.min_ms > 0]
        if not spreads:
            self.times.setYRange(-1.0, 0.0, padding=0)
            return
        low = min(s.min_ms for s in spreads)
        high = max(s.max_ms for s in spreads)
        self.times.getAxis("left").setTicks(decade_ticks(low, high))
        span = max(0.3, math.log10(high) - math.log10(low))
        self.times.setYRange(math.log10(low) - 0.1 * span, math.log10(high) + 0.6 * span,
                             padding=0)
