"""ncu's occupancy curves: instance values read through the reader's child, equal to
ncu_report's, and the kernel's own setting landing on its theoretical occupancy."""

from __future__ import annotations

from pathlib import Path

import ncu_report
import pytest

from viewer.analysis import occupancy_curves as oc
from viewer.core.model import Kernel
from viewer.readers import read_metrics, read_report
from viewer.readers.extras import Extras, read_extras

ROOT = Path(__file__).resolve().parents[2]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
THEORETICAL_WARPS = "sm__maximum_warps_avg_per_active_cycle"


def with_curves(path: Path) -> tuple[Kernel, Extras]:
    report = read_report(path)
    report.add_metrics(read_metrics(report, [0], oc.SETTING_METRICS), oc.SETTING_METRICS)
    return report.kernels[0], read_extras(report, [0], instances=oc.CURVE_METRICS)[0]


def ncus_instances(path: Path, name: str) -> list[tuple[float, float]]:
    action = ncu_report.load_report(str(path)).range_by_idx(0).action_by_idx(0)
    metric = action.metric_by_name(name)
    ids = metric.correlation_ids()
    return [(ids.as_double(i), metric.as_double(i)) for i in range(metric.num_instances())]


@pytest.mark.parametrize("path", [NAIVE, TILED, H200 / "numba-tiled.ncu-rep"],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_curves_are_ncus_instance_values(path: Path) -> None:
    kernel, extras = with_curves(path)
    curves = oc.curves(kernel, extras.instances)
    assert [c.spec.key for c in curves] == ["block_size", "registers", "shared_mem"]
    for curve in curves:
        assert list(zip(curve.xs, curve.ys, strict=True)) == sorted(
            ncus_instances(path, curve.spec.metric))


@pytest.mark.parametrize("path", [NAIVE, TILED], ids=lambda p: p.name)
def test_the_kernels_own_setting_gives_its_theoretical_occupancy(path: Path) -> None:
    kernel, extras = with_curves(path)
    theoretical = kernel.metric(THEORETICAL_WARPS)
    assert theoretical == 64
    for curve in oc.curves(kernel, extras.instances):
        assert curve.setting is not None and curve.at is not None
        assert curve.at[0] == curve.setting  # every setting here is on the curve's grid
        assert curve.at[1] == theoretical, curve.spec.key
        assert curve.best >= curve.at[1]


def test_the_tiled_kernels_shared_memory_and_the_what_if() -> None:
    kernel, extras = with_curves(TILED)
    shared = next(c for c in oc.curves(kernel, extras.instances) if c.spec.key == "shared_mem")
    assert shared.setting == 3072  # 2 KB of tiles and the driver's 1 KB
    ys = dict(zip(shared.xs, shared.ys, strict=True))
    assert ys[3072] == 64 and ys[max(shared.xs)] < 64  # more shared memory: fewer warps
    # A setting between two points is allocated as the next one up.
    between = oc.point_at(shared.xs, shared.ys, 3000.0)
    assert between == (3072.0, 64.0)
    assert oc.point_at(shared.xs, shared.ys, 1e9) is None


def test_no_curves_where_the_report_holds_none() -> None:
    kernel, extras = with_curves(H200 / "workloads-kernels-and-graph.ncu-rep")
    assert extras.instances == {} and oc.curves(kernel, extras.instances) == ()
    exported = read_report(ROOT / "profiles" / "naive.raw.csv")
    [instances] = [e.instances for e in read_extras(
        exported, [0], instances=oc.CURVE_METRICS).values()]
    assert oc.curves(exported.kernels[0], instances) == ()  # an export prints one value each
    assert ".ncu-rep" in oc.MISSING_TEXT
