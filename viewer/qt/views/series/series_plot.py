"""The Series plot: two pyqtgraph charts side by side over N (log axes).

Left, each row's global load requests and sectors against N, log-log, with the derivation's exact
lines drawn through them (dashed, the kernel's colour); right, naive over tiled sectors and
duration against N on one linear axis, so that one line stays at 8 while the other moves. The data
are viewer.analysis.series_points'; hovering a point names its report and value (the chart's
tool tip and `hover_label` under the charts). What has no N, or a value the report lacks, is not
drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import StrEnum

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QWidget

from viewer.analysis import series_points as sp
from viewer.analysis.series import DURATION, REQUESTS, SECTORS, Series
from viewer.qt.kit.log_ticks import decade_ticks, value_ticks
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.plot_style import hold_still, paint_axis, paint_legend
from viewer.qt.kit.style import Style


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    COUNTS = "counts"
    RATIOS = "ratios"
    HOVER = "hover"


HOVER_HINT = "Hover a point: its report and value."
COUNTS_TITLE = "Requests and sectors against N"
RATIOS_TITLE = "Naive over tiled against N"
ROLE_COLORS = {"naive": "memory", "tiled": "shared"}
KEY_SYMBOLS = {REQUESTS: "o", SECTORS: "s"}
KEY_WORDS = {REQUESTS: "requests", SECTORS: "sectors", DURATION: "duration"}
RATIO_COLORS = {SECTORS: "memory", DURATION: "latency"}
RATIO_ROOM = 1.6  # the ratios' axis reaches this times the highest, the key above it
COUNT_ROOM = 0.3
"""The counts' axis reaches this share of its decades above the highest, for the key (top left,
in two columns): the lines rise to the right, so at the left that room is empty."""


class SeriesPlot(QWidget):
    """`show_series(series)` draws it. What is drawn, for tests: `count_points` and
    `ratio_points` (series_points.Point), `lines` (series_points.DerivedLine), `scatters` (the
    hoverable items, key (chart, kernel or ratio, value key) -> ScatterPlotItem), and
    `hover_label`."""

    def __init__(self, style: Style | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._style = style or Style()
        self.series: Series | None = None
        self.count_points: list[sp.Point] = []
        self.ratio_points: list[sp.Point] = []
        self.lines: list[sp.DerivedLine] = []
        self.scatters: dict[tuple[str, str, str], pg.ScatterPlotItem] = {}
        self.counts = self._chart(Names.COUNTS, log_y=True)
        self.ratios = self._chart(Names.RATIOS, log_y=False)
        self.hover_label = plain_label(HOVER_HINT)
        self.hover_label.setObjectName(Names.HOVER)
        self.hover_label.setWordWrap(True)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.counts, 0, 0)
        grid.addWidget(self.ratios, 0, 1)
        grid.addWidget(self.hover_label, 1, 0, 1, 2)
        self.set_style(self._style)

    def _chart(self, name: str, *, log_y: bool) -> pg.PlotWidget:
        chart = pg.PlotWidget(background=self._style.colors.background)
        chart.setObjectName(name)
        item = chart.getPlotItem()
        hold_still(item, grid_x=True, alpha=0.2)
        item.setLogMode(x=True, y=log_y)
        item.addLegend(offset=(10, 5), colCount=2 if log_y else 1)
        return chart

    def set_style(self, style: Style) -> None:
        self._style = style
        c = style.colors
        for chart, title, y in ((self.counts, COUNTS_TITLE, "per launch"),
                                (self.ratios, RATIOS_TITLE, "naive / tiled (x)")):
            chart.setBackground(c.background)
            item = chart.getPlotItem()
            item.setTitle(title, color=c.text, size=f"{style.points('body')}pt")
            for side, text in (("bottom", "N"), ("left", y)):
                paint_axis(item.getAxis(side), style, text, "small")
            item.getAxis("left").setWidth(style.px(64))  # its words clear of the ticks
            legend = item.legend
            paint_legend(legend, style)
            # top left on both: the counts' lines rise to the right, so what lies above them
            # at the smallest N is empty, and in projector type the legend covers no point
            legend.setOffset((style.px(10), style.px(5)))
        self.setMinimumHeight(style.px(300))
        style.paint_label(self.hover_label, "small", color="secondary")
        if self.series is not None:
            self.show_series(self.series)

    def show_series(self, series: Series | None) -> None:
        """Draw `series` (None: nothing)."""
        self.series = series
        self.scatters = {}
        for chart in (self.counts, self.ratios):
            chart.getPlotItem().clear()
            chart.getPlotItem().legend.clear()
        self.hover_label.setText(HOVER_HINT)
        self.count_points = sp.count_points(series) if series else []
        self.ratio_points = sp.ratio_points(series) if series else []
        self.lines = sp.derivation_lines(series) if series else []
        self._draw_counts(series)
        self._draw_ratios()

    def _draw_counts(self, series: Series | None) -> None:
        item, style = self.counts.getPlotItem(), self._style
        named: set[str] = set()
        for line in self.lines:
            pen = pg.mkPen(style.color(ROLE_COLORS[line.role]), width=style.px(2),
                           style=Qt.PenStyle.DashLine)
            name = None if line.role in named else f"{line.role}, derived"
            named.add(line.role)
            item.addItem(pg.PlotDataItem(list(line.dims), list(line.values), pen=pen,
                                         name=name))
        groups: dict[tuple[str, str], list[sp.Point]] = {}
        for p in self.count_points:
            row = series.rows[p.row] if series else None
            kind = (sp.role(row) if row else None) or "other"
            groups.setdefault((kind, p.key), []).append(p)
        for (kind, key), points in groups.items():
            color = style.color(ROLE_COLORS.get(kind, "neutral"))
            self._scatter(item, ("counts", kind, key), points, KEY_SYMBOLS[key], color,
                          f"{kind} {KEY_WORDS[key]}", log_y=True)
        dims = [p.dim for p in self.count_points]
        values = [p.value for p in self.count_points] + [v for ln in self.lines for v in ln.values]
        if dims:
            every = dims + [d for ln in self.lines for d in ln.dims]
            item.getAxis("bottom").setTicks(value_ticks(every))
            item.getAxis("left").setTicks(decade_ticks(min(values) / 2, max(values) * 2))
            item.setXRange(math.log10(min(every)) - 0.1, math.log10(max(every)) + 0.1,
                           padding=0)
            low, high = math.log10(min(values) / 2), math.log10(max(values) * 2)
            item.setYRange(low, high + COUNT_ROOM * (high - low), padding=0)  # the key's room

    def _draw_ratios(self) -> None:
        item, style = self.ratios.getPlotItem(), self._style
        for key in (SECTORS, DURATION):
            points = sorted((p for p in self.ratio_points if p.key == key), key=lambda p: p.dim)
            if not points:
                continue
            color = style.color(RATIO_COLORS[key])
            for pair in sorted({p.pair for p in points}):  # the first pairs of each N, ...
                joined = [p for p in points if p.pair == pair]
                item.addItem(pg.PlotDataItem([p.dim for p in joined], [p.value for p in joined],
                                             pen=pg.mkPen(color, width=style.px(2))))
            self._scatter(item, ("ratios", "naive/tiled", key), points, "o", color,
                          f"{KEY_WORDS[key]}, naive / tiled", log_y=False)
        if self.ratio_points:
            dims = [p.dim for p in self.ratio_points]
            item.getAxis("bottom").setTicks(value_ticks(dims))
            low, high = math.log10(min(dims)), math.log10(max(dims))
            item.setXRange(low - 0.15, high + 0.15, padding=0)
            # room above the highest ratio for the key
            item.setYRange(0, max(p.value for p in self.ratio_points) * RATIO_ROOM, padding=0)

    def _scatter(self, item: pg.PlotItem, key: tuple[str, str, str], points: list[sp.Point],
                 symbol: str, color: object, name: str, *, log_y: bool) -> None:
        """Points at their log10 places (a scatter item takes no log mode), each hover naming
        its report and value."""
        scatter = pg.ScatterPlotItem(
            x=[math.log10(p.dim) for p in points],
            y=[math.log10(p.value) if log_y else p.value for p in points],
            data=[p.words for p in points], symbol=symbol, size=self._style.px(12),
            brush=pg.mkBrush(color), pen=pg.mkPen(self._style.colors.outline),
            hoverable=True, tip=_tip, name=name)
        scatter.sigHovered.connect(self._hovered)
        item.addItem(scatter)
        self.scatters[key] = scatter

    def _hovered(self, _item: object, points: Sequence[object], _event: object) -> None:
        words = [str(p.data()) for p in points]  # type: ignore[attr-defined]
        if words:
            self.hover_label.setText("; ".join(words))


def _tip(x: float, y: float, data: object) -> str:
    """A point's tool tip: its words (the report and the value)."""
    return str(data)
