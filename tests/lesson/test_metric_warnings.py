"""The warnings over the "Every metric" diff on the real reports: what the compare line does not
say already (each warning said once), never the lesson's own misreads."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from viewer.lesson.metric_warnings import diff_warnings
from viewer.lesson.misreads import compare_misreads
from viewer.readers import read_report

ROOT = Path(__file__).resolve().parents[2]
NAIVE = ROOT / "profiles" / "naive.ncu-rep"
H200_TILED = ROOT / "tests" / "data" / "corpus" / "h200" / "numba-tiled.ncu-rep"


def test_the_clocks_the_compare_line_warns_of_are_not_said_again() -> None:
    reports = [read_report(NAIVE), read_report(H200_TILED)]
    kernels = [r.kernels[0] for r in reports]
    texts = diff_warnings(kernels, ["naive", "tiled"], reports)
    line = [m.text for m in compare_misreads(*kernels, *reports)]
    assert any("clocks not locked (--clock-control none)" in t for t in line)
    assert not set(texts) & set(line)
    assert not any("clock-control" in t for t in texts)
    assert not any("Nsight Compute version" in t for t in texts)  # one ncu made both
    assert not any("global load requests" in t for t in texts)


def test_two_gpus_are_warned_of_once_on_the_compare_line() -> None:
    reports = [read_report(NAIVE), read_report(H200_TILED)]
    other = dataclasses.replace(reports[1].kernels[0], device_name="Tesla T4", cc="7.5")
    kernels = [reports[0].kernels[0], other]
    texts = diff_warnings(kernels, ["naive", "tiled"], reports)
    assert [m.kind for m in compare_misreads(*kernels, *reports)].count("different-gpu") == 1
    assert not any("different GPUs" in t or "Different GPUs" in t for t in texts)


def test_what_only_the_metrics_show_is_still_said() -> None:
    """The metrics one kernel holds: the compare line does not say it."""
    reports = [read_report(NAIVE), read_report(H200_TILED)]
    a = reports[0].kernels[0]
    b = dataclasses.replace(reports[1].kernels[0], metrics={
        k: v for k, v in reports[1].kernels[0].metrics.items() if k != next(iter(a.metrics))})
    texts = diff_warnings([a, b], ["naive", "tiled"], reports)
    assert any("held by one kernel only" in t for t in texts)
