"""The cache of what was read answers only for the very file it read, unchanged; anything else
in its place is read past, and the file read again.

Whether an answer came from the cache is told by the job's last words (a read from the file
says how many kernels it read; one from the cache adds that it was kept) and by what the
report holds when the file changed.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from viewer.core.jobs import Job
from viewer.core.model import ReportError
from viewer.readers import cache_format, read_cache, read_metrics, read_report
from viewer.readers.extras import read_extras

ROOT = Path(__file__).resolve().parents[2]
TEXT = ROOT / "profiles" / "naive.details.txt"
KEPT = "(kept from an earlier read)"


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A cache folder of the test's own (the cache on), and the folder its entries go to."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(read_cache.NO_CACHE, raising=False)
    return tmp_path / "cache" / read_cache.FOLDER


@pytest.fixture
def report_file(tmp_path) -> Path:
    copy = tmp_path / "naive.details.txt"
    shutil.copyfile(TEXT, copy)
    return copy


def kept(path: Path) -> bool:
    """Read `path`; whether the cache answered."""
    job = Job()
    read_report(path, job)
    return KEPT in job.message


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.entry"))


def test_a_file_read_again_unchanged_is_answered_from_the_cache(cache, report_file):
    first = read_report(report_file)
    assert not (cache / "x").exists() and len(entries(cache)) == 1
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    assert stat.S_IMODE(entries(cache)[0].stat().st_mode) == 0o600
    job = Job()
    again = read_report(report_file, job)
    assert KEPT in job.message
    assert again.kernels[0].metrics == first.kernels[0].metrics


def _rename_kernel(path: Path) -> None:
    """The same size and modification time, one letter of the kernel's name changed in place."""
    info = path.stat()
    data = path.read_bytes()
    at = data.index(b"matmul_naive")
    with path.open("r+b") as out:
        out.seek(at)
        out.write(b"M")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert path.stat().st_size == info.st_size
    assert path.stat().st_mtime_ns == info.st_mtime_ns


def test_a_file_rewritten_to_the_same_size_and_time_is_read_again(cache, report_file):
    assert read_report(report_file).kernels[0].name == "matmul_naive"
    _rename_kernel(report_file)
    assert not kept(report_file)
    assert read_report(report_file).kernels[0].name == "Matmul_naive"


def test_a_changed_file_is_read_again(cache, report_file):
    read_report(report_file)
    text = report_file.read_text(encoding="utf-8")
    report_file.write_text(text.replace("matmul_naive", "matmul_other"), encoding="utf-8")
    assert not kept(report_file)
    assert read_report(report_file).kernels[0].name == "matmul_other"


def test_a_file_replaced_by_a_copy_is_read_again(cache, report_file, tmp_path):
    """A new inode: the same bytes, size and time are another file."""
    read_report(report_file)
    copy = tmp_path / "copy"
    shutil.copy2(report_file, copy)
    os.utime(copy, ns=(report_file.stat().st_atime_ns, report_file.stat().st_mtime_ns))
    os.replace(copy, report_file)
    assert not kept(report_file)


def test_a_file_cut_short_is_read_again(cache, report_file):
    whole = read_report(report_file)
    assert not whole.cut_short
    data = report_file.read_bytes()
    report_file.write_bytes(data[: len(data) * 2 // 3])
    try:
        cut = read_report(report_file)
    except ReportError:
        return  # refused: not answered from the cache either
    assert cut.cut_short


@pytest.mark.parametrize("damage", ["cut", "flipped", "foreign JSON", "another key",
                                    "another schema", "pickle"])
def test_a_damaged_entry_is_read_past_and_replaced(cache, report_file, damage):
    read_report(report_file)
    [entry] = entries(cache)
    data = entry.read_bytes()
    planted = {
        "cut": data[: len(data) // 2],
        "flipped": data[:-40] + bytes([data[-40] ^ 0xFF]) + data[-39:],
        "foreign JSON": b'{"key": {}, "report": {"kernels": []}}',
        "another key": cache_format.encode(read_report(TEXT), {"size": 1}),
        "another schema": data.replace(cache_format.SCHEMA.to_bytes(2, "big"),
                                       (cache_format.SCHEMA + 1).to_bytes(2, "big"), 1),
        "pickle": b"cos\nsystem\n(S'touch planted'\ntR.",
    }[damage]
    entry.write_bytes(planted)
    assert not kept(report_file)
    assert entry.read_bytes() != planted  # dropped, and the file's read kept in its place
    assert kept(report_file)


def test_a_link_in_place_of_an_entry_is_never_followed_nor_replaced(cache, report_file,
                                                                    tmp_path):
    read_report(report_file)
    [entry] = entries(cache)
    target = tmp_path / "elsewhere"
    target.write_bytes(entry.read_bytes())
    target.chmod(0o600)  # an entry in all but its place
    entry.unlink()
    entry.symlink_to(target)
    assert not kept(report_file)
    assert not kept(report_file)
    assert entry.is_symlink() and target.read_bytes().startswith(cache_format.MAGIC)


def test_a_folder_others_may_write_to_is_not_used(cache, report_file, capfd):
    read_report(report_file)
    cache.chmod(0o777)
    try:
        assert not kept(report_file)
        [entry] = entries(cache)
        entry.unlink()
        assert not kept(report_file)
        assert entries(cache) == []
        assert "writable by others" in capfd.readouterr().err
    finally:
        cache.chmod(0o700)


def test_the_folder_as_a_link_is_not_used(cache, report_file, tmp_path):
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    cache.parent.mkdir()
    cache.symlink_to(real)
    read_report(report_file)
    assert not kept(report_file)
    assert list(real.iterdir()) == []


def test_a_refusal_is_not_kept(cache, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("==PROF== nothing here\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ReportError):
            read_report(bad)
    assert entries(cache) == []


def test_the_variable_reads_every_time_and_keeps_nothing(cache, report_file, monkeypatch):
    monkeypatch.setenv(read_cache.NO_CACHE, "1")
    assert not kept(report_file)
    assert not kept(report_file)
    assert not cache.exists() or entries(cache) == []


@pytest.mark.parametrize("flag", [[], ["--no-cache"]])
def test_no_cache_on_the_command_line_keeps_nothing(cache, report_file, flag):
    command = [sys.executable, "-m", "viewer", "summary", str(report_file), "--json", *flag]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    assert done.returncode == 0, done.stderr
    assert len(entries(cache)) == (0 if flag else 1)


def test_the_oldest_entries_are_dropped_beyond_the_bound(cache, tmp_path, monkeypatch):
    files = []
    for i in range(3):  # three files (three inodes) of one content: entries of one size
        files.append(tmp_path / f"{i}.details.txt")
        shutil.copyfile(TEXT, files[-1])
    read_report(files[0])
    [first] = entries(cache)
    monkeypatch.setattr(read_cache, "MAX_BYTES", first.stat().st_size * 2 + 100)
    for i, path in enumerate(files[1:], start=1):
        before = set(entries(cache))
        os.utime(first, (i, i))  # the first entry the least recently used
        read_report(path)
        for new in set(entries(cache)) - before:
            os.utime(new, (1_000_000 * i, 1_000_000 * i))
    assert not first.exists()
    assert sum(e.stat().st_size for e in entries(cache)) <= read_cache.MAX_BYTES
    assert kept(files[-1])
    assert not kept(files[0])


def test_two_processes_writing_at_once_leave_a_valid_cache(cache, report_file):
    report = read_report(report_file)
    [entry] = entries(cache)
    entry.unlink()
    with open(report_file, "rb") as f:
        info = os.fstat(f.fileno())
    key = read_cache.key_of(_Opened(report_file, info))
    spawn = multiprocessing.get_context("spawn")
    with spawn.Pool(4) as pool:
        read = pool.map(read_report, [report_file] * 8)  # each misses, reads and keeps at once
        pool.starmap(read_cache.store, [(key, report)] * 32)
    assert {r.kernels[0].name for r in read} == {report.kernels[0].name}
    assert [p.name for p in cache.iterdir()] == [entry.name]  # no half-written entry left
    assert kept(report_file)


class _Opened:
    """What key_of reads of an open file: its stamp and its ends."""

    def __init__(self, path: Path, info: os.stat_result) -> None:
        self.stamp = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
        self._data = path.read_bytes()

    def pread(self, size: int, at: int = 0) -> bytes:
        return self._data[at:at + size]


def test_a_report_from_the_cache_reads_more_of_its_file(cache, tmp_path):
    path = tmp_path / "naive.ncu-rep"
    shutil.copyfile(ROOT / "profiles" / "naive.ncu-rep", path)
    read_report(path)
    job = Job()
    report = read_report(path, job)
    assert KEPT in job.message and report.partial and report.source == str(path)
    kernel = report.kernels[0]
    wanted = "smsp__inst_executed.sum"
    assert not kernel.was_read(wanted)
    found = read_metrics(report, [0], [wanted])
    assert found[0][wanted] > 0
    assert read_extras(report, [0], rules=True)[0].rules
