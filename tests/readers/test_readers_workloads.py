"""Results that are not kernels (a CUDA graph profiled whole, profiler ranges) are passed over and
counted, in a .ncu-rep (ncu_report's workload type) and in its exports (ncu's names for them).

tests/data/corpus/h200/workloads-*: benchmarks/workloads.cu captured on an H200 with ncu
2025.3.1, `--set basic`: two plain kernels then two launches of a two-kernel graph with
`--graph-profiling graph`, and two cudaProfilerStart/Stop ranges with `--replay-mode range`.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest

from viewer.core.model import ReportError
from viewer.readers import read_metrics, read_report

H200 = Path(__file__).resolve().parents[1] / "data" / "corpus" / "h200"
GRAPH = "workloads-kernels-and-graph"
RANGES = "workloads-ranges"
EXPORTS = ("ncu-rep", "details.csv", "details.txt")


@pytest.mark.parametrize("ext", EXPORTS)
def test_graph_launches_are_skipped_and_counted(ext: str) -> None:
    report = read_report(H200 / f"{GRAPH}.{ext}")
    assert [(k.index, k.name, k.grid, k.block) for k in report.kernels] == [
        (0, "scale", (4096, 1, 1), (256, 1, 1)), (1, "add", (4096, 1, 1), (256, 1, 1))]
    assert (report.skipped, report.skipped_count) == ({"graph": 2}, 2)
    # Each kernel keeps its own values: the graphs' never land on the kernel before them.
    durations = [k.metric("gpu__time_duration.sum") for k in report.kernels]
    assert durations == pytest.approx([213_664, 222_208], abs=5)


@pytest.mark.parametrize("ext", EXPORTS)
def test_a_report_of_ranges_holds_no_kernel_and_says_what_it_holds(ext: str) -> None:
    path = H200 / f"{RANGES}.{ext}"
    with pytest.raises(ReportError) as caught:
        read_report(path)
    assert str(caught.value) == f"{path}: no kernel found: it holds 2 ranges, which are not kernels"


def test_a_kernel_read_later_is_found_by_its_place_among_all_results(tmp_path: Path) -> None:
    """Kernel #0 of a report whose first result was skipped is the file's result #1: reading more
    of kernel #0 reads result #1. (The four-kernel report of tests/readers/test_ncu_rep.py, its
    first kernel taken for a skipped result.)"""
    path = tmp_path / "four.ncu-rep"
    make_big_csv().write_big_report(path, 4)
    report = read_report(path)
    report.kernels = [dataclasses.replace(k, index=i) for i, k in enumerate(report.kernels[1:])]
    report.skipped = {"graph": 1}
    name = "smsp__inst_executed.sum"
    found = read_metrics(report, [0, 1], [name])
    tiled = read_report(H200 / "numba-tiled.ncu-rep").kernels[0]
    naive = read_report(H200 / "numba-naive.ncu-rep").kernels[0]
    assert sorted(found) == [0, 1]
    assert (found[0][name], found[1][name]) == (
        _every(H200 / "numba-tiled.ncu-rep")[name], _every(H200 / "numba-naive.ncu-rep")[name])
    assert (report.kernels[0].name, report.kernels[1].name) == (tiled.name, naive.name)


def _every(path: Path) -> dict[str, float]:
    from viewer.readers import ncu_rep

    return dict(ncu_rep.read(path, names=None).kernels[0].metrics)


def make_big_csv():
    """benchmarks/make_big_csv.py, the builder of many-kernel reports."""
    spec = importlib.util.spec_from_file_location(
        "make_big_csv", Path(__file__).resolve().parents[2] / "benchmarks" / "make_big_csv.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
