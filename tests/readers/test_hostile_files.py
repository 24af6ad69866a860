"""Hostile files refused in bounded time and memory, and files swapped while they are read: each
input made here from the shipped reports, as a damaged download or a hostile sender makes it.

A refusal is one line on stderr naming the file, exit status 1, no traceback, under REFUSE_CPU_S
of CPU time and REFUSE_MIB of memory for the whole `python -m viewer summary` run (its start
included: about 0.5 s and 80 MiB for a good file). CPU time, measured by the kernel, is the
bound: it holds on a loaded machine where wall time would not.
"""

from __future__ import annotations

import gzip
import json
import os
import struct
import threading
import zlib
from functools import cache
from pathlib import Path

import pytest

from tests.costs import Cost, run_viewer
from viewer.core.jobs import Job
from viewer.core.model import Report, ReportError
from viewer.readers import _gzip, read_report

ROOT = Path(__file__).resolve().parents[2]
PROFILES = ROOT / "profiles"
NAIVE_REP = PROFILES / "naive.ncu-rep"
NAIVE_CSV = PROFILES / "naive.details.csv"
NAIVE_TXT = PROFILES / "naive.details.txt"
REFUSE_CPU_S = 2.0
REFUSE_MIB = 500


@cache
def first_read(source: Path) -> Report:
    """read_report(source) of a shipped file, read once for the tests here that compare a
    wrapped, swapped or cut copy with it (none changes it)."""
    return read_report(source)


def refused(path: Path, reason: str) -> Cost:
    """`summary PATH`, checked to be a bounded one-line refusal matching `reason`."""
    cost = run_viewer("summary", str(path))
    lines = cost.stderr.strip().splitlines()
    assert cost.status == 1, cost.stderr
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}: "), cost.stderr
    assert reason in lines[0], lines[0]
    assert "Traceback" not in cost.stderr and not cost.stdout.strip()
    assert cost.cpu_s < REFUSE_CPU_S, f"{cost.cpu_s:.2f} s of CPU to refuse {path.name}"
    assert cost.peak_mib < REFUSE_MIB, f"{cost.peak_mib:.0f} MiB to refuse {path.name}"
    return cost


@pytest.mark.parametrize(("name", "data"), [
    ("blank-lines.txt", b"\n" * 256_000),
    ("blank-lines-crlf.txt", b"\r\n" * 256_000),
    ("spaced-lines.txt", b" \t\n" * 256_000),
    ("a-line-of-spaces.txt", b" " * (1 << 20)),
], ids=["blank lines", "CRLF lines", "blank lines with spaces", "one line of spaces"])
def test_text_of_blanks_is_refused_at_once(tmp_path: Path, name: str, data: bytes) -> None:
    """The format checks' patterns once ran across newlines (`^\\s*`): 256,000 blank lines
    took 280 s to refuse."""
    path = tmp_path / name
    path.write_bytes(data)
    refused(path, "not an Nsight Compute report or export")


def test_many_empty_gzip_members_are_refused_at_once(tmp_path: Path) -> None:
    """Every empty member was walked by Python, three times over, and a CSV after them read."""
    empty = gzip.compress(b"", mtime=0)
    path = tmp_path / "members.csv.gz"
    path.write_bytes(empty * (_gzip.MAX_MEMBERS + 10) + gzip.compress(NAIVE_CSV.read_bytes()))
    refused(path, f"more than {_gzip.MAX_MEMBERS:,} members")


def test_a_gzip_bomb_is_refused_before_it_is_written_out(tmp_path: Path) -> None:
    """A CSV head, then 1 GiB of blanks compressed a thousand-fold: refused once the ratio
    passes what any report has, not after the format's whole size cap was written to disk."""
    head = NAIVE_CSV.read_bytes()[:4096]
    path = tmp_path / "bomb.csv.gz"
    blanks = b" " * (1 << 20)
    path.write_bytes(gzip_of(head, blanks, 1024))
    assert path.stat().st_size < (4 << 20)
    refused(path, "a gzip bomb")


def gzip_of(head: bytes, block: bytes, times: int) -> bytes:
    """One gzip member of head + block * times, block compressed once: a full flush after
    each resets the compressor, so every block compresses to the same bytes (deflating 1 GiB
    cost seconds of CPU)."""
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    start = squeeze.compress(head) + squeeze.flush(zlib.Z_FULL_FLUSH)
    packed = squeeze.compress(block) + squeeze.flush(zlib.Z_FULL_FLUSH)
    assert squeeze.compress(block) + squeeze.flush(zlib.Z_FULL_FLUSH) == packed
    crc = zlib.crc32(head)
    for _ in range(times):
        crc = zlib.crc32(block, crc)
    size = len(head) + len(block) * times
    header = b"\x1f\x8b\x08\x00" + bytes(4) + b"\x02\xff"  # deflate, no name, mtime 0
    return (header + start + packed * times + squeeze.flush()
            + struct.pack("<II", crc, size & 0xFFFFFFFF))


def gzipped(data: bytes, times: int) -> bytes:
    for _ in range(times):
        data = gzip.compress(data, mtime=0)
    return data


@pytest.mark.parametrize("source", [NAIVE_CSV, NAIVE_TXT, NAIVE_REP], ids=lambda p: p.name)
def test_a_report_gzipped_over_and_over_reads_as_the_plain_one(tmp_path: Path,
                                                               source: Path) -> None:
    path = tmp_path / f"{source.name}.gz.gz.gz"
    path.write_bytes(gzipped(source.read_bytes(), 3))
    plain, wrapped = first_read(source), read_report(path)
    assert wrapped.source == str(path) and wrapped.format == plain.format
    assert [dict(k.metrics) for k in wrapped.kernels] == [dict(k.metrics) for k in plain.kernels]
    assert wrapped.session == plain.session and wrapped.cut_short == []


@pytest.mark.parametrize("times", [_gzip.MAX_LAYERS + 1, 1000])
def test_gzip_inside_gzip_past_the_most_is_refused_in_one_line(tmp_path: Path,
                                                                times: int) -> None:
    """A thousand layers once ended in RecursionError."""
    path = tmp_path / "deep.csv.gz"
    path.write_bytes(gzipped(NAIVE_CSV.read_bytes()[:2048], times))
    refused(path, f"gzip-compressed more than {_gzip.MAX_LAYERS} times over")


# --- a file swapped for something else while it is read ---------------------------------------

SWAPS = ["fifo", "/dev/zero", "another report"]


def swap(path: Path, how: str) -> None:
    """Put a named pipe, a link to /dev/zero or another report where `path` was."""
    spare = path.with_name("spare")
    if how == "fifo":
        os.mkfifo(spare)
    elif how == "/dev/zero":
        os.symlink("/dev/zero", spare)
    else:
        spare.write_bytes(PROFILES.joinpath("tiled" + "".join(path.suffixes)).read_bytes())
    os.replace(spare, path)


def read_swapped(path: Path, how: str) -> object:
    """read_report(path), the file swapped (`swap`) once its format is judged; the read runs in
    a thread given 120 s, so that a hang fails the test rather than stopping the run."""
    def progress(_fraction: float, message: str) -> None:
        if message.startswith("reading ") and "(" in message:
            swap(path, how)

    found: dict[str, object] = {}

    def run() -> None:
        try:
            found["report"] = read_report(path, Job(progress))
        except ReportError as exc:
            found["report"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(120)
    if worker.is_alive():
        with path.open("wb"):  # a reader blocked on the pipe is let go
            pass
        raise AssertionError(f"reading {path.name} hung once it became a {how}")
    return found["report"]


@pytest.mark.parametrize("how", SWAPS)
@pytest.mark.parametrize("source", [NAIVE_CSV, NAIVE_TXT, NAIVE_REP], ids=lambda p: p.name)
def test_a_file_swapped_while_it_is_read_is_read_whole_as_it_was(tmp_path: Path, source: Path,
                                                                 how: str) -> None:
    """The format is judged on the file opened; every later pass (the kernels, the session, a
    .ncu-rep's child) reads that same file, whatever is put at its path meanwhile: it never
    blocks on a pipe, never reads /dev/zero, never splices two reports."""
    path = tmp_path / source.name
    path.write_bytes(source.read_bytes())
    plain = first_read(source)
    report = read_swapped(path, how)
    assert not isinstance(report, ReportError), report
    assert [dict(k.metrics) for k in report.kernels] == [dict(k.metrics) for k in plain.kernels]
    assert report.session == plain.session


@pytest.mark.parametrize("how", ["fifo", "/dev/zero"])
def test_a_pipe_or_device_given_by_name_is_refused_at_once(tmp_path: Path, how: str) -> None:
    path = tmp_path / "report.ncu-rep"
    path.write_bytes(b"")
    swap(path, how)
    refused(path, "is not a regular file")


def test_a_gzipped_file_swapped_while_it_is_read_is_read_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "naive.details.csv.gz"
    path.write_bytes(gzip.compress(NAIVE_CSV.read_bytes()))
    report = read_swapped(path, "fifo")
    assert not isinstance(report, ReportError), report
    assert [dict(k.metrics) for k in report.kernels] == [
        dict(k.metrics) for k in first_read(NAIVE_CSV).kernels]


def test_zeros_after_a_report_cost_no_more_than_the_report(tmp_path: Path) -> None:
    """4 GiB of zeros after the shipped report (a download that wrote its size first): ncu_report
    worked through them for 50 s in 4 GiB; the blocks that make sense are read, and said so."""
    path = tmp_path / "padded.ncu-rep"
    path.write_bytes(NAIVE_REP.read_bytes())
    with path.open("r+b") as f:
        f.truncate(4 * (1 << 30) - 1)
    cost = run_viewer("summary", "--json", str(path))
    assert cost.status == 0, cost.stderr
    doc = json.loads(cost.stdout)
    assert [k["metrics"] for k in doc["kernels"]] == [
        k["metrics"] for k in json.loads(run_viewer("summary", "--json", str(NAIVE_REP)).stdout)
        ["kernels"]]
    assert doc["cut_short"] == [f"its blocks stop making sense at byte {NAIVE_REP.stat().st_size:,}"
                                f" of {path.stat().st_size:,}: the results before that are read"]
    assert cost.cpu_s < REFUSE_CPU_S and cost.peak_mib < REFUSE_MIB


def test_a_report_whose_blocks_stop_before_any_result_is_refused(tmp_path: Path) -> None:
    data = NAIVE_REP.read_bytes()
    path = tmp_path / "zeroed.ncu-rep"
    path.write_bytes(data[:64] + bytes(len(data) - 64))
    refused(path, "before any result: the report looks corrupt")


@pytest.mark.parametrize("source", [NAIVE_CSV, NAIVE_TXT, PROFILES / "naive.raw.csv",
                                    ROOT / "tests/data/corpus/h200/workloads-kernels-and-graph"
                                    ".details.csv"], ids=lambda p: p.name)
def test_an_export_cut_at_any_byte_shows_no_wrong_number(tmp_path: Path, source: Path) -> None:
    """Cut anywhere (a download stopped halfway): refused in one line, or read with cut_short
    said and every value shown equal to the whole file's. A details CSV cut inside a quoted value
    (where nearly every byte cut lands) was refused whole; its whole lines are read now."""
    data = source.read_bytes()
    whole = first_read(source)
    values = {(k.index, name): value for k in whole.kernels for name, value in k.metrics.items()}
    read = tried = 0
    for at in range(len(data) // 3, len(data) - 1, max(1, len(data) // 40)):
        tried += 1
        path = tmp_path / f"cut-{at}-{source.name}"
        path.write_bytes(data[:at])
        try:
            report = read_report(path)
        except ReportError as exc:
            assert str(exc).startswith(f"{path}: ") and "\n" not in str(exc)
            continue
        read += 1
        assert report.cut_short, f"cut at byte {at} of {len(data)} read as whole"
        for kernel in report.kernels:
            for name, value in kernel.metrics.items():
                assert values.get((kernel.index, name)) == value, (at, kernel.index, name)
    if source.suffix == ".csv" and "raw" not in source.name:
        assert read == tried, "a details CSV cut in its rows is read as far as it goes"
