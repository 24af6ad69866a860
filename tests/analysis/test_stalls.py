"""Warp stalls on the lesson's pair: the values ncu holds, the totals ncu's own advice quotes, the
change from naive to tiled, and what a `--set basic` capture lacks."""

from __future__ import annotations

import re
from pathlib import Path

import ncu_report
import pytest

from viewer.analysis import advice, stalls
from viewer.core.model import Kernel, Report
from viewer.readers import read_metrics, read_report
from viewer.readers.extras import read_extras

ROOT = Path(__file__).resolve().parents[2]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
RATIO = re.compile(r"^smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio$")


def with_stall_metrics(path: Path) -> Report:
    report = read_report(path)
    report.add_metrics(read_metrics(report, range(len(report.kernels)), stalls.STALL_METRICS),
                       stalls.STALL_METRICS)
    return report


@pytest.fixture(scope="module")
def naive() -> Kernel:
    return with_stall_metrics(NAIVE).kernels[0]


@pytest.fixture(scope="module")
def tiled() -> Kernel:
    return with_stall_metrics(TILED).kernels[0]


def ncu_values(path: Path) -> dict[str, float]:
    action = ncu_report.load_report(str(path)).range_by_idx(0).action_by_idx(0)
    return {m.group(1): action.metric_by_name(name).as_double()
            for name in action.metric_names() if (m := RATIO.match(name))}


@pytest.mark.parametrize("path", [NAIVE, TILED, H200 / "numba-naive.ncu-rep"],
                         ids=lambda p: p.name)
def test_every_reason_the_full_set_carries_is_named_and_read(path: Path) -> None:
    held = ncu_values(path)
    assert set(held) <= {r.key for r in stalls.REASONS}, "a reason without a sentence"
    found = stalls.stalls(with_stall_metrics(path).kernels[0])
    assert {s.reason.key: s.cycles_per_instruction for s in found.stalls} == held
    shares = [s.share_pct for s in found.stalls]
    assert shares == sorted(shares, reverse=True)
    # Together they make up ncu's "Warp Cycles Per Issued Instruction".
    assert sum(held.values()) == pytest.approx(found.cycles_per_instruction, rel=0.01)


def test_the_top_stall_is_what_ncus_own_advice_quotes(naive: Kernel) -> None:
    """ncu's CPIStall rule: "each warp ... spends 15.9 cycles being stalled waiting for a
    scoreboard dependency on a L1TEX ... about 53.6% of the total average of 29.6 cycles"."""
    rules = read_extras(read_report(NAIVE), [0], rules=True)[0].rules or []
    quote = next(a.text for a in advice.ranked(rules) if a.title == "Long Scoreboard Stalls")
    cycles, share, total = (float(x) for x in re.search(
        r"spends ([\d.]+) cycles.*about ([\d.]+)% of the total average of ([\d.]+) cycles",
        quote).groups())
    found = stalls.stalls(naive)
    top = stalls.top(found, 1)[0]
    assert top.reason.key == "long_scoreboard"
    assert round(top.cycles_per_instruction, 1) == cycles
    assert round(top.share_pct, 1) == share
    assert round(found.cycles_per_instruction, 1) == total
    assert "L1TEX" in top.sentence and "shared memory" in top.sentence


def test_tiling_trades_long_scoreboard_for_barrier_and_mio(naive: Kernel, tiled: Kernel) -> None:
    changes = stalls.compare(stalls.stalls(naive), stalls.stalls(tiled))
    assert all(c.by == "cycles" for c in changes)
    assert changes[0].reason.key == "long_scoreboard" and changes[0].change < -9
    by_key = {c.reason.key: c for c in changes}
    assert by_key["barrier"].first == 0 and by_key["barrier"].second > 3
    assert by_key["mio_throttle"].change > 4
    sizes = [abs(c.change) for c in changes if c.change is not None]
    assert sizes == sorted(sizes, reverse=True)


def test_a_basic_capture_has_none_and_says_which_sections_would() -> None:
    for kernel in with_stall_metrics(H200 / "workloads-kernels-and-graph.ncu-rep").kernels:
        found = stalls.stalls(kernel)
        assert found.empty and found.cycles_per_instruction is None
    assert "WarpStateStats" in stalls.MISSING_TEXT and "--set full" in stalls.MISSING_TEXT


def test_the_raw_page_export_gives_the_same_stalls(naive: Kernel) -> None:
    [printed] = read_report(ROOT / "profiles" / "naive.raw.csv").kernels
    a, b = stalls.stalls(naive), stalls.stalls(printed)
    assert [s.reason.key for s in a.stalls] == [s.reason.key for s in b.stalls]
    for x, y in zip(a.stalls, b.stalls, strict=True):
        assert y.cycles_per_instruction == pytest.approx(x.cycles_per_instruction, abs=1e-6)


def test_sampled_counts_alone_give_shares_of_the_samples(naive: Kernel) -> None:
    sampled = {r.sampled_metric: naive.metric(r.sampled_metric) for r in stalls.REASONS
               if naive.metric(r.sampled_metric) is not None}
    kernel = Kernel(0, "k", "k", metrics=sampled)
    found = stalls.stalls(kernel)
    assert all(s.cycles_per_instruction is None for s in found.stalls)
    assert found.stalls[0].reason.key == "long_scoreboard"
    assert found.stalls[0].samples == 5101
    assert found.stalls[0].share_pct == pytest.approx(100 * 5101 / sum(sampled.values()))
    assert sum(s.share_pct for s in found.stalls) == pytest.approx(100.0)


def test_long_scoreboard_on_coalesced_loads_names_what_is_left(naive: Kernel,
                                                                tiled: Kernel) -> None:
    """The lesson: both matmuls are already coalesced (2 and 4 sectors per request), so
    "coalesce the loads" is the wrong advice; what is left is the number of loads and reuse."""
    for kernel, ratio, requests in ((naive, "2.00", "8,388,608"), (tiled, "4.00", "524,288")):
        stall = stalls.stalls(kernel).get("long_scoreboard")
        assert stall is not None
        assert "coalesce the loads" not in stall.sentence
        assert f"already coalesced: {ratio} sectors per request" in stall.sentence
        assert f"({requests} global load requests)" in stall.sentence
    change = next(c for c in stalls.compare(stalls.stalls(naive), stalls.stalls(tiled))
                  if c.reason.key == "long_scoreboard")
    assert "coalesce the loads" not in change.advice
