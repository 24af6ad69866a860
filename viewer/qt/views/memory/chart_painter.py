"""Painting the memory chart into a QPicture: its bands laid out from the sizes of their boxes,
arrows and labels (viewer.qt.views.memory.chart_marks measures and paints each of them;
viewer.qt.views.memory.memory_chart_item holds the picture and picks rows on it).

It returns what it drew (`Drawn`: arrow widths, dashed arrows, every string, and where each
number that picks a row lies) and knows nothing of the item.

A band is drawn on one row (Kernel -> Shared memory / L1/TEX -> L2 -> DRAM), or, where that row
is wider than the chart may be, wrapped (`run(width, wrap=True)`): the path broken into rows that
each fit the width, every row after the first starting again from the box the row above ended
on (L1/TEX -> L2, L2 -> DRAM), so the chart is taller rather than smaller and every number of
the one-row band is still drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QFontMetricsF, QPen

from viewer.analysis.chart_layout import ChartBand
from viewer.qt.views.memory.chart_marks import ChartMarks

# Columns left to right; shared memory sits above L1/TEX, on a lane of its own.
_COLUMNS = (("kernel",), ("shared", "l1tex"), ("l2",), ("dram",))
_GAP_ARROWS = (("shared", "global"), ("l1_to_l2",), ("dram_read", "dram_write"))


@dataclass(frozen=True)
class _Lanes:
    """Where a row of a wrapped band lies: its top and bottom, the centre lines of the shared
    memory lane and of the path's, and the shared memory note's (left, top, width) if drawn."""

    top: float
    shared_mid: float
    main_mid: float
    bottom: float
    note: tuple[float, float, float] | None = None


class ChartPainter(ChartMarks):
    """Lays out and paints the bands with `painter` (one use); `drawn` says what it drew."""

    # ---------------------------------------------------------------- laying out

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
            y = self._separate(index, width, y)
            y = self._band(index, band, xs, columns, width, y)
        return width, y + margin

    def _separate(self, index: int, width: float, y: float) -> float:
        """The rule between one band and the next, when `index` is not the first."""
        if not index:
            return y
        y += self.pad
        self.painter.setPen(QPen(self.style.color("outline"), max(1, self.style.px(1))))
        self.painter.drawLine(QPointF(self.pad, y), QPointF(width - self.pad, y))
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
        if room >= self.style.px(200):
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
        xs: dict[int, float] = {first: self.pad}
        for column in range(first, last):
            xs[column + 1] = xs[column] + columns[column] + gaps[column]
        main_up, main_down = self._path_reach(band, first, last)
        shared_mid = main_top = top
        note = None
        if first == 0:
            shared_mid, main_top, note = self._shared_lane(band, xs[1], xs[1] + columns[1],
                                                           width, top)
        main_mid = main_top + main_up
        lanes = _Lanes(top, shared_mid, main_mid, main_mid + main_down, note)
        boxes = self._row_boxes(band, first, last, xs, columns, lanes)
        self._row_arrows(index, band, first, last, boxes, lanes)
        return lanes.bottom

    def _dram_offsets(self, band: ChartBand) -> tuple[float, float]:
        """How far above and below the path's centre line DRAM's read and write arrows run."""
        split = self.style.px(3)
        return (self._half(band.arrow("dram_read")) + split,
                self._half(band.arrow("dram_write")) + split)

    def _path_reach(self, band: ChartBand, first: int, last: int) -> tuple[float, float]:
        """Room the path's boxes, arrows and labels of columns `first` to `last` take above and
        below its centre line."""
        main_keys = [_COLUMNS[c][-1] for c in range(max(first, 1), last + 1)]
        main_up = main_down = max(self._box_height(band, k) for k in main_keys) / 2
        read, write = band.arrow("dram_read"), band.arrow("dram_write")
        read_offset, write_offset = self._dram_offsets(band)
        for gap in range(first, last):
            if gap < 2:
                up, down = self._stack(band.arrow(("global", "l1_to_l2")[gap]))
            else:
                up, down = read_offset + self._stack(read)[0], write_offset + self._stack(write)[1]
            main_up, main_down = max(main_up, up), max(main_down, down)
        return main_up, main_down

    def _shared_lane(self, band: ChartBand, left: float, right: float, width: float,
                     top: float) -> tuple[float, float, tuple[float, float, float] | None]:
        """The shared memory lane of a row whose box spans `left` to `right`: its centre line,
        where the path's lane begins, and the note's (left, top, width): beside the box where
        there is room, else under it, out to the right edge."""
        margin = self.pad
        up, down = self._stack(band.arrow("shared"))
        box_height = self._box_height(band, "shared")
        note_left = right + 2 * self.pad
        beside = width - note_left - margin
        note = None
        if band.shared_note and beside >= self.style.px(180):
            note_height = self._wrapped_height(band.shared_note, beside)
            half = max(box_height, note_height) / 2
            shared_mid = top + max(up, half)
            note = (note_left, shared_mid - note_height / 2, beside)
            main_top = shared_mid + max(down, half)
        else:
            shared_mid = top + max(up, box_height / 2)
            main_top = shared_mid + max(down, box_height / 2)
            if band.shared_note:
                under = width - left - margin
                note = (left, shared_mid + box_height / 2 + self.pad / 2, under)
                main_top = max(main_top, note[1] + self._wrapped_height(band.shared_note,
                                                                        under))
        return shared_mid, main_top + self.pad, note

    def _row_boxes(self, band: ChartBand, first: int, last: int, xs: dict[int, float],
                   columns: list[float], lanes: _Lanes) -> dict[str, QRectF]:
        """The row's boxes painted, by key: the kernel's and shared memory's where the row
        starts at the kernel, then the path's."""
        boxes: dict[str, QRectF] = {}
        if first == 0:
            boxes["kernel"] = QRectF(self.pad, lanes.top, columns[0], lanes.bottom - lanes.top)
            self._box(band, "kernel", boxes["kernel"])
            h = self._box_height(band, "shared")
            boxes["shared"] = QRectF(xs[1], lanes.shared_mid - h / 2, columns[1], h)
            self._box(band, "shared", boxes["shared"])
        for column in range(max(first, 1), last + 1):
            key = _COLUMNS[column][-1]
            h = self._box_height(band, key)
            boxes[key] = QRectF(xs[column], lanes.main_mid - h / 2, columns[column], h)
            self._box(band, key, boxes[key])
        return boxes

    def _row_arrows(self, index: int, band: ChartBand, first: int, last: int,
                    boxes: dict[str, QRectF], lanes: _Lanes) -> None:
        """The row's arrows between its `boxes`, and the shared memory note."""
        if first == 0:
            self._arrow(index, band.arrow("shared"), boxes["kernel"].right(),
                        boxes["shared"].left(), lanes.shared_mid)
            if lanes.note is not None:
                self._wrapped(self.fonts.text, band.shared_note, *lanes.note)
        read_offset, write_offset = self._dram_offsets(band)
        for gap in range(first, last):
            source, target = _COLUMNS[gap][-1], _COLUMNS[gap + 1][-1]
            x1, x2 = boxes[source].right(), boxes[target].left()
            if gap < 2:
                self._arrow(index, band.arrow(("global", "l1_to_l2")[gap]), x1, x2,
                            lanes.main_mid)
            else:
                self._arrow(index, band.arrow("dram_read"), x1, x2,
                            lanes.main_mid - read_offset)
                self._arrow(index, band.arrow("dram_write"), x1, x2,
                            lanes.main_mid + write_offset)

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
