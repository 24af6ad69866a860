"""One registry of views (viewer/qt/shell/view_registry.py): the tabs, their titles at each width,
the View menu's words and keys follow from it, and what names views outside it (README's table
of keys, the views ncu's advice links to) is held to it."""

from __future__ import annotations

import re
from pathlib import Path

from viewer.analysis import advice
from viewer.qt.kit.style import Style
from viewer.qt.shell.reading_page import ReadingPage, default_tabs
from viewer.qt.shell.view_registry import VIEWS, Entry

README = Path(__file__).resolve().parents[3] / "README.md"


def numbered() -> list[tuple[int, Entry]]:
    """Each entry with its number in the reading order (0 for a view that is no step)."""
    steps = [e for e in VIEWS if e.kind == "step"]
    return [(steps.index(e) + 1 if e in steps else 0, e) for e in VIEWS]


def key_table() -> list[tuple[list[str], str]]:
    """README's table of keys: each row's keys (what its first cell names, less the words in
    parentheses) and what they do."""
    text = README.read_text(encoding="utf-8")
    table = text[text.index("| key | does |"):].split("\n\n", 1)[0]
    rows = []
    for line in table.splitlines()[2:]:
        keys, does = (cell.strip() for cell in line.strip("|").split("|", 1))
        names = re.split(r",|/| or ", re.sub(r"\(.*?\)", "", keys))
        rows.append(([n.strip() for n in names if n.strip()], does))
    return rows


def test_the_tabs_their_titles_and_the_view_menu_follow_the_registry(qtbot) -> None:
    page = ReadingPage(default_tabs(), Style())
    qtbot.addWidget(page)
    tabs = page.tabs
    wholes = ["P  Predict", "1  Speed Of Light", "2  Memory chart", "3  Occupancy", "T  Timing",
              "R  T4 vs this report", "O  Roofline", "A  ncu's advice", "W  Warp stalls",
              "C  Source", "I  Instruction mix", "X  Series", "M  Every metric"]
    assert [tabs.tabText(i) for i in range(tabs.count())] == wholes
    assert [tabs.widget(i) for i in range(tabs.count())] == page.views
    assert [tabs.tabToolTip(i) for i in range(tabs.count())] == [v.QUESTION for v in page.views]
    assert [t.short for t in page.titles] == [
        "P  Predict", "1  Speed", "2  Memory", "3  Occupancy", "T  Timing", "R  T4",
        *wholes[6:]]
    assert [t.key for t in page.titles] == [
        "P", "1", "2", "3", "T", "R", "O", "A", "W", "C", "I", "X", "M"]
    for t in page.titles:  # one vocabulary: each title the start of the one before
        assert t.whole.startswith(t.short) and t.short.startswith(t.key)
    assert page.menu == [("&" + whole, key) for whole, key in
                         zip(wholes, [t.key for t in page.titles], strict=True)]
    assert [v.VIEW for v in page.analysis_pages] == [e.name for e in VIEWS if e.kind == "beyond"]


def test_the_views_advice_links_to_are_the_registry_s() -> None:
    names = {e.name for e in VIEWS}
    assert set(advice.VIEWS) <= names
    assert set(advice.SECTION_VIEWS.values()) <= set(advice.VIEWS)


def test_readme_s_table_of_keys_names_every_view_s_key_in_the_registry_s_order() -> None:
    rows = key_table()
    for number, entry in numbered():
        key = entry.key(number)
        found = [does for keys, does in rows if key in keys]
        assert len(found) == 1, f"README's table of keys has no one row for {key}"
        if entry.kind != "step":  # the row names the view by its whole title, key and words
            assert entry.tab_title(number) in found[0], (key, found[0])
    steps = [e.key(n) for n, e in numbered() if e.kind == "step"]
    assert any(keys[:len(steps)] == steps for keys, _ in rows)
    beyond = [e for e in VIEWS if e.kind == "beyond"]
    (does,) = [does for keys, does in rows if keys == [e.key(0) for e in beyond]]
    places = [does.find(e.tab_title(0)) for e in beyond]
    assert -1 not in places and places == sorted(places)  # named in tab order
