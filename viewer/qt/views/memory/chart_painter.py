"""Painting the memory chart into a QPicture: its boxes, arrows and labels, measured from the
style's fonts (viewer.qt.views.memory.memory_chart_item holds the picture and picks rows on it).

It returns what it drew (`Drawn`: arrow widths, dashed arrows, every string, and where each
number that picks a row lies) and knows nothing of the item.

A band is drawn on one row (Kernel -> Shared memory / L1/TEX -> L2 -> DRAM), or, where that row
is wider than the chart may be, wrapped (`run(width, wrap=True)`): the path broken into rows that
each fit the width, every row after the first starting again from the box the row above ended
on (L1/TEX -> L2, L2 -> DRAM), so the chart is taller rather than smaller and every number of
the one-row band is still drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QPainter, QPen, QPolygonF

from viewer.analysis.chart_layout import ChartArrow, ChartBand, largest_by_family, log_width
from viewer.core.formatting import NOT_IN_REPORT
from viewer.qt.kit.style import Style

# Columns left to right; shared memory sits above L1/TEX, on a lane of its own.
_COLUMNS = (("kernel",), ("shared", "l1tex"), ("l2",), ("dram",))
_GAP_ARROWS = (("shared", "global"), ("l1_to_l2",), ("dram_read", "dram_write"))
# The row each arrow's and each box's numbers show (a summary key, or the ncu metric of DRAM
# bytes read and written together).
_ARROW_ROWS = {"shared": "shared_load_instructions", "global": "global_load_requests",
               "l1_to_l2": "l2_read_sectors_from_l1", "dram_read": "dram_bytes_read",
               "dram_write": "dram_bytes_write"}
_BOX_ROWS = {"l1tex": "l1tex_hit_rate_pct", "l2": "l2_hit_rate_pct", "dram": "dram__bytes.sum"}


def line_row(arrow_key: str, text: str, below: bool) -> str:
    """The row a line of an arrow's label shows: under the global-load arrow, sectors and
    sectors per request; elsewhere the arrow's own counter."""
    if arrow_key == "global" and below:
        return "sectors_per_request" if "per request" in text else "global_load_sectors"
    return _ARROW_ROWS[arrow_key]


@dataclass
class _Fonts:
    name: QFont
    caption: QFont
    title: QFont
    text: QFont


_UNITS = frozenset({"B", "KB", "MB", "GB", "TB"})


def _narrowed(lines: tuple[str, ...]) -> tuple[str, ...]:
    """Labels on narrower lines: '16,777,216 sectors' -> '16,777,216', 'sectors';
    'read 2.10 MB' -> 'read', '2.10 MB'. Rates ('2.00 per request'), sizes ('53.96 MB') and
    the words of a missing value stay whole."""
    out: list[str] = []
    for line in lines:
        head, _, rest = line.partition(" ")
        keep = rest.startswith("per ") or rest in _UNITS or NOT_IN_REPORT in line
        if rest and not keep:
            out += [head, rest]
        else:
            out.append(line)
    return tuple(out)


def _box_parts(line: str) -> tuple[str, ...]:
    """A box's line on narrower lines: 'hit rate not in this report' -> 'hit rate', 'not in
    this report'; any other line stays whole."""
    head = line.removesuffix(NOT_IN_REPORT).rstrip()
    return (head, NOT_IN_REPORT) if head and head != line else (line,)


@dataclass
class Drawn:
    """What one painting drew: (band index, arrow key) -> line width in pixels, the arrows drawn
    dashed (the report lacks their counter), every text, and (rectangle, row key) for each number
    that picks a row."""

    arrow_widths: dict[tuple[int, str], float] = field(default_factory=dict)
    dashed: set[tuple[int, str]] = field(default_factory=set)
    texts: list[str] = field(default_factory=list)
    regions: list[tuple[QRectF, str]] = field(default_factory=list)


class ChartPainter:
    """Measures and paints the bands with `painter` (one use); `drawn` says what it drew."""

    def __init__(self, painter: QPainter, bands: Sequence[ChartBand], style: Style) -> None:
        self.p, self.bands, self.s = painter, list(bands), style
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
        return min(font.pointSizeF() for font in vars(self.fonts).values())

    # ---------------------------------------------------------------- measuring

    def _box_lines(self, key: str, band: ChartBand) -> list[tuple[str, str]]:
        """A box's lines as drawn (split when wrapped), each with the line it comes from."""
        lines = band.box(key).lines
        if not self.wrap:
            return [(line, line) for line in lines]
        return [(part, line) for line in lines for part in _box_parts(line)]

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
        return max(widest + self.inset, self.s.px(60))

    def _above(self, arrow: ChartArrow) -> tuple[str, ...]:
        return _narrowed(arrow.above) if self.narrow else arrow.above

    def _below(self, arrow: ChartArrow) -> tuple[str, ...]:
        return _narrowed(arrow.below) if self.narrow else arrow.below

    def _half(self, arrow: ChartArrow) -> float:
        """Half the height of an arrow's head: the room it takes either side of its line."""
        return max(self.s.px(6), self.width_of(arrow) * 0.9)

    def _stack(self, arrow: ChartArrow) -> tuple[float, float]:
        """Space an arrow and its labels need above and below its centre line."""
        half = self._half(arrow) + self.s.px(2)
        return (half + len(self._above(arrow)) * self.line,
                half + len(self._below(arrow)) * self.line)

    # ---------------------------------------------------------------- painting

    def _natural(self, columns: list[float]) -> tuple[float, list[float]]:
        gaps = [self._gap_width(keys) for keys in _GAP_ARROWS]
        return sum(columns) + sum(gaps) + 2 * self.pad, gaps

    def run(self, wanted: float, wrap: bool = False) -> tuple[float, float]:
        """Paint at `wanted` width (0: the natural width); returns the picture's size.

        When the natural width is more than wanted, counts and their nouns go on lines of their
        own ('16,777,216' over 'sectors') if that makes the chart narrower. With `wrap`, each
        band is drawn on as many rows as `wanted` needs instead (`natural_width`: its widest
        row)."""
        if wrap:
            return self._run_wrapped(wanted)
        margin = self.pad
        columns = [max(self._box_width(key) for key in keys) for keys in _COLUMNS]
        natural, gaps = self._natural(columns)
        if 0 < wanted < natural:
            self.narrow = True
            narrow, narrow_gaps = self._natural(columns)
            if narrow < natural:
                natural, gaps = narrow, narrow_gaps
            else:
                self.narrow = False
        self.natural_width = natural
        extra = max(0.0, wanted - self.natural_width) / len(gaps)
        gaps = [gap + extra for gap in gaps]
        xs: list[float] = [margin]
        for column, gap in zip(columns, gaps, strict=False):
            xs.append(xs[-1] + column + gap)
        width = xs[-1] + columns[-1] + margin
        y: float = margin
        for index, band in enumerate(self.bands):
            if index:
                y += self.pad
                self.p.setPen(QPen(self.s.color("outline"), max(1, self.s.px(1))))
                self.p.drawLine(QPointF(margin, y), QPointF(width - margin, y))
                y += 2 * self.pad
            y = self._band(index, band, xs, columns, width, y)
        return width, y + margin

    def _separate(self, index: int, width: float, y: float) -> float:
        """The rule between one band and the next, when `index` is not the first."""
        if not index:
            return y
        y += self.pad
        self.p.setPen(QPen(self.s.color("outline"), max(1, self.s.px(1))))
        self.p.drawLine(QPointF(self.pad, y), QPointF(width - self.pad, y))
        return y + 2 * self.pad

    # ---------------------------------------------------------------- wrapped onto rows

    def _span_width(self, columns: list[float], gaps: list[float], first: int,
                    last: int) -> float:
        return sum(columns[first:last + 1]) + sum(gaps[first:last]) + 2 * self.pad

    def _spans(self, columns: list[float], gaps: list[float],
               wanted: float) -> list[tuple[int, int]]:
        """The columns of each row, first and last: each row as long as `wanted` holds (two
        columns at least), the next starting on the column this one ended on."""
        spans, first = [], 0
        while first < len(columns) - 1:
            last = first + 1
            while (last < len(columns) - 1
                   and self._span_width(columns, gaps, first, last + 1) <= wanted):
                last += 1
            spans.append((first, last))
            first = last
        return spans

    def _run_wrapped(self, wanted: float) -> tuple[float, float]:
        self.wrap = self.narrow = True
        columns = [max(self._box_width(key) for key in keys) for keys in _COLUMNS]
        gaps = [self._gap_width(keys) for keys in _GAP_ARROWS]
        spans = self._spans(columns, gaps, wanted)
        self.natural_width = max(self._span_width(columns, gaps, a, b) for a, b in spans)
        width = max(wanted, self.natural_width)
        y: float = self.pad
        for index, band in enumerate(self.bands):
            y = self._separate(index, width, y)
            y = self._wrapped_band(index, band, spans, columns, gaps, width, y)
        return width, y + self.pad

    def _heading(self, band: ChartBand, width: float, top: float) -> float:
        """The band's name, and its caption beside it, or under it where the room beside is
        narrow (a name wider than the chart broken over lines); returns the bottom."""
        margin = self.pad
        name_end = margin + QFontMetricsF(self.fonts.name).horizontalAdvance(band.name)
        if name_end > width - margin:
            name_bottom = self._wrapped(self.fonts.name, band.name, margin, top,
                                        width - 2 * margin, anywhere=True)
            return self._wrapped(self.fonts.caption, band.caption, margin, name_bottom,
                                 width - 2 * margin)
        name_bottom = self._text(self.fonts.name, band.name, margin_x=margin, y=top)
        caption_left = name_end + 2 * self.pad
        room = width - caption_left - margin
        if room >= self.s.px(200):
            caption_top = top + (name_bottom - top - self.line) / 2
            return max(name_bottom, self._wrapped(self.fonts.caption, band.caption,
                                                  caption_left, caption_top, room))
        return self._wrapped(self.fonts.caption, band.caption, margin, name_bottom,
                             width - 2 * margin)

    def _wrapped_band(self, index: int, band: ChartBand, spans: list[tuple[int, int]],
                      columns: list[float], gaps: list[float], width: float,
                      top: float) -> float:
        y = self._heading(band, width, top) + self.pad
        for number, (first, last) in enumerate(spans):
            if number:
                y += 2 * self.pad
            y = self._row(index, band, first, last, columns, gaps, width, y)
        return y

    def _row(self, index: int, band: ChartBand, first: int, last: int, columns: list[float],
             gaps: list[float], width: float, top: float) -> float:
        """One row of a wrapped band: columns `first` to `last` and the arrows between them;
        the row that starts at the kernel has the shared memory lane above the path's."""
        margin = self.pad
        xs: dict[int, float] = {first: margin}
        for column in range(first, last):
            xs[column + 1] = xs[column] + columns[column] + gaps[column]
        main_keys = [_COLUMNS[c][-1] for c in range(max(first, 1), last + 1)]
        main_up = main_down = max(self._box_height(band, k) for k in main_keys) / 2
        read, write = band.arrow("dram_read"), band.arrow("dram_write")
        split = self.s.px(3)
        read_offset, write_offset = self._half(read) + split, self._half(write) + split
        for gap in range(first, last):
            if gap < 2:
                up, down = self._stack(band.arrow(("global", "l1_to_l2")[gap]))
            else:
                up, down = read_offset + self._stack(read)[0], write_offset + self._stack(write)[1]
            main_up, main_down = max(main_up, up), max(main_down, down)
        main_top = top
        shared, note = band.arrow("shared"), None
        shared_mid = top
        if first == 0:
            up, down = self._stack(shared)
            box_height = self._box_height(band, "shared")
            note_left = xs[1] + columns[1] + 2 * self.pad
            beside = width - note_left - margin
            if band.shared_note and beside >= self.s.px(180):
                note_height = self._wrapped_height(band.shared_note, beside)
                half = max(box_height, note_height) / 2
                shared_mid = top + max(up, half)
                note = (note_left, shared_mid - note_height / 2, beside)
                main_top = shared_mid + max(down, half)
            else:
                shared_mid = top + max(up, box_height / 2)
                main_top = shared_mid + max(down, box_height / 2)
                if band.shared_note:  # under the shared memory box, out to the right edge
                    under = width - xs[1] - margin
                    note = (xs[1], shared_mid + box_height / 2 + self.pad / 2, under)
                    main_top = max(main_top, note[1] + self._wrapped_height(band.shared_note,
                                                                            under))
            main_top += self.pad
        main_mid = main_top + main_up
        bottom = main_mid + main_down

        boxes: dict[str, QRectF] = {}
        if first == 0:
            boxes["kernel"] = QRectF(margin, top, columns[0], bottom - top)
            self._box(band, "kernel", boxes["kernel"])
            h = self._box_height(band, "shared")
            boxes["shared"] = QRectF(xs[1], shared_mid - h / 2, columns[1], h)
            self._box(band, "shared", boxes["shared"])
        for column in range(max(first, 1), last + 1):
            key = _COLUMNS[column][-1]
            h = self._box_height(band, key)
            boxes[key] = QRectF(xs[column], main_mid - h / 2, columns[column], h)
            self._box(band, key, boxes[key])
        if first == 0:
            self._arrow(index, shared, boxes["kernel"].right(), boxes["shared"].left(),
                        shared_mid)
            if note is not None:
                self._wrapped(self.fonts.text, band.shared_note, *note)
        for gap in range(first, last):
            source, target = _COLUMNS[gap][-1], _COLUMNS[gap + 1][-1]
            x1, x2 = boxes[source].right(), boxes[target].left()
            if gap < 2:
                self._arrow(index, band.arrow(("global", "l1_to_l2")[gap]), x1, x2, main_mid)
            else:
                self._arrow(index, read, x1, x2, main_mid - read_offset)
                self._arrow(index, write, x1, x2, main_mid + write_offset)
        return bottom

    # ---------------------------------------------------------------- on one row

    def _band(self, index: int, band: ChartBand, xs: list[float], columns: list[float],
              width: float, top: float) -> float:
        name_end = xs[0] + QFontMetricsF(self.fonts.name).horizontalAdvance(band.name)
        name_bottom = self._text(self.fonts.name, band.name, margin_x=xs[0], y=top)
        caption_top = top + (name_bottom - top - self.line) / 2
        caption_left = name_end + 2 * self.pad
        y = max(name_bottom, self._wrapped(self.fonts.caption, band.caption, caption_left,
                                           caption_top, width - caption_left - xs[0]))
        y += self.pad
        shared = band.arrow("shared")
        up, down = self._stack(shared)
        note_left = xs[1] + columns[1] + 2 * self.pad
        note_height = self._wrapped_height(band.shared_note, width - note_left - xs[0])
        shared_half = max(self._box_height(band, "shared"), note_height) / 2
        shared_mid = y + max(up, shared_half)
        shared_bottom = shared_mid + max(down, shared_half)
        main_arrows = [band.arrow("global"), band.arrow("l1_to_l2")]
        main_up = max(self._stack(a)[0] for a in main_arrows)
        main_down = max(self._stack(a)[1] for a in main_arrows)
        read, write = band.arrow("dram_read"), band.arrow("dram_write")
        split = self.s.px(3)
        read_offset, write_offset = self._half(read) + split, self._half(write) + split
        dram_up = read_offset + self._stack(read)[0]
        dram_down = write_offset + self._stack(write)[1]
        box_half = max(self._box_height(band, k) for k in ("l1tex", "l2", "dram")) / 2
        main_up, main_down = max(main_up, dram_up, box_half), max(main_down, dram_down, box_half)
        main_mid = shared_bottom + self.pad + main_up
        bottom = main_mid + main_down

        boxes = {"kernel": QRectF(xs[0], y, columns[0], bottom - y)}
        self._box(band, "kernel", boxes["kernel"])
        for key, column, mid in (("shared", 1, shared_mid), ("l1tex", 1, main_mid),
                                 ("l2", 2, main_mid), ("dram", 3, main_mid)):
            h = self._box_height(band, key)
            boxes[key] = QRectF(xs[column], mid - h / 2, columns[column], h)
            self._box(band, key, boxes[key])
        self._arrow(index, shared, boxes["kernel"].right(), boxes["shared"].left(), shared_mid)
        if band.shared_note:
            self._wrapped(self.fonts.text, band.shared_note, note_left,
                          shared_mid - note_height / 2, width - note_left - xs[0])
        self._arrow(index, band.arrow("global"), boxes["kernel"].right(), boxes["l1tex"].left(),
                    main_mid)
        self._arrow(index, band.arrow("l1_to_l2"), boxes["l1tex"].right(), boxes["l2"].left(),
                    main_mid)
        self._arrow(index, read, boxes["l2"].right(), boxes["dram"].left(),
                    main_mid - read_offset)
        self._arrow(index, write, boxes["l2"].right(), boxes["dram"].left(),
                    main_mid + write_offset)
        return bottom

    def _text(self, font: QFont, text: str, margin_x: float, y: float) -> float:
        self.p.setFont(font)
        self.p.setPen(self.s.color("text"))
        metrics = QFontMetricsF(font)
        self.p.drawText(QPointF(margin_x, y + metrics.ascent()), text)
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
        self.p.setFont(font)
        self.p.setPen(self.s.color("text"))
        self.p.drawText(QRectF(x, y, width, rect.height()), flags, text)
        self.drawn.texts.append(text)
        return y + rect.height()

    def _box(self, band: ChartBand, key: str, rect: QRectF) -> None:
        box = band.box(key)
        self.p.setPen(QPen(self.s.color("outline"), self.s.px(1.5)))
        self.p.setBrush(self.s.color("background"))
        self.p.drawRoundedRect(rect, self.s.px(4), self.s.px(4))
        lines = [(self.fonts.title, text, "text") for text in box.title_lines]
        lines += [(self.fonts.text, text, "missing" if NOT_IN_REPORT in line else "text")
                  for text, line in self._box_lines(key, band)]
        y = rect.center().y() - len(lines) * self.line / 2
        row = _BOX_ROWS.get(key)
        for number, (font, text, color) in enumerate(lines):
            self.p.setFont(font)
            self.p.setPen(self.s.color(color))
            self.p.drawText(QRectF(rect.left(), y, rect.width(), self.line),
                            Qt.AlignmentFlag.AlignCenter, text)
            self.drawn.texts.append(text)
            if row is not None and number >= len(box.title_lines):
                self._region(text, font, rect.center().x(), y, row)
            y += self.line

    def _arrow(self, index: int, arrow: ChartArrow, x1: float, x2: float, y: float) -> None:
        gap = self.s.px(4)
        x1, x2 = x1 + gap, x2 - gap
        w = self.width_of(arrow)
        self.drawn.arrow_widths[(index, arrow.key)] = w
        head = max(self.s.px(10), w * 0.9)
        half_head = self._half(arrow)
        tip, base = (x1, x1 + head) if arrow.leftward else (x2, x2 - head)
        shaft = QRectF(min(x1, x2), y - w / 2, abs(x2 - x1) - head, w)
        if arrow.leftward:
            shaft.moveLeft(base)
        triangle = QPolygonF([QPointF(tip, y), QPointF(base, y - half_head),
                              QPointF(base, y + half_head)])
        if arrow.missing:
            self.drawn.dashed.add((index, arrow.key))
            pen = QPen(self.s.color("missing"), self.s.px(2), Qt.PenStyle.DashLine)
            self.p.setPen(pen)
            self.p.setBrush(Qt.BrushStyle.NoBrush)
            self.p.drawLine(QPointF(x1, y), QPointF(x2, y))
            self.p.drawPolyline(QPolygonF([QPointF(base, y - half_head), QPointF(tip, y),
                                           QPointF(base, y + half_head)]))
        else:
            color = self.s.color("shared" if arrow.key == "shared" else "memory")
            self.p.setPen(Qt.PenStyle.NoPen)
            self.p.setBrush(color)
            self.p.drawRect(shaft)
            self.p.drawPolygon(triangle)
        ink = "missing" if arrow.missing else "text"
        self.p.setFont(self.fonts.text)
        centre = (x1 + x2) / 2
        span = max(abs(x2 - x1), 1.0)
        above, below = self._keyed(arrow, below=False), self._keyed(arrow, below=True)
        top = y - half_head - self.s.px(2) - len(above) * self.line
        for text, row in above:
            self._label(text, centre, span, top, ink, row)
            top += self.line
        top = y + half_head + self.s.px(2)
        for text, row in below:
            self._label(text, centre, span, top, ink, row)
            top += self.line

    def _keyed(self, arrow: ChartArrow, below: bool) -> list[tuple[str, str]]:
        """An arrow's label lines as drawn (narrowed or not), each with the row it shows."""
        lines = arrow.below if below else arrow.above
        return [(part, line_row(arrow.key, line, below)) for line in lines
                for part in (_narrowed((line,)) if self.narrow else (line,))]

    def _label(self, text: str, centre: float, span: float, top: float, color: str,
               row: str) -> None:
        self.p.setPen(self.s.color("missing" if NOT_IN_REPORT in text else color))
        self.p.drawText(QRectF(centre - span / 2, top, span, self.line),
                        Qt.AlignmentFlag.AlignCenter, text)
        self.drawn.texts.append(text)
        self._region(text, self.fonts.text, centre, top, row)

    def _region(self, text: str, font: QFont, centre: float, top: float, row: str) -> None:
        """Where a number of row `row` was drawn, a little wider than its text."""
        width = QFontMetricsF(font).horizontalAdvance(text) + self.s.px(8)
        self.drawn.regions.append((QRectF(centre - width / 2, top, width, self.line), row))
