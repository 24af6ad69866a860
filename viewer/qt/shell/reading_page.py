"""The reading page: a banner for a file that was refused, the compare line, and the tabs: Predict
(step 0: commit to numbers before reading), the reading order (1 speed of light, 2 memory,
3 occupancy), then the timing tab and the published T4 beside this report, outside it."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QFrame, QScrollArea, QTabWidget, QVBoxLayout, QWidget

from viewer.qt.kit.banner import Banner
from viewer.qt.kit.plain_text import plain_tip
from viewer.qt.kit.reading_tab import ReadingTab
from viewer.qt.kit.style import Style
from viewer.qt.kit.view import View
from viewer.qt.lesson.predict_tab import PredictTab
from viewer.qt.lesson.reference_tab import ReferenceTab
from viewer.qt.shell.analysis_views import AnalysisView, analysis_views
from viewer.qt.shell.compare_line import CompareLine
from viewer.qt.views.source.source_view import SourceView
from viewer.qt.views.timing.timing_panel import TimingPanel

AnyView = PredictTab | ReadingTab | ReferenceTab | AnalysisView
TIMING_TIP = "Time the naive and tiled matmuls on this machine's GPU (Ctrl+R)"
# Where a counter's row lives when no tab shows it as a row: the memory chart's counters.
MEMORY_VIEW = "memory"


def default_tabs() -> list[ReadingTab]:
    """The three steps of the reading order."""
    from viewer.qt.views.memory.memory_tab import MemoryTab
    from viewer.qt.views.occupancy.occupancy_tab import OccupancyTab
    from viewer.qt.views.sol.sol_tab import SpeedOfLightTab

    return [SpeedOfLightTab(), MemoryTab(), OccupancyTab()]


def tab_title(page: View, index: int) -> str:
    """The tab's TITLE, numbered by its place in the reading order when it is not already."""
    title = page.TITLE.strip()
    number = str(index + 1)
    return title if title.startswith(number) else f"{number}  {title}"


class ReadingPage(QWidget):
    """`banner`, `compare_line` and `tabs` in `column`: `predict_tab`, the `tab_pages` (the
    reading steps), `timing_scroll`, `reference_tab`; `lesson_pages` are the two lesson tabs."""

    def __init__(self, tab_pages: Sequence[ReadingTab], style: Style,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tab_pages = list(tab_pages)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.tabs.setUsesScrollButtons(True)  # a narrow projector must not widen the window
        self.predict_tab = PredictTab(style)
        self.reference_tab = ReferenceTab(style)
        self.lesson_pages: list[PredictTab | ReferenceTab] = [self.predict_tab,
                                                              self.reference_tab]
        self._add(self.predict_tab, PredictTab.TITLE, PredictTab.QUESTION)
        for number, page in enumerate(self.tab_pages):
            self._add(page, tab_title(page, number), page.QUESTION)
        self.timing_panel = TimingPanel(style, self)
        self.timing_scroll = QScrollArea(self)  # its projector sizes must not widen the window
        self.timing_scroll.setWidgetResizable(True)
        self.timing_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.timing_scroll.setWidget(self.timing_panel)
        self._add(self.timing_scroll, "Timing", TIMING_TIP)
        self._add(self.reference_tab, ReferenceTab.TITLE, ReferenceTab.QUESTION)
        self.analysis_pages = analysis_views(style)
        for view in self.analysis_pages:
            self._add(view, view.TITLE, view.QUESTION)
        self.banner = Banner(self)
        self.compare_line = CompareLine(self)
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(0, 0, 0, 0)
        self.column.setSpacing(0)
        self.column.addWidget(self.banner)
        self.column.addWidget(self.compare_line)
        self.column.addWidget(self.tabs, 1)

    def _add(self, page: QWidget, title: str, tip: str) -> None:
        self.tabs.addTab(page, title)
        self.tabs.setTabToolTip(self.tabs.indexOf(page), plain_tip(tip))

    @property
    def views(self) -> list[AnyView]:
        """Every view in the tabs, each speaking viewer.qt.kit.view.View."""
        return [self.predict_tab, *self.tab_pages, self.reference_tab, *self.analysis_pages]

    @property
    def row_targets(self) -> list[ReadingTab]:
        """The views whose rows the exercise and Predict point at."""
        return [*self.tab_pages, self.predict_tab]

    def go_to(self, view: str, row: str = "") -> QWidget | None:
        """What every view's `navigate(view, row)` asks: show view `view` with row `row` framed
        in it and every other frame taken away; with no `view`, the reading tab that holds row
        `row` (show_metric), or, with no row either, every frame taken away. The view shown,
        None when there is no such view."""
        if not view:
            if row:
                return self.show_metric(row)
            for target in self.row_targets:
                target.mark_row(None)
            return None
        page = next((p for p in self.views if view == p.VIEW), None)
        if page is None:
            return None
        self.tabs.setCurrentWidget(page)
        for target in self.row_targets:
            target.mark_row(row or None if target is page else None)
        if row and page not in self.row_targets and isinstance(page, SourceView):
            page.mark_row(row)  # the Source view: the line of code the exercise names
        return page

    @property
    def steps(self) -> list[QWidget]:
        """The steps the arrows go round: Predict, then the reading order."""
        return [self.predict_tab, *self.tab_pages]

    def set_tab(self, index: int) -> None:
        """Show reading step `index` (0 is step 1, Speed Of Light), kept within the steps."""
        if self.tab_pages:
            self.tabs.setCurrentWidget(self.tab_pages[max(0, min(index,
                                                                 len(self.tab_pages) - 1))])

    def step_after(self, delta: int) -> QWidget:
        """The step `delta` along Predict and the reading order, round; from the timing or the
        T4 tab, the first step (Predict) forward and the last one back."""
        steps = self.steps
        current = self.tabs.currentWidget()
        if current not in steps:
            return steps[0] if delta > 0 else steps[-1]
        return steps[(steps.index(current) + delta) % len(steps)]

    def show_metric(self, metric: str) -> QWidget | None:
        """Show the reading tab that holds `metric`'s row (a metric name or a summary key) with
        the row framed; the memory chart where no tab holds it as a row. The tab shown."""
        found = [p for p in self.tab_pages if p.row_widgets(metric)]
        fallback = [p for p in self.tab_pages if p.VIEW == MEMORY_VIEW]
        page = next(iter(found or fallback), None)
        if page is None:
            return None
        self.tabs.setCurrentWidget(page)
        for other in self.tab_pages:
            other.mark_row(metric if other is page else None)
        return page

    def place_compare_line(self, style: Style, width: int, height: int = 0) -> None:
        """The compare line beside the tabs or above them for a window `width` wide, its
        warnings folded where the window's `height` is short."""
        self.compare_line.place(self.tabs, self.column, style, width, height)
