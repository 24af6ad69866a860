"""ncu's advice: rule results read through the reader's child, ranked by estimated speedup, link
markup parsed, and compared between the lesson's two kernels; on real reports."""

from __future__ import annotations

import math
import re
from pathlib import Path

import ncu_report
import pytest

from tests.many_kernels import build
from viewer.analysis import advice
from viewer.readers import read_report
from viewer.readers.extras import read_extras
from viewer.readers.ncu_rep_extras import plain

ROOT = Path(__file__).resolve().parents[2]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
REPORTS = (NAIVE, TILED, H200 / "numba-naive.ncu-rep", H200 / "numba-tiled.ncu-rep",
           H200 / "workloads-kernels-and-graph.ncu-rep")


def rules_of(path: Path) -> list[dict]:
    report = read_report(path)
    return read_extras(report, [0], rules=True)[0].rules or []


def ncus_own(path: Path) -> list[dict]:
    action = ncu_report.load_report(str(path)).range_by_idx(0).action_by_idx(0)
    return list(action.rule_results_as_dicts())


@pytest.fixture(scope="module")
def naive() -> tuple[advice.Advice, ...]:
    return advice.ranked(rules_of(NAIVE))


@pytest.fixture(scope="module")
def tiled() -> tuple[advice.Advice, ...]:
    return advice.ranked(rules_of(TILED))


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.name)
def test_the_child_hands_over_ncus_rule_results_unchanged(path: Path) -> None:
    assert rules_of(path) == plain(ncus_own(path))
    assert rules_of(path)  # every capture here carries some


def test_ranked_by_estimated_speedup(naive) -> None:
    estimates = [a.speedup_pct for a in naive if a.speedup_pct is not None]
    assert estimates == sorted(estimates, reverse=True) and len(estimates) == 8
    assert all(a.speedup_pct is None for a in naive[len(estimates):])  # no estimate: after
    top = naive[0]
    assert (top.rule, top.heading, top.kind, top.speedup_scope) == (
        "MemoryCacheAccessPattern", "L1TEX Global Load Access Pattern", "optimization", "global")
    assert top.speedup_pct == pytest.approx(34.45, abs=5e-3)  # ncu prints 34.45%
    assert top.focus[0].metric == "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"
    assert top.focus[0].value == 18.0
    local = next(a for a in naive if a.rule == "IssueSlotUtilization")
    assert local.speedup_scope == "local"  # ncu's text export prints "Est. Local Speedup"
    # Without an estimate: the optimization before the information.
    assert [a.kind for a in naive[len(estimates):]] == ["optimization", "info", "info", "info"]


def hypertext(message: str) -> str:
    """The message as ncu's own text export prints it: each link by its text."""
    message = re.sub(r"@section:[^:@]*:([^@]*)@", r"\1", message)
    return re.sub(r"@url:([^:@]*):[^@]*@", r"\1", message)


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.name)
def test_link_markup_is_parsed_never_shown_raw(path: Path) -> None:
    seen = 0
    for rule in ncus_own(path):
        message = rule.get("rule_message", {}).get("message", "")
        parts = advice.parse_message(message)
        text = advice.plain_text(parts)
        assert "@" not in text, text
        assert text == hypertext(message)
        links = re.findall(r"@(section|url):([^:@]*):([^@]*)@", message)
        for kind, first, second in links:
            if kind == "url":
                assert advice.UrlLink(first, second) in parts
            elif first in advice.SECTION_VIEWS:
                assert advice.ViewLink(second, advice.SECTION_VIEWS[first], first) in parts
        seen += len(links)
    assert seen > 0


def test_links_jump_to_our_views(naive) -> None:
    links = [p for a in naive for p in a.parts if isinstance(p, advice.ViewLink)]
    assert {(p.section, p.view) for p in links} >= {
        ("MemoryWorkloadAnalysis", "memory"), ("WarpStateStats", "stalls")}
    assert all(p.view in advice.VIEWS for p in links)
    urls = [p for a in naive for p in a.parts if isinstance(p, advice.UrlLink)]
    assert urls and all(p.url.startswith("https://docs.nvidia.com/") for p in urls)


def test_the_other_link_forms_become_text() -> None:
    parts = advice.parse_message(
        "See @sass:0x1a0:this load@ at @source:/a:b/k.cu:42:line 42@ and "
        "@section:SourceCounters:Source Counters@ or @url:guide:not-a-url@.")
    assert parts == (advice.Text("See this load at line 42 and Source Counters or guide."),)


def test_compare_says_what_went_away_and_what_changed(naive, tiled) -> None:
    changes = advice.compare(naive, tiled)
    by_status: dict[str, set[str]] = {}
    for change in changes:
        by_status.setdefault(change.status, set()).add(change.advice.heading)
    assert advice.APPEARED not in by_status
    assert {"L1TEX Global Load Access Pattern", "Long Scoreboard Stalls",
            "SMs Workload Imbalance"} <= by_status[advice.WENT_AWAY]
    assert {"Issue Slot Utilization", "Achieved Occupancy"} <= by_status[advice.CHANGED]
    issue = next(c for c in changes if c.advice.rule == "IssueSlotUtilization")
    a = next(x for x in naive if x.rule == "IssueSlotUtilization")
    b = next(x for x in tiled if x.rule == "IssueSlotUtilization")
    assert issue.speedup_change == pytest.approx(b.speedup_pct - a.speedup_pct)
    assert [c.status for c in changes] == sorted(
        (c.status for c in changes),
        key=[advice.APPEARED, advice.WENT_AWAY, advice.CHANGED, advice.SAME].index)
    # Every piece of advice of either kernel is accounted for exactly once.
    assert sum(c.first is not None for c in changes) == len(naive)
    assert sum(c.second is not None for c in changes) == len(tiled)
    backwards = advice.compare(tiled, naive)
    assert {c.advice.heading for c in backwards if c.status == advice.APPEARED} \
        == by_status[advice.WENT_AWAY]


def test_a_small_change_of_the_estimate_is_a_change(naive, tiled) -> None:
    """Low Compression Rate moves 0.29 points from naive to tiled: changed, not the same."""
    change = next(c for c in advice.compare(naive, tiled) if c.advice.rule == "MemoryL2Compression")
    assert change.speedup_change is not None and 0 < abs(change.speedup_change) < 0.5
    assert change.status == advice.CHANGED
    assert advice.compare(naive, naive)[0].status == advice.SAME  # equal: the same


def test_where_ncu_says_uncoalesced_and_the_lesson_does_not_both_are_told(naive, tiled) -> None:
    """naive.ncu-rep: ncu's 'uncoalesced global accesses' (est. 34.38 %) beside the lesson's
    reading, every number from the report: sectors per request, L2 sectors against L1 sectors,
    the L1/TEX hit rate and ncu's own bytes per sector."""
    from viewer.analysis import memory_traffic

    kernel = read_report(NAIVE).kernels[0]
    chart = memory_traffic.memory_chart(kernel)
    access = next(a for a in naive if a.rule == advice.ACCESS_PATTERN_RULE)
    text = advice.lesson_reading(access, kernel)
    assert text is not None and text.startswith("ncu and the lesson disagree here.")
    assert "16,777,216 global load sectors for 8,388,608 requests, 2.00 sectors per request" \
        in text
    assert f"Only {chart.l2_read_sectors_from_l1:,.0f} sectors were read from L2" in text
    assert f"L1/TEX Hit Rate {chart.l1tex_hit_rate_pct:.2f} %" in text
    assert f"ncu's {access.focus[0].value:.0f} bytes used per sector" in text
    others = [a for a in (*naive, *tiled) if a is not access]
    assert all(advice.lesson_reading(a, kernel) is None for a in others)


def test_each_kernel_of_a_many_kernel_report_has_its_own_advice(tmp_path: Path) -> None:
    report = read_report(build(tmp_path / "five.ncu-rep", 5))
    found = read_extras(report, range(5), rules=True)
    own = [plain(ncus_own(p)) for p in (H200 / "numba-naive.ncu-rep",
                                        H200 / "numba-tiled.ncu-rep")]
    assert [found[i].rules for i in range(5)] == [own[i % 2] for i in range(5)]


def test_an_export_holds_no_rule_results_we_read() -> None:
    report = read_report(ROOT / "profiles" / "naive.details.csv")
    assert read_extras(report, [0], rules=True)[0].rules is None
    assert ".ncu-rep" in advice.RULES_MISSING


def test_plain_json_for_the_parent() -> None:
    class Thing:
        def __str__(self) -> str:
            return "thing"

    assert plain({"a": [1, math.nan, math.inf, (2.5, None)], 3: Thing(), "b": True}) == {
        "a": [1, None, None, [2.5, None]], "3": "thing", "b": True}
    assert advice.advice_of({"rule_identifier": "X"}) is None  # no message: nothing to show
