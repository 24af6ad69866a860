"""A band of the memory chart wrapped onto rows that each fit the width (its columns and rows
laid out by viewer.analysis.chart_columns): every row after the first starts again from the box
the row above ended on (L1/TEX -> L2, L2 -> DRAM), so the chart is taller rather than smaller
and every number of the one-row band is still drawn.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QFontMetricsF

from viewer.analysis.chart_columns import Lanes, path_box, row_lefts
from viewer.analysis.chart_layout import ChartBand
from viewer.qt.views.memory.chart_marks import ChartMarks


class ChartRows(ChartMarks):
    """Lays out and paints a band on rows (`wrapped_band`) with the marks of ChartMarks."""

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

    def wrapped_band(self, index: int, band: ChartBand, spans: list[tuple[int, int]],
                     columns: list[float], gaps: list[float], width: float,
                     top: float) -> float:
        """Band `index` from `top` on the rows `spans` names; returns its bottom."""
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
        xs = row_lefts(columns, gaps, first, last, self.pad)
        main_up, main_down = self._path_reach(band, first, last)
        shared_mid = main_top = top
        note = None
        if first == 0:
            shared_mid, main_top, note = self._shared_lane(band, xs[1], xs[1] + columns[1],
                                                           width, top)
        main_mid = main_top + main_up
        lanes = Lanes(top, shared_mid, main_mid, main_mid + main_down, note)
        boxes = self._row_boxes(band, first, last, xs, columns, lanes)
        self._row_arrows(index, band, first, last, boxes, lanes)
        return lanes.bottom

    def _path_reach(self, band: ChartBand, first: int, last: int) -> tuple[float, float]:
        """Room the path's boxes, arrows and labels of columns `first` to `last` take above and
        below its centre line."""
        main_keys = [path_box(c) for c in range(max(first, 1), last + 1)]
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
                   columns: list[float], lanes: Lanes) -> dict[str, QRectF]:
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
            key = path_box(column)
            h = self._box_height(band, key)
            boxes[key] = QRectF(xs[column], lanes.main_mid - h / 2, columns[column], h)
            self._box(band, key, boxes[key])
        return boxes

    def _row_arrows(self, index: int, band: ChartBand, first: int, last: int,
                    boxes: dict[str, QRectF], lanes: Lanes) -> None:
        """The row's arrows between its `boxes`, and the shared memory note."""
        if first == 0:
            self._arrow(index, band.arrow("shared"), boxes["kernel"].right(),
                        boxes["shared"].left(), lanes.shared_mid)
            if lanes.note is not None:
                self._wrapped(self.fonts.text, band.shared_note, *lanes.note)
        read_offset, write_offset = self._dram_offsets(band)
        for gap in range(first, last):
            x1, x2 = boxes[path_box(gap)].right(), boxes[path_box(gap + 1)].left()
            if gap < 2:
                self._arrow(index, band.arrow(("global", "l1_to_l2")[gap]), x1, x2,
                            lanes.main_mid)
            else:
                self._arrow(index, band.arrow("dram_read"), x1, x2,
                            lanes.main_mid - read_offset)
                self._arrow(index, band.arrow("dram_write"), x1, x2,
                            lanes.main_mid + write_offset)
