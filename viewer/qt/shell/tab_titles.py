"""The tab bar's titles at the width the window has: each tab whole where they all fit, else
shortened one tab at a time (from the last tab back, the current one last) only as far as the
width requires: first to its short words ("1  Speed"), then to its key alone ("1", "A"), the
current tab never below its short words. viewer.qt.shell.view_registry gives each tab its
titles, in one vocabulary: its key, then its words. A tab's whole title is kept as its data
(exports, tests) and its question stays its tooltip."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QTabWidget


@dataclass(frozen=True)
class TabTitles:
    """A tab's titles, each the start of the one before: `whole`, `short` (its key and short
    words, or `whole` where it has none) and `key` (its key alone)."""

    whole: str
    short: str
    key: str

    def at(self, level: int) -> str:
        """Its title at `level`: 0 whole, 1 short, 2 key."""
        return (self.whole, self.short, self.key)[level]


def whole_title(tabs: QTabWidget, index: int) -> str:
    """The tab's whole title, whatever it shows now."""
    data = tabs.tabBar().tabData(index)
    return data if isinstance(data, str) and data else tabs.tabText(index)


def _needed(tabs: QTabWidget) -> int:
    bar = tabs.tabBar()
    corner = tabs.cornerWidget(Qt.Corner.TopRightCorner)
    beside = corner.sizeHint().width() if corner is not None and corner.isVisible() else 0
    return sum(bar.tabSizeHint(i).width() for i in range(bar.count())) + beside


def _steps(count: int, current: int) -> list[tuple[int, int]]:
    """(tab, level) in the order tabs are shortened: every tab but the current one to its
    short words, from the last back, then the current one; then the same to their keys, the
    current tab keeping its short words."""
    order = [i for i in reversed(range(count)) if i != current]
    return [*((i, 1) for i in [*order, current]), *((i, 2) for i in order)]


def fit_titles(tabs: QTabWidget, width: int, titles: Sequence[TabTitles]) -> str:
    """Give the tabs the longest of their `titles` that fit `width`, shortening one tab at a
    time, then lengthening again each tab that fits longer; returns the shortest level given
    to any tab: 'whole', 'short' or 'keys'."""
    bar = tabs.tabBar()
    levels = [0] * len(titles)
    for i, title in enumerate(titles):
        bar.setTabData(i, title.whole)
        _show(tabs, i, title.whole)
    for index, level in _steps(len(titles), tabs.currentIndex()):
        if _needed(tabs) <= width:
            break
        levels[index] = level
        _show(tabs, index, titles[index].at(level))
    current = tabs.currentIndex()
    for index in sorted(range(len(titles)), key=lambda i: i != current):
        while levels[index] and _fits_at(tabs, index, titles[index].at(levels[index] - 1),
                                         width):
            levels[index] -= 1  # give back what a later tab's shortening made room for
    return ("whole", "short", "keys")[max(levels, default=0)]


def _show(tabs: QTabWidget, index: int, text: str) -> None:
    if tabs.tabBar().tabText(index) != text:
        tabs.tabBar().setTabText(index, text)


def _fits_at(tabs: QTabWidget, index: int, text: str, width: int) -> bool:
    """Whether the tabs fit `width` with tab `index` showing `text`; it keeps `text` if so."""
    was = tabs.tabBar().tabText(index)
    _show(tabs, index, text)
    if _needed(tabs) <= width:
        return True
    _show(tabs, index, was)
    return False


class TitleFitter(QObject):
    """Refits `tabs`' `titles` (one per tab, in order) whenever the tabs are resized or another
    tab is shown."""

    def __init__(self, tabs: QTabWidget, titles: Sequence[TabTitles]) -> None:
        super().__init__(tabs)
        self._tabs, self._titles = tabs, list(titles)
        self.level = "whole"
        self._fitted: tuple[object, ...] = ()  # what the last fit saw, and the texts it left
        tabs.installEventFilter(self)
        tabs.currentChanged.connect(lambda _index: self.fit())

    def fit(self) -> None:
        """Fit again, unless nothing it depends on changed since the last fit (a resize of the
        height alone, a second event for one change)."""
        bar = self._tabs.tabBar()
        corner = self._tabs.cornerWidget(Qt.Corner.TopRightCorner)
        beside = corner.sizeHint().width() if corner is not None and corner.isVisible() else 0
        now = (self._tabs.width(), beside, self._tabs.currentIndex(), bar.font().key(),
               bar.styleSheet(), [bar.isTabVisible(i) for i in range(bar.count())],
               [bar.tabText(i) for i in range(bar.count())])
        if now == self._fitted:
            return
        self.level = fit_titles(self._tabs, self._tabs.width(), self._titles)
        self._fitted = (*now[:6], [bar.tabText(i) for i in range(bar.count())])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._tabs and event.type() == QEvent.Type.Resize:
            self.fit()
        return False
