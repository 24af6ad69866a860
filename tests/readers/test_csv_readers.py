"""The details CSV (12, 15 and 20 columns) and raw page CSV readers, on real exports.

Expected values are read by eye from the files (and the matching .details.txt) and converted to
base units by hand: 219.14 us is 219,140 ns, 2.10 Mbyte is 2,100,000 bytes.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from viewer.core.metrics import SUMMARY_METRICS, resolve
from viewer.core.model import ReportError
from viewer.core.units import unit_scale
from viewer.readers import details_csv, raw_csv, read_report

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"
H200 = CORPUS / "h200"
PUBLIC = CORPUS / "ncu-public"
V100_2020 = PUBLIC / "old-spelling-2020-csv-sm-pct-memory-pct-v100-hotspot.csv"
COPY_2025 = PUBLIC / "new-2025-csv-details-with-rule-columns-base-units-copy-blocked.csv"

RULE_COLUMNS = ("Rule Name", "Rule Type", "Rule Description", "Estimated Speedup Type",
                "Estimated Speedup")


def csv_rows(path: Path) -> list[list[str]]:
    with path.open(newline="") as f:
        return list(csv.reader(f))


# ----------------------------------------------------------------- details CSV, 20 columns


def test_h200_naive_20_columns() -> None:
    [k] = details_csv.read(H200 / "numba-naive.details.csv").kernels
    assert (k.index, k.name) == (0, "matmul_naive")
    assert k.display_name.startswith("matmul_naive[v1,cw51cXTLSUwv1sDUaKthqaNgoKmjgOR3W3Cw6")
    assert k.display_name.endswith("Array<float, 2, C, mutable, aligned>)")
    assert (k.grid, k.block, k.device_id, k.device_name, k.cc) == (
        (32, 32, 1), (16, 16, 1), 0, None, "9.0")
    m = k.metric
    assert m("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 8_388_608
    assert m("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 16_777_216
    assert m("gpu__time_duration.sum") == pytest.approx(219_140)
    assert m("dram__bytes_read.sum") == pytest.approx(2_100_000)
    assert m("dram__bytes_write.sum") == 0
    assert m("dram__cycles_elapsed.avg.per_second") == pytest.approx(3.20e9)
    assert m("gpc__cycles_elapsed.max") == 433_757
    assert m("sm__cycles_active.avg") == pytest.approx(413_147.02)
    assert m("sm__throughput.avg.pct_of_peak_sustained_elapsed") == pytest.approx(67.17)
    # "Memory Throughput" twice: a percent in Speed Of Light, bytes/s in Memory Workload Analysis.
    assert m("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed") == 21.79
    assert m("dram__bytes.sum.per_second") == pytest.approx(9.60e9)
    assert m("l1tex__t_sector_hit_rate.pct") == 87.96
    assert m("lts__t_sector_hit_rate.pct") == 92.78
    assert m("sm__maximum_warps_per_active_cycle_pct") == 100
    assert m("sm__warps_active.avg.pct_of_peak_sustained_active") == 60.24
    assert m("launch__occupancy_limit_registers") == 8
    assert m("launch__registers_per_thread") == 28
    assert m("launch__grid_size") == 1024
    assert m("launch__thread_count") == 262_144
    assert m("launch__shared_mem_config_size") == pytest.approx(32_770)


def test_missing_is_absent_not_zero() -> None:
    [k] = details_csv.read(H200 / "numba-naive.details.csv").kernels
    assert "smsp__sass_inst_executed_op_shared_ld.sum" not in k.metrics
    assert k.metric("smsp__sass_inst_executed_op_shared_ld.sum") is None
    assert all(isinstance(v, float) for v in k.metrics.values())


def test_only_resolved_labels_become_metrics() -> None:
    """Rule rows, unknown labels and text values ('PolicySpread') leave nothing behind."""
    [k] = details_csv.read(H200 / "numba-naive.details.csv").kernels
    assert all("__" in name for name in k.metrics)
    assert len(k.metrics) == 38


def test_h200_tiled_20_columns() -> None:
    [k] = details_csv.read(H200 / "numba-tiled.details.csv").kernels
    assert k.name == "matmul_tiled"
    assert k.metric("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 524_288
    assert k.metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 2_097_152
    assert k.metric("gpu__time_duration.sum") == pytest.approx(47_780)
    assert k.metric("launch__shared_mem_per_block_static") == pytest.approx(2_050)


def test_2025_copy_blocked_thousands_separators_and_base_units() -> None:
    [k] = details_csv.read(COPY_2025).kernels
    assert (k.name, k.grid, k.block, k.device_id, k.device_name, k.cc) == (
        "copy_blocked", (1024, 1, 1), (256, 1, 1), 0, None, "7.5")
    assert k.metric("dram__cycles_elapsed.avg.per_second") == pytest.approx(4_963_609_951.19)
    assert k.metric("gpc__cycles_elapsed.max") == 12_319_469
    assert k.metric("gpu__time_duration.sum") == 21_058_944
    assert k.metric("dram__bytes.sum.per_second") == pytest.approx(196_456_177_859.63)
    assert k.metric("sm__cycles_active.avg") == pytest.approx(12_217_197.85)
    assert k.metric("launch__occupancy_limit_warps") == 4
    assert k.metric("launch__shared_mem_config_size") == 32_768


# ----------------------------------------------------------------- details CSV, 12 columns


def test_2020_v100_12_columns_old_labels_after_program_output() -> None:
    [k] = details_csv.read(V100_2020).kernels
    assert (k.index, k.name, k.display_name) == (0, "calculate_temp", "calculate_temp")
    assert (k.grid, k.block, k.device_id, k.device_name, k.cc) == (None, None, None, None, None)
    m = k.metric
    assert m("sm__throughput.avg.pct_of_peak_sustained_elapsed") == 3.67  # SM [%]
    memory_pct = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"
    assert m(memory_pct) == 3.36  # Memory [%]
    assert m("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed") == 3.36  # SOL FB
    assert m("l1tex__throughput.avg.pct_of_peak_sustained_active") == 7.32  # SOL TEX
    assert m("lts__throughput.avg.pct_of_peak_sustained_elapsed") == 0.96  # SOL L2
    assert m("gpu__time_duration.sum") == 6624  # 6624 nsecond
    assert m("dram__cycles_elapsed.avg.per_second") == pytest.approx(627_415_458.94)
    assert m("dram__bytes.sum.per_second") == pytest.approx(21_608_695_652.17)
    assert m("l1tex__t_sector_hit_rate.pct") == 0  # printed 0: present, zero
    assert m("sm__maximum_warps_per_active_cycle_pct") == 75
    assert m("sm__warps_active.avg.pct_of_peak_sustained_active") == 12.35
    assert [m(f"launch__occupancy_limit_{x}") for x in ("blocks", "registers", "shared_mem",
                                                        "warps")] == [32, 6, 32, 8]
    assert m("launch__shared_mem_per_block_static") == 3072


# ----------------------------------------------------------------- details CSV, 15 columns


def fifteen_column_copy(source: Path, out: Path) -> Path:
    """The 15-column layout (no rule columns), made from a real 20-column export by dropping
    the five rule columns and the rule rows, whose only content those columns were."""
    header, *rows = csv_rows(source)
    keep = [i for i, name in enumerate(header) if name not in RULE_COLUMNS]
    assert len(keep) == 15
    label = header.index("Metric Name")
    with out.open("w", newline="") as f:
        writer = csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\n")
        writer.writerow([header[i] for i in keep])
        writer.writerows([row[i] for i in keep] for row in rows if row[label])
    return out


@pytest.mark.parametrize("name", ["numba-naive", "numba-tiled"])
def test_15_columns_read_as_the_20_column_original(tmp_path: Path, name: str) -> None:
    source = H200 / f"{name}.details.csv"
    fifteen = fifteen_column_copy(source, tmp_path / f"{name}.15.csv")
    assert len(csv_rows(fifteen)[0]) == 15
    [a] = details_csv.read(source).kernels
    [b] = details_csv.read(fifteen).kernels
    assert (b.name, b.display_name, b.grid, b.block, b.device_id, b.cc) == (
        a.name, a.display_name, a.grid, a.block, a.device_id, a.cc)
    assert b.metrics == a.metrics


# ----------------------------------------------------------------- details CSV, layout details


def test_kernels_in_launch_order(tmp_path: Path) -> None:
    """Two real exports joined as ncu prints two results: IDs 0 and 1 under one header."""
    naive = (H200 / "numba-naive.details.csv").read_text().splitlines()
    tiled = (H200 / "numba-tiled.details.csv").read_text().splitlines()
    assert naive[0] == tiled[0]
    second = ['"1"' + line[len('"0"'):] for line in tiled[1:]]
    path = tmp_path / "two.csv"
    path.write_text("\n".join(naive + second) + "\n")
    kernels = details_csv.read(path).kernels
    assert [(k.index, k.name) for k in kernels] == [(0, "matmul_naive"), (1, "matmul_tiled")]
    [alone] = details_csv.read(H200 / "numba-tiled.details.csv").kernels
    assert kernels[1].metrics == alone.metrics


def test_ncu_lines_among_the_rows_are_passed_over(tmp_path: Path) -> None:
    header, *rows = (H200 / "numba-naive.details.csv").read_text().splitlines()
    path = tmp_path / "stdout.csv"
    path.write_text("\n".join([
        "==PROF== Connected to process 1986 (/usr/bin/python3.12)", header, *rows[:3],
        "==PROF== Disconnected from process 1986", *rows[3:],
        "==WARNING== Found outstanding GPU clock reset, trying to revert...Success.",
    ]) + "\n")
    [k] = details_csv.read(path).kernels
    assert k.metrics == details_csv.read(H200 / "numba-naive.details.csv").kernels[0].metrics


def test_details_reader_refuses_a_raw_export() -> None:
    with pytest.raises(ReportError, match=r"numba-naive\.raw\.csv: not a details CSV export"):
        details_csv.read(H200 / "numba-naive.raw.csv")


# ----------------------------------------------------------------- raw page CSV


def test_raw_naive_values_converted_with_the_units_row() -> None:
    [k] = raw_csv.read(H200 / "numba-naive.raw.csv").kernels
    assert (k.index, k.name) == (0, "matmul_naive")
    assert (k.grid, k.block, k.device_id, k.device_name, k.cc) == (
        (32, 32, 1), (16, 16, 1), 0, "NVIDIA H200", "9.0")
    m = k.metric
    assert m("gpu__time_duration.sum") == pytest.approx(219_136)  # 219.136000 us
    assert m("dram__bytes_read.sum") == pytest.approx(2_104_064)  # 2.104064 Mbyte
    assert m("dram__bytes.sum.per_second") == pytest.approx(9.601636e9)  # Gbyte/s
    assert m("gpc__cycles_elapsed.avg.per_second") == pytest.approx(1.978164e9)  # Ghz
    assert m("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 8_388_608  # "8,388,608"
    assert m("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 16_777_216
    assert m("sm__throughput.avg.pct_of_peak_sustained_elapsed") == pytest.approx(67.168014)
    assert [m(f"launch__grid_dim_{a}") for a in "xyz"] == [32, 32, 1]
    assert [m(f"launch__block_dim_{a}") for a in "xyz"] == [16, 16, 1]


def test_raw_missing_and_text_values_are_absent() -> None:
    [k] = raw_csv.read(H200 / "numba-naive.raw.csv").kernels
    for name in ("derived_tempMetric4",  # nan
                 "sass__inst_executed_register_spilling_mem_local",  # no data
                 "launch__func_cache_config",  # CachePreferNone
                 "device__attribute_display_name",  # NVIDIA H200
                 "SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_elapsed"):  # ""
        assert name not in k.metrics


def test_raw_prefixed_columns_keep_their_name_and_never_shadow_the_metric() -> None:
    [k] = raw_csv.read(H200 / "numba-naive.raw.csv").kernels
    assert k.metric("TPC.TriageCompute.sm__cycles_active.avg") == pytest.approx(413_218.196970)
    assert k.metric("sm__cycles_active.avg") == pytest.approx(413_147.022727)
    assert k.metric("SM_B.TriageCompute.l1tex__t_sectors.sum") == 16_809_984
    assert k.metric("l1tex__t_sector_hit_rate.pct") == pytest.approx(87.956169)


def test_raw_tiled() -> None:
    [k] = raw_csv.read(H200 / "numba-tiled.raw.csv").kernels
    assert k.name == "matmul_tiled"
    assert k.metric("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 524_288
    assert k.metric("gpu__time_duration.sum") == pytest.approx(47_776)


def test_raw_reader_refuses_a_details_export() -> None:
    with pytest.raises(ReportError, match=r"numba-naive\.details\.csv: is a details CSV export"):
        raw_csv.read(H200 / "numba-naive.details.csv")


def test_a_details_export_with_a_damaged_header_is_not_read_row_by_row(tmp_path: Path) -> None:
    """Without its Metric Name column the file sniffs as a raw export, whose rows are kernels:
    the raw reader wants its units row and one row per result ID, and refuses it."""
    text = COPY_2025.read_text()
    path = tmp_path / "damaged.csv"
    path.write_text(text.replace('"Metric Name"', '"Metric Nane"', 1))
    with pytest.raises(ReportError, match=r"damaged\.csv: is a details CSV export"):
        read_report(path)
    path.write_text(text.replace('"Metric Name"', '"Metric Nane"', 1)
                    .replace('"Section Name"', '"Section Nane"', 1))
    with pytest.raises(ReportError, match=r"damaged\.csv: not a raw page CSV export: no units row"):
        read_report(path)


# ----------------------------------------------------------------- the formats agree


def printed(path: Path) -> dict[str, tuple[str, str]]:
    """Metric name -> (value text, unit) as a CSV export printed it."""
    rows = csv_rows(path)
    header = rows[0]
    if "Metric Name" not in header:  # raw page: names, units, one kernel
        return {n: (v, u) for n, u, v in zip(header, rows[1], rows[2], strict=True)}
    section, label, unit, value = (header.index(c) for c in (
        "Section Name", "Metric Name", "Metric Unit", "Metric Value"))
    out = {}
    for row in rows[1:]:
        if len(row) > value and row[label]:
            name = resolve(row[section], row[label])
            if name:
                out[name] = (row[value], row[unit])
    return out


def half_step(text: str, unit: str) -> float:
    """Half a unit of the last printed digit, in base units: the printed precision."""
    decimals = text.replace(",", "").partition(".")[2]
    return 0.5 * 10.0 ** -len(decimals) * unit_scale(unit)[0]


@pytest.mark.parametrize("name", ["numba-naive", "numba-tiled"])
def test_summary_metrics_agree_across_formats(name: str) -> None:
    """The .ncu-rep's exact values, within each CSV's printed precision."""
    exact = read_report(H200 / f"{name}.ncu-rep").kernels[0]
    compared = 0
    for export in (f"{name}.details.csv", f"{name}.raw.csv"):
        kernel = read_report(H200 / export).kernels[0]
        shown = printed(H200 / export)
        for metric in SUMMARY_METRICS.values():
            if metric not in shown or kernel.metric(metric) is None:
                continue
            text, unit = shown[metric]
            assert exact.metric(metric) == pytest.approx(
                kernel.metric(metric), abs=half_step(text, unit) * 1.000001), (export, metric)
            compared += 1
    assert compared >= 30


def test_naive_details_and_raw_agree_on_identity() -> None:
    a = details_csv.read(H200 / "numba-naive.details.csv").kernels[0]
    b = raw_csv.read(H200 / "numba-naive.raw.csv").kernels[0]
    assert (a.name, a.display_name, a.grid, a.block, a.device_id, a.cc) == (
        b.name, b.display_name, b.grid, b.block, b.device_id, b.cc)


def test_raw_header_with_a_quote_left_open_is_refused_in_one_line(tmp_path: Path) -> None:
    """Found by the fuzz test: one opening quote lost in the header made the CSV parser and the
    header finder disagree about the columns, and a KeyError escaped."""
    source = (H200 / "numba-naive.raw.csv").read_text(encoding="utf-8")
    header, rest = source.split("\n", 1)
    damaged = tmp_path / "damaged.raw.csv"
    damaged.write_text(header.replace(',"dram__bytes_read.sum"', ', dram__bytes_read.sum"', 1)
                       + "\n" + rest, encoding="utf-8")
    assert header.count(',"dram__bytes_read.sum"') == 1
    with pytest.raises(ReportError) as caught:
        raw_csv.read(damaged)
    assert str(damaged) in str(caught.value)


# ----------------------------------------------------------------- cut short


def test_a_one_kernel_raw_csv_cut_in_its_row_is_refused(tmp_path: Path) -> None:
    """The raw page holds a kernel per row: its one row cut short is left out whole (its last
    field could be a number cut in two), which leaves no kernel to show."""
    data = (H200 / "numba-naive.raw.csv").read_bytes()
    cut = tmp_path / "numba-naive.raw.csv"
    cut.write_bytes(data[:-40])
    with pytest.raises(ReportError, match="looks cut short: it holds a header and a units row"):
        read_report(cut)


@pytest.mark.parametrize(("name", "lost", "why"), [
    ("numba-naive.details.csv", 1, "its last line has no newline")])
def test_a_csv_cut_short_is_read_and_says_so(tmp_path: Path, name: str, lost: int, why: str
                                             ) -> None:
    """Before, a CSV cut in its last line opened as a kernel with missing values, no word."""
    data = (H200 / name).read_bytes()
    whole = read_report(H200 / name)
    assert whole.notes == []
    cut = tmp_path / name
    cut.write_bytes(data[: len(data) - lost])
    report = read_report(cut)
    assert len(report.kernels) == 1
    assert report.notes == [f"the file looks cut short ({why}): the last kernel's values may be"
                            " incomplete"]
    assert report.cut_short == [why]
