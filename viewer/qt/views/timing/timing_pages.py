"""The timing panel's two pages: the record at the chosen size with the intro under it (until a
run here), and a run's plot with its numbers below or beside it (at one size), or, over a list
of sizes, its plot against N over its table (sizes_plot, sizes_numbers)."""

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
from viewer.qt.views.timing.sizes_numbers import SizesNumbers
from viewer.qt.views.timing.sizes_plot import SizesPlot
from viewer.qt.views.timing.timing_plot import X_LABEL, LaunchTimesPlot


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    INTRO = "intro"
    PLOT = "plot"
    RECORDED = "recorded"
    SIZES_PLOT = "sizes_plot"


if TYPE_CHECKING:
    from viewer.kernels.runner import TimingResult
    from viewer.kernels.sizes import SizesTiming


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
    """A run's plot and numbers: beside each other where the panel is wide, else stacked; a run
    over sizes (`sizes_plot`, `sizes_numbers`) always stacked."""

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = LaunchTimesPlot(style, self)
        self.plot.setObjectName(Names.PLOT)
        self.numbers_scroll = RunNumbers(style, self)
        self.sizes_plot = SizesPlot(style, self)
        self.sizes_plot.setObjectName(Names.SIZES_PLOT)
        self.sizes_numbers = SizesNumbers(style, self)
        self.over_sizes = False
        self.sizes_plot.hide()
        self.sizes_numbers.hide()
        self.body = QBoxLayout(QBoxLayout.Direction.TopToBottom, self)
        self.body.setContentsMargins(0, 0, 0, 0)
        for widget, stretch in ((self.plot, 3), (self.numbers_scroll, 2), (self.sizes_plot, 3),
                                (self.sizes_numbers, 0)):
            self.body.addWidget(widget, stretch)

    def show_timing(self, result: TimingResult | SizesTiming, width: int, style: Style) -> None:
        """`result` plotted and in numbers, placed for the panel's `width`."""
        self._show(result, style)
        self.place(width, style)

    def _show(self, result: TimingResult | SizesTiming, style: Style) -> None:
        from viewer.kernels.sizes import SizesTiming

        self.over_sizes = isinstance(result, SizesTiming)
        for one in (self.plot, self.numbers_scroll):
            one.setVisible(not self.over_sizes)
        for over in (self.sizes_plot, self.sizes_numbers):
            over.setVisible(self.over_sizes)
        if isinstance(result, SizesTiming):
            self.sizes_plot.show_sizes(result)
            self.sizes_numbers.fill(result)
            return
        self._label_launches(style)
        self.plot.show_timing(result)
        self.numbers_scroll.fill(result)

    def set_style(self, style: Style, result: TimingResult | SizesTiming | None,
                  width: int) -> None:
        """Desk or projector scale, `result` (the one shown, if any) drawn again in it."""
        self.numbers_scroll.set_style(style)
        self.plot.set_style(style)
        self.sizes_plot.set_style(style)
        self.sizes_numbers.set_style(style)
        self.plot.setMinimumHeight(style.px(150))
        self.sizes_plot.setMinimumHeight(style.px(260))
        if result is not None:
            self._show(result, style)
        self.place(width, style)

    def place(self, width: int, style: Style) -> None:
        """The numbers beside the plot where `width` (the panel's) has room, else below."""
        self.numbers_scroll.fit_width()
        wide = side_by_side(width) and not self.over_sizes
        self.body.setDirection(QBoxLayout.Direction.LeftToRight if wide
                               else QBoxLayout.Direction.TopToBottom)
        self.body.setSpacing(style.px(16 if wide else 8))

    def _label_launches(self, style: Style) -> None:
        """The x axis names the launch order, where there is room for it."""
        self.plot.set_x_label(X_LABEL if style.projector else launches_axis_text())
