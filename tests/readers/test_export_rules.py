"""ncu's rule results as a details text export prints them: read into Kernel.rules in
ncu_report's shape, answered by the session as the export's extras, ranked as the .ncu-rep's are,
and shown in the advice view. Compared with the .ncu-rep the export was printed from."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFrame, QLabel

from viewer.analysis import advice
from viewer.qt.kit.object_names import is_one_of
from viewer.qt.kit.style import Style
from viewer.qt.views.advice.advice_view import AdviceView, Names
from viewer.readers import read_report
from viewer.readers.extras import read_extras
from viewer.session import ReportSession

H200 = Path(__file__).resolve().parents[1] / "data" / "corpus" / "h200"
_TYPE_LINE = re.compile(r"(?m)^ +(INF|OPT|WRN|ERR)   ")
_SPEEDUP = re.compile(r"Est\. (Local )?Speedup: ([0-9.]+)%")
_URL = re.compile(r" \(https?://[^)]*\)")


def plain(text: str) -> str:
    return " ".join(_URL.sub("", text).split())


@pytest.mark.parametrize("stem", ["numba-naive", "numba-tiled"])
def test_every_rule_block_is_read_with_its_type_and_estimate(stem: str) -> None:
    text = (H200 / f"{stem}.details.txt").read_text(encoding="utf-8")
    [kernel] = read_report(H200 / f"{stem}.details.txt").kernels
    assert kernel.rules is not None
    found = advice.ranked(kernel.rules)
    kinds = {"INF": "info", "OPT": "optimization", "WRN": "warning", "ERR": "error"}
    assert Counter(a.kind for a in found) == Counter(kinds[t] for t in _TYPE_LINE.findall(text))
    printed = Counter((float(pct), "local" if local else "global")
                      for local, pct in _SPEEDUP.findall(text))
    assert printed
    assert Counter((a.speedup_pct, a.speedup_scope) for a in found
                   if a.speedup_pct is not None) == printed
    estimates = [a.speedup_pct for a in found if a.speedup_pct is not None]
    assert estimates == sorted(estimates, reverse=True)


@pytest.mark.parametrize("stem", ["numba-naive", "numba-tiled"])
def test_the_rules_say_what_the_ncu_reps_say(stem: str) -> None:
    export = advice.ranked(read_report(H200 / f"{stem}.details.txt").kernels[0].rules or [])
    report = read_report(H200 / f"{stem}.ncu-rep")
    own = advice.ranked(read_extras(report, [0], rules=True)[0].rules or [])
    assert sorted(plain(a.text) for a in export) == sorted(plain(a.text) for a in own)
    assert [(a.kind, a.speedup_scope) for a in export] == [(a.kind, a.speedup_scope)
                                                           for a in own]
    for a, b in zip(export, own, strict=True):
        if b.speedup_pct is not None:
            assert a.speedup_pct == pytest.approx(b.speedup_pct, rel=5e-3)


def test_the_session_answers_an_exports_rules_and_units() -> None:
    report = read_report(H200 / "numba-naive.details.txt")
    [kernel] = report.kernels
    extras = ReportSession().extras(report, kernel)
    assert extras.rules == kernel.rules and extras.rules
    elapsed = "gpc__cycles_elapsed.max"
    assert (extras.about[elapsed].unit, extras.about[elapsed].label) == ("cycle",
                                                                        "Elapsed Cycles")
    assert extras.about["gpu__time_duration.sum"].base_unit == "ns"


def test_an_export_that_prints_no_rules_holds_none() -> None:
    [kernel] = read_report(H200 / "numba-naive.raw.txt").kernels
    assert kernel.rules is None
    [kernel] = read_report(H200 / "numba-naive.details.csv").kernels
    assert kernel.rules is None


def test_the_advice_view_shows_an_exports_rules(qtbot) -> None:
    report = read_report(H200 / "numba-naive.details.txt")
    view = AdviceView(Style(False))
    qtbot.addWidget(view)
    view.show()
    view.set_kernels([report.kernels[0]], None, [report])
    qtbot.waitUntil(lambda: view.ready, timeout=60_000)
    cards = [c for c in view.findChildren(QFrame) if is_one_of(c.objectName(), Names.ADVICE)]
    assert len(cards) == len(report.kernels[0].rules or [])
    assert view.findChild(QLabel, Names.MISSING) is None
    estimates = " ".join(c.findChild(QLabel, Names.ESTIMATE).text() for c in cards)
    text = (H200 / "numba-naive.details.txt").read_text(encoding="utf-8")
    top = max(_SPEEDUP.findall(text), key=lambda found: float(found[1]))[1]
    assert top in estimates
