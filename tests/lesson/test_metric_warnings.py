"""The warnings over the "Every metric" diff on the real reports: the clocks each capture ran
with and the GPUs, never the lesson's own misreads."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from viewer.lesson.metric_warnings import diff_warnings
from viewer.readers import read_report

ROOT = Path(__file__).resolve().parents[2]
NAIVE = ROOT / "profiles" / "naive.ncu-rep"
H200_TILED = ROOT / "tests" / "data" / "corpus" / "h200" / "numba-tiled.ncu-rep"


def test_two_captures_warn_of_their_clocks_not_of_the_lessons_misreads() -> None:
    reports = [read_report(NAIVE), read_report(H200_TILED)]
    texts = diff_warnings([r.kernels[0] for r in reports], ["naive", "tiled"], reports)
    assert any("clocks not locked (--clock-control none)" in t for t in texts)
    assert not any("Nsight Compute version" in t for t in texts)  # one ncu made both
    assert not any("global load requests" in t for t in texts)


def test_two_gpus_are_warned_of() -> None:
    reports = [read_report(NAIVE), read_report(H200_TILED)]
    other = dataclasses.replace(reports[1].kernels[0], device_name="Tesla T4", cc="7.5")
    texts = diff_warnings([reports[0].kernels[0], other], ["naive", "tiled"], reports)
    assert any("different GPUs" in t for t in texts)
