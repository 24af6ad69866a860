"""Where a widget stands in a tab's grid: for the tests that check what a layout puts under what."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QWidget


def grid_position(tab: QWidget, widget: QWidget) -> tuple[int, int]:
    """(row, column) of `widget` in the tab's grid."""
    for grid in tab.findChildren(QGridLayout):
        index = grid.indexOf(widget)
        if index >= 0:
            row, column, _, _ = grid.getItemPosition(index)
            return row, column
    raise AssertionError(f"{widget.objectName()} is in no grid")
