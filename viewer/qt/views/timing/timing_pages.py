"""The timing panel's two pages: the record at the chosen size with the intro under it (until a
run here), and a run's plot with its numbers below or beside it."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QBoxLayout, QVBoxLayout, QWidget

from viewer.analysis.timing import launches_axis_text
from viewer.analysis.timing_status import side_by_side
from viewer.qt.kit.style import Style
from viewer.qt.views.timing.record_view import RecordView
from viewer.qt.views.timing.run_numbers import RunNumbers
from viewer.qt.views.timing.timing_plot import X_LABEL, LaunchTimesPlot


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    INTRO = "intro"
    PLOT = "plot"
    RECORDED = "recorded"


if TYPE_CHECKING:
    from viewer.kernels.runner import TimingResult


class RecordPage(QWidget):
    """The record (where there is one) over the intro."""

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.intro = style.label("", "body", name=Names.INTRO, wrap=True, parent=self)
        self.intro.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.recorded = RecordView(style, self)
        self.recorded.setObjectName(Names.RECORDED)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.recorded)
        column.addWidget(self.intro)
        column.addStretch(1)

    def set_style(self, style: Style) -> None:
        style.paint_label(self.intro, "body", bold=False, color="text")
        self.recorded.set_style(style)


class RunPage(QWidget):
    """A run's plot and numbers: beside each other where the panel is wide, else stacked."""

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = LaunchTimesPlot(style, self)
        self.plot.setObjectName(Names.PLOT)
        self.numbers_scroll = RunNumbers(style, self)
        self.body = QBoxLayout(QBoxLayout.Direction.TopToBottom, self)
        self.body.setContentsMargins(0, 0, 0, 0)
        self.body.addWidget(self.plot, 3)
        self.body.addWidget(self.numbers_scroll, 2)

    def show_timing(self, result: TimingResult, width: int, style: Style) -> None:
        """`result` plotted and in numbers, placed for the panel's `width`."""
        self._label_launches(style)
        self.plot.show_timing(result)
        self.numbers_scroll.fill(result)
        self.place(width, style)

    def set_style(self, style: Style, result: TimingResult | None, width: int) -> None:
        """Desk or projector scale, `result` (the one shown, if any) drawn again in it."""
        self.numbers_scroll.set_style(style)
        self.plot.set_style(style)
        if result is not None:
            self._label_launches(style)
        self.plot.setMinimumHeight(style.px(150))
        if result is not None:
            self.numbers_scroll.fill(result)
        self.place(width, style)

    def place(self, width: int, style: Style) -> None:
        """The numbers beside the plot where `width` (the panel's) has room, else below."""
        self.numbers_scroll.fit_width()
        wide = side_by_side(width)
        self.body.setDirection(QBoxLayout.Direction.LeftToRight if wide
                               else QBoxLayout.Direction.TopToBottom)
        self.body.setSpacing(style.px(16 if wide else 8))

    def _label_launches(self, style: Style) -> None:
        """The x axis names the launch order, where there is room for it."""
        self.plot.set_x_label(X_LABEL if style.projector else launches_axis_text())
