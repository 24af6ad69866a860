"""Occupancy, what if: the occupancy tab's three small charts draw ncu's curves as the plain layer
reads them, each kernel's own setting marked; read off the GUI thread when the tab is shown; a
report without curves says so; the gap explanation links to the Warp stalls tab."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel, QTabWidget, QWidget

from tests.analysis.test_occupancy_curves import with_curves
from viewer.analysis import occupancy_curves as oc
from viewer.core.model import Report
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.style import Style
from viewer.qt.views.occupancy.occupancy_tab import STALLS_TITLE, OccupancyTab
from viewer.qt.views.occupancy.occupancy_tab import Names as OccupancyNames
from viewer.qt.views.occupancy.occupancy_whatif import CurveChart, Names, setting_words
from viewer.readers import read_report

ROOT = Path(__file__).resolve().parents[4]
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
BASIC = ROOT / "tests" / "data" / "corpus" / "h200" / "workloads-kernels-and-graph.ncu-rep"
KEYS = [spec.key for spec in oc.CURVES]


class StallsStandIn(QWidget):
    TITLE, VIEW = STALLS_TITLE, "stalls"


def go_to(tabs: QTabWidget, view: str) -> None:
    """What the window does with a tab's navigate(view, row): show the view named."""
    pages = [tabs.widget(i) for i in range(tabs.count())]
    tabs.setCurrentWidget(next(p for p in pages if getattr(p, "VIEW", "") == view))


def shown(qtbot, reports: list[Report], projector: bool = False, stalls: bool = True
          ) -> tuple[OccupancyTab, QTabWidget]:
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    tab = OccupancyTab(Style(projector))
    tabs.addTab(tab, tab.TITLE)
    if stalls:
        tabs.addTab(StallsStandIn(), STALLS_TITLE)
        tab.navigate.connect(lambda view, _row: go_to(tabs, view))
    tabs.resize(1280, 900)
    tabs.show()
    kernels = [r.kernels[0] for r in reports]
    tab.set_kernels(kernels, ["naive", "tiled"][:len(kernels)], reports)
    qtbot.waitUntil(lambda: tab.curve_reader.known(kernels) and not tab.curve_reader.reading,
                    timeout=60_000)
    return tab, tabs


def charts(tab: OccupancyTab) -> dict[str, CurveChart]:
    return {c.key: c for c in tab.findChildren(CurveChart)}


def label(tab: OccupancyTab, name: str) -> str:
    found = tab.findChild(QLabel, name)
    assert found is not None, name
    return found.text()


@pytest.fixture(scope="module")
def expected() -> list[tuple[oc.OccupancyCurve, ...]]:
    out = []
    for path in (NAIVE, TILED):
        kernel, extras = with_curves(path)
        out.append(oc.curves(kernel, extras.instances))
    return out


def test_the_curves_drawn_are_the_plain_layers_with_the_setting_marked(qtbot, expected) -> None:
    reports = [read_report(NAIVE)]
    tab, _tabs = shown(qtbot, reports)
    drawn = charts(tab)
    assert sorted(drawn) == sorted(KEYS)
    for curve in expected[0]:
        ((column, xs, ys, at),) = drawn[curve.spec.key].drawn
        assert (column, xs, ys, at) == (0, curve.xs, curve.ys, curve.at)
    block = next(c for c in expected[0] if c.spec.key == "block_size")
    assert block.at == (256.0, block.best)  # why 256 threads: the top of the curve
    assert label(tab, one_of(Names.SETTING, "block_size", 1)) == setting_words(block, "naive")
    assert "256 threads per block: 64 active warps per SM, the most" in label(
        tab, one_of(Names.SETTING, "block_size", 1))


def test_the_curves_are_read_only_when_the_tab_is_shown(qtbot) -> None:
    report = read_report(NAIVE)
    tab = OccupancyTab(Style())
    qtbot.addWidget(tab)
    tab.set_kernels([report.kernels[0]], ["naive"], [report])
    assert not tab.curve_reader.reading and not tab.curve_reader.curves
    assert label(tab, Names.WHATIF_READING)
    tab.show()
    assert tab.curve_reader.reading
    qtbot.waitUntil(lambda: len(charts(tab)) == 3, timeout=60_000)


def test_compare_draws_both_kernels_settings(qtbot, expected) -> None:
    tab, _tabs = shown(qtbot, [read_report(NAIVE), read_report(TILED)])
    drawn = charts(tab)
    for column, curves in enumerate(expected):
        for curve in curves:
            assert drawn[curve.spec.key].drawn[column] == (column, curve.xs, curve.ys, curve.at)
            assert label(tab, one_of(Names.SETTING, curve.spec.key, column + 1)).startswith(
                ("naive", "tiled")[column])
    shared = {c: v for c, _x, _y, v in drawn["shared_mem"].drawn}
    assert shared[0] != shared[1]  # the tiles' shared memory moves the tiled kernel's mark


def test_a_report_without_curves_says_so(qtbot) -> None:
    tab, _tabs = shown(qtbot, [read_report(BASIC)])
    assert not charts(tab)
    assert label(tab, Names.WHATIF_MISSING).lower().rstrip(".") == oc.MISSING_TEXT.lower()


def test_an_export_has_no_curves_and_is_not_read_again(qtbot) -> None:
    tab, _tabs = shown(qtbot, [read_report(ROOT / "profiles" / "naive.details.csv")])
    assert not charts(tab) and not tab.curve_reader.reading
    assert "exports never carry them" in label(tab, Names.WHATIF_MISSING)


def test_the_gap_explanation_links_to_warp_stalls(qtbot) -> None:
    tab, tabs = shown(qtbot, [read_report(NAIVE)])
    link = tab.findChild(QLabel, OccupancyNames.STALLS_LINK)
    assert link is not None and STALLS_TITLE in link.text()
    link.linkActivated.emit("stalls")
    assert tabs.currentWidget().TITLE == STALLS_TITLE  # type: ignore[attr-defined]


def test_no_link_without_a_warp_stalls_tab(qtbot) -> None:
    tab, _tabs = shown(qtbot, [read_report(NAIVE)], stalls=False)
    assert tab.findChild(QLabel, OccupancyNames.STALLS_LINK) is None and not tab.show_stalls()


def test_projector_charts_are_big(qtbot) -> None:
    style = Style(projector=True)
    tab, _tabs = shown(qtbot, [read_report(NAIVE), read_report(TILED)], projector=True)
    for chart in charts(tab).values():
        axis = chart.getPlotItem().getAxis("bottom")
        assert axis.style["tickFont"].pointSizeF() == style.points("small") >= 20
        assert min(item.opts["pen"].width() for item in chart.getPlotItem().listDataItems()
                   if item.opts.get("pen") is not None) >= 6
        assert chart.minimumHeight() >= 380
    assert tab.findChild(QLabel, one_of(Names.SETTING, "registers", 2)).font().pointSizeF() >= 20
