"""A reading grid re-laid for a narrow width: each row's label on a line of its own, over the
kernels' values, which keep their columns side by side.

A reading tab's grid has its labels in column 0 and one column per kernel after it (then, in
some tables, a column of words). Beside the exercise on a laptop in projector type the label
column leaves too little for the kernels' columns; moved over its row, the label takes the whole
width on its own line and the values the whole width on theirs. What spans the grid (a title,
a misread across the kernels) still spans it. `LayoutFit` picks which of a tab's layouts, the
widest first, fits the width it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QLayoutItem

# A cell moved: its item, line, column, span and alignment.
_Placed = tuple[QLayoutItem, int, int, int, Qt.AlignmentFlag]


def stack_labels(grid: QGridLayout) -> None:
    """Move `grid`'s label column (column 0) over the rows it labels, in place: a label alone in
    column 0 gets a line of its own spanning the grid, a row's other cells the line under it,
    one column to the left; a row with nothing beside its label, or nothing in column 0, stays
    one line. Column stretches move with their columns; what spanned to the end spans the
    columns left (an empty column spanned would add its spacing)."""
    columns = grid.columnCount()
    stretches = [grid.columnStretch(c) for c in range(columns)]
    rows: dict[int, list[tuple[QLayoutItem, int, int]]] = {}
    used = 1  # the columns a cell of its own occupies: a span to the end adds none
    while grid.count():
        row, column, _, span = cast(tuple[int, int, int, int], grid.getItemPosition(0))
        item = grid.takeAt(0)
        assert item is not None  # the grid holds count() items
        rows.setdefault(row, []).append((item, column, span))
        if span > 0 and not (column == 0 and span > 1):
            used = max(used, column + span)
    across = max(used - 1, 1)  # the columns left once the labels' column is gone
    placed: list[_Placed] = []
    line = 0
    for row in sorted(rows):
        cells = rows[row]
        labels = [c for c in cells if c[1] == 0 and c[2] == 1]
        values = [c for c in cells if c not in labels]
        if labels and values:
            placed += [(item, line, 0, across, item.alignment()) for item, _, _ in labels]
            line += 1
        elif labels:
            values = labels
        for item, column, span in values:
            start = max(column - 1, 0)
            wide = span < 0 or (column == 0 and span > 1)
            placed.append((item, line, start, max(across - start, 1) if wide else span,
                           item.alignment()))
        line += 1
    for column in range(columns):
        grid.setColumnStretch(column, stretches[column + 1] if column + 1 < columns else 0)
    for item, at, column, span, align in placed:
        widget, layout = item.widget(), item.layout()
        if widget is not None:
            grid.addWidget(widget, at, column, 1, span, align)
        elif layout is not None:
            grid.addLayout(layout, at, column, 1, span, align)
        else:
            grid.addItem(item, at, column, 1, span, align)


class LayoutFit:
    """Which of a tab's layouts, 0 the widest to `narrowest`, fits the width it is given: each
    layout built is measured, and one known to need more than the room is not built again.
    `fitting` while a fit is under way (a resize it causes must not start another)."""

    def __init__(self, narrowest: int) -> None:
        self.narrowest = narrowest
        self._needs: dict[int, int] = {}  # the width each layout tried needs, for this content
        self.fitting = False

    def forget(self) -> None:
        """The content changed: the widths measured before no longer hold."""
        self._needs = {}

    def widest(self, room: int | None) -> int:
        """The widest layout that is not known to need more than `room` (None: not shown)."""
        for level in range(self.narrowest):
            if room is None or self._needs.get(level, 0) <= room:
                return level
        return self.narrowest

    def fit(self, room: int | None, build: Callable[[int], int]) -> int:
        """Build the widest layout that fits `room` (`build(level)` builds one and returns the
        width it needs), narrower each time one does not; returns the layout built last."""
        self.fitting = True
        try:
            while True:
                level = self.widest(room)
                need = self._needs[level] = build(level)
                if room is None or need <= room or level == self.narrowest:
                    return level
        finally:
            self.fitting = False
