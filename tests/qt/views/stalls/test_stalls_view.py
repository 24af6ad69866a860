"""Warp stalls in the window (W): the shipped --set full pair and its export, read when shown;
bars with viewer.analysis.stalls' values, sorted, one sentence each; the change between the pair;
and a basic capture's lack said plainly."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel

from viewer.analysis import stalls
from viewer.core.model import Kernel, Report
from viewer.qt.kit.object_names import is_one_of, one_of
from viewer.qt.kit.style import Style
from viewer.qt.kit.value_bar import ValueBar
from viewer.qt.views.stalls.stalls_view import (
    Names,
    StallsView,
    change_text,
    stall_text,
    value_text,
)
from viewer.readers import read_metrics, read_report

ROOT = Path(__file__).resolve().parents[4]
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
BASIC = ROOT / "tests" / "data" / "corpus" / "h200" / "workloads-kernels-and-graph.ncu-rep"
EXPORT = ROOT / "profiles" / "naive.raw.csv"


def plain(path: Path) -> stalls.Stalls:
    """viewer.analysis.stalls on a kernel read apart from the view."""
    report = read_report(path)
    report.add_metrics(read_metrics(report, [0], stalls.STALL_METRICS), stalls.STALL_METRICS)
    return stalls.stalls(report.kernels[0])


def shown(qtbot, reports: list[Report], projector: bool = False) -> StallsView:
    view = StallsView(Style(projector))
    qtbot.addWidget(view)
    view.show()
    view.set_kernels([r.kernels[0] for r in reports], None, reports)
    qtbot.waitUntil(lambda: view.ready and not view.loading, timeout=60_000)
    return view


def bars(view: StallsView) -> list[ValueBar]:
    return [b for b in view.findChildren(ValueBar) if is_one_of(b.objectName(), Names.BAR)]


@pytest.mark.parametrize("path", [NAIVE, EXPORT], ids=lambda p: p.name)
def test_the_bars_are_the_plain_layers_sorted_with_a_sentence_each(qtbot, path: Path) -> None:
    report = read_report(path)
    kernel: Kernel = report.kernels[0]
    if path.suffix == ".ncu-rep":
        assert kernel.unread(stalls.STALL_METRICS)  # the first read left them out
    view = shown(qtbot, [report])
    expected = plain(path)
    assert not expected.empty
    shown_bars = {b.objectName(): b for b in bars(view)}
    assert list(shown_bars) == [one_of(Names.BAR, s.reason.key) for s in expected.stalls]
    values = [shown_bars[one_of(Names.BAR, s.reason.key)].value for s in expected.stalls]
    assert values == pytest.approx([s.cycles_per_instruction for s in expected.stalls],
                                   rel=1e-6)
    assert values == sorted(values, reverse=True)
    assert shown_bars[one_of(Names.BAR, "long_scoreboard")].text == stall_text(expected.stalls[0])
    for stall in expected.stalls:
        sentence = view.findChild(QLabel, one_of(Names.SENTENCE, stall.reason.key)).text()
        assert stall.reason.meaning[1:] in sentence and stall.advice[1:] in sentence
    assert f"{expected.cycles_per_instruction:.2f}" in view.findChild(QLabel, Names.TOTAL).text()


def test_compare_shows_the_change(qtbot) -> None:
    view = shown(qtbot, [read_report(NAIVE), read_report(TILED)])
    changes = stalls.compare(plain(NAIVE), plain(TILED))
    assert changes and changes[0].by == "cycles"
    for change in changes:
        key = change.reason.key
        assert view.findChild(QLabel, one_of(Names.CHANGE, key)).text() == change_text(change)
        first = view.findChild(ValueBar, one_of(Names.BAR, key, 1))
        second = view.findChild(ValueBar, one_of(Names.BAR, key, 2))
        assert (first.value, second.value) == (change.first, change.second)
        assert second.text == value_text(change.second, "cycles")
    total = view.findChild(QLabel, Names.TOTAL).text()
    a, b = (plain(p).cycles_per_instruction for p in (NAIVE, TILED))
    assert f"A {a:.2f}, B {b:.2f} ({b - a:+.2f})" in total


def test_a_basic_capture_says_what_it_lacks(qtbot) -> None:
    view = shown(qtbot, [read_report(BASIC)])
    missing = view.findChild(QLabel, Names.MISSING).text()
    assert "--set full" in missing and "no warp stall" in missing
    assert not bars(view)
    both = shown(qtbot, [read_report(NAIVE), read_report(BASIC)])
    missing = both.findChild(QLabel, Names.MISSING).text()
    assert "no warp stall" in missing and missing.startswith(both.names[1] + ":")
    assert bars(both)  # the full capture's own bars still stand


def test_projector_mode_is_larger(qtbot) -> None:
    view = shown(qtbot, [read_report(NAIVE)], projector=True)
    assert view.findChild(QLabel, Names.TOTAL).font().pointSizeF() >= 20
    sentence = view.findChild(QLabel, one_of(Names.SENTENCE, "long_scoreboard"))
    assert sentence.font().pointSizeF() >= 20


def test_a_change_that_rounds_to_nothing_is_a_plain_zero(qtbot) -> None:
    """naive -> tiled: Stall Drain moves by less than 0.005 cycles, downwards."""
    view = shown(qtbot, [read_report(NAIVE), read_report(TILED)])
    tiny = [c for c in stalls.compare(plain(NAIVE), plain(TILED))
            if c.change is not None and -0.005 < c.change < 0]
    assert {c.reason.key for c in tiny} >= {"drain"}
    for change in tiny:
        change_label = view.findChild(QLabel, one_of(Names.CHANGE, change.reason.key))
        assert change_label.text() == "0.00 cycles"
    texts = [label.text() for label in view.findChildren(QLabel)]
    texts += [b.text for b in bars(view)]
    assert not [t for t in texts if "-0.00" in t]
