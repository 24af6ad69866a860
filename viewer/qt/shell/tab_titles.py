"""The tab bar's titles at the width the window has: whole where they all fit, else short, else
(a narrow screen in projector mode) the current tab short and the others by their keys, else
(more tabs still) by their shortcut letters alone, so that every tab stays on screen and legible
(viewer.qt.shell.view_registry gives each tab its titles). A tab's whole title is kept as its
data (exports, tests) and its question stays its tooltip."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QTabWidget


@dataclass(frozen=True)
class TabTitles:
    """A tab's titles: `whole`, `short` (where whole ones do not fit), `key` (where only
    keys fit: its step number, its key or a word) and `letter` (where not even those fit: its
    shortcut; '' for its `key`)."""

    whole: str
    short: str
    key: str
    letter: str = ""


def whole_title(tabs: QTabWidget, index: int) -> str:
    """The tab's whole title, whatever it shows now."""
    data = tabs.tabBar().tabData(index)
    return data if isinstance(data, str) and data else tabs.tabText(index)


def _needed(tabs: QTabWidget) -> int:
    bar = tabs.tabBar()
    corner = tabs.cornerWidget(Qt.Corner.TopRightCorner)
    beside = corner.sizeHint().width() if corner is not None and corner.isVisible() else 0
    return sum(bar.tabSizeHint(i).width() for i in range(bar.count())) + beside


def fit_titles(tabs: QTabWidget, width: int, titles: Sequence[TabTitles]) -> str:
    """Give the tabs the longest of their `titles` that fit `width`; returns which: 'whole',
    'short', 'keys' or 'letters'."""
    bar = tabs.tabBar()
    for i, title in enumerate(titles):
        bar.setTabData(i, title.whole)
    current = tabs.currentIndex()
    levels = {
        "whole": [t.whole for t in titles],
        "short": [t.short for t in titles],
        "keys": [t.short if i == current else t.key for i, t in enumerate(titles)],
        "letters": [t.short if i == current else t.letter or t.key
                    for i, t in enumerate(titles)],
    }
    for level, texts in levels.items():
        for i, text in enumerate(texts):
            if bar.tabText(i) != text:
                bar.setTabText(i, text)
        if _needed(tabs) <= width or level == "letters":
            return level
    return "letters"


class TitleFitter(QObject):
    """Refits `tabs`' `titles` (one per tab, in order) whenever the tabs are resized or another
    tab is shown."""

    def __init__(self, tabs: QTabWidget, titles: Sequence[TabTitles]) -> None:
        super().__init__(tabs)
        self._tabs, self._titles = tabs, list(titles)
        self.level = "whole"
        tabs.installEventFilter(self)
        tabs.currentChanged.connect(lambda _index: self.fit())

    def fit(self) -> None:
        self.level = fit_titles(self._tabs, self._tabs.width(), self._titles)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._tabs and event.type() == QEvent.Type.Resize:
            self.fit()
        return False
