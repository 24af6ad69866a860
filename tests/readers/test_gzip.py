"""Gzip-compressed reports and exports (how they travel by mail and chat) read transparently,
within the same limits: a .ncu-rep through a private decompressed copy for the reader's child,
an export from one too; every copy removed after; a bomb stopped at its format's size."""

from __future__ import annotations

import gzip
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from viewer.core.model import ReportError
from viewer.readers import read_metrics, read_report, sniff
from viewer.readers.extras import read_extras

ROOT = Path(__file__).resolve().parents[2]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
REFERENCE = ROOT / "profiles" / "t4-reference.toml"


@pytest.fixture
def private_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The folder temporary copies go to, watched: empty again after each read."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield folder
    assert list(folder.iterdir()) == []


def compressed(source: Path, folder: Path, data: bytes | None = None) -> Path:
    out = folder / f"{source.name}.gz"
    out.write_bytes(gzip.compress(source.read_bytes() if data is None else data))
    return out


@pytest.mark.parametrize("name", ["numba-naive.details.txt", "numba-naive.details.csv",
                                  "numba-naive.raw.csv", "numba-naive.raw.txt"])
def test_a_compressed_export_reads_as_the_plain_one(name: str, tmp_path: Path,
                                                    private_tmp: Path) -> None:
    packed = compressed(H200 / name, tmp_path)
    plain = read_report(H200 / name)
    report = read_report(packed)
    assert (report.source, report.format) == (str(packed), plain.format)
    [kernel], [expected] = report.kernels, plain.kernels
    assert dict(kernel.metrics) == dict(expected.metrics)
    assert kernel.display_name == expected.display_name
    assert report.notes == []


def test_a_compressed_ncu_rep_reads_now_and_later(tmp_path: Path, private_tmp: Path) -> None:
    packed = compressed(H200 / "numba-naive.ncu-rep", tmp_path)
    assert sniff.sniff(packed) == "ncu-rep"
    report = read_report(packed)
    plain = read_report(H200 / "numba-naive.ncu-rep")
    assert report.source == str(packed)
    assert dict(report.kernels[0].metrics) == dict(plain.kernels[0].metrics)
    found = read_metrics(report, [0], None)[0]
    assert len(found) > 2000
    rules = read_extras(report, [0], rules=True)[0].rules
    assert rules


def test_a_bomb_is_stopped_at_its_formats_size(tmp_path: Path, private_tmp: Path) -> None:
    """A reference table may hold 1 MiB: one padded to 64 MiB compresses to a few kB."""
    padding = b"\n# padding" * ((64 << 20) // 10)
    bomb = compressed(REFERENCE, tmp_path, REFERENCE.read_bytes() + padding)
    assert bomb.stat().st_size < 1 << 20
    with pytest.raises(ReportError, match=r"t4-reference\.toml\.gz: is gzip-compressed and "
                                          r"decompresses to more than 1 MiB"):
        read_report(bomb)


def test_compressed_noise_is_named_binary(tmp_path: Path, private_tmp: Path) -> None:
    noise = compressed(H200 / "numba-naive.ncu-rep", tmp_path,
                       bytes(range(256)) * 4096)
    with pytest.raises(ReportError, match=r"is gzip-compressed binary data, not an Nsight"):
        read_report(noise)


def test_a_compressed_export_cut_short_says_so(tmp_path: Path, private_tmp: Path) -> None:
    whole = compressed(H200 / "numba-naive.details.txt", tmp_path).read_bytes()
    cut = tmp_path / "cut.details.txt.gz"
    cut.write_bytes(whole[: len(whole) * 3 // 4])
    report = read_report(cut)
    assert len(report.kernels) == 1
    assert report.notes and report.notes[0].startswith("the file looks cut short")


def test_a_damaged_gzip_is_refused_in_one_line(tmp_path: Path, private_tmp: Path) -> None:
    whole = bytearray(compressed(H200 / "numba-naive.raw.csv", tmp_path).read_bytes())
    whole[40:60] = b"\xff" * 20
    damaged = tmp_path / "damaged.raw.csv.gz"
    damaged.write_bytes(bytes(whole))
    with pytest.raises(ReportError, match=r"damaged\.raw\.csv\.gz: ") as caught:
        read_report(damaged)
    assert "\n" not in str(caught.value)


def test_a_plain_file_named_gz_is_judged_by_its_content(tmp_path: Path) -> None:
    named = tmp_path / "numba-naive.details.csv.gz"
    shutil.copy(H200 / "numba-naive.details.csv", named)
    assert read_report(named).format == "details-csv"


@pytest.mark.parametrize("name", ["naive.ncu-rep", "naive.details.txt"])
def test_a_compressed_file_records_the_session_the_plain_one_does(
        name: str, tmp_path: Path, private_tmp: Path) -> None:
    plain = read_report(ROOT / "profiles" / name)
    packed = read_report(compressed(ROOT / "profiles" / name, tmp_path))
    assert plain.session is not None and plain.session.clock_control == "none"
    assert packed.session == plain.session


def test_a_bomb_lets_out_little_more_than_the_ratio_allows(tmp_path: Path) -> None:
    """A 1 MB file of a thousand-fold blanks: refused once its output passes MAX_RATIO times
    the compressed bytes read, which are read in small pieces, so what it lets out before the
    refusal is RATIO_FROM and a piece's worth, not 250 times the whole file."""
    from viewer.readers import _gzip, _opened

    bomb = tmp_path / "bomb.csv.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as f:
        f.write(b'"ID","Kernel Name"\n')
        for _ in range(1024):
            f.write(b" " * (1 << 20))
    assert bomb.stat().st_size > 1 << 19
    let_out = 0
    with _opened.opened(bomb) as source, pytest.raises(ReportError, match="gzip bomb"):
        for piece in _gzip.Layers(source, 1 << 40):
            let_out += len(piece)
    assert let_out <= _gzip.RATIO_FROM + _gzip.MAX_RATIO * (64 << 10) + (1 << 20)
