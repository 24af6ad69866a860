"""Every metric of a kernel with ncu's unit and description, and the full diff of the lesson's pair:
sorted by relative change, higher-is-better for the common metrics, the filter, the CSV."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import ncu_report
import pytest

from viewer.analysis import metric_table
from viewer.core.model import Kernel, merged
from viewer.readers import read_metrics, read_report
from viewer.readers.extras import Extras, read_extras

ROOT = Path(__file__).resolve().parents[2]
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
BASIC = ROOT / "tests" / "data" / "corpus" / "h200" / "workloads-kernels-and-graph.ncu-rep"


def everything(path: Path) -> tuple[Kernel, Extras]:
    """The kernel with every metric read, and what ncu says of each, as the view asks."""
    report = read_report(path)
    report.add_metrics(read_metrics(report, [0], None), None)
    return report.kernels[0], read_extras(report, [0], about=True)[0]


@pytest.fixture(scope="module")
def naive() -> tuple[Kernel, Extras]:
    return everything(NAIVE)


@pytest.fixture(scope="module")
def tiled() -> tuple[Kernel, Extras]:
    return everything(TILED)


def numeric_metrics(path: Path) -> dict[str, tuple[str, str]]:
    """Straight from ncu_report: every metric with a finite number, and its unit and
    description."""
    action = ncu_report.load_report(str(path)).range_by_idx(0).action_by_idx(0)
    kinds = ncu_report.IMetric
    numeric = {kinds.ValueKind_UINT32, kinds.ValueKind_UINT64, kinds.ValueKind_FLOAT,
               kinds.ValueKind_DOUBLE}
    out = {}
    for name in action.metric_names():
        m = action.metric_by_name(name)
        if m.has_value() and m.kind() in numeric and math.isfinite(m.as_double()):
            out[name] = (m.unit(), m.description() or "")
    return out


def test_every_metric_with_ncus_unit_and_description(naive) -> None:
    kernel, extras = naive
    rows = metric_table.rows(kernel, extras.about)
    held = numeric_metrics(NAIVE)
    assert [r.name for r in rows] == sorted(held)
    by_name = {r.name: r for r in rows}
    for name, (_, description) in held.items():
        assert (by_name[name].description or "") == description.strip(), name
    bandwidth = by_name["dram__bytes.sum.per_second"]
    assert (bandwidth.unit, bandwidth.label) == ("byte/s", "DRAM Bandwidth")
    assert bandwidth.description.startswith("# of bytes accessed in DRAM")
    assert bandwidth.value == kernel.metric("dram__bytes.sum.per_second")
    assert by_name["gpu__time_duration.sum"].unit == "ns"
    assert by_name["dram__bytes.sum.peak_sustained"].unit == "byte/cycle"
    assert sum(1 for r in rows if r.description) > 1500


def test_search_finds_by_name_label_or_description(naive) -> None:
    rows = metric_table.rows(*naive[:1], naive[1].about)
    assert "dram__bytes.sum.per_second" in {r.name for r in metric_table.search(rows, "DRAM bandw")}
    assert {r.name for r in metric_table.search(rows, "  ")} == {r.name for r in rows}
    found = metric_table.search(rows, "long_scoreboard")
    assert found and all("long_scoreboard" in r.name for r in found)


def test_an_export_has_values_and_the_table_labels_but_no_units(naive) -> None:
    [kernel] = read_report(ROOT / "profiles" / "naive.details.csv").kernels
    rows = metric_table.rows(kernel)
    assert rows and all(r.unit is None and r.description is None for r in rows)
    assert {r.name: r.label for r in rows}["gpu__time_duration.sum"] == "Duration"


def test_the_full_diff_sorted_by_relative_change(naive, tiled) -> None:
    (a, about), (b, _) = naive, tiled
    diffs = metric_table.diff(a, b, about.about)
    assert {d.name for d in diffs} == set(a.metrics) & set(b.metrics)
    sizes = [abs(d.change_pct) for d in diffs]
    assert sizes == sorted(sizes, reverse=True)
    by_name = {d.name: d for d in diffs}
    duration = by_name["gpu__time_duration.sum"]
    assert duration.change_pct == pytest.approx(100 * (43_968 - 62_848) / 62_848)
    assert (duration.higher_is_better, duration.verdict) == (False, "better")
    sectors = by_name["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
    assert sectors.ratio == pytest.approx(1 / 8, rel=0.01) and sectors.verdict == "better"
    barrier = by_name["smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"]
    assert barrier.change_pct == math.inf and barrier.verdict == "worse"  # from none to some
    assert by_name["l1tex__t_sector_hit_rate.pct"].higher_is_better is True
    assert by_name["launch__block_size"].verdict is None  # equal, and no direction
    assert by_name["dram__bytes.sum.per_second"].unit == "byte/s"


def test_the_diff_as_csv_written_whole(naive, tiled, tmp_path: Path) -> None:
    diffs = [d for d in metric_table.diff(naive[0], tiled[0], naive[1].about)
             if abs(d.change_pct) > 10.0]
    text = metric_table.diff_csv(diffs, "naive", "tiled")
    path = metric_table.write_csv(tmp_path / "diff.csv", text)
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert len(rows) == len(diffs)
    first = rows[0]
    assert first["metric"] == diffs[0].name
    assert float(first["naive"]) == diffs[0].first and float(first["tiled"]) == diffs[0].second
    row = next(r for r in rows if r["metric"] == "gpu__time_duration.sum")
    assert (row["better_when"], row["verdict"], row["unit"]) == ("lower", "better", "ns")
    with pytest.raises(FileExistsError):
        metric_table.write_csv(path, "other")
    assert metric_table.write_csv(path, "other", replace=True).read_text() == "other"
    every = list(csv.reader(io.StringIO(metric_table.rows_csv(metric_table.rows(
        naive[0], naive[1].about)))))
    assert every[0] == ["metric", "label", "unit", "value", "description"]
    assert len(every) == 1 + len(naive[0].metrics)


def test_warnings_when_the_two_do_not_compare_one_to_one(naive) -> None:
    kernel = naive[0]
    assert metric_table.provenance_warnings(kernel, kernel) == []
    other = Kernel(1, kernel.name, kernel.display_name, device_name="Tesla T4", cc="7.5",
                   metrics=merged(kernel.metrics, {
                       metric_table.SM_FREQUENCY: kernel.metric(metric_table.SM_FREQUENCY) * 0.7}))
    warnings = metric_table.provenance_warnings(kernel, other)
    assert any("different GPUs (NVIDIA H200 and Tesla T4)" in w for w in warnings)
    assert any("different SM clocks" in w for w in warnings)
    [basic] = read_report(BASIC).kernels[:1]
    [held_by_one] = metric_table.provenance_warnings(read_report(NAIVE).kernels[0], basic)
    assert "held by one kernel only" in held_by_one


def test_the_metrics_held_by_one_kernel_only_are_listed(naive, tiled) -> None:
    a, b = naive[0], tiled[0]
    only = metric_table.one_sided(a, b, naive[1].about)
    assert len(only) == len(set(a.metrics) ^ set(b.metrics)) == 21
    assert [o.name for o in only if o.side == "A"] == sorted(set(a.metrics) - set(b.metrics))
    assert [o.name for o in only if o.side == "B"] == sorted(set(b.metrics) - set(a.metrics))
    for one in only:
        kernel = a if one.side == "A" else b
        assert one.value == kernel.metric(one.name)
    assert any("21 metrics are held by one kernel only" in w
               for w in metric_table.provenance_warnings(a, b))


def test_a_hit_rate_above_100_percent_is_told_what_it_means() -> None:
    """numba-naive.ncu-rep: ncu reports lts__t_sector_op_write_hit_rate.pct at 100.04 %."""
    kernel, _ = everything(ROOT / "tests" / "data" / "corpus" / "h200" / "numba-naive.ncu-rep")
    [note] = metric_table.hit_rate_notes(metric_table.rows(kernel))
    assert note.startswith("ncu reports lts__t_sector_op_write_hit_rate.pct at 100.04 %, "
                           "above 100 %.")
    assert "different replay passes" in note and "forums.developer.nvidia.com" in note
    shipped, _ = everything(NAIVE)
    assert metric_table.hit_rate_notes(metric_table.rows(shipped)) == []  # none above 100 %
