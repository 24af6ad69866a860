"""The timing panel's two pages: the record at the chosen size with the intro under it (until a
run here), and a run's plot with its numbers below or beside it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QBoxLayout, QVBoxLayout, QWidget

from viewer.analysis.timing_status import side_by_side
from viewer.qt.kit.style import Style
from viewer.qt.views.timing.record_view import RecordView
from viewer.qt.views.timing.run_numbers import RunNumbers
from viewer.qt.views.timing.timing_plot import LaunchTimesPlot


class RecordPage(QWidget):
    """The record (where there is one) over the intro."""

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.intro = style.label("", "body", name="intro", wrap=True, parent=self)
        self.intro.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.recorded = RecordView(style, self)
        self.recorded.setObjectName("recorded")
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
        self.plot.setObjectName("plot")
        self.numbers_scroll = RunNumbers(style, self)
        self.body = QBoxLayout(QBoxLayout.Direction.TopToBottom, self)
        self.body.setContentsMargins(0, 0, 0, 0)
        self.body.addWidget(self.plot, 3)
        self.body.addWidget(self.numbers_scroll, 2)

    def place(self, width: int, style: Style) -> None:
        """The numbers beside the plot where `width` (the panel's) has room, else below."""
        self.numbers_scroll.fit_width()
        wide = side_by_side(width)
        self.body.setDirection(QBoxLayout.Direction.LeftToRight if wide
                               else QBoxLayout.Direction.TopToBottom)
        self.body.setSpacing(style.px(16 if wide else 8))
