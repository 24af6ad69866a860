"""A value an export prints in a unit not understood is never read as a factor of 1: it is missing
from the kernel's metrics, kept as printed for the Every metric rows, and the report says so.
Each export format is tried on a real export of the corpus with one unit changed."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from viewer import cli
from viewer.analysis import metric_table
from viewer.core.model import Kernel, Report
from viewer.readers import read_report
from viewer.readers.extras import export_extras
from viewer.terminal.tables_terminal import metrics_json, metrics_text

H200 = Path(__file__).resolve().parents[1] / "data" / "corpus" / "h200"
DURATION, DRAM_READ = "gpu__time_duration.sum", "dram__bytes_read.sum"
DRAM_RATE = "dram__bytes.sum.per_second"
SUMMARY_KEY = {DURATION: "duration_ns", DRAM_READ: "dram_bytes_read",
               DRAM_RATE: "dram_bandwidth_bytes_per_s"}


def on_line(has: str, old: str, new: str) -> Callable[[str], str]:
    """Replace `old` by `new` on the first line that holds `has` and `old` (the same width
    where the columns are aligned)."""
    def change(text: str) -> str:
        lines = text.split("\n")
        at = next(i for i, line in enumerate(lines) if has in line and old in line)
        lines[at] = lines[at].replace(old, new, 1)
        return "\n".join(lines)
    return change


def raw_csv_unit(metric: str, new: str) -> Callable[[str], str]:
    """Set the units row's cell of `metric` in a raw page CSV."""
    def change(text: str) -> str:
        header, units_row, rest = text.split("\n", 2)
        names = next(csv.reader([header]))
        cells = next(csv.reader([units_row]))
        cells[names.index(metric)] = new
        out = io.StringIO()
        csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="").writerow(cells)
        return "\n".join((header, out.getvalue(), rest))
    return change


# (export, metric, the change, the value as printed afterwards, the unit named in the note)
CASES = [
    ("numba-naive.details.txt", DURATION,
     on_line("    Duration ", "   us", "zorks"), "219.14 zorks", "zorks"),
    ("numba-naive.details.txt", DRAM_RATE,
     on_line("Memory Throughput", "Gbyte/s", "  zorks"), "9.60 zorks", "zorks"),
    ("numba-naive.details.csv", DURATION,
     on_line('"Duration","us"', '"Duration","us"', '"Duration","zorks"'), "219.14 zorks",
     "zorks"),
    ("numba-naive.details.csv", DRAM_READ,
     on_line('"dram__bytes_read.sum","Mbyte"', '"Mbyte"', '"zorks"'), "2.10 zorks", "zorks"),
    ("numba-naive.raw.txt", DRAM_READ,
     on_line("  dram__bytes_read.sum ", "Mbyte", "zorks"), "2.10 zorks", "zorks"),
    ("numba-naive.raw.txt", DURATION,
     on_line("  gpu__time_duration.sum ", "   us", "zorks"), "219.14 zorks", "zorks"),
    ("numba-naive.raw.csv", DRAM_READ, raw_csv_unit(DRAM_READ, "zorks"), "2.104064 zorks",
     "zorks"),
    ("numba-naive.raw.csv", DURATION, raw_csv_unit(DURATION, "zorks"), "219.136000 zorks",
     "zorks"),
    # understood, but of the wrong kind for the metric: Duration in bytes
    ("numba-naive.details.txt", DURATION,
     on_line("    Duration ", "   us", " byte"), "219.14 byte", "byte for Duration"),
    ("numba-naive.raw.csv", DURATION, raw_csv_unit(DURATION, "inst"), "219.136000 inst",
     "inst for Duration"),
]


def changed(tmp_path: Path, name: str, change: Callable[[str], str]) -> Path:
    text = (H200 / name).read_text(encoding="utf-8")
    out = tmp_path / name
    new = change(text)
    assert new != text
    out.write_text(new, encoding="utf-8")
    return out


def only_kernel(report: Report) -> Kernel:
    [kernel] = report.kernels
    return kernel


@pytest.mark.parametrize(("name", "metric", "change", "printed", "unit"), CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[4]}" for c in CASES])
def test_a_value_in_a_unit_not_understood_is_missing_and_shown_as_printed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, metric: str,
        change: Callable[[str], str], printed: str | None, unit: str) -> None:
    assert only_kernel(read_report(H200 / name)).metric(metric) is not None
    path = changed(tmp_path, name, change)
    report = read_report(path)
    kernel = only_kernel(report)
    assert kernel.metric(metric) is None
    assert metric not in kernel.metrics
    assert f"1 value in a unit not understood ({unit}): shown as printed, not used" \
        in report.notes
    [row] = [r for r in metric_table.rows(kernel, export_extras(kernel).about)
             if r.name == metric]
    assert row.value is None
    assert row.description == metric_table.UNIT_NOT_UNDERSTOOD
    if printed is not None:
        assert row.printed == printed
    shown = {r["name"]: r for r in metrics_json(report, kernel, [row])["metrics"]}  # type: ignore
    assert shown[metric]["value"] is None and shown[metric]["unit_understood"] is False
    assert row.printed and row.printed in metrics_text(kernel, [row])
    assert "not understood" in metrics_text(kernel, [row])

    status = cli.run_command(cli.parse(["summary", "--json", str(path)]))
    out, err = capsys.readouterr()
    assert status == 0
    [summary] = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert summary["kernels"][0]["metrics"][SUMMARY_KEY[metric]] is None
    assert "unit not understood" in err


def test_the_corpus_prints_no_unit_that_is_not_understood() -> None:
    for name in ("numba-naive.details.txt", "numba-naive.details.csv", "numba-naive.raw.txt",
                 "numba-naive.raw.csv"):
        report = read_report(H200 / name)
        assert report.notes == []
        assert not any(p.value is not None for p in only_kernel(report).printed.values())


def test_the_metrics_command_prints_the_value_as_printed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = changed(tmp_path, "numba-naive.details.csv",
                   on_line('"dram__bytes_read.sum","Mbyte"', '"Mbyte"', '"zorks"'))
    for argv in (["metrics", str(path)], ["metrics", "--json", str(path)]):
        status = cli.run_command(cli.parse(argv))
        out, err = capsys.readouterr()
        assert status == 0 and "unit not understood (zorks)" in err
        if "--json" in argv:
            [found] = [json.loads(line) for line in out.splitlines()]
            [row] = [r for r in found["metrics"] if r["name"] == DRAM_READ]
            assert (row["value"], row["printed"], row["unit"]) == (None, "2.10 zorks", "zorks")
        else:
            [line] = [line for line in out.splitlines() if f" {DRAM_READ} " in line]
            assert "2.10 zorks" in line and "not understood" in line
