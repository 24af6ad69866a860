"""The tab bar's titles at the width the window has: whole where they all fit, else short, else
(a narrow screen in projector mode) the current tab short and the others by their keys, so that
every tab stays on screen and legible. A tab's whole title is kept as its data (exports, tests)
and its question stays its tooltip."""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QTabWidget

# Short forms of the tabs' titles; a title not named here is its own short form.
SHORT_TITLES = {
    "1  Speed Of Light": "1  Speed",
    "2  Memory chart": "2  Memory",
    "T4 vs this report": "T4",
    "ncu's advice": "Advice",
    "Warp stalls": "Stalls",
    "Every metric": "Metrics",
}


def whole_title(tabs: QTabWidget, index: int) -> str:
    """The tab's whole title, whatever it shows now."""
    data = tabs.tabBar().tabData(index)
    return data if isinstance(data, str) and data else tabs.tabText(index)


def short_title(title: str) -> str:
    return SHORT_TITLES.get(title, title)


def key_title(title: str, key: str) -> str:
    """The tab by its key: its step number, else `key`, else its short title's first word."""
    number = re.match(r"\d+", title)
    short = short_title(title)
    return number.group() if number else key or short.split()[0]


def _needed(tabs: QTabWidget) -> int:
    bar = tabs.tabBar()
    corner = tabs.cornerWidget(Qt.Corner.TopRightCorner)
    beside = corner.sizeHint().width() if corner is not None and corner.isVisible() else 0
    return sum(bar.tabSizeHint(i).width() for i in range(bar.count())) + beside


def fit_titles(tabs: QTabWidget, width: int) -> str:
    """Give the tabs the longest titles that fit `width`; returns which: 'whole', 'short' or
    'keys'."""
    bar = tabs.tabBar()
    titles = [whole_title(tabs, i) for i in range(bar.count())]
    for i, title in enumerate(titles):
        bar.setTabData(i, title)
    keys = [str(getattr(tabs.widget(i), "KEY", "") or "") for i in range(bar.count())]
    current = tabs.currentIndex()
    levels = {
        "whole": titles,
        "short": [short_title(t) for t in titles],
        "keys": [short_title(t) if i == current else key_title(t, k)
                 for i, (t, k) in enumerate(zip(titles, keys, strict=True))],
    }
    for level, texts in levels.items():
        for i, text in enumerate(texts):
            if bar.tabText(i) != text:
                bar.setTabText(i, text)
        if _needed(tabs) <= width or level == "keys":
            return level
    return "keys"


class TitleFitter(QObject):
    """Refits `tabs`' titles whenever the tabs are resized or another tab is shown."""

    def __init__(self, tabs: QTabWidget) -> None:
        super().__init__(tabs)
        self._tabs = tabs
        self.level = "whole"
        tabs.installEventFilter(self)
        tabs.currentChanged.connect(lambda _index: self.fit())

    def fit(self) -> None:
        self.level = fit_titles(self._tabs, self._tabs.width())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._tabs and event.type() == QEvent.Type.Resize:
            self.fit()
        return False
