"""A timing over sizes in numbers, under its plot: the device and sizes, a row per size (N, each
kernel's median, min..max and relative standard deviation, the ratio, stable), and the sentence
saying which points are over 2 % and what that means (the words from
viewer.analysis.timing_sizes)."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from viewer.analysis.timing_sizes import (
    DESK_ONLY,
    columns,
    device_sizes_text,
    heading,
    size_cells,
    stability_text,
)
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.style import Role, Style
from viewer.qt.kit.styled_labels import StyledLabels
from viewer.qt.views.timing.timing_plot import kernel_color


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    SIZES_DEVICE = "sizes_device"
    SIZES_STABILITY = "sizes_stability"


if TYPE_CHECKING:
    from viewer.kernels.sizes import SizesTiming


def sizes_cell_name(kernel: str, column: str, row: int) -> str:
    """A cell's object name: its kernel ('' for N, the ratio, stable), column and row (0: the
    heading)."""
    plain = "".join(c if c.isalnum() else "_" for c in f"{kernel}_{column}")
    return f"sizes_{plain}_{row}"


class SizesNumbers(QWidget):
    """`fill(timing)` writes the table and the sentence; `cells[row][column index]` are the
    table's labels, row 0 the heading."""

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._style = style
        self._timing: SizesTiming | None = None
        self._labels = StyledLabels()
        self.device = self._label(Names.SIZES_DEVICE, "body", "text", True)
        self.stability = self._label(Names.SIZES_STABILITY, "body", "text", False)
        self.grid = QGridLayout()
        self.cells: list[list[QLabel]] = []
        self.column = column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.device)
        column.addLayout(self.grid)
        column.addWidget(self.stability)

    def _label(self, name: str, role: Role, color: str, bold: bool) -> QLabel:
        return self._labels.make(self._style, "", role, bold=bold, color=color, name=name,
                                 wrap=True, parent=self)

    def fill(self, timing: SizesTiming) -> None:
        self._timing = timing
        for row in self.cells:
            for label in row:
                self.grid.removeWidget(label)
                label.setParent(None)  # out of findChild's reach at once
                label.deleteLater()
        self.cells = []
        style = self._style
        heads = columns(timing)
        self._row([heading(kernel, column) for kernel, column in heads], heads, 0)
        for number, size in enumerate(timing.sizes, 1):
            self._row(size_cells(size), heads, number)
        self.grid.setColumnStretch(len(heads), 1)
        self.device.setText(device_sizes_text(timing))
        unstable = bool(timing.unstable())
        self.stability.setText(stability_text(timing))
        style.paint_label(self.stability, "body", bold=unstable,
                          color="warning" if unstable else "text")

    def _row(self, texts: list[str], heads: list[tuple[str, str]], row: int) -> None:
        style = self._style
        kernels = self._timing.kernels if self._timing is not None else ()
        labels = []
        for index, (text, (kernel, column)) in enumerate(zip(texts, heads, strict=True)):
            label = plain_label(text, self)
            label.setObjectName(sizes_cell_name(kernel, column, row))
            heading = row == 0
            label.setFont(style.font("small" if heading else "body",
                                     bold=heading or column in ("N", "median")))
            tint = style.colors.secondary if heading else style.colors.text
            if heading and kernel in kernels:
                tint = kernel_color(style, kernels.index(kernel)).name()
            if column == "stable" and not heading and text != "yes":
                tint = style.colors.warning
            label.setStyleSheet(f"color: {tint};")
            left, right = Qt.AlignmentFlag.AlignLeft, Qt.AlignmentFlag.AlignRight
            align = left if column == "stable" else right
            label.setAlignment(align | (Qt.AlignmentFlag.AlignBottom if heading
                                        else Qt.AlignmentFlag.AlignVCenter))
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setVisible(not (style.projector and column in DESK_ONLY))
            self.grid.addWidget(label, row, index)
            labels.append(label)
        self.cells.append(labels)

    def set_style(self, style: Style) -> None:
        self._style = style
        self._labels.paint(style)
        self.column.setSpacing(style.px(6))
        self.grid.setHorizontalSpacing(style.px(14))
        self.grid.setVerticalSpacing(style.px(3))
        if self._timing is not None:
            self.fill(self._timing)
