"""The tab bar's titles: the longest that fit, down to each tab's shortcut letter where not even
the keys and words fit."""

from __future__ import annotations

from PySide6.QtWidgets import QTabWidget, QWidget

from viewer.qt.shell.tab_titles import TabTitles, _needed, fit_titles

TITLES = [TabTitles("Predict, then reveal", "Predict", "Predict", "P"),
          *(TabTitles(f"Step number {n}", f"Step {n}", str(n)) for n in range(1, 4)),
          TabTitles("Kernel timing", "Timing", "Timing", "T"),
          TabTitles("T4 vs this report", "T4", "T4", "R"),
          *(TabTitles(f"View {k}", k, k) for k in "OAWCIM")]


def widths(qtbot) -> tuple[QTabWidget, dict[str, int]]:
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    for title in TITLES:
        tabs.addTab(QWidget(), title.whole)
    first = TITLES[0].short  # the current tab keeps its short title
    levels = {"whole": [t.whole for t in TITLES], "short": [t.short for t in TITLES],
              "keys": [first, *(t.key for t in TITLES[1:])],
              "letters": [first, *(t.letter or t.key for t in TITLES[1:])]}
    needed = {}
    for level, texts in levels.items():
        for i, text in enumerate(texts):
            tabs.tabBar().setTabText(i, text)
        needed[level] = _needed(tabs)
    return tabs, needed


def test_each_level_is_taken_where_it_fits_down_to_the_letters(qtbot) -> None:
    tabs, needed = widths(qtbot)
    assert needed["whole"] > needed["short"] > needed["keys"] > needed["letters"]
    for level in ("whole", "short", "keys", "letters"):
        assert fit_titles(tabs, needed[level], TITLES) == level
        assert _needed(tabs) <= needed[level]
    assert fit_titles(tabs, needed["letters"] - 1, TITLES) == "letters"
    bar = tabs.tabBar()
    assert [bar.tabText(i) for i in range(bar.count())] == [
        "Predict", "1", "2", "3", "T", "R", "O", "A", "W", "C", "I", "M"]
    assert [bar.tabData(i) for i in range(bar.count())] == [t.whole for t in TITLES]
