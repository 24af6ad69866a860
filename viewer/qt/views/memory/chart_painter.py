"""Painting the memory chart into a QPicture: its bands laid out from the sizes of their boxes,
arrows and labels (viewer.qt.views.memory.chart_marks measures and paints each of them;
viewer.qt.views.memory.memory_chart_item holds the picture and picks rows on it).

It returns what it drew (`Drawn`: arrow widths, dashed arrows, every string, and where each
number that picks a row lies) and knows nothing of the item.

A band is drawn on one row (Kernel -> Shared memory / L1/TEX -> L2 -> DRAM), or, where that row
is wider than the chart may be, wrapped (`run(width, wrap=True)`): the path broken into rows that
each fit the width (viewer.qt.views.memory.chart_rows), so the chart is taller rather than
smaller and every number of the one-row band is still drawn.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QFontMetricsF, QPen

from viewer.analysis.chart_columns import COLUMNS, GAP_ARROWS, span_width, spans, spread
from viewer.analysis.chart_layout import ChartBand
from viewer.qt.views.memory.chart_rows import ChartRows


class ChartPainter(ChartRows):
    """Lays out and paints the bands with `painter` (one use); `drawn` says what it drew."""

    # ---------------------------------------------------------------- laying out

    def _columns(self) -> list[float]:
        """Each column's width: its widest box in any band."""
        return [max(self._box_width(key) for key in keys) for keys in COLUMNS]

    def _gaps(self) -> list[float]:
        """Each gap's width: its widest arrow labels in any band."""
        return [self._gap_width(keys) for keys in GAP_ARROWS]

    def _natural(self, columns: list[float]) -> tuple[float, list[float]]:
        gaps = self._gaps()
        return span_width(columns, gaps, 0, len(columns) - 1, self.pad), gaps

    def run(self, wanted: float, wrap: bool = False) -> tuple[float, float]:
        """Paint at `wanted` width (0: the natural width); returns the picture's size.

        When the natural width is more than wanted, counts and their nouns go on lines of their
        own ('16,777,216' over 'sectors') if that makes the chart narrower. With `wrap`, each
        band is drawn on as many rows as `wanted` needs instead (`natural_width`: its widest
        row)."""
        if wrap:
            return self._run_wrapped(wanted)
        columns = self._columns()
        natural, gaps = self._natural(columns)
        if 0 < wanted < natural:
            self.narrow = True
            narrow, narrow_gaps = self._natural(columns)
            if narrow < natural:
                natural, gaps = narrow, narrow_gaps
            else:
                self.narrow = False
        self.natural_width = natural
        xs, width = spread(columns, gaps, wanted, self.pad)
        y: float = self.pad
        for index, band in enumerate(self.bands):
            y = self._separate(index, width, y)
            y = self._band(index, band, xs, columns, width, y)
        return width, y + self.pad

    def _run_wrapped(self, wanted: float) -> tuple[float, float]:
        self.wrap = self.narrow = True
        columns, gaps = self._columns(), self._gaps()
        rows = spans(columns, gaps, wanted, self.pad)
        self.natural_width = max(span_width(columns, gaps, a, b, self.pad) for a, b in rows)
        width = max(wanted, self.natural_width)
        y: float = self.pad
        for index, band in enumerate(self.bands):
            y = self._separate(index, width, y)
            y = self.wrapped_band(index, band, rows, columns, gaps, width, y)
        return width, y + self.pad

    def _separate(self, index: int, width: float, y: float) -> float:
        """The rule between one band and the next, when `index` is not the first."""
        if not index:
            return y
        y += self.pad
        self.painter.setPen(QPen(self.style.color("outline"), max(1, self.style.px(1))))
        self.painter.drawLine(QPointF(self.pad, y), QPointF(width - self.pad, y))
        return y + 2 * self.pad

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
        read_offset, write_offset = self._dram_offsets(band)
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
