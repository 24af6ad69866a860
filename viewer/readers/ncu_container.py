"""A .ncu-rep's container, walked in pure Python in bounded time and memory: its blocks for the
session (viewer.readers.ncu_session), and whether the file is whole (viewer.readers.ncu_rep notes
a report cut short). What its bytes show (ncu 2025.3.1, file version 7, every .ncu-rep in
tests/data):

    b"NVR\\0", u32 LE n, FileHeader (n bytes, protobuf: 1 = version)
    then blocks to the end of the file, each:
    u32 LE n, BlockHeader (n bytes, protobuf), then PayloadSize bytes (sources, results)

    BlockHeader: 1 NumSources, 2 NumResults, 3 SessionDetails (a message), 4 StringTable,
                 5 PayloadSize, 6 Process (pid, host, executable)

The first block holds the session's creation time; a block per source and per result follow;
after the results come the session's last blocks, its attributes and, last, the profiler's
command line (SessionDetails fields 8 and 11); another process's blocks (a graph's) may follow.

Real block headers are small (at most 135,453 bytes and 6 fields; the large field is a result
block's string table), so a header is read in windows of WINDOW bytes and parsed from memory, a
field longer than a window is seeked over, and a header past MAX_HEADER bytes or MAX_FIELDS
fields is damage. The blocks walked, the header bytes read and the time are capped too: a walk
of any file ends within about WALK_S seconds of CPU time (its thread's, so that a loaded machine
ends no walk early), holding a window and the session parts at most.

The container is whole when every block's header and payload lie inside the file and the file
ends at a block's end. A file cut inside a block is told so; one cut exactly at a block's end is
told only when the cut took the session's last blocks (no command line is met): a cut after them,
in another process's blocks, cannot be told from a whole file.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

MAGIC = b"NVR\x00"
KNOWN_VERSIONS = frozenset({7})  # the file versions whose session blocks are known
MAX_FILE_HEADER = 1 << 10
MAX_HEADER = 1 << 24  # bytes of one block header; real ones are at most 135,453
MAX_FIELDS = 1 << 8  # fields of one block header; real ones have 6
WINDOW = 1 << 12  # bytes of a block header read at once
MAX_READ = 1 << 28  # bytes of block headers read in all
MAX_BLOCKS = 1 << 20  # real reports have about ten blocks, and one per source and result
MAX_PART = 1 << 16  # one block's SessionDetails, bytes; a larger one is passed over
MAX_SESSION = 1 << 20  # all SessionDetails together, bytes
WALK_S = 1.0

# How a walk ended.
WHOLE = "whole"
CUT = "cut short"
DAMAGED = "damaged"
STOPPED = "stopped"  # by a cap, the deadline or a read that failed: nothing is known past it

RESULTS, SESSION_DETAILS, PAYLOAD_SIZE = 2, 3, 5  # block numbers (the capture helper copies them)
ATTRIBUTE, COMMAND_LINE = 8, 11  # SessionDetails fields


class Damaged(Exception):
    """The bytes stop making sense."""


class _Cut(Exception):
    """The file ends inside a block."""


@dataclass(frozen=True)
class Block:
    """One block header: the results it declares, its SessionDetails parts (each at most
    MAX_PART bytes), and whether its payload lies inside the file."""

    results: int
    details: tuple[bytes, ...]
    whole: bool


@dataclass(frozen=True)
class Container:
    """What a whole walk found: how it ended (WHOLE, CUT, DAMAGED, STOPPED), the file version,
    the results the blocks met declare (the cut one's included) and the cut block's own, and
    whether the session's last part (the profiler's command line) was met."""

    end: str
    version: int | None
    results: int
    cut_results: int
    command_line: bool
    whole_to: int = 0  # where the last whole block (else the file header) ends

    @property
    def damaged_past_results(self) -> bool:
        """Whether the blocks stop making sense after whole results, in a file version whose
        blocks are known: what ncu_report makes of the rest is garbage at best, minutes of
        work at worst (4 GiB of zeros after a report kept it busy for 50 s)."""
        return self.end == DAMAGED and self.version in KNOWN_VERSIONS

    def cut_reasons(self, read: int) -> list[str]:
        """Why the file looks cut short, given the `read` results ncu_report made of it."""
        reasons = []
        if self.end == CUT:
            reasons.append(f"its last block is cut short: {read} of its {self.results} results "
                           "are read" if self.cut_results and read < self.results
                           else "its last block is cut short")
        if self.end in (WHOLE, CUT) and self.version in KNOWN_VERSIONS and not self.command_line:
            reasons.append("the session blocks after its results are missing, so how it was "
                           "captured is unknown")
        return reasons


@contextlib.contextmanager
def binary(source: Path | BinaryIO) -> Iterator[BinaryIO]:
    """`source` opened for reading bytes, or `source` itself when it is an open file."""
    if isinstance(source, Path):
        with source.open("rb") as f:
            yield f
    else:
        yield source


def walk(source: Path | BinaryIO, seconds: float = WALK_S) -> Container:
    """The whole walk of the container at `source` (read from its start); never raises."""
    results = cut_results = 0
    command_line = False
    try:
        with binary(source) as f:
            blocks = Walk(f, seconds)
            for block in blocks:
                results += block.results
                cut_results = 0 if block.whole else block.results
                command_line = command_line or any(
                    _holds(part, COMMAND_LINE) for part in block.details)
    except (OSError, ValueError):
        return Container(STOPPED, None, results, cut_results, command_line)
    return Container(blocks.end, blocks.version, results, cut_results, command_line,
                     blocks.whole_to)


class Walk:
    """The blocks of the container `f` holds, in file order, from its start. After the walk
    `end` says how it ended, and `version` is the file header's."""

    def __init__(self, f: BinaryIO, seconds: float = WALK_S) -> None:
        self._f = f
        self._seconds = seconds
        self.end = STOPPED
        self.version: int | None = None
        self.whole_to = 0

    def __iter__(self) -> Iterator[Block]:
        self.end = STOPPED
        try:
            yield from self._blocks()
        except Damaged:
            self.end = DAMAGED
        except _Cut:
            self.end = CUT

    def _blocks(self) -> Iterator[Block]:
        f = self._f
        size = f.seek(0, os.SEEK_END)
        f.seek(0)
        if f.read(len(MAGIC)) != MAGIC:
            raise Damaged
        length = _u32(f)
        if length > MAX_FILE_HEADER:
            raise Damaged
        if len(head := f.read(length)) < length:
            raise _Cut
        self.version = next((v for n, v in fields(head) if n == 1 and isinstance(v, int)), None)
        self.whole_to = f.tell()
        deadline = time.thread_time() + self._seconds
        budget = _Budget()
        window = _Window(f.tell())
        for _ in range(MAX_BLOCKS):
            at = window.at + window.i
            if at == size:
                self.end = WHOLE
                return
            if time.thread_time() > deadline or budget.read > MAX_READ:
                return
            if at + 4 > size:
                raise _Cut
            if len(window.data) - window.i < min(size - at, 64):
                window.fill(f, at, budget)
            data, i = window.data, window.i
            length = int.from_bytes(data[i:i + 4], "little")
            if not 0 < length <= MAX_HEADER:
                raise Damaged
            if at + 4 + length > size:
                raise _Cut
            window.i += 4
            results, payload, details = _header(f, window, at + 4 + length, budget)
            end = at + 4 + length + payload
            yield Block(results, details, end <= size)
            if end > size:
                raise _Cut
            self.whole_to = end
            window.i += end - (window.at + window.i)


class _Budget:
    """The header bytes read so far and the SessionDetails bytes kept, of one walk."""

    def __init__(self) -> None:
        self.read = 0
        self.session = 0


class _Window:
    """Bytes of the file from `at` (`data`), and the place `i` in them the walk is at, which may
    lie past them."""

    def __init__(self, at: int) -> None:
        self.at, self.i, self.data = at, 0, b""

    def fill(self, f: BinaryIO, at: int, budget: _Budget) -> None:
        """WINDOW bytes from `at` on (fewer at the file's end)."""
        f.seek(at)
        self.at, self.i, self.data = at, 0, f.read(WINDOW)
        budget.read += len(self.data)


def _header(f: BinaryIO, window: _Window, end: int, budget: _Budget
            ) -> tuple[int, int, tuple[bytes, ...]]:
    """(NumResults, PayloadSize, SessionDetails parts) of the block header that starts at the
    window's place and ends at `end`, inside the file; parsed from the window, which is filled
    anew where a field runs past it (a field longer than a window is seeked over). The window is
    left at `end`."""
    data, at, i = window.data, window.at, window.i
    results = payload = 0
    details: list[bytes] = []
    for _ in range(MAX_FIELDS + 1):
        if at + i >= end:
            if at + i > end:
                raise Damaged
            window.i = i
            return results, payload, tuple(details)
        if len(data) - i < 32 and at + len(data) < end:  # a key and a varint fit in 20 bytes
            window.fill(f, at + i, budget)
            data, at, i = window.data, window.at, 0
        key = data[i] if i < len(data) else 0x80  # most keys and values are one byte
        key, i = (key, i + 1) if key < 0x80 else _varint_at(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value = data[i] if i < len(data) else 0x80
            value, i = (value, i + 1) if value < 0x80 else _varint_at(data, i)
            if number == RESULTS:
                results = value
            elif number == PAYLOAD_SIZE:
                payload = value
        elif wire == 2:
            size, i = _varint_at(data, i)
            if at + i + size > end:
                raise Damaged
            if number == SESSION_DETAILS and size <= MAX_PART \
                    and budget.session + size <= MAX_SESSION:
                part = data[i:i + size] if i + size <= len(data) else _read_at(f, at + i, size)
                budget.session += size
                details.append(part)
            i += size
        elif wire in (1, 5):
            i += 8 if wire == 1 else 4
        else:
            raise Damaged
    raise Damaged


def _read_at(f: BinaryIO, at: int, size: int) -> bytes:
    f.seek(at)
    data = f.read(size)
    if len(data) < size:
        raise Damaged
    return data


def _u32(f: BinaryIO) -> int:
    data = f.read(4)
    if len(data) < 4:
        raise _Cut
    return int.from_bytes(data, "little")


def fields(data: bytes) -> Iterator[tuple[int, int | bytes]]:
    """(field number, value) of a protobuf message held in memory: varints as ints,
    length-delimited as bytes; fixed-width fields are passed over. Damaged when it is not one."""
    i = 0
    while i < len(data):
        key, i = _varint_at(data, i)
        number, wire = divmod(key, 8)
        if wire == 0:
            value, i = _varint_at(data, i)
            yield number, value
        elif wire == 2:
            length, i = _varint_at(data, i)
            if i + length > len(data):
                raise Damaged
            yield number, data[i:i + length]
            i += length
        elif wire in (1, 5):
            i += 8 if wire == 1 else 4
            if i > len(data):
                raise Damaged
        else:
            raise Damaged


def _varint_at(data: bytes, i: int) -> tuple[int, int]:
    value = 0
    for shift in range(0, 70, 7):
        if i >= len(data):
            raise Damaged
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, i
    raise Damaged


def _holds(part: bytes, number: int) -> bool:
    """Whether the SessionDetails `part` holds a field `number` (False when it is damaged)."""
    try:
        return any(n == number for n, _ in fields(part))
    except Damaged:
        return False
