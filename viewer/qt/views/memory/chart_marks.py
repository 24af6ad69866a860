"""The marks of the memory chart, measured from the style's fonts and painted one at a time:
a box and its lines, an arrow and its labels, a line of text or a wrapped one
(viewer.qt.views.memory.chart_painter lays them out into bands).

Each mark painted is recorded in `Drawn`: arrow widths, dashed arrows, every string, and where
each number that picks a row lies. Narrowed (`narrow`), an arrow's counts and their nouns go on
lines of their own; wrapped (`wrap`), so do a box's words of a missing value
(viewer.analysis.chart_labels: those lines, and the row each number picks).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QPainter, QPen, QPolygonF

from viewer.analysis.chart_labels import BOX_ROWS, box_parts, line_row, narrowed
from viewer.analysis.chart_layout import ChartArrow, ChartBand, largest_by_family, log_width
from viewer.core.formatting import NOT_IN_REPORT
from viewer.qt.kit.style import Style


@dataclass
class _Fonts:
    name: QFont
    caption: QFont
    title: QFont
    text: QFont


@dataclass
class Drawn:
    """What one painting drew: (band index, arrow key) -> line width in pixels, the arrows drawn
    dashed (the report lacks their counter), every text, and (rectangle, row key) for each number
    that picks a row."""

    arrow_widths: dict[tuple[int, str], float] = field(default_factory=dict)
    dashed: set[tuple[int, str]] = field(default_factory=set)
    texts: list[str] = field(default_factory=list)
    regions: list[tuple[QRectF, str]] = field(default_factory=list)


class ChartMarks:
    """Measures and paints the marks of `bands` with `painter`; `drawn` says what it drew."""

    def __init__(self, painter: QPainter, bands: Sequence[ChartBand], style: Style) -> None:
        self.painter, self.bands, self.style = painter, list(bands), style
        self.drawn = Drawn()
        self.fonts = _Fonts(style.font("heading", bold=True), style.font("body"),
                            style.font("body", bold=True), style.font("body"))
        self.pad = style.px(8)
        self.inset = style.px(10)  # room around the text of a box or an arrow's labels
        self.narrow = False
        self.wrap = False  # a band on rows that each fit the width (box lines narrowed too)
        self.natural_width = 0.0
        self.line = QFontMetricsF(self.fonts.text).height()
        self.thin, self.thick = style.px(2), style.px(22)
        self.largest = largest_by_family(self.bands)

    @property
    def smallest_points(self) -> float:
        """The smallest type the chart paints, in points (before any scaling of the picture)."""
        fonts: list[QFont] = list(vars(self.fonts).values())
        return min(font.pointSizeF() for font in fonts)

    # ---------------------------------------------------------------- measuring

    def _box_lines(self, key: str, band: ChartBand) -> list[tuple[str, str]]:
        """A box's lines as drawn (split when wrapped), each with the line it comes from."""
        lines = band.box(key).lines
        if not self.wrap:
            return [(line, line) for line in lines]
        return [(part, line) for line in lines for part in box_parts(line)]

    def _text_width(self, font: QFont, lines: Sequence[str]) -> float:
        metrics = QFontMetricsF(font)
        return max((metrics.horizontalAdvance(t) for t in lines), default=0.0)

    def _box_width(self, key: str) -> float:
        widest = 0.0
        for band in self.bands:
            box = band.box(key)
            widest = max(widest, self._text_width(self.fonts.title, box.title_lines),
                         self._text_width(self.fonts.text,
                                          [t for t, _ in self._box_lines(key, band)]))
        return widest + self.inset

    def _box_height(self, band: ChartBand, key: str) -> float:
        box = band.box(key)
        return ((len(box.title_lines) + len(self._box_lines(key, band))) * self.line
                + 2 * self.pad)

    def width_of(self, arrow: ChartArrow) -> float:
        if arrow.amount is None:
            return self.thin
        return log_width(arrow.amount, self.largest.get(arrow.family, arrow.amount),
                         self.thin, self.thick)

    def _gap_width(self, keys: Sequence[str]) -> float:
        widest = 0.0
        for band in self.bands:
            for key in keys:
                arrow = band.arrow(key)
                widest = max(widest, self._text_width(self.fonts.text,
                                                      self._above(arrow) + self._below(arrow)))
        return max(widest + self.inset, self.style.px(60))

    def _above(self, arrow: ChartArrow) -> tuple[str, ...]:
        return narrowed(arrow.above) if self.narrow else arrow.above

    def _below(self, arrow: ChartArrow) -> tuple[str, ...]:
        return narrowed(arrow.below) if self.narrow else arrow.below

    def _half(self, arrow: ChartArrow) -> float:
        """Half the height of an arrow's head: the room it takes either side of its line."""
        return max(self.style.px(6), self.width_of(arrow) * 0.9)

    def _stack(self, arrow: ChartArrow) -> tuple[float, float]:
        """Space an arrow and its labels need above and below its centre line."""
        half = self._half(arrow) + self.style.px(2)
        return (half + len(self._above(arrow)) * self.line,
                half + len(self._below(arrow)) * self.line)

    def _dram_offsets(self, band: ChartBand) -> tuple[float, float]:
        """How far above and below the path's centre line DRAM's read and write arrows run."""
        split = self.style.px(3)
        return (self._half(band.arrow("dram_read")) + split,
                self._half(band.arrow("dram_write")) + split)

    # ---------------------------------------------------------------- painting

    def _text(self, font: QFont, text: str, margin_x: float, y: float) -> float:
        self.painter.setFont(font)
        self.painter.setPen(self.style.color("text"))
        metrics = QFontMetricsF(font)
        self.painter.drawText(QPointF(margin_x, y + metrics.ascent()), text)
        self.drawn.texts.append(text)
        return y + metrics.height()

    def _wrapped_height(self, text: str, width: float) -> float:
        if not text:
            return 0.0
        flags = Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft
        metrics = QFontMetricsF(self.fonts.text)
        return metrics.boundingRect(QRectF(0, 0, max(width, 1.0), 10_000), flags, text).height()

    def _wrapped(self, font: QFont, text: str, x: float, y: float, width: float,
                 anywhere: bool = False) -> float:
        metrics = QFontMetricsF(font)
        wrap = Qt.TextFlag.TextWrapAnywhere if anywhere else Qt.TextFlag.TextWordWrap
        flags = wrap | Qt.AlignmentFlag.AlignLeft
        rect = metrics.boundingRect(QRectF(x, y, width, 10_000), flags, text)
        self.painter.setFont(font)
        self.painter.setPen(self.style.color("text"))
        self.painter.drawText(QRectF(x, y, width, rect.height()), flags, text)
        self.drawn.texts.append(text)
        return y + rect.height()

    def _box(self, band: ChartBand, key: str, rect: QRectF) -> None:
        box = band.box(key)
        self.painter.setPen(QPen(self.style.color("outline"), self.style.px(1.5)))
        self.painter.setBrush(self.style.color("background"))
        self.painter.drawRoundedRect(rect, self.style.px(4), self.style.px(4))
        lines = [(self.fonts.title, text, "text") for text in box.title_lines]
        lines += [(self.fonts.text, text, "missing" if NOT_IN_REPORT in line else "text")
                  for text, line in self._box_lines(key, band)]
        y = rect.center().y() - len(lines) * self.line / 2
        row = BOX_ROWS.get(key)
        for number, (font, text, color) in enumerate(lines):
            self.painter.setFont(font)
            self.painter.setPen(self.style.color(color))
            self.painter.drawText(QRectF(rect.left(), y, rect.width(), self.line),
                            Qt.AlignmentFlag.AlignCenter, text)
            self.drawn.texts.append(text)
            if row is not None and number >= len(box.title_lines):
                self._region(text, font, rect.center().x(), y, row)
            y += self.line

    def _arrow(self, index: int, arrow: ChartArrow, x1: float, x2: float, y: float) -> None:
        gap = self.style.px(4)
        x1, x2 = x1 + gap, x2 - gap
        w = self.width_of(arrow)
        self.drawn.arrow_widths[(index, arrow.key)] = w
        head = max(self.style.px(10), w * 0.9)
        half_head = self._half(arrow)
        tip, base = (x1, x1 + head) if arrow.leftward else (x2, x2 - head)
        shaft = QRectF(min(x1, x2), y - w / 2, abs(x2 - x1) - head, w)
        if arrow.leftward:
            shaft.moveLeft(base)
        triangle = QPolygonF([QPointF(tip, y), QPointF(base, y - half_head),
                              QPointF(base, y + half_head)])
        if arrow.missing:
            self.drawn.dashed.add((index, arrow.key))
            pen = QPen(self.style.color("missing"), self.style.px(2), Qt.PenStyle.DashLine)
            self.painter.setPen(pen)
            self.painter.setBrush(Qt.BrushStyle.NoBrush)
            self.painter.drawLine(QPointF(x1, y), QPointF(x2, y))
            self.painter.drawPolyline(QPolygonF([QPointF(base, y - half_head), QPointF(tip, y),
                                           QPointF(base, y + half_head)]))
        else:
            color = self.style.color("shared" if arrow.key == "shared" else "memory")
            self.painter.setPen(Qt.PenStyle.NoPen)
            self.painter.setBrush(color)
            self.painter.drawRect(shaft)
            self.painter.drawPolygon(triangle)
        ink = "missing" if arrow.missing else "text"
        self.painter.setFont(self.fonts.text)
        centre = (x1 + x2) / 2
        span = max(abs(x2 - x1), 1.0)
        above, below = self._keyed(arrow, below=False), self._keyed(arrow, below=True)
        top = y - half_head - self.style.px(2) - len(above) * self.line
        for text, row in above:
            self._label(text, centre, span, top, ink, row)
            top += self.line
        top = y + half_head + self.style.px(2)
        for text, row in below:
            self._label(text, centre, span, top, ink, row)
            top += self.line

    def _keyed(self, arrow: ChartArrow, below: bool) -> list[tuple[str, str]]:
        """An arrow's label lines as drawn (narrowed or not), each with the row it shows."""
        lines = arrow.below if below else arrow.above
        return [(part, line_row(arrow.key, line, below)) for line in lines
                for part in (narrowed((line,)) if self.narrow else (line,))]

    def _label(self, text: str, centre: float, span: float, top: float, color: str,
               row: str) -> None:
        self.painter.setPen(self.style.color("missing" if NOT_IN_REPORT in text else color))
        self.painter.drawText(QRectF(centre - span / 2, top, span, self.line),
                        Qt.AlignmentFlag.AlignCenter, text)
        self.drawn.texts.append(text)
        self._region(text, self.fonts.text, centre, top, row)

    def _region(self, text: str, font: QFont, centre: float, top: float, row: str) -> None:
        """Where a number of row `row` was drawn, a little wider than its text."""
        width = QFontMetricsF(font).horizontalAdvance(text) + self.style.px(8)
        self.drawn.regions.append((QRectF(centre - width / 2, top, width, self.line), row))
