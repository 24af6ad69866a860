"""The tab bar's titles: each tab whole where they all fit, else shortened one tab at a time
(from the last back, the current one last) only as far as the width requires, down to each
tab's key; the current tab never below its short words."""

from __future__ import annotations

from PySide6.QtWidgets import QTabWidget, QWidget

from viewer.qt.shell.tab_titles import TabTitles, _needed, fit_titles

TITLES = [TabTitles("P  Predict, then reveal", "P  Predict", "P"),
          *(TabTitles(f"{n}  Step number {n}", f"{n}  Step", str(n)) for n in range(1, 4)),
          TabTitles("T  Kernel timing", "T  Kernel", "T"),
          *(TabTitles(f"{k}  View {k}", f"{k}  View {k}", k) for k in "OAWCIM")]


def tab_bar(qtbot) -> QTabWidget:
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    for title in TITLES:
        tabs.addTab(QWidget(), title.whole)
    return tabs


def needed_with(tabs: QTabWidget, texts: list[str]) -> int:
    for i, text in enumerate(texts):
        tabs.tabBar().setTabText(i, text)
    return _needed(tabs)


def shown(tabs: QTabWidget) -> list[str]:
    return [tabs.tabBar().tabText(i) for i in range(tabs.count())]


def test_whole_titles_where_they_fit_and_one_tab_shortened_where_one_is_enough(qtbot) -> None:
    tabs = tab_bar(qtbot)
    whole = needed_with(tabs, [t.whole for t in TITLES])
    assert fit_titles(tabs, whole, TITLES) == "whole"
    assert shown(tabs) == [t.whole for t in TITLES]
    one = [t.short if i == 4 else t.whole for i, t in enumerate(TITLES)]
    assert fit_titles(tabs, needed_with(tabs, one), TITLES) == "short"
    assert shown(tabs) == one  # the last tab that has short words alone gave way
    assert [tabs.tabBar().tabData(i) for i in range(tabs.count())] == [t.whole for t in TITLES]


def test_where_nothing_fits_every_tab_is_its_key_the_current_one_its_short_words(qtbot) -> None:
    tabs = tab_bar(qtbot)
    tabs.setCurrentIndex(1)
    assert fit_titles(tabs, 10, TITLES) == "keys"
    assert shown(tabs) == [t.short if i == 1 else t.key for i, t in enumerate(TITLES)]


def test_no_tab_is_shorter_than_the_width_requires(qtbot) -> None:
    tabs = tab_bar(qtbot)
    wholes = needed_with(tabs, [t.whole for t in TITLES])
    keys = needed_with(tabs, [TITLES[0].short, *(t.key for t in TITLES[1:])])
    for width in range(keys, wholes, 37):
        fit_titles(tabs, width, TITLES)
        texts = shown(tabs)
        assert _needed(tabs) <= width
        for i, (text, title) in enumerate(zip(texts, TITLES, strict=True)):
            longer = {title.key: title.short, title.short: title.whole}.get(text)
            if longer and longer != text:
                assert needed_with(tabs, [*texts[:i], longer, *texts[i + 1:]]) > width
                needed_with(tabs, texts)
