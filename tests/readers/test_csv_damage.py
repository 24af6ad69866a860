"""CSV exports with a line or a row no ncu export prints, made from real exports: refused in one
line with the reason, in bounded time and memory, never read with metrics silently lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.costs import run_viewer
from viewer.core.model import ReportError
from viewer.readers import _csv_lines, details_csv, raw_csv, read_report

ROOT = Path(__file__).resolve().parents[2]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
MIB = 1 << 20


def test_the_line_bound_is_far_above_the_longest_line_of_the_corpus() -> None:
    longest = max(len(line) for path in (ROOT / "tests" / "data" / "corpus").rglob("*.csv")
                  for line in path.read_bytes().split(b"\n"))
    assert 100_000 < longest < _csv_lines.LONGEST_LINE // 50


@pytest.mark.parametrize("name", ["numba-naive.details.csv", "numba-naive.raw.csv"])
def test_a_600_mb_line_is_refused_at_once_in_little_memory(tmp_path: Path, name: str) -> None:
    """Before, a details CSV whose data row was one 1.9 GB line was read for 38 s in 7.3 GB."""
    header, first, _ = (H200 / name).read_bytes().split(b"\n", 2)
    path = tmp_path / name
    with path.open("wb") as f:
        f.write(header + b"\n" + first + b"7" * (2 * MIB))  # text past the sniffer's probe
        f.truncate(f.tell() + 600 * MIB)  # a hole: the rest of the row, never on disk
    with path.open("ab") as f:
        f.write(b"\n")
    cost = run_viewer("summary", str(path))
    assert cost.status == 1 and cost.stderr.strip() == (
        f"error: {path}: line 2 is longer than 8 MiB; no ncu export prints a line that long")
    assert cost.cpu_s < 2.0 and cost.peak_mib < 500


def test_the_line_scan_counts_lines_across_pieces(tmp_path: Path) -> None:
    path = tmp_path / "lines.csv"
    path.write_bytes(b"a\n" * 10 + b"b" * 30 + b"\nc\n" + b"d" * 33 + b"\n")
    _csv_lines.check_lines(path, longest=33)
    with pytest.raises(ReportError, match="line 13 is longer than"):
        _csv_lines.check_lines(path, longest=32)
    path.write_bytes(b"x" * 100)
    with pytest.raises(ReportError, match="line 1 is longer than"):
        _csv_lines.check_lines(path, longest=32)


WIDE = ',"x"' * 100_000


def _widened(tmp_path: Path, name: str, line: int) -> Path:
    lines = (H200 / name).read_text(encoding="utf-8").split("\n")
    lines[line - 1] += WIDE
    path = tmp_path / name
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


@pytest.mark.parametrize(("name", "line", "fields", "header"), [
    ("numba-naive.details.csv", 6, 100_016, 20),
    ("numba-naive.details.csv", 2, 100_016, 20),
    ("numba-naive.raw.csv", 2, 102_250, 2_250),  # the units row: before, "no units row"
    ("numba-naive.raw.csv", 3, 102_250, 2_250),
])
def test_a_row_of_100_000_fields_is_refused_saying_so(tmp_path: Path, name: str, line: int,
                                                      fields: int, header: int) -> None:
    """Before, the details row was dropped silently (after 24-52 s, with a DtypeWarning, losing
    metrics), and the raw units row read as missing."""
    path = _widened(tmp_path, name, line)
    with pytest.raises(ReportError) as caught:
        read_report(path)
    assert str(caught.value) == (f"{path}: line {line} has {fields:,} fields, more than its"
                                 f" header's {header:,}: the file is damaged")


@pytest.mark.parametrize("reader", [details_csv.read, raw_csv.read])
def test_a_row_with_one_field_too_many_is_refused(tmp_path: Path, reader: object) -> None:
    name = "numba-naive.details.csv" if reader is details_csv.read else "numba-naive.raw.csv"
    lines = (H200 / name).read_text(encoding="utf-8").split("\n")
    fields = len(lines[0].split('","'))
    short = max(i for i, line in enumerate(lines[1:], 1) if len(line.split('","')) == fields)
    lines[short] += "," * (fields - len(lines[short].split('","'))) + ',"surplus"'
    path = tmp_path / name
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(ReportError, match=f"row {short:,} under the header has more fields than"
                       f" its header's {fields:,}: the file is damaged"):
        reader(path)  # type: ignore[operator]
