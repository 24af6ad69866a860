"""A run's numbers beside its plot: the device, a row per kernel, the ratio of the medians, the
dispatch overhead, the queue warnings and the launch order (the words from viewer.analysis.timing).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from viewer.analysis.timing import (
    RATIO_CAPTION,
    device_text,
    dispatch_text,
    launch_order_text,
    ratio_text,
    run_cells,
    warnings_text,
)
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.style import Role, Style
from viewer.qt.kit.styled_labels import StyledLabels
from viewer.qt.kit.wrapped_column import WrappedColumn
from viewer.qt.views.timing.timing_plot import kernel_color


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    DEVICE = "device"
    DISPATCH = "dispatch"
    LAUNCH_ORDER = "launch_order"
    NUMBERS = "numbers"
    NUMBERS_SCROLL = "numbers_scroll"
    RATIO = "ratio"
    RATIO_CAPTION = "ratio_caption"
    WARNINGS = "warnings"


if TYPE_CHECKING:
    from viewer.kernels.runner import TimingResult

COLUMNS = ("kernel", "median", "min", "max", "GFLOP/s", "check")
DESK_ONLY = ("min", "max")  # the plot shows them; a projected table keeps to the medians
_LEFT, _RIGHT = Qt.AlignmentFlag.AlignLeft, Qt.AlignmentFlag.AlignRight
_ALIGN = (_LEFT, _RIGHT, _RIGHT, _RIGHT, _RIGHT, _LEFT)


def cell_name(column: str, kernel: str) -> str:
    return f"{column.replace('/', '_')}_{kernel}"


class RunNumbers(QScrollArea):
    """`fill(result)` writes the numbers; `rows[kernel][column]` are the cells."""

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._style = style
        self._labels = StyledLabels()
        self.numbers = numbers = WrappedColumn()
        numbers.setObjectName(Names.NUMBERS)
        self.device = self._label("", "body", bold=True, name=Names.DEVICE)
        self.grid = QGridLayout()
        self.headers = {text: self._label(text, "small", bold=True, color="secondary",
                                          wrap=False) for text in COLUMNS}
        for index, header in enumerate(self.headers.values()):
            header.setAlignment(_ALIGN[index] | Qt.AlignmentFlag.AlignBottom)
            self.grid.addWidget(header, 0, index)
        self.grid.setColumnStretch(len(COLUMNS) - 1, 1)
        self.rows: dict[str, dict[str, QLabel]] = {}
        self.ratio_caption = self._label(RATIO_CAPTION, "small", color="secondary",
                                         name=Names.RATIO_CAPTION, wrap=False)
        self.ratio = self._label("", "headline", bold=True, name=Names.RATIO)
        self.dispatch = self._label("", "body", name=Names.DISPATCH)
        self.warnings = self._label("", "body", bold=True, color="warning", name=Names.WARNINGS)
        self.order = self._label("", "small", color="secondary", name=Names.LAUNCH_ORDER)
        self.column = column = QVBoxLayout(numbers)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.device)
        column.addLayout(self.grid)
        for label in (self.ratio_caption, self.ratio, self.dispatch, self.warnings, self.order):
            column.addWidget(label)
        column.addStretch(1)
        self.setObjectName(Names.NUMBERS_SCROLL)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(numbers)

    def _label(self, text: str, role: Role, *, bold: bool = False, color: str = "text",
               name: str = "", wrap: bool = True) -> QLabel:
        return self._labels.make(self._style, text, role, bold=bold, color=color, name=name,
                                 wrap=wrap, parent=self.numbers)

    def fill(self, result: TimingResult) -> None:
        style = self._style
        for cells in self.rows.values():
            for label in cells.values():
                self.grid.removeWidget(label)
                label.setParent(None)  # out of findChild's reach at once
                label.deleteLater()
        self.rows = {}
        for row, timing in enumerate(result.kernels, 1):
            cells = {}
            for column, (name, text) in enumerate(zip(COLUMNS, run_cells(timing), strict=True)):
                label = plain_label(text, self.numbers)
                label.setObjectName(cell_name(name, timing.kernel))
                label.setFont(style.font("body", bold=name in ("kernel", "median")))
                tint = style.colors.text
                if name == "kernel":
                    tint = kernel_color(style, row - 1).name()
                elif name == "check" and not timing.passed:
                    tint = style.colors.warning
                label.setStyleSheet(f"color: {tint};")
                label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                label.setAlignment(_ALIGN[column] | Qt.AlignmentFlag.AlignVCenter)
                label.setVisible(not (style.projector and name in DESK_ONLY))
                self.grid.addWidget(label, row, column)
                cells[name] = label
            self.rows[timing.kernel] = cells
        self.device.setText(device_text(result))
        ratio = ratio_text(result)
        self.ratio.setText(ratio)
        self.ratio.setVisible(bool(ratio))
        self.ratio_caption.setVisible(bool(ratio))
        self.dispatch.setText(dispatch_text(result))
        warnings = warnings_text(result)
        self.warnings.setText(warnings)
        self.warnings.setVisible(bool(warnings))
        self.order.setText(launch_order_text())

    def set_style(self, style: Style) -> None:
        self._style = style
        self._labels.paint(style)
        self.column.setSpacing(style.px(6))
        self.grid.setHorizontalSpacing(style.px(16))
        self.grid.setVerticalSpacing(style.px(4))
        for name in DESK_ONLY:
            self.headers[name].setVisible(not style.projector)

    def fit_width(self) -> None:
        """Wide enough for the numbers and a scroll bar."""
        self.column.activate()
        bar = self.verticalScrollBar().sizeHint().width()
        self.setMinimumWidth(self.numbers.minimumSizeHint().width() + bar)
