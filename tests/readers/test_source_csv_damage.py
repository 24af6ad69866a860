"""ncu's source page export, damaged or compressed (made from the corpus's real pages): read the
same through gzip, and refused in one line naming the file, never a traceback."""

from __future__ import annotations

import gzip
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given

from tests.readers.test_readers_fuzz import FAST, damaged
from viewer.core.model import ReportError
from viewer.readers import source_csv
from viewer.readers.source import read_source

ROOT = Path(__file__).resolve().parents[2]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
PAGE = H200 / "numba-naive.source.csv"
PAGES = (PAGE, H200 / "workloads-kernels-and-graph.source.csv")


def _damaged(tmp_path: Path, edit: object) -> Path:
    lines = PAGE.read_text(encoding="utf-8").split("\n")
    edit(lines)  # type: ignore[operator]
    path = tmp_path / "damaged.source.csv"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _refused(path: Path) -> str:
    with pytest.raises(ReportError) as caught:
        source_csv.read(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    return message[len(f"{path}: "):]


def test_a_200_000_character_field_is_refused(tmp_path: Path) -> None:
    """Before, csv.field_size_limit's error escaped as a traceback."""
    path = _damaged(tmp_path, lambda lines: lines.__setitem__(
        5, lines[5].replace('","', '","' + "R" * 200_000, 1)))
    assert _refused(path) == ("line 6 cannot be read as CSV (field larger than field limit"
                              " (131072)); no ncu source page prints it (a quote left open?)")


def test_a_row_cut_mid_quote_is_refused(tmp_path: Path) -> None:
    """A quote left open swallows the rows after it; before, an IndexError escaped."""
    path = _damaged(tmp_path, lambda lines: lines.__setitem__(
        5, lines[5][: lines[5].index('","') + 6]))
    assert _refused(path).startswith("line ")


def test_an_address_that_is_not_hex_is_refused(tmp_path: Path) -> None:
    """Before, int()'s ValueError escaped."""
    path = _damaged(tmp_path, lambda lines: lines.__setitem__(
        5, '"0xZZZZ"' + lines[5][lines[5].index('","') + 1:]))
    assert _refused(path) == ("line 6 holds no instruction address ('0xZZZZ'): the file is"
                              " damaged")


def test_a_page_cut_short_in_its_last_row_keeps_the_rows_before(tmp_path: Path) -> None:
    data = PAGE.read_bytes()
    whole = source_csv.read(PAGE)
    assert not whole[0].cut
    cut = tmp_path / "cut.source.csv"
    cut.write_bytes(data[: data.rstrip(b"\n").rindex(b",")])
    [kernel] = source_csv.read(cut)
    assert kernel.cut
    assert kernel.instructions == whole[0].instructions[:-1]


def test_a_gzip_compressed_page_reads_as_the_plain_one(tmp_path: Path) -> None:
    """Before, sniff recognised it and the reader read its raw bytes: 'holds no kernel'."""
    packed = tmp_path / "numba-naive.source.csv.gz"
    packed.write_bytes(gzip.compress(PAGE.read_bytes()))
    assert read_source(packed) == read_source(PAGE)

    def shown(path: Path) -> str:
        return subprocess.run([sys.executable, "-m", "viewer", "source", str(path)], cwd=ROOT,
                              capture_output=True, text=True, timeout=120, check=True).stdout

    assert shown(packed).replace(str(packed), "PAGE") == shown(PAGE).replace(str(PAGE), "PAGE")


@FAST
@given(data=damaged(PAGES))
def test_damaged_source_pages_raise_only_report_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "page.source.csv"
        path.write_bytes(data)
        try:
            kernels = source_csv.read(path)
        except ReportError as exc:
            assert "\n" not in str(exc) and str(path) in str(exc)
            return
        assert kernels
