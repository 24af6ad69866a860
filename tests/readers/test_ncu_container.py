"""The .ncu-rep container walk (viewer.readers.ncu_container): whole for every real report, bounded
in time and memory on any input, and what it tells of a report cut short."""

from __future__ import annotations

import importlib.util
import io
import struct
import time
import tracemalloc
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from viewer.core.model import Session
from viewer.readers import ncu_container, ncu_session

ROOT = Path(__file__).resolve().parents[2]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
NAIVE = ROOT / "profiles" / "naive.ncu-rep"
REPORTS = sorted(H200.glob("*.ncu-rep")) + sorted((ROOT / "profiles").glob("*.ncu-rep"))
BOUND_S = 2.0
BOUND_BYTES = 64 << 20


def _builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_big_csv",
                                                  ROOT / "benchmarks" / "make_big_csv.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def blocks(path: Path) -> tuple[int, list[tuple[int, int, int]]]:
    """The end of the file header and each block's (start, end, results), by the benchmark's own
    parser of the container, not the one tested."""
    head, found = _builder().report_blocks(path)
    spans, at = [], len(head)
    for block, results in found:
        spans.append((at, at + len(block), results))
        at += len(block)
    return len(head), spans


def bounded(walk: object) -> tuple[object, float, int]:
    """`walk()`'s answer, the seconds it took and the peak bytes it allocated."""
    tracemalloc.start()
    start = time.thread_time()
    try:
        found = walk()  # type: ignore[operator]
        return found, time.thread_time() - start, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("report", REPORTS, ids=lambda p: p.name)
def test_every_real_report_is_whole(report: Path) -> None:
    container = ncu_container.walk(report)
    _, spans = blocks(report)
    assert container == ncu_container.Container(
        end=ncu_container.WHOLE, version=7, results=sum(r for _, _, r in spans), cut_results=0,
        command_line=True, whole_to=report.stat().st_size)
    assert container.cut_reasons(container.results) == []
    with report.open("rb") as f:
        f.read(100)  # the walk starts at the file's start wherever the file was left
        assert ncu_container.walk(f) == container
    assert ncu_container.walk(io.BytesIO(report.read_bytes())) == container


def test_the_caps_lie_far_above_every_real_header() -> None:
    """The largest real block header (a result block's, its string table) and the most fields."""
    largest = fields = 0
    for report in REPORTS:
        data = report.read_bytes()
        for start, _, _ in blocks(report)[1]:
            (size,) = struct.unpack_from("<I", data, start)
            header = data[start + 4:start + 4 + size]
            largest = max(largest, size)
            fields = max(fields, sum(1 for _ in ncu_container.fields(header)))
    assert (largest, fields) == (135_453, 6)
    assert 100 * largest < ncu_container.MAX_HEADER and 40 * fields < ncu_container.MAX_FIELDS


def _tiny_fields(tmp_path: Path, own_block: bool) -> Path:
    """naive.ncu-rep with 10 MiB of one-byte unknown fields before its last block: as a block
    of their own, or in the last block's header, its length prefix made to cover them."""
    data = NAIVE.read_bytes()
    last = blocks(NAIVE)[1][-1][0]
    junk = b"\x78\x00" * (5 << 20)
    if own_block:
        inserted = struct.pack("<I", len(junk)) + junk + data[last:]
    else:
        (size,) = struct.unpack_from("<I", data, last)
        inserted = struct.pack("<I", size + len(junk)) + junk + data[last + 4:]
    path = tmp_path / "tiny-fields.ncu-rep"
    path.write_bytes(data[:last] + inserted)
    return path


@pytest.mark.parametrize("own_block", [True, False], ids=["own-block", "in-the-last-header"])
def test_a_header_of_millions_of_tiny_fields_is_damage_told_at_once(tmp_path: Path,
                                                                    own_block: bool) -> None:
    path = _tiny_fields(tmp_path, own_block)
    session, seconds, peak = bounded(lambda: ncu_session.container_session(path))
    assert seconds < BOUND_S and peak < BOUND_BYTES
    assert session is not None and session.cuda_version == "13.0"
    assert session.command_line is None  # it lies past the damage
    container, seconds, peak = bounded(lambda: ncu_container.walk(path))
    assert seconds < BOUND_S and peak < BOUND_BYTES
    assert container.end == ncu_container.DAMAGED  # type: ignore[attr-defined]


def test_a_4_gib_file_is_walked_in_bounded_time_and_memory(tmp_path: Path) -> None:
    """A sparse file stands for one at the size cap: zeros after the real blocks up to the
    results (the session's last blocks are looked for past them), or one block whose payload
    declares nearly all of it."""
    zeros = tmp_path / "zeros.ncu-rep"
    results_end = next(end for _, end, results in blocks(NAIVE)[1] if results)
    zeros.write_bytes(NAIVE.read_bytes()[:results_end])
    with zeros.open("r+b") as f:
        f.truncate(4 << 30)
    container, seconds, peak = bounded(lambda: ncu_container.walk(zeros))
    assert seconds < BOUND_S and peak < BOUND_BYTES
    assert container.end == ncu_container.DAMAGED  # type: ignore[attr-defined]
    session, seconds, peak = bounded(lambda: ncu_session.container_session(zeros))
    assert seconds < BOUND_S and peak < BOUND_BYTES and session is not None
    huge = tmp_path / "huge.ncu-rep"
    header = b"\x10\x00\x28" + _varint((4 << 30) - 64)
    huge.write_bytes(NAIVE.read_bytes()[:10] + struct.pack("<I", len(header)) + header)
    with huge.open("r+b") as f:
        f.truncate(10 + 4 + len(header) + (4 << 30) - 64)
    container, seconds, peak = bounded(lambda: ncu_container.walk(huge))
    assert seconds < BOUND_S and peak < BOUND_BYTES
    assert container.end == ncu_container.WHOLE  # type: ignore[attr-defined]


def test_millions_of_tiny_blocks_are_walked_in_bounded_time(tmp_path: Path) -> None:
    path = tmp_path / "tiny-blocks.ncu-rep"
    path.write_bytes(NAIVE.read_bytes()[:10] + b"\x02\x00\x00\x00\x08\x00" * (2 << 20))
    container, seconds, peak = bounded(lambda: ncu_container.walk(path))
    assert seconds < BOUND_S and peak < BOUND_BYTES
    assert container.end == ncu_container.STOPPED  # type: ignore[attr-defined]


def _varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    return bytes(out + bytes([value]))


@pytest.mark.parametrize("endless", ["dev-zero", "one-600-mb-line"])
def test_a_text_with_no_newline_is_read_in_bounded_memory(tmp_path: Path, endless: str) -> None:
    path = tmp_path / "endless.details.txt"
    if endless == "dev-zero":
        path.symlink_to("/dev/zero")
    else:
        with path.open("wb") as f:
            f.write(b"Warning: Data collection happened without fixed GPU frequencies.")
            f.truncate(600 << 20)
    session, seconds, peak = bounded(lambda: ncu_session.text_session(path))
    assert session is None
    assert seconds < 10 * BOUND_S and peak < BOUND_BYTES


def test_the_warning_after_an_overlong_line_is_found(tmp_path: Path) -> None:
    warning = "Warning: Data collection happened without fixed GPU frequencies. Profiling ..."
    path = tmp_path / "long.details.txt"
    path.write_bytes(b"x" * (3 << 20) + f"{warning}\n".encode() + f"  {warning} \n".encode())
    session = ncu_session.text_session(path)
    assert session is not None and session.warning == warning
    spaces = tmp_path / "spaces.details.txt"  # no backtracking over a long run of spaces
    spaces.write_bytes(f"{warning}{' ' * 500_000}x\n".encode())
    _, seconds, _ = bounded(lambda: ncu_session.text_session(spaces))
    assert seconds < BOUND_S
    with path.open("rb") as f:
        f.read(10)
        assert ncu_session.text_session(f) == session


SMALL = (H200 / "workloads-kernels-and-graph.ncu-rep", NAIVE)
FUZZ = settings(max_examples=300, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def damaged_container(draw: st.DrawFn) -> bytes:
    """A real report cut (anywhere, or at a block's start or end), bit-flipped or overwritten in
    its block framing, with a slice repeated, or a block's length prefix rewritten."""
    source = draw(st.sampled_from(SMALL))
    data = source.read_bytes()
    spans = blocks(source)[1]
    start, end, _ = draw(st.sampled_from(spans))
    how = draw(st.sampled_from(["cut", "cut-at-block", "flip", "overwrite", "repeat", "prefix"]))
    if how == "cut":
        return data[:draw(st.integers(0, len(data)))]
    if how == "cut-at-block":
        return data[:draw(st.sampled_from([start, end])) + draw(st.integers(-8, 8))]
    out = bytearray(data)
    if how == "flip":
        for at in draw(st.lists(st.integers(start, min(end, start + 300) - 1), min_size=1)):
            out[at] ^= 1 << draw(st.integers(0, 7))
    elif how == "overwrite":
        at = draw(st.integers(start, end - 1))
        noise = draw(st.binary(min_size=1, max_size=64))
        out[at:at + len(noise)] = noise
    elif how == "repeat":
        piece = data[start:min(end, start + draw(st.integers(1, 4096)))]
        out[start:start] = piece * draw(st.integers(1, 3))
    else:
        out[start:start + 4] = struct.pack("<I", draw(st.integers(0, (1 << 32) - 1)))
    return bytes(out)


@FUZZ
@given(data=damaged_container())
def test_a_damaged_container_never_raises_and_is_walked_in_bounded_time(data: bytes) -> None:
    start = time.thread_time()
    container = ncu_container.walk(io.BytesIO(data))
    session = ncu_session.container_session(io.BytesIO(data))
    assert time.thread_time() - start < BOUND_S
    assert container.end in (ncu_container.WHOLE, ncu_container.CUT, ncu_container.DAMAGED)
    assert container.cut_results <= container.results
    assert session is None or isinstance(session, Session)


@pytest.mark.parametrize("report", SMALL, ids=lambda p: p.name)
def test_every_cut_is_told_but_one_at_a_block_s_end(report: Path) -> None:
    """Cut inside a block, the container is cut short; cut at a block's end, it looks whole,
    and only the missing command line (the session's last block) tells the cut."""
    data = report.read_bytes()
    head, spans = blocks(report)
    command_line = next(i for i, (start, end, _) in enumerate(spans)
                        if ncu_container.walk(io.BytesIO(data[:end])).command_line)
    for i, (start, end, results) in enumerate(spans):
        (size,) = struct.unpack_from("<I", data, start)
        for at in {start + 1, start + 4, start + 5, start + 4 + size, (start + end) // 2,
                   end - 1} - {end}:
            cut = ncu_container.walk(io.BytesIO(data[:at]))
            assert cut.end == ncu_container.CUT, at
            assert cut.cut_results == (results if at >= start + 4 + size else 0)
            assert cut.cut_reasons(0)
        whole = ncu_container.walk(io.BytesIO(data[:end]))
        assert whole.end == ncu_container.WHOLE
        assert whole.results == sum(r for _, _, r in spans[:i + 1])
        assert whole.command_line == (i >= command_line)
        assert bool(whole.cut_reasons(whole.results)) == (i < command_line)
    assert ncu_container.walk(io.BytesIO(data[:head])).end == ncu_container.WHOLE
