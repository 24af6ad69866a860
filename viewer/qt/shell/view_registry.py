"""Every view the window shows, one line each, in tab order: the tabs, their keys, the View
menu's actions (and so F1's list of keys, read from them) and the short titles where whole ones
do not fit all follow from here. tests/qt/shell/test_view_registry.py holds README's table of
keys and the views ncu's advice links to (viewer.analysis.advice.VIEWS) to it.

A view is a class that speaks viewer.qt.kit.view.View; its name, key and words are its own
(VIEW, KEY, TITLE, QUESTION), and the window makes it in its style. What a view reads beyond
the first read it declares itself (its NEED, viewer.session.Need).
"""

from __future__ import annotations

import re
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
from viewer.qt.views.sol.sol_tab import SpeedOfLightTab
from viewer.qt.views.source.source_view import SourceView
from viewer.qt.views.stalls.stalls_view import StallsView
from viewer.qt.views.timing.timing_view import TimingView

Kind = Literal["step", "lesson", "timing", "beyond"]
"""A step of the reading order (numbered: its tab and its key are its number), one of the
lesson's two tabs, the timing tab, or a view beyond the reading order."""


@dataclass(frozen=True)
class Entry:
    """One view: its class, its `kind`; `menu`, its View menu action's words ('' for its tab's
    title); `short`, its tab's title where whole ones do not fit ('' for the title). Where only
    keys fit, a view beyond shows its key, a lesson or timing tab its short title's first
    word."""

    view: ViewClass
    kind: Kind = "beyond"
    menu: str = ""
    short: str = ""

    @property
    def name(self) -> str:
        return self.view.VIEW

    @property
    def title(self) -> str:
        return self.view.TITLE

    def tab_title(self, number: int) -> str:
        """Its tab's whole title; a step numbered `number` when its title is not already."""
        title = self.title.strip()
        if self.kind != "step" or title.startswith(str(number)):
            return title
        return f"{number}  {title}"

    def short_title(self, number: int) -> str:
        return self.short or self.tab_title(number)

    def key(self, number: int) -> str:
        """Its shortcut: a step's `number`, else its KEY."""
        return str(number) if self.kind == "step" else self.view.KEY

    def key_title(self, number: int) -> str:
        """Its tab where only keys fit: a step's number, its key, or its short title's first
        word."""
        found = re.match(r"\d+", self.tab_title(number))
        if found:
            return found.group()
        key = self.view.KEY if self.kind == "beyond" else ""
        return key or self.short_title(number).split()[0]

    def menu_text(self, number: int) -> str:
        return self.menu or self.tab_title(number)


VIEWS: tuple[Entry, ...] = (
    Entry(PredictTab, "lesson", menu="&Predict, then reveal"),
    Entry(SpeedOfLightTab, "step", short="1  Speed"),
    Entry(MemoryTab, "step", short="2  Memory"),
    Entry(OccupancyTab, "step"),
    Entry(TimingView, "timing", menu="Kernel &timing"),
    Entry(ReferenceTab, "lesson", menu="T4 vs this &report", short="T4"),
    Entry(RooflineView),
    Entry(AdviceView, short="Advice"),
    Entry(StallsView, short="Stalls"),
    Entry(SourceView),
    Entry(InstructionMixView, short="Mix"),
    Entry(MetricsView, short="Metrics"),
)
"""The window's views, in tab order."""


def entry_of(view: str) -> Entry | None:
    """The entry of the view named `view`, None where there is none."""
    return next((e for e in VIEWS if e.name == view), None)
