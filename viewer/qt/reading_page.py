"""The reading page: a banner for a file that was refused, the compare line, and the tabs in the
reading order (1 speed of light, 2 memory, 3 occupancy), then the timing tab outside it."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QFrame, QScrollArea, QTabWidget, QVBoxLayout, QWidget

from viewer.qt.banner import Banner
from viewer.qt.compare_line import CompareLine
from viewer.qt.style import Style
from viewer.qt.timing_panel import TimingPanel

TIMING_TIP = "Time the naive and tiled matmuls on this machine's GPU (Ctrl+R)"


def default_tabs() -> list[QWidget]:
    """The three steps of the reading order."""
    from viewer.qt.memory_tab import MemoryTab
    from viewer.qt.occupancy_tab import OccupancyTab
    from viewer.qt.sol_tab import SpeedOfLightTab

    return [SpeedOfLightTab(), MemoryTab(), OccupancyTab()]


def tab_title(page: QWidget, index: int) -> str:
    """The tab's TITLE, numbered by its place in the reading order when it is not already."""
    title = str(getattr(page, "TITLE", "")).strip()
    number = str(index + 1)
    return title if title.startswith(number) else f"{number}  {title}"


class ReadingPage(QWidget):
    """`banner`, `compare_line` and `tabs` (the `tab_pages`, then `timing_scroll`) in `column`."""

    def __init__(self, tab_pages: Sequence[QWidget], style: Style,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tab_pages = list(tab_pages)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.tabs.setUsesScrollButtons(True)  # a narrow projector must not widen the window
        for number, page in enumerate(self.tab_pages):
            self.tabs.addTab(page, tab_title(page, number))
            self.tabs.setTabToolTip(number, getattr(page, "QUESTION", ""))
        self.timing_panel = TimingPanel(style, self)
        self.timing_scroll = QScrollArea(self)  # its projector sizes must not widen the window
        self.timing_scroll.setWidgetResizable(True)
        self.timing_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.timing_scroll.setWidget(self.timing_panel)
        self.tabs.addTab(self.timing_scroll, "Timing")
        self.tabs.setTabToolTip(self.tabs.indexOf(self.timing_scroll), TIMING_TIP)
        self.banner = Banner(self)
        self.compare_line = CompareLine(self)
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(0, 0, 0, 0)
        self.column.setSpacing(0)
        self.column.addWidget(self.banner)
        self.column.addWidget(self.compare_line)
        self.column.addWidget(self.tabs, 1)

    def set_tab(self, index: int) -> None:
        self.tabs.setCurrentIndex(max(0, min(index, self.tabs.count() - 1)))

    def step_after(self, delta: int) -> int:
        """The tab `delta` steps along the reading order, round; from the timing tab, the first
        step forward and the last one back."""
        steps = len(self.tab_pages)
        index = self.tabs.currentIndex()
        if index >= steps:
            return 0 if delta > 0 else steps - 1
        return (index + delta) % steps

    def place_compare_line(self, style: Style, width: int) -> None:
        self.compare_line.place(self.tabs, self.column, style, width)
