"""The `--page raw` text reader, on ncu 2025.3.1's own printouts of the .ncu-rep beside them.

Before this reader a raw text printout was taken for a details text export: one kernel, no
metric. Values are compared with the raw CSV ncu printed of the same report (every metric both
hold) and with the .ncu-rep reader (the summary's metrics, within the printed precision).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from viewer.core.metrics import SUMMARY_METRICS
from viewer.core.model import ReportError
from viewer.core.units import unit_scale
from viewer.readers import ncu_rep, raw_text, read_report
from viewer.readers.sniff import sniff

DATA = Path(__file__).resolve().parents[1] / "data"
H200 = DATA / "corpus" / "h200"
PROFILES = Path(__file__).resolve().parents[2] / "profiles"


def half_step(unit: str, value: str) -> float:
    """Half a unit of the last printed digit, in base units: the printed precision (a whole
    unit where ncu cut a value as wide as its column)."""
    decimals = value.replace(",", "").partition(".")[2]
    share = 1.0 if len(value) >= 20 else 0.5  # a value as wide as its column is cut
    return share * 10.0 ** -len(decimals) * unit_scale(unit)[0] * 1.000001


def printed_rows(path: Path) -> dict[str, tuple[str, str]]:
    """Metric name -> (unit, value) as the first table of a raw text printout holds them."""
    lines = path.read_text(encoding="utf-8").splitlines()
    rule = next(i for i, line in enumerate(lines) if line.strip().startswith("---"))
    out = {}
    for line in lines[rule + 1:]:
        if not line.strip():
            break
        name = line.split()[0]
        cells = line[len(line) - len(line.lstrip()) + len(name):]
        unit, value = cells[:-20].strip(), cells[-20:].strip()
        out[name] = (unit, value)
    return out


@pytest.mark.parametrize("path", [H200 / f"numba-{k}.raw.txt" for k in (
    "naive", "tiled", "naive-lineinfo", "tiled-lineinfo")])
def test_raw_text_is_sniffed_and_read_whole(path: Path) -> None:
    assert sniff(path) == "raw-text"
    report = read_report(path)
    assert report.format == "raw-text"
    [kernel] = report.kernels
    assert kernel.name.startswith("matmul_")
    assert (kernel.device_id, kernel.device_name, kernel.cc) == (0, "NVIDIA H200", "9.0")
    assert len(kernel.metrics) > 2000
    assert report.notes == []


@pytest.mark.parametrize("stem", ["numba-naive", "numba-tiled"])
def test_every_metric_agrees_with_the_raw_csv(stem: str) -> None:
    text = read_report(H200 / f"{stem}.raw.txt").kernels[0]
    csv = read_report(H200 / f"{stem}.raw.csv").kernels[0]
    shown = printed_rows(H200 / f"{stem}.raw.txt")
    both = set(text.metrics) & set(csv.metrics)
    assert len(both) == len(text.metrics) > 2000
    for name in both:
        assert text.metrics[name] == pytest.approx(csv.metrics[name],
                                                   abs=half_step(*shown[name])), name
    assert (text.grid, text.block, text.display_name) == (csv.grid, csv.block, csv.display_name)


@pytest.mark.parametrize(("text", "report"), [
    (H200 / "numba-naive.raw.txt", H200 / "numba-naive.ncu-rep"),
    (H200 / "numba-tiled-lineinfo.raw.txt", PROFILES / "tiled.ncu-rep"),
])
def test_summary_metrics_agree_with_the_ncu_rep(text: Path, report: Path) -> None:
    kernel = read_report(text).kernels[0]
    exact = read_report(report).kernels[0]
    shown = printed_rows(text)
    compared = 0
    for metric in SUMMARY_METRICS.values():
        if metric not in shown or kernel.metric(metric) is None:
            continue
        assert exact.metric(metric) == pytest.approx(kernel.metric(metric),
                                                     abs=half_step(*shown[metric]))
        compared += 1
    assert compared >= 20


def test_missing_and_text_values_are_absent_never_zero() -> None:
    shown = printed_rows(H200 / "numba-naive-lineinfo.raw.txt")
    [kernel] = read_report(H200 / "numba-naive-lineinfo.raw.txt").kernels
    no_data = [n for n, (_, v) in shown.items() if v in ("no data", "(!) nan", "")]
    words = [n for n, (_, v) in shown.items() if v and not any(c.isdigit() for c in v)]
    assert no_data and words
    for name in no_data + words:
        assert kernel.metric(name) is None, name


def test_a_value_ncu_cut_inside_its_whole_part_is_missing_not_misread() -> None:
    """ncu prints 20 characters of a wider value: '17,318,263,626,168,2' is a tenth of the
    .ncu-rep's value, so it is left out; '131,198,966,864,910.' lost only its fraction."""
    shown = printed_rows(H200 / "numba-naive.raw.txt")
    [kernel] = read_report(H200 / "numba-naive.raw.txt").kernels
    exact = ncu_rep.read(H200 / "numba-naive.ncu-rep", names=None).kernels[0]
    cut = [n for n, (_, v) in shown.items() if len(v) == 20 and "." not in v]
    fraction_cut = [n for n, (_, v) in shown.items() if len(v) == 20 and v.endswith(".")]
    assert cut and fraction_cut
    for name in cut:
        assert kernel.metric(name) is None, name
    for name in fraction_cut:
        value = kernel.metric(name)
        assert value is not None and math.isclose(value, exact.metrics[name], abs_tol=1.0), name


def test_graphs_are_passed_over_and_counted() -> None:
    report = read_report(H200 / "workloads-kernels-and-graph.raw.txt")
    assert [k.name for k in report.kernels] == ["scale", "add"]
    assert report.skipped == {"graph": 2}


def test_ranges_only_is_refused_in_one_line() -> None:
    with pytest.raises(ReportError, match=r"workloads-ranges\.raw\.txt: no kernel found: it "
                                          r"holds 2 ranges"):
        read_report(H200 / "workloads-ranges.raw.txt")


def test_looks_like_is_not_fooled_by_a_details_export() -> None:
    text = (H200 / "numba-naive.details.txt").read_text(encoding="utf-8")
    assert not raw_text.looks_like(text)
    assert raw_text.looks_like((H200 / "numba-naive.raw.txt").read_text(encoding="utf-8"))
