"""Time by kernel: grouping by name on many-kernel reports built from the real captures in git
and on real multi-kernel exports, checked against a plain loop; 10,000 kernels."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.many_kernels import BASIC, build
from viewer.analysis import time_by_kernel
from viewer.core.model import Kernel
from viewer.readers import read_report

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = ROOT / "tests" / "data" / "corpus" / "ncu-public"
DURATION = time_by_kernel.DURATION


def by_loop(kernels: Sequence[Kernel], by: str = "name") -> dict[str, dict]:
    """The same grouping by a plain loop over the kernels."""
    groups: dict[str, dict] = defaultdict(lambda: {"launches": 0, "times": [], "indices": []})
    for k in kernels:
        g = groups[getattr(k, by)]
        g["launches"] += 1
        g["indices"].append(k.index)
        if k.metric(DURATION) is not None:
            g["times"].append((k.metric(DURATION), k.index))
    return groups


def check(kernels: Sequence[Kernel], by: str = "name") -> list[time_by_kernel.KernelGroup]:
    found = time_by_kernel.group_by_name(kernels, by)
    expected = by_loop(kernels, by)
    everything = sum(t for g in expected.values() for t, _ in g["times"])
    by_index = {k.index: k for k in kernels}
    assert {g.name for g in found} == set(expected)
    for group in found:
        want = expected[group.name]
        times = [t for t, _ in want["times"]]
        assert (group.launches, group.timed, group.indices) == (
            want["launches"], len(times), tuple(want["indices"]))
        if times:
            assert group.total_ns == pytest.approx(sum(times))
            assert group.mean_ns == pytest.approx(sum(times) / len(times))
            assert group.share_pct == pytest.approx(100 * sum(times) / everything)
            assert group.longest in group.indices
            assert by_index[group.longest].metric(DURATION) == max(times)
        else:
            assert group.total_ns is group.mean_ns is group.share_pct is group.longest is None
    totals = [g.total_ns for g in found if g.total_ns is not None]
    assert totals == sorted(totals, reverse=True)
    return found


def test_a_many_kernel_report_of_the_lessons_pair(tmp_path: Path) -> None:
    report = read_report(build(tmp_path / "nine.ncu-rep", 9))
    naive, tiled = check(report.kernels)
    assert (naive.name, naive.launches, tiled.name, tiled.launches) == (
        "matmul_naive", 5, "matmul_tiled", 4)
    assert naive.total_ns == 5 * 219_136 and tiled.total_ns == 4 * 47_776
    assert naive.share_pct + tiled.share_pct == pytest.approx(100.0)
    assert naive.indices == (0, 2, 4, 6, 8) and naive.longest in naive.indices


def test_a_many_kernel_basic_capture(tmp_path: Path) -> None:
    report = read_report(build(tmp_path / "seven.ncu-rep", 7, BASIC))
    scale, add = check(report.kernels)  # the larger total first
    assert (add.name, add.launches, add.total_ns) == ("add", 3, 3 * 222_208)
    assert (scale.name, scale.launches, scale.total_ns) == ("scale", 4, 4 * 213_664)
    assert report.skipped == {"graph": 2}  # graph results are not kernels: not in the time


@pytest.mark.parametrize("name", [
    "new-2025-details-3mm-multikernel-cc86.txt",
    "mid-spelling-2022-multikernel-rowsums-colsums-details.txt"])
def test_real_multi_kernel_exports(name: str) -> None:
    groups = check(read_report(PUBLIC / name).kernels)
    assert all(g.launches == 1 for g in groups)


def test_the_3mm_kernels_sorted_by_total_then_name() -> None:
    groups = time_by_kernel.group_by_name(
        read_report(PUBLIC / "new-2025-details-3mm-multikernel-cc86.txt").kernels)
    assert [(g.name, g.total_ns) for g in groups] == [
        ("mm3_kernel1", 2_570_000), ("mm3_kernel3", 2_570_000), ("mm3_kernel2", 2_530_000)]


def test_launches_without_a_duration_count_but_add_no_time() -> None:
    kernels = [Kernel(0, "a", "a", metrics={DURATION: 10.0}), Kernel(1, "b", "b"),
               Kernel(2, "a", "a"), Kernel(3, "b", "b")]
    a, b = check(kernels)
    assert (a.name, a.launches, a.timed, a.total_ns, a.share_pct) == ("a", 2, 1, 10.0, 100.0)
    assert (b.name, b.launches, b.total_ns, b.longest) == ("b", 2, None, None)
    assert time_by_kernel.report_time_ns(kernels[1:2]) is None
    assert time_by_kernel.group_by_name([]) == []


def test_ten_thousand_kernels_grouped_as_a_loop_would(tmp_path: Path) -> None:
    real = read_report(build(tmp_path / "two.ncu-rep", 2)).kernels
    names = [f"kernel_{i % 37}" for i in range(10_000)]
    kernels = [Kernel(i, names[i], f"void {names[i]}<{i % 3}>(float *)",
                      metrics=real[i % 2].metrics if i % 11 else {}) for i in range(10_000)]
    assert len(check(kernels)) == 37
    assert len(check(kernels, by="display_name")) == 37 * 3
    with pytest.raises(ValueError):
        time_by_kernel.group_by_name(kernels, by="grid")
