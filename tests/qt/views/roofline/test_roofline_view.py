"""The roofline view (key O) on the real reports: the values drawn are viewer.analysis.roofline's,
read off the GUI thread when shown; the lesson's pair in words (DRAM the same, L1 about
fifteenfold); the arrows from A to B; the day-30 hand count; a `basic` capture says which set would
have the metrics; projector sizes."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel

from tests.analysis.test_roofline import with_roofline_metrics
from viewer.analysis import roofline
from viewer.core import formatting as fmt
from viewer.core.model import Report
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.style import Style
from viewer.qt.shell.view_registry import VIEWS
from viewer.qt.views.roofline.roofline_answer import Names
from viewer.qt.views.roofline.roofline_chart import TERA, RooflineChart
from viewer.qt.views.roofline.roofline_view import Names as ViewNames
from viewer.qt.views.roofline.roofline_view import RooflineView
from viewer.readers import read_report

ROOT = Path(__file__).resolve().parents[4]
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
BASIC = ROOT / "tests" / "data" / "corpus" / "h200" / "workloads-kernels-and-graph.ncu-rep"
LEVELS = ("dram", "l2", "l1")


def shown(qtbot, reports: list[Report], projector: bool = False,
          names: tuple[str, ...] = ("naive", "tiled")) -> RooflineView:
    view = RooflineView(Style(projector))
    qtbot.addWidget(view)
    view.resize(1280, 900)
    view.show()
    view.set_kernels([r.kernels[0] for r in reports], list(names[:len(reports)]), reports)
    qtbot.waitUntil(lambda: not view.reading and view.findChild(QLabel, ViewNames.READING) is None,
                    timeout=60_000)
    return view


def text(view: RooflineView, name: str) -> str:
    label = view.findChild(QLabel, name)
    assert label is not None, name
    return label.text()


@pytest.fixture(scope="module")
def expected() -> list[roofline.Roofline]:
    return [roofline.roofline(with_roofline_metrics(p).kernels[0]) for p in (NAIVE, TILED)]


def test_the_view_is_a_tab_with_its_key() -> None:
    entries = [e for e in VIEWS if e.view is RooflineView]
    assert len(entries) == 1 and entries[0].key(0) == "O" and entries[0].title == "Roofline"


def test_metrics_are_read_when_shown_and_the_values_drawn_are_the_plain_layers(
        qtbot, expected) -> None:
    reports = [read_report(NAIVE), read_report(TILED)]
    assert reports[0].kernels[0].unread(roofline.ROOFLINE_METRICS)  # the first read left them
    view = RooflineView(Style())
    qtbot.addWidget(view)
    view.set_kernels([r.kernels[0] for r in reports], ["naive", "tiled"], reports)
    assert not view.reading and view.chart is None  # nothing read while hidden
    view.show()
    assert view.reading and view.progress.isVisible()
    qtbot.waitUntil(lambda: view.chart is not None, timeout=60_000)
    chart = view.chart
    assert isinstance(chart, RooflineChart)
    for column, rf in enumerate(expected):
        for level in LEVELS:
            assert chart.points[(column, level)] == (rf.level(level).intensity,
                                                     rf.achieved_fp32_flop_per_s)
    for level in LEVELS:
        assert chart.ceilings[level] == expected[0].level(level).peak_bytes_per_s
    assert chart.ceilings["fp32"] == expected[0].peak_fp32_flop_per_s
    assert not reports[0].kernels[0].unread(roofline.ROOFLINE_METRICS)
    (x_lo, x_hi), (_y_lo, y_hi) = chart.getPlotItem().getViewBox().viewRange()
    assert y_hi == pytest.approx(math.log10(3 * expected[0].peak_fp32_flop_per_s / TERA))
    assert x_lo < math.log10(expected[0].level("l1").intensity) < x_hi


def test_compare_arrows_and_what_a_dram_only_roofline_hides(qtbot, expected) -> None:
    view = shown(qtbot, [read_report(NAIVE), read_report(TILED)])
    chart = view.chart
    assert chart is not None
    assert set(chart.arrows) == set(LEVELS)
    for level in LEVELS:
        assert chart.arrows[level] == (chart.points[(0, level)], chart.points[(1, level)])
    change = roofline.intensity_change(*expected)
    assert abs(change["dram"] - 1) < 0.05 and 12 < change["l1"] < 18
    hidden = text(view, Names.HIDDEN)
    assert "DRAM-only roofline hides" in hidden
    assert f"rises {change['l1']:.1f}-fold" in hidden
    for rf in expected:
        assert fmt.intensity(rf.level("dram").intensity) in hidden
        assert fmt.intensity(rf.level("l1").intensity) in hidden
    assert "the same" in text(view, one_of(Names.CHANGE, 0))  # DRAM
    assert f"{change['l1']:.1f}-fold" in text(view, one_of(Names.CHANGE, 2))  # L1


def test_the_arrow_heads_point_from_a_to_b(qtbot) -> None:
    view = shown(qtbot, [read_report(NAIVE), read_report(TILED)])
    chart = view.chart
    assert chart is not None and len(chart.arrow_heads()) == 3
    for head, start, end in chart.arrow_heads():
        assert head.pos().x() == pytest.approx(math.log10(end[0]))
        assert end[1] > start[1]  # tiled does more work per second: the arrows go up


def test_the_day_thirty_count_beside_the_chart(qtbot, expected) -> None:
    view = shown(qtbot, [read_report(NAIVE)])
    day = roofline.day_thirty(with_roofline_metrics(NAIVE).kernels[0])
    assert day is not None and view.chart is not None
    assert view.chart.hand_point == (day.hand_intensity, expected[0].achieved_fp32_flop_per_s)
    assert view.chart.points[(0, "dram")][0] == pytest.approx(day.measured_intensity, rel=0.02)
    hand, measured = (text(view, one_of(Names.DAY_THIRTY, n)) for n in (0, 1))
    assert fmt.size(day.hand_bytes) in hand and "left of the DRAM ridge" in hand
    assert fmt.size(day.measured_bytes) in measured and "right of the DRAM ridge" in measured
    assert f"{day.times_measured:,.0f} times" in text(view, one_of(Names.DAY_THIRTY, 3))
    assert any("day 30" in words for _color, _glyph, words in view.chart.key)


def test_the_tiled_kernel_alone_has_no_hand_count(qtbot) -> None:
    view = shown(qtbot, [read_report(TILED)], names=("tiled",))
    assert view.chart is not None and view.chart.hand_point is None
    assert "naive matmul" in text(view, Names.DAY_THIRTY_NONE)
    assert not view.chart.arrows


def test_a_basic_capture_says_which_set_would_have_the_metrics(qtbot) -> None:
    view = shown(qtbot, [read_report(BASIC)], names=("scale",))
    assert view.chart is None
    words = text(view, one_of(Names.MISSING, 0))
    assert words.lower().rstrip(".") == roofline.MISSING_TEXT.lower()
    assert "--set full" in words


def test_compare_with_a_basic_capture_draws_only_what_is_held(qtbot, expected) -> None:
    view = shown(qtbot, [read_report(NAIVE), read_report(BASIC)], names=("naive", "scale"))
    missing = text(view, one_of(Names.MISSING, 0))
    assert missing.startswith("scale: This report holds no roofline metrics")
    assert view.chart is not None and set(view.chart.points) == {(0, lv) for lv in LEVELS}
    assert not view.chart.arrows


def test_an_export_holding_the_metrics_draws_them(qtbot, expected) -> None:
    view = shown(qtbot, [read_report(ROOT / "profiles" / "naive.raw.csv")])
    assert view.chart is not None
    assert view.chart.points[(0, "l1")][0] == pytest.approx(
        expected[0].level("l1").intensity, rel=1e-4)


def test_an_export_lacking_some_says_so(qtbot) -> None:
    view = shown(qtbot, [read_report(ROOT / "profiles" / "naive.details.csv")])
    assert "only some of the roofline's metrics" in text(view, one_of(Names.MISSING, 0))


def test_projector_mode_is_big_and_thick(qtbot) -> None:
    style = Style(projector=True)
    view = shown(qtbot, [read_report(NAIVE), read_report(TILED)], projector=True)
    assert view.findChild(QLabel, Names.HIDDEN).font().pointSizeF() >= 20
    assert text(view, one_of(Names.CHANGE, 0))
    assert view.findChild(QLabel, Names.KEY).font().pointSizeF() >= 20
    chart = view.chart
    assert chart is not None
    axis = chart.getPlotItem().getAxis("bottom")
    assert axis.style["tickFont"].pointSizeF() == style.points("small") >= 20
    pens = [item.opts["pen"] for item in chart.getPlotItem().listDataItems()
            if item.opts.get("pen") is not None]
    assert pens and min(p.width() for p in pens) >= 4
    # big: it takes most of what the view shows (and no more: it fits the screen)
    assert chart.height() >= view.scroll_area.viewport().height() * 0.6
    view.set_style(Style())
    assert view.chart is not None and view.chart.points[(1, "l1")][1] / TERA > 1


def test_each_line_is_named_on_the_chart(qtbot) -> None:
    view = shown(qtbot, [read_report(NAIVE), read_report(TILED)])
    chart = view.chart
    assert chart is not None
    assert set(chart.line_names) == {*LEVELS, "fp32"}
    assert chart.line_names["dram"] == "DRAM"
    assert chart.line_names["fp32"].startswith("FP32 peak")


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_in_projector_mode_the_chart_and_its_key_fit_the_view(qtbot, size) -> None:
    view = shown(qtbot, [read_report(NAIVE), read_report(TILED)], projector=True)
    view.resize(*size)

    def fits() -> None:
        chart, key = view.chart, view.key_label
        assert chart is not None and key is not None
        viewport = view.scroll_area.viewport()
        bottom = key.mapTo(viewport, key.rect().bottomLeft()).y()
        assert 0 < bottom <= viewport.height()  # axes, lines and key at once, no scrolling
        top = chart.mapTo(viewport, chart.rect().topLeft()).y()
        assert top >= 0 and chart.height() >= view.style_.px(120)

    qtbot.waitUntil(fits, timeout=5_000)  # once the layout has settled
