"""The reading page: a banner for a file that was refused, the compare line, the note saying why a
report opened on a later step (in projector mode: step_note), and the tabs: Predict
(step 0: commit to numbers before reading), the reading order (1 speed of light, 2 memory,
3 occupancy), then the timing tab and the published T4 beside this report, outside it, and the
views beyond: one tab per view of viewer.qt.shell.view_registry, in its order. The page knows
them through the View protocol; only the lesson's two tabs and the timing tab by name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea, QTabWidget, QToolButton, QVBoxLayout, QWidget

from viewer.analysis import reading_steps
from viewer.analysis.reading import READING_ORDER
from viewer.core.model import Kernel
from viewer.qt.kit.banner import Banner
from viewer.qt.kit.plain_text import plain_tip
from viewer.qt.kit.reading_tab import ReadingTab
from viewer.qt.kit.style import Style
from viewer.qt.kit.view import View
from viewer.qt.lesson.predict_tab import PredictTab
from viewer.qt.lesson.reference_tab import ReferenceTab
from viewer.qt.shell.compare_line import CompareLine
from viewer.qt.shell.step_note import StepNote
from viewer.qt.shell.tab_titles import TabTitles
from viewer.qt.shell.view_registry import VIEWS, Entry, entry_of
from viewer.qt.views.timing.timing_view import TimingView

# Where a counter's row lives when no tab shows it as a row: the memory chart's counters.
MEMORY_VIEW = "memory"
_Page = TypeVar("_Page")


def default_tabs(style: Style | None = None) -> list[ReadingTab]:
    """The three steps of the reading order."""
    return [_step(entry.view(style)) for entry in VIEWS if entry.kind == "step"]


def _step(view: View) -> ReadingTab:
    if not isinstance(view, ReadingTab):
        raise TypeError(f"{view.VIEW} is a step of the reading order, not a ReadingTab")
    return view


def _widget(view: View) -> QWidget:
    """The view as the widget it is (every view is one)."""
    if not isinstance(view, QWidget):
        raise TypeError(f"{view.VIEW} is not a widget")
    return view


def _entries(steps: Sequence[ReadingTab]) -> list[Entry]:
    """The registry's entries, its reading steps those of `steps` (a step the registry does not
    know keeps its own words)."""
    known = [entry_of(page.VIEW) for page in steps]
    given = [e or Entry(type(page), kind="step") for e, page in zip(known, steps, strict=True)]
    first = next(i for i, e in enumerate(VIEWS) if e.kind == "step")
    rest = [e for e in VIEWS if e.kind != "step"]
    return [*rest[:first], *given, *rest[first:]]


def _no_focus_stops(page: QWidget) -> None:
    """No Tab stop on `page`'s scroll areas, which show no focus: Tab goes from the tabs
    straight to the page's first box or button (PageDown scrolls the page: page_keys)."""
    for area in [page, *page.findChildren(QScrollArea)]:
        if isinstance(area, QScrollArea):
            area.setFocusPolicy(Qt.FocusPolicy.NoFocus)


class ReadingPage(QWidget):
    """`banner`, `compare_line` and `tabs` in `column`: one tab per `views` (in the order of
    viewer.qt.shell.view_registry, each made in `style`; its `entries` beside them, its `titles`
    for the tab bar), the reading steps being `tab_pages`. By name: `predict_tab`, `timing`
    (its `timing_panel`), `reference_tab`; `lesson_pages` are the two lesson tabs and
    `analysis_pages` the views beyond."""

    def __init__(self, tab_pages: Sequence[ReadingTab], style: Style,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tab_pages = list(tab_pages)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.tabs.setUsesScrollButtons(True)  # a narrow projector must not widen the window
        for arrow in self.tabs.tabBar().findChildren(QToolButton):  # no Tab stop: Left, Right
            arrow.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.entries = _entries(self.tab_pages)
        steps = iter(self.tab_pages)
        self.views: list[View] = [next(steps) if e.kind == "step" else e.view(style)
                                  for e in self.entries]
        self.titles: list[TabTitles] = []
        self.menu: list[tuple[str, str]] = []  # each tab's View menu words and key
        for number, entry, view in self._numbered():
            self.titles.append(TabTitles(entry.tab_title(number), entry.short_title(number),
                                         entry.key(number)))
            self.menu.append((entry.menu_text(number), entry.key(number)))
            self.tabs.addTab(_widget(view), self.titles[-1].whole)
            self.tabs.setTabToolTip(self.tabs.count() - 1, plain_tip(view.QUESTION))
            _no_focus_stops(_widget(view))
        self.predict_tab = self._view(PredictTab)
        self.reference_tab = self._view(ReferenceTab)
        self.timing = self._view(TimingView)
        self.timing_panel = self.timing.panel
        self.lesson_pages: list[View] = self._of_kind("lesson")
        self.analysis_pages: list[View] = self._of_kind("beyond")
        self.banner = Banner(self)
        self.compare_line = CompareLine(self)
        self.step_note = StepNote(self)  # why a report opened on a later step, in a room
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(0, 0, 0, 0)
        self.column.setSpacing(0)
        self.column.addWidget(self.banner)
        self.column.addWidget(self.compare_line)
        self.column.addWidget(self.step_note)
        self.column.addWidget(self.tabs, 1)

    def _numbered(self) -> list[tuple[int, Entry, View]]:
        """Each entry and its view in tab order, with its number in the reading order (0 for
        a view that is no step)."""
        numbered: list[tuple[int, Entry, View]] = []
        number = 0
        for entry, view in zip(self.entries, self.views, strict=True):
            number += entry.kind == "step"
            numbered.append((number if entry.kind == "step" else 0, entry, view))
        return numbered

    def _view(self, kind: type[_Page]) -> _Page:
        """The one view of class `kind`: the lesson's and the timing tab, which the window
        reaches beyond the View protocol."""
        return next(v for v in self.views if isinstance(v, kind))

    def _of_kind(self, kind: str) -> list[View]:
        return [v for e, v in zip(self.entries, self.views, strict=True) if e.kind == kind]

    def widget_of(self, index: int) -> QWidget:
        """The page of tab `index`."""
        return _widget(self.views[index])

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
        self.tabs.setCurrentWidget(_widget(page))
        for target in self.row_targets:
            target.mark_row(row or None if target is page else None)
        if row and page not in self.row_targets:
            page.mark_row(row)  # the Source view: the line of code the exercise names
        return _widget(page)

    def open_on_a_filled_step(self, kernels: Sequence[Kernel]) -> str:
        """Where the reading step shown holds none of `kernels`' values and the first step
        cannot be filled either, show the first step that can; what was done, in words ('' where
        nothing moved), said by `step_note` too."""
        self.step_note.say("")
        current = self.tabs.currentWidget()
        by_step = {page.VIEW: page for page in self.tab_pages}
        if current not in self.tab_pages or reading_steps.fills(current.VIEW, kernels):
            return ""
        titles = [" ".join(by_step[step].TITLE.split()) for step in READING_ORDER]
        index, why = reading_steps.first_filled(kernels, titles)
        if why:
            self.tabs.setCurrentWidget(by_step[READING_ORDER[index]])
        self.step_note.say(why)
        return why

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
