"""The hierarchical roofline as one log-log pyqtgraph chart.

The FP32 peak as a flat ceiling, each memory level's bandwidth as a slope up to it, each kernel as
a point per level (x: FLOP per byte at that level, y: achieved FP32 work), in compare mode an
arrow from A to B at each level, and the lesson's day-30 hand count as a hollow marker. Values
come straight from viewer.analysis.roofline; what a Roofline lacks is not drawn. y is in TFLOP/s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from viewer.analysis.roofline import DayThirty, Roofline
from viewer.core import formatting as fmt
from viewer.qt.kit.log_ticks import decade_ticks
from viewer.qt.kit.plot_style import hold_still, paint_axis
from viewer.qt.kit.style import Style

X_LABEL = "arithmetic intensity (FLOP per byte)"
Y_LABEL = "FP32 work (TFLOP/s)"
TERA = 1e12
LEVEL_COLORS = {"dram": "memory", "l2": "latency", "l1": "shared"}
SYMBOLS = ("o", "s")  # kernel A, kernel B
LABEL_BELOW_PEAK = 2.5  # a memory roof is named where it reaches this far below the FP32 peak


class RooflineChart(pg.PlotWidget):  # type: ignore[misc]  # pyqtgraph ships no types
    """`show_rooflines(rooflines, names, day30)` draws it. What is drawn, for tests:
    `ceilings` (level key or 'fp32' -> peak bytes/s or FLOP/s), `points` ((column, level key) ->
    (FLOP/byte, FLOP/s)), `arrows` (level key -> (from, to) points), `hand_point`."""

    def __init__(self, style: Style | None = None, parent: QWidget | None = None) -> None:
        self._style = style or Style()
        super().__init__(parent=parent, background=self._style.colors.background)
        item = self.getPlotItem()
        hold_still(item, grid_x=True, alpha=0.2)
        item.setLogMode(x=True, y=True)
        self.key: list[tuple[str, str, str]] = []  # (colour, glyph, text) for the view's key
        self.ceilings: dict[str, float] = {}
        self.points: dict[tuple[int, str], tuple[float, float]] = {}
        self.arrows: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {}
        self.hand_point: tuple[float, float] | None = None
        self.line_names: dict[str, str] = {}  # level key or 'fp32' -> the words on its line
        self._heads: list[tuple[pg.ArrowItem, tuple[float, float], tuple[float, float]]] = []
        self._args: tuple[Sequence[Roofline], Sequence[str], DayThirty | None, int] = (
            (), (), None, 0)
        item.getViewBox().sigResized.connect(self._turn_heads)
        item.getViewBox().sigRangeChanged.connect(self._turn_heads)
        self.set_style(self._style)

    def set_style(self, style: Style) -> None:
        self._style = style
        c = style.colors
        self.setBackground(c.background)
        item = self.getPlotItem()
        for name, text in (("bottom", X_LABEL), ("left", Y_LABEL)):
            paint_axis(item.getAxis(name), style, text, "body")
        self.setMinimumHeight(style.px(340))
        self.show_rooflines(*self._args)

    def show_rooflines(self, rooflines: Sequence[Roofline], names: Sequence[str],
                       day30: DayThirty | None = None, hand_column: int = 0) -> None:
        """Draw the ceilings of the first roofline that has them, every kernel's points, the
        arrows from A to B, and the day-30 hand count of the naive kernel (column `hand_column`,
        at its achieved work)."""
        self._args = (tuple(rooflines), tuple(names), day30, hand_column)
        item = self.getPlotItem()
        item.clear()
        self.key = []
        self.ceilings, self.points, self.arrows, self.hand_point = {}, {}, {}, None
        self.line_names = {}
        self._heads = []
        if not rooflines:
            return
        xs, ys = self._collect(rooflines, day30)
        if not xs:
            return
        x_lo, x_hi = min(xs) / 3, max(xs) * 3
        self._draw_ceilings(rooflines, x_lo, x_hi)
        self._draw_points(rooflines, names)
        self._draw_hand(rooflines, names, day30, hand_column)
        roofs = [v * x for k, v in self.ceilings.items() if k != "fp32" for x in (x_lo, x_hi)]
        heights = [y for y in (*ys, self.ceilings.get("fp32", 0.0)) if y > 0] or \
            [y for y in roofs if y > 0]  # no point and no peak: the slopes alone
        if not heights:
            return
        y_hi = max(heights) * 3 / TERA
        y_lo = min(ys or heights) / 8 / TERA
        item.setRange(xRange=(math.log10(x_lo), math.log10(x_hi)),
                      yRange=(math.log10(y_lo), math.log10(y_hi)), padding=0)
        item.getAxis("bottom").setTicks(decade_ticks(x_lo, x_hi))
        item.getAxis("left").setTicks(decade_ticks(y_lo, y_hi))
        self._turn_heads()

    def _collect(self, rooflines: Sequence[Roofline], day30: DayThirty | None
                 ) -> tuple[list[float], list[float]]:
        """Every x (FLOP/byte) and y (FLOP/s) that will be drawn, ridges included."""
        xs: list[float] = []
        ys: list[float] = []
        for rf in rooflines:
            for level in rf.levels:
                if level.intensity is not None and rf.achieved_fp32_flop_per_s is not None:
                    xs.append(level.intensity)
                    ys.append(rf.achieved_fp32_flop_per_s)
                ridge = rf.ridge(level.key)
                if ridge is not None:
                    xs.append(ridge)
        if day30 is not None:
            xs.append(day30.hand_intensity)
        return [x for x in xs if x > 0], [y for y in ys if y > 0]

    def _draw_ceilings(self, rooflines: Sequence[Roofline], x_lo: float, x_hi: float) -> None:
        style = self._style
        rf = next((r for r in rooflines if r.peak_fp32_flop_per_s is not None), rooflines[0])
        peak = rf.peak_fp32_flop_per_s
        width = style.px(3) if style.projector else style.px(2)
        ridges = []
        for level in rf.levels:
            bandwidth = level.peak_bytes_per_s
            if bandwidth is None:
                continue
            self.ceilings[level.key] = bandwidth
            ridge = rf.ridge(level.key)
            end = ridge if ridge is not None else x_hi
            ridges.append(end)
            pen = pg.mkPen(getattr(style.colors, LEVEL_COLORS[level.key]), width=width)
            self.plotItem.addItem(pg.PlotDataItem(
                [x_lo, end], [bandwidth * x_lo / TERA, bandwidth * end / TERA], pen=pen))
            self.key.append((pen.color().name(), "\u2501\u2501",
                             f"{level.name} roof {fmt.rate(bandwidth)}"))
            if peak is not None:  # named on the line itself, a little below the FP32 peak
                x = peak / LABEL_BELOW_PEAK / bandwidth
                self._name_line(level.key, level.name, x, peak / LABEL_BELOW_PEAK, pen.color())
        if peak is not None:
            self.ceilings["fp32"] = peak
            start = min(ridges) if ridges else x_lo
            self.plotItem.addItem(pg.PlotDataItem(
                [start, x_hi], [peak / TERA] * 2,
                pen=pg.mkPen(style.colors.compute, width=width)))
            self.key.append((style.colors.compute, "\u2501\u2501",
                             f"FP32 peak {fmt.flop_rate(peak)}"))
            self._name_line("fp32", f"FP32 peak {fmt.flop_rate(peak)}", x_hi, peak,
                            pg.mkColor(style.colors.compute))

    def _name_line(self, key: str, text: str, x: float, y: float, color: object) -> None:
        """Write `text` on the chart just above and left of (x FLOP/byte, y FLOP/s), in the
        line's colour (`line_names`, for tests)."""
        label = pg.TextItem(text, color=color, anchor=(1, 1))
        label.setFont(self._style.font("small", bold=True))
        label.setPos(math.log10(x), math.log10(y / TERA))
        self.plotItem.addItem(label)
        self.line_names[key] = text

    def _draw_points(self, rooflines: Sequence[Roofline], names: Sequence[str]) -> None:
        style, c = self._style, self._style.colors
        size = style.px(13)
        for column, (rf, name) in enumerate(zip(rooflines, names, strict=True)):
            symbol = SYMBOLS[column % 2]
            self.key.append((c.text, "\u25cf" if symbol == "o" else "\u25a0",
                             f"{'AB'[column]}: {name}" if len(rooflines) == 2 else name))
            work = rf.achieved_fp32_flop_per_s
            for level in rf.levels:
                if work is None or level.intensity is None or level.intensity <= 0:
                    continue
                color = getattr(c, LEVEL_COLORS[level.key])
                self.points[(column, level.key)] = (level.intensity, work)
                self.plotItem.addItem(pg.PlotDataItem(
                    [level.intensity], [work / TERA], pen=None, symbol=symbol,
                    symbolSize=size, symbolBrush=color,
                    symbolPen=pg.mkPen(c.outline, width=style.px(1))))
        if len(rooflines) == 2:
            for level in rooflines[0].levels:
                start, end = self.points.get((0, level.key)), self.points.get((1, level.key))
                if start is not None and end is not None:
                    self._arrow(level.key, start, end)

    def _arrow(self, key: str, start: tuple[float, float], end: tuple[float, float]) -> None:
        style = self._style
        color = getattr(style.colors, LEVEL_COLORS[key])
        self.arrows[key] = (start, end)
        self.plotItem.addItem(pg.PlotDataItem(
            [start[0], end[0]], [start[1] / TERA, end[1] / TERA],
            pen=pg.mkPen(color, width=style.px(2))))
        head = pg.ArrowItem(headLen=style.px(14), tipAngle=35, brush=color,
                            pen=pg.mkPen(color), pxMode=True)
        head.setPos(math.log10(end[0]), math.log10(end[1] / TERA))
        self.plotItem.addItem(head)
        self._heads.append((head, start, end))

    def arrow_heads(self) -> tuple[tuple[pg.ArrowItem, tuple[float, float],
                                         tuple[float, float]], ...]:
        """Each arrow's head with the (x, y) its arrow starts and ends at."""
        return tuple(self._heads)

    def _turn_heads(self, *_args: object) -> None:
        """Point each arrowhead along its line as it is drawn on screen (log axes)."""
        box = self.plotItem.getViewBox()
        for head, start, end in self._heads:
            a = box.mapViewToScene(pg.Point(math.log10(start[0]), math.log10(start[1] / TERA)))
            b = box.mapViewToScene(pg.Point(math.log10(end[0]), math.log10(end[1] / TERA)))
            head.setStyle(angle=180 + math.degrees(math.atan2(b.y() - a.y(), b.x() - a.x())))

    def _draw_hand(self, rooflines: Sequence[Roofline], names: Sequence[str],
                   day30: DayThirty | None, column: int) -> None:
        """The naive kernel where the hand count puts it: hollow, at DRAM's colour."""
        work = rooflines[column].achieved_fp32_flop_per_s
        if day30 is None or work is None:
            return
        style, c = self._style, self._style.colors
        self.hand_point = (day30.hand_intensity, work)
        measured = self.points.get((column, "dram"))
        if measured is not None:  # from the hand count to what DRAM measured
            self.plotItem.addItem(pg.PlotDataItem(
                [day30.hand_intensity, measured[0]], [work / TERA] * 2,
                pen=pg.mkPen(c.memory, width=style.px(2), style=Qt.PenStyle.DashLine)))
        self.plotItem.addItem(pg.PlotDataItem(
            [day30.hand_intensity], [work / TERA], pen=None, symbol="o",
            symbolSize=style.px(17), symbolBrush=None,
            symbolPen=pg.mkPen(c.memory, width=style.px(3))))
        self.key.append((c.memory, "\u25cb", f"{names[column]}: DRAM bytes by hand (day 30)"))
