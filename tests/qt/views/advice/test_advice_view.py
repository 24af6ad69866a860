"""ncu's advice in the window (A): the shipped --set full pair, a basic capture and an export;
the ranking and estimates of viewer.analysis.advice, links rendered never raw, a link switching
tabs or opening the browser, and compare statuses."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFrame, QLabel, QWidget

from viewer.analysis import advice
from viewer.core.model import Report
from viewer.qt.kit.object_names import is_one_of, one_of
from viewer.qt.kit.style import Style
from viewer.qt.views.advice import advice_view
from viewer.qt.views.advice.advice_view import AdviceView, Names, estimate_text
from viewer.qt.views.stalls.stalls_view import StallsView
from viewer.readers import read_report
from viewer.readers.extras import read_extras

ROOT = Path(__file__).resolve().parents[4]
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
BASIC = ROOT / "tests" / "data" / "corpus" / "h200" / "workloads-kernels-and-graph.ncu-rep"
EXPORT = ROOT / "profiles" / "naive.raw.csv"


def ranked(path: Path) -> tuple[advice.Advice, ...]:
    report = read_report(path)
    return advice.ranked(read_extras(report, [0], rules=True)[0].rules or [])


def shown(qtbot, reports: list[Report], projector: bool = False,
          parent: QWidget | None = None) -> AdviceView:
    view = AdviceView(Style(projector))
    if parent is None:
        qtbot.addWidget(view)
        view.show()
    else:
        parent.addTab(view, view.TITLE)
        parent.setCurrentWidget(view)
    view.set_kernels([r.kernels[0] for r in reports], None, reports)
    qtbot.waitUntil(lambda: view.ready, timeout=60_000)
    return view


def cards(view: QWidget) -> list[QFrame]:
    found = [c for c in view.findChildren(QFrame) if is_one_of(c.objectName(), Names.ADVICE)]
    return sorted(found, key=lambda c: int(c.objectName().split("_")[1]))


def field(card: QFrame, name: str) -> str:
    return card.findChild(QLabel, name).text()


def every_text(view: QWidget) -> str:
    return "\n".join(label.text() for label in view.findChildren(QLabel))


@pytest.mark.parametrize("path", [NAIVE, BASIC], ids=lambda p: p.name)
def test_the_advice_is_ncus_ranked_with_its_estimates(qtbot, path: Path) -> None:
    view = shown(qtbot, [read_report(path)])
    expected = ranked(path)
    assert expected
    assert [(field(c, Names.HEADING), field(c, Names.ESTIMATE)) for c in cards(view)] == [
        (a.heading, estimate_text(a)) for a in expected]
    words = every_text(view)
    assert "@section:" not in words and "@url:" not in words


def test_links_are_rendered_not_raw(qtbot) -> None:
    view = shown(qtbot, [read_report(NAIVE)])
    messages = [c.findChild(QLabel, Names.MESSAGE).text() for c in cards(view)]
    assert any('href="view:stalls"' in m for m in messages)  # Warp State Statistics
    assert any('href="https://docs.nvidia.com/' in m for m in messages)
    assert not any("@" in m.replace("&#x27;", "") and "@section" in m for m in messages)


def test_a_link_to_our_view_asks_the_window_for_it_and_a_web_link_opens_the_browser(
        qtbot, monkeypatch) -> None:
    view = shown(qtbot, [read_report(NAIVE)])
    asked: list[tuple[str, str]] = []
    view.navigate.connect(lambda name, row: asked.append((name, row)))
    message = next(c.findChild(QLabel, Names.MESSAGE) for c in cards(view)
                   if "view:stalls" in c.findChild(QLabel, Names.MESSAGE).text())
    message.linkActivated.emit("view:stalls")
    assert asked == [("stalls", "")]  # the window shows it (test_in_the_window_...)
    opened = []
    monkeypatch.setattr(advice_view.QDesktopServices, "openUrl", opened.append)
    view.follow("https://docs.nvidia.com/nsight-compute/")
    assert [u.toString() for u in opened] == ["https://docs.nvidia.com/nsight-compute/"]
    assert asked == [("stalls", "")]


def test_compare_says_what_appeared_went_away_and_changed(qtbot) -> None:
    view = shown(qtbot, [read_report(NAIVE), read_report(TILED)])
    expected = advice.compare(ranked(NAIVE), ranked(TILED))
    shown_cards = cards(view)
    assert [c.property("status") for c in shown_cards] == [c.status for c in expected]
    assert [field(c, Names.HEADING) for c in shown_cards] == [c.advice.heading for c in expected]
    summary = view.findChild(QLabel, Names.SUMMARY).text()
    for status, words in ((advice.WENT_AWAY, "went away"), (advice.CHANGED, "changed")):
        assert f"{sum(c.status == status for c in expected)} {words}" in summary
    statuses = {c.status for c in expected}
    assert statuses & {advice.APPEARED, advice.WENT_AWAY, advice.CHANGED}
    for status in statuses:
        assert view.findChild(QLabel, one_of(Names.STATUS, status)) is not None
    changed = [(card, c) for card, c in zip(shown_cards, expected, strict=True)
               if c.status == advice.CHANGED]
    for card, change in changed:
        assert estimate_text(change.first) in field(card, Names.ESTIMATE)
        assert estimate_text(change.second) in field(card, Names.ESTIMATE)


def test_the_same_is_said_only_of_estimates_equal_as_shown(qtbot) -> None:
    view = shown(qtbot, [read_report(NAIVE), read_report(TILED)])
    for card in cards(view):
        estimate = field(card, Names.ESTIMATE)
        if card.property("status") == advice.SAME:
            assert estimate.startswith("A and B: ") and "points" not in estimate
    low = next(c for c in cards(view) if field(c, Names.HEADING) == "Low Compression Rate")
    assert low.property("status") == advice.CHANGED
    assert "(+0.29 points)" in field(low, Names.ESTIMATE)


def test_the_lessons_reading_stands_beside_ncus_coalescing_advice(qtbot) -> None:
    report = read_report(NAIVE)
    view = shown(qtbot, [report])
    top = cards(view)[0]
    assert field(top, Names.HEADING) == "L1TEX Global Load Access Pattern"
    access = ranked(NAIVE)[0]
    assert field(top, Names.LESSON) == advice.lesson_reading(access, report.kernels[0])
    assert "2.00 sectors per request" in field(top, Names.LESSON)
    assert [c for c in cards(view)[1:] if c.findChild(QLabel, Names.LESSON) is not None] == []
    both = shown(qtbot, [read_report(NAIVE), read_report(TILED)])  # went away: A's card
    went = next(c for c in cards(both) if field(c, Names.HEADING) == access.heading)
    assert "2.00 sectors per request" in field(went, Names.LESSON)


def test_an_export_holds_no_rules_and_says_so(qtbot) -> None:
    view = shown(qtbot, [read_report(EXPORT)])
    assert advice.RULES_MISSING in view.findChild(QLabel, Names.MISSING).text()
    assert not cards(view)
    both = shown(qtbot, [read_report(NAIVE), read_report(EXPORT)])
    missing = both.findChild(QLabel, Names.MISSING).text()
    assert advice.RULES_MISSING in missing and "naive" in missing
    assert len(cards(both)) == len(ranked(NAIVE))


def test_projector_mode_is_larger(qtbot) -> None:
    view = shown(qtbot, [read_report(NAIVE)], projector=True)
    heading = cards(view)[0].findChild(QLabel, Names.HEADING)
    assert heading.font().pointSizeF() >= 20
    view.set_style(Style())
    assert cards(view)[0].findChild(QLabel, Names.HEADING).font().pointSizeF() < 20


def test_in_the_window_a_link_jumps_to_our_tab(qtbot, tmp_path) -> None:
    from PySide6.QtCore import QSettings

    from viewer.qt.shell.main_window import MainWindow, default_tabs

    window = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                        tabs=default_tabs())
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        window.open_paths([NAIVE])
    view = next(p for p in window.analysis_pages if isinstance(p, AdviceView))
    action = next(a for a in window.analysis_actions
                  if a.text().replace("&", "").endswith(AdviceView.TITLE))
    assert action.shortcut().toString() == AdviceView.KEY == "A"
    action.trigger()
    assert window.current_tab() is view
    qtbot.waitUntil(lambda: view.ready and bool(cards(view)), timeout=60_000)
    view.follow("view:stalls")
    assert isinstance(window.current_tab(), StallsView)
    window.tabs.setCurrentWidget(view)
    view.follow("view:occupancy")
    assert getattr(window.current_tab(), "VIEW", None) == "occupancy"
