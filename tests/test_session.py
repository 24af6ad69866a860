"""The session that owns what is read of the open reports: what a view needs and lacks, asks of
one report merged into one read, the answers taken in for every view, exports never read again,
and a file that changed since its first read answered with its one-line error."""

from __future__ import annotations

import copy
import shutil
from functools import cache
from pathlib import Path

import pytest

from viewer.analysis import occupancy_curves as oc
from viewer.analysis import roofline, stalls
from viewer.core.model import Report
from viewer.readers import read_metrics, read_report
from viewer.readers.extras import read_extras
from viewer.session import KEEP_REPORTS, NOTHING, Need, ReportSession, read

ROOT = Path(__file__).resolve().parent.parent
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
EXPORT = ROOT / "profiles" / "naive.raw.csv"
STALLS = Need.of(stalls.STALL_METRICS)
ROOFLINE = Need.of(roofline.ROOFLINE_METRICS)
RULES = Need.of(rules=True)
CURVES = Need.of(oc.SETTING_METRICS, instances=oc.CURVE_METRICS)


@cache
def _first_read(path: Path) -> Report:
    return read_report(path)


def opened(path: Path) -> Report:
    """What read_report(path) gives, a new object each call: the session knows a report by the
    object, so each is one it has not seen. The file is read once for all the tests here (each
    read of a .ncu-rep is a child process); the copy keeps the first one unchanged."""
    return copy.deepcopy(_first_read(path))


def test_needs_merge_and_subtract() -> None:
    both = STALLS | RULES
    assert both.rules and both.metrics == frozenset(stalls.STALL_METRICS)
    assert (both - RULES) == STALLS and (both - both).empty
    assert (STALLS | Need.of(None)).metrics is None  # every metric covers any names
    assert (STALLS - Need.of(None)).empty and not (Need.of(None) - STALLS).empty
    assert NOTHING.empty and not RULES.empty


def test_what_a_kernel_lacks_is_what_its_first_read_left_out() -> None:
    report = opened(NAIVE)
    kernel = report.kernels[0]
    session = ReportSession()
    lacking = session.lacks(report, kernel, STALLS)
    assert lacking.metrics == frozenset(kernel.unread(stalls.STALL_METRICS)) and lacking.metrics
    assert session.lacks(report, kernel, RULES) == RULES


def test_an_export_lacks_nothing_and_holds_no_rules() -> None:
    report = opened(EXPORT)
    session = ReportSession()
    kernel = report.kernels[0]
    for need in (STALLS, RULES, CURVES, Need.of(None, about=True)):
        assert session.lacks(report, kernel, need).empty
    assert session.plan([(report, kernel, RULES | STALLS)]) == []
    assert session.extras(report, kernel).rules is None


def test_two_views_asking_of_one_report_make_one_ask_and_a_second_plan_asks_nothing() -> None:
    naive, tiled = opened(NAIVE), opened(TILED)
    session = ReportSession()
    asks = session.plan([(naive, naive.kernels[0], STALLS), (naive, naive.kernels[0], RULES),
                         (tiled, tiled.kernels[0], ROOFLINE)])
    assert [(a.report, a.indices) for a in asks] == [(naive, (0,)), (tiled, (0,))]
    assert asks[0].need.rules and asks[0].need.metrics == session.lacks(
        naive, naive.kernels[0], STALLS).metrics
    assert session.reading(naive, naive.kernels[0])
    assert session.plan([(naive, naive.kernels[0], STALLS | RULES)]) == []  # being read
    session.drop(asks)
    assert not session.reading(naive, naive.kernels[0])
    assert len(session.plan([(naive, naive.kernels[0], STALLS)])) == 1  # asked again


def test_the_answers_are_what_the_readers_read_and_every_need_is_then_met() -> None:
    report = opened(NAIVE)
    kernel = report.kernels[0]
    session = ReportSession()
    asks = session.plan([(report, kernel, STALLS | RULES | CURVES)])
    session.take(asks, read(asks))
    for need in (STALLS, RULES, CURVES):
        assert session.lacks(report, kernel, need).empty
    assert not session.reading(report, kernel) and session.error(report) is None
    apart = opened(NAIVE)
    values = read_metrics(apart, [0], stalls.STALL_METRICS)[0]
    assert {n: kernel.metric(n) for n in values} == pytest.approx(dict(values))
    extras = read_extras(apart, [0], rules=True, instances=oc.CURVE_METRICS)[0]
    held = session.extras(report, kernel)
    assert held.rules == extras.rules and held.rules
    assert held.instances == extras.instances and held.instances


def test_extras_read_apart_are_kept_together() -> None:
    report = opened(NAIVE)
    kernel = report.kernels[0]
    session = ReportSession()
    for need in (RULES, Need.of(instances=oc.CURVE_METRICS)):
        asks = session.plan([(report, kernel, need)])
        session.take(asks, read(asks))
    held = session.extras(report, kernel)
    assert held.rules and held.instances
    assert session.plan([(report, kernel, RULES | Need.of(instances=oc.CURVE_METRICS))]) == []


def test_a_file_changed_since_its_first_read_answers_its_error_and_is_not_asked_again(
        tmp_path: Path) -> None:
    path = tmp_path / "naive.ncu-rep"
    shutil.copyfile(NAIVE, path)
    report = read_report(path)
    shutil.copyfile(TILED, path)  # rewritten after the first read
    session = ReportSession()
    asks = session.plan([(report, report.kernels[0], STALLS)])
    session.take(asks, read(asks))
    error = session.error(report)
    assert error is not None and str(path) in error and "\n" not in error
    assert session.plan([(report, report.kernels[0], STALLS)]) == []
    assert session.lacks(report, report.kernels[0], STALLS).empty


def test_open_forgets_what_was_read_of_reports_no_longer_open() -> None:
    naive, tiled = opened(NAIVE), opened(TILED)
    session = ReportSession()
    session.open([naive, tiled])
    asks = session.plan([(naive, naive.kernels[0], RULES)])
    session.take(asks, read(asks))
    assert session.extras(naive, naive.kernels[0]).rules
    session.open([tiled])
    assert session.extras(naive, naive.kernels[0]).rules is None
    assert session.reports == [tiled]


def test_what_was_read_of_reports_not_open_is_kept_for_the_newest_few_only() -> None:
    naive = opened(NAIVE)
    session = ReportSession()
    asks = session.plan([(naive, naive.kernels[0], RULES)])
    session.take(asks, read(asks))
    for _ in range(KEEP_REPORTS - 1):
        other = opened(NAIVE)
        session.plan([(other, other.kernels[0], RULES)])
    assert session.extras(naive, naive.kernels[0]).rules  # within the bound: kept
    for _ in range(2):
        copy = opened(NAIVE)
        session.plan([(copy, copy.kernels[0], RULES)])
    assert session.extras(naive, naive.kernels[0]).rules is None  # the oldest, forgotten


SOURCE = Need.of(source=True)
BASIC = ROOT / "tests" / "data" / "corpus" / "h200" / "workloads-kernels-and-graph.ncu-rep"


def test_the_source_counters_are_read_once_kept_per_kernel_and_merged_with_other_needs() -> None:
    from viewer.readers.source import read_source

    report = opened(NAIVE)
    kernel = report.kernels[0]
    session = ReportSession()
    assert session.lacks(report, kernel, SOURCE) == SOURCE
    assert session.source(report, kernel) is None
    asks = session.plan([(report, kernel, SOURCE), (report, kernel, RULES)])
    assert len(asks) == 1 and asks[0].need.source and asks[0].need.rules
    session.take(asks, read(asks))
    found = session.source(report, kernel)
    apart = read_source(NAIVE)
    assert found is not None and [f.instructions for f in found] == [apart[0].instructions]
    assert session.lacks(report, kernel, SOURCE).empty and session.extras(report, kernel).rules
    assert session.plan([(report, kernel, SOURCE | RULES)]) == []  # nothing read twice
    assert (SOURCE | RULES) - RULES == SOURCE and not SOURCE.empty and not SOURCE.extras


def test_each_kernel_of_a_report_gets_its_own_functions() -> None:
    report = opened(BASIC)
    session = ReportSession()
    first, second = report.kernels[:2]
    asks = session.plan([(report, first, SOURCE)])
    session.take(asks, read(asks))
    found = session.source(report, first)
    assert found and all(f.position == first.position for f in found)
    assert not any(f.has_counters for f in found)  # a basic set: no source counters
    assert session.source(report, second) is None  # not asked: not read
    asks = session.plan([(report, second, SOURCE)])
    session.take(asks, read(asks))
    found = session.source(report, second)
    assert found and all(f.position == second.position for f in found)


def test_an_export_is_never_read_for_source_counters() -> None:
    report = opened(EXPORT)
    session = ReportSession()
    assert session.lacks(report, report.kernels[0], SOURCE).empty
    assert session.plan([(report, report.kernels[0], SOURCE)]) == []
    assert session.source(report, report.kernels[0]) is None


def test_a_failed_source_read_is_kept_apart_and_stops_no_other_need(tmp_path: Path,
                                                                      monkeypatch) -> None:
    from viewer import session as session_module
    from viewer.core.model import ReportError

    def refuse(path, job=None, *, positions=None):
        raise ReportError(path, "the source counters reader crashed")

    monkeypatch.setattr(session_module, "read_source", refuse)
    report = opened(NAIVE)
    kernel = report.kernels[0]
    session = ReportSession()
    asks = session.plan([(report, kernel, SOURCE | STALLS)])
    session.take(asks, read(asks))
    assert session.error(report) is None and session.lacks(report, kernel, STALLS).empty
    assert "crashed" in (session.source_error(report) or "")
    assert session.source(report, kernel) == () and session.lacks(report, kernel, SOURCE).empty
