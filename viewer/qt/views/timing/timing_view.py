"""The timing tab as a view: the timing panel in a scroll area, so that its projector sizes never
widen the window. It times the app's own kernels on this machine, whatever report is open."""

from __future__ import annotations

from typing import ClassVar

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget

from viewer.qt.kit.style import Style
from viewer.qt.kit.view import FramesNoRow, Selection
from viewer.qt.views.timing.timing_controls import RUN_SHORTCUT
from viewer.qt.views.timing.timing_panel import TimingPanel


class TimingView(FramesNoRow, QScrollArea):
    """`panel` (the TimingPanel) in a frameless scroll area that fits it to its width."""

    VIEW: ClassVar[str] = "timing"
    KEY: ClassVar[str] = "T"
    TITLE: ClassVar[str] = "Timing"
    QUESTION: ClassVar[str] = ("Time the naive and tiled matmuls on this machine's GPU "
                               f"({RUN_SHORTCUT})")

    navigate = Signal(str, str)  # a View's signal; the timing tab asks for no other view

    def __init__(self, style: Style | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.panel = TimingPanel(style, self)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidget(self.panel)

    @property
    def style_(self) -> Style:
        return self.panel.style_

    def show_selection(self, selection: Selection) -> None:
        """Nothing: it times the app's own kernels, not the report's."""

    def set_style(self, style: Style) -> None:
        self.panel.set_style(style)
