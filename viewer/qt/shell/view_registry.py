"""Every view the window shows, one line each, in tab order: the tabs, their keys, the View
menu's actions (and so F1's list of keys, read from them) and the shorter titles where whole
ones do not fit all follow from here, in one vocabulary: each view's key, then its words.
tests/qt/shell/test_view_registry.py holds README's table of keys and the views ncu's advice
links to (viewer.analysis.advice.VIEWS) to it.

A view is a class that speaks viewer.qt.kit.view.View; its name, key and words are its own
(VIEW, KEY, TITLE, QUESTION), and the window makes it in its style. What a view reads beyond
the first read it declares itself (its NEED, viewer.session.Need).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from viewer.qt.kit.view import ViewClass
from viewer.qt.lesson.predict_tab import PredictTab
from viewer.qt.lesson.reference_tab import ReferenceTab
from viewer.qt.views.advice.advice_view import AdviceView
from viewer.qt.views.instruction_mix.instruction_mix_view import InstructionMixView
from viewer.qt.views.memory.memory_tab import MemoryTab
from viewer.qt.views.metrics.metrics_view import MetricsView
from viewer.qt.views.occupancy.occupancy_tab import OccupancyTab
from viewer.qt.views.roofline.roofline_view import RooflineView
from viewer.qt.views.series.series_view import SeriesView
from viewer.qt.views.sol.sol_tab import SpeedOfLightTab
from viewer.qt.views.source.source_view import SourceView
from viewer.qt.views.stalls.stalls_view import StallsView
from viewer.qt.views.timing.timing_view import TimingView

Kind = Literal["step", "lesson", "timing", "beyond"]
"""A step of the reading order (numbered: its tab and its key are its number), one of the
lesson's two tabs, the timing tab, or a view beyond the reading order."""


@dataclass(frozen=True)
class Entry:
    """One view: its class, its `kind` and `short`, the words its whole title shortens to
    where whole ones do not fit ('' for none: it shortens to its key alone). One vocabulary
    everywhere (tabs, View menu, F1, README): its key, then its words ("1  Speed Of Light",
    "A  ncu's advice"), shortened from the end ("1  Speed", "1") only as far as the width
    requires."""

    view: ViewClass
    kind: Kind = "beyond"
    short: str = ""

    @property
    def name(self) -> str:
        return self.view.VIEW

    @property
    def title(self) -> str:
        return self.view.TITLE

    def key(self, number: int) -> str:
        """Its shortcut: a step's `number`, else its KEY."""
        return str(number) if self.kind == "step" else self.view.KEY

    def tab_title(self, number: int) -> str:
        """Its whole title: its key (a step's `number`), then its words."""
        key, title = self.key(number), self.title.strip()
        return title if title.split()[0] == key else f"{key}  {title}"

    def short_title(self, number: int) -> str:
        """Its key and its short words; its whole title where it has none."""
        return f"{self.key(number)}  {self.short}" if self.short else self.tab_title(number)

    def menu_text(self, number: int) -> str:
        """Its View menu action's words: its whole title, its key the mnemonic."""
        return "&" + self.tab_title(number).replace("&", "&&")


VIEWS: tuple[Entry, ...] = (
    Entry(PredictTab, "lesson"),
    Entry(SpeedOfLightTab, "step", short="Speed"),
    Entry(MemoryTab, "step", short="Memory"),
    Entry(OccupancyTab, "step"),
    Entry(TimingView, "timing"),
    Entry(ReferenceTab, "lesson", short="T4"),
    Entry(RooflineView),
    Entry(AdviceView),
    Entry(StallsView),
    Entry(SourceView),
    Entry(InstructionMixView),
    Entry(SeriesView),
    Entry(MetricsView),
)
"""The window's views, in tab order."""


def entry_of(view: str) -> Entry | None:
    """The entry of the view named `view`, None where there is none."""
    return next((e for e in VIEWS if e.name == view), None)
