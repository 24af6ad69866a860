"""The published T4 reference: the lesson's table to the digit, read as a Report like any other,
sniffed by content, and refused in one line naming the file when it is malformed."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from viewer import cli
from viewer.analysis import reading
from viewer.core import metrics, shipped
from viewer.core.model import ReportError
from viewer.readers import read_report, reference_toml
from viewer.readers.reference_toml import PublishedKernel
from viewer.readers.sniff import sniff
from viewer.terminal import summary_terminal

REFERENCE = shipped.reference()

# The lesson's Results table (day 42), copied as printed: row or metric, naive, tiled.
LESSON_RESULTS = """\
Compute (SM) Throughput 60.78% 72.67%
Memory Throughput 60.78% 72.67%
DRAM Throughput 1.25% 1.95%
Duration 1.18 ms 744.64 us
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum 8,388,608 524,288
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum 16,777,077 2,083,878
sectors per request, derived 2.0 4.0
dram__bytes_read.sum + dram__bytes_write.sum 4,741,440 B 4,641,024 B
L1/TEX Hit Rate 87.58% 5.13%
L2 Hit Rate 97.93% 97.05%
Theoretical Occupancy 100% 100%
Achieved Occupancy 95.29% 94.94%
"""
# "Measured. Tesla T4, driver 595.84, CUDA 12.6 (V12.6.85), profiled with Nsight Compute 2024.3.2
# under sudo, --clock-control base. Captured 2026-09-01 on the project's verification node"
LESSON_PROVENANCE = {"gpu": "Tesla T4", "driver": "595.84", "cuda": "12.6 (V12.6.85)",
                     "ncu": "Nsight Compute 2024.3.2", "clock_control": "base",
                     "captured": "2026-09-01", "launch_skip": 4, "dim": 512, "tile": 16}
_VALUE = r"([\d,.]+)(%| ms| us| B)?"
_ROW = re.compile(rf"^(.+?) {_VALUE} {_VALUE}$")
_SCALE = {None: 1, "%": 1, " ms": 1e6, " us": 1e3, " B": 1}


def lesson_rows() -> list[tuple[str, float, float]]:
    rows = []
    for line in LESSON_RESULTS.splitlines():
        m = _ROW.match(line)
        assert m, line
        label, a, ua, b, ub = m.groups()
        rows.append((label, float(a.replace(",", "")) * _SCALE[ua],
                     float(b.replace(",", "")) * _SCALE[ub]))
    return rows


@pytest.fixture(scope="module")
def t4():
    return read_report(REFERENCE)


def value(kernel, row) -> float | None:
    if row.derived:
        return reading.value(kernel, row.derived)
    return kernel.metric(row.metric)


def test_the_shipped_reference_holds_the_lessons_results_to_the_digit(t4) -> None:
    naive, tiled = t4.kernels
    rows = naive.published.rows
    assert [r.label for r in rows] == [label for label, _, _ in lesson_rows()]
    for row, (label, a, b) in zip(rows, lesson_rows(), strict=True):
        if row.derived:  # printed to one decimal: the counters agree to that decimal
            assert round(value(naive, row), 1) == a and round(value(tiled, row), 1) == b, label
        else:
            assert (naive.metric(row.metric), tiled.metric(row.metric)) == (a, b), label


def test_the_provenance_is_the_lessons(t4) -> None:
    published = t4.kernels[0].published
    for key, expected in LESSON_PROVENANCE.items():
        assert getattr(published, key) == expected, key
    assert "project's verification node" in published.note
    assert published.line() == ("Tesla T4 (CC 7.5), driver 595.84, CUDA 12.6 (V12.6.85), Nsight "
                                "Compute 2024.3.2, --clock-control base, captured 2026-09-01")


def test_every_metric_is_one_the_app_reads_and_each_label_is_its_own(t4) -> None:
    for row in t4.kernels[0].published.rows:
        if row.derived:
            assert row.derived in metrics.SUMMARY_KEYS
            continue
        assert row.metric in metrics.KNOWN_METRICS, row.metric
        read_as = {m for (_, text), m in metrics.LABELS.items() if text == row.label}
        assert row.label == row.metric or row.metric in read_as or row.metric == "dram__bytes.sum"


def test_it_reads_as_a_report_like_any_other(t4) -> None:
    assert t4.format == "reference"
    assert [k.name for k in t4.kernels] == ["naive", "tiled"]
    for kernel in t4.kernels:
        assert isinstance(kernel, PublishedKernel)
        assert (kernel.device_name, kernel.cc, kernel.grid, kernel.block) == (
            "Tesla T4", "7.5", (32, 32, 1), (16, 16, 1))
    naive, tiled = t4.kernels
    assert naive.metric("gpu__time_duration.sum") == 1_180_000  # base units: ns
    assert tiled.metric("gpu__time_duration.sum") == 744_640
    assert naive.metric("dram__bytes.sum") == 4_741_440  # the lesson's read + write, one metric
    assert naive.metric("dram__bytes_read.sum") is None  # not in the table: missing, not zero
    assert "sectors_per_request" not in naive.metrics  # derived by the app, never stored
    assert reading.sectors_per_request(naive) == pytest.approx(16_777_077 / 8_388_608)
    assert reading.summary(naive)["global_load_requests"] == 8_388_608


def test_printed_values_carry_their_precision(t4) -> None:
    naive, tiled = t4.kernels
    assert naive.spread["gpu__time_duration.sum"] == pytest.approx(5_000)  # 1.18 ms: +- 5 us
    assert tiled.spread["gpu__time_duration.sum"] == pytest.approx(5)  # 744.64 us: +- 5 ns
    assert naive.spread["lts__t_sector_hit_rate.pct"] == pytest.approx(0.005)


def test_summary_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert summary_terminal.summarize([REFERENCE]) == 0
    out = capsys.readouterr().out
    assert "#0 naive" in out and "device Tesla T4" in out and "8,388,608" in out


def test_sniff_judges_it_by_content_not_name(tmp_path: Path) -> None:
    renamed = tmp_path / "report.csv"
    shutil.copy(REFERENCE, renamed)
    assert sniff(renamed) == "reference"
    unmarked = tmp_path / "table.toml"
    unmarked.write_text(REFERENCE.read_text().replace('format = "ncu-reader reference 1"\n', ""))
    with pytest.raises(ReportError, match="not an Nsight Compute report or export"):
        read_report(unmarked)


TEXT = REFERENCE.read_text(encoding="utf-8")
DRAM_ROW = TEXT[TEXT.index("# ncu's dram__bytes"):TEXT.index("[[row]]\nlabel = \"L1/TEX")]


@pytest.mark.parametrize(("old", "new", "reason"), [
    ("kernels = [", "kernels = [[", "is not valid TOML"),
    (DRAM_ROW, "", "rows missing: dram__bytes.sum"),
    ("values = [60.78, 72.67]", 'values = ["60.78", 72.67]', "holds '60.78', not a number"),
    ("values = [1.25, 1.95]", "values = [nan, 1.95]", "not a finite number"),
    ("values = [1.25, 1.95]", "values = [true, 1.95]", "holds True, not a number"),
    ("values = [87.58, 5.13]", "values = [87.58]", "needs values = a list of 2"),
    ('printed = ["1.18 ms"', 'printed = ["1.19 ms"', "prints '1.19 ms' but holds 1.18e+06"),
    ("values = [2.0, 4.0]", "values = [2.0, 3.0]", "prints 3 for tiled, but its counters give"),
    ('[[row]]\nlabel = "Achieved', DRAM_ROW + '[[row]]\nlabel = "Achieved',
     "two rows hold dram__bytes.sum"),
    ('metric = "lts__t_sector_hit_rate.pct"', 'metric = "l1tex__t_sector_hit_rate.pct"',
     "names l1tex__t_sector_hit_rate.pct, but that label is lts__t_sector_hit_rate.pct"),
    ('label = "L2 Hit Rate"', 'label = "DRAM Throughput"', "but that label is"),
    ('clock_control = "base"\n', "", "provenance.clock_control is missing"),
    ("grid = [32, 32, 1]", "grid = [16, 32, 1]", "does not cover 512 x 512"),
    ("dim = 512", 'dim = "512"', "provenance.dim must be a whole number"),
    ("tile = 16", "tile = 0", "provenance.tile must be a whole number, 1 or more"),
    ("block = [16, 16, 1]", "block = [32, 8, 1]", "grid (32, 32, 1) of blocks (32, 8, 1) does not"),
    ("tile = 16", "tile = 8", "block (16, 16, 1) is not the 8 x 8 tile"),
    ('kernel = "naive"', 'kernel = "fast"',
     "[reading] names kernel 'fast', which the file does not hold"),
    ('said = "its Solution 1"', "said = 1",
     "[reading] must give kernel, busiest_memory_unit, said as text"),
])
def test_a_malformed_reference_is_refused_in_one_line_naming_the_file(
        tmp_path: Path, old: str, new: str, reason: str) -> None:
    assert old in TEXT
    bad = tmp_path / "t4-bad.toml"
    bad.write_text(TEXT.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ReportError) as caught:
        read_report(bad)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(str(bad))
    assert reason in message


@st.composite
def damaged_reference(draw: st.DrawFn) -> bytes:
    """The shipped reference truncated, bit-flipped, or with a slice cut or repeated."""
    data = REFERENCE.read_bytes()
    rnd = draw(st.randoms(use_true_random=False))
    how = draw(st.sampled_from(["truncate", "flip", "splice"]))
    if how == "truncate":
        return data[: rnd.randrange(len(data) + 1)]
    if how == "flip":
        out = bytearray(data)
        for _ in range(draw(st.integers(1, 8))):
            out[rnd.randrange(len(out))] ^= 1 << rnd.randrange(8)
        return bytes(out)
    a = rnd.randrange(len(data) + 1)
    b = min(len(data), a + rnd.randrange(600))
    return data[:a] + data[a:b] * draw(st.integers(0, 3)) + data[b:]


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=damaged_reference())
def test_a_damaged_reference_raises_nothing_but_a_one_line_report_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t4.toml"
        path.write_bytes(data)
        try:
            report = reference_toml.read(path)
        except ReportError as exc:
            assert "\n" not in str(exc) and str(path) in str(exc)
        else:
            assert [k.name for k in report.kernels]  # what reads is a whole table


def test_summary_json_gives_the_tables_clock_control() -> None:
    """The lesson's table was captured with --clock-control base; summary --json says so."""
    import contextlib
    import io
    import json

    from viewer.core import shipped

    out = io.StringIO()
    parsed = cli.parse(["summary", str(shipped.reference()), "--json"])
    with contextlib.redirect_stdout(out):
        assert parsed.run(parsed) == 0
    assert json.loads(out.getvalue())["clock_control"] == "base"
