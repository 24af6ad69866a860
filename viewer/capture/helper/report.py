"""The report ncu wrote: opened without following links, checked whole (its container walked),
and streamed on stdout, so that root writes nothing the user controls.

A .ncu-rep's container (viewer/readers/ncu_container.py has what its bytes show; that module
is the user's code here, so the few facts the helper needs are copied and checked against it):
the magic, u32 LE n, a file header of n bytes (protobuf, 1 = version); then blocks to the
file's end, each u32 LE n, a block header of n bytes (protobuf: 2 NumResults, 3 SessionDetails,
5 PayloadSize), then PayloadSize bytes. The session's last block holds the profiler's command
line (SessionDetails field 11), in the file versions whose blocks are known.
"""

from __future__ import annotations

import os
import stat

from .command import REPORT_STEM
from .protocol import (
    EXIT_NO_REPORT,
    EXIT_TOO_LARGE,
    EXIT_UNTRUSTED,
    MAX_REPORT_BYTES,
    REPORT_MAGIC,
    Refusal,
)

REPORT_RESULTS = 1
"""The results a capture's report holds: one kernel launch (`--launch-count 1`)."""
REPORT_KNOWN_VERSIONS = frozenset({7})
REPORT_MAX_FILE_HEADER = 1 << 10
REPORT_MAX_HEADER = 1 << 24
"""Bytes of one block header; real ones are at most 135,453."""
REPORT_MAX_BLOCKS = 1 << 16
"""A capture of one launch has about ten blocks, one per source file and result."""
REPORT_MAX_FIELDS = 1 << 8
REPORT_MAX_PART = 1 << 16
"""A SessionDetails larger than this is passed over, not parsed (real ones are at most 8,425)."""
BLOCK_RESULTS, BLOCK_SESSION_DETAILS, BLOCK_PAYLOAD_SIZE = 2, 3, 5
SESSION_COMMAND_LINE = 11


def open_report(report_dir: str) -> tuple[int, int]:
    """The report ncu wrote, opened: no links, a regular file, under the cap, with the report
    magic, whole (`report_problem`). Returns (fd, size)."""
    path = os.path.join(report_dir, REPORT_STEM + ".ncu-rep")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        raise Refusal(EXIT_NO_REPORT, "ncu wrote no report") from None
    except OSError as exc:
        raise Refusal(EXIT_UNTRUSTED, f"the report is not a plain file ncu wrote "
                      f"({exc.strerror}); refused") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refusal(EXIT_UNTRUSTED, "the report is not a regular file; refused")
        if st.st_size > MAX_REPORT_BYTES:
            raise Refusal(EXIT_TOO_LARGE, f"the report is {st.st_size:,} bytes, over the "
                          f"{MAX_REPORT_BYTES:,}-byte cap")
        if os.pread(fd, len(REPORT_MAGIC), 0) != REPORT_MAGIC:
            raise Refusal(EXIT_NO_REPORT, "ncu's output is not an Nsight Compute report")
        problem = report_problem(fd, st.st_size)
        if problem is not None:
            raise Refusal(EXIT_NO_REPORT, f"ncu's report is not whole ({problem}; a full "
                          "disk?): nothing was sent")
    except BaseException:
        os.close(fd)
        raise
    return fd, st.st_size


class _Broken(Exception):
    """What is wrong with a report's container, in words."""


def report_problem(fd: int, size: int) -> str | None:
    """Why the report at `fd` (`size` bytes, at most MAX_REPORT_BYTES, its magic checked) is
    not whole, or None: every block's header and payload inside the file, the file ending at a
    block's end, REPORT_RESULTS results, and, in a known file version, the session's last block
    (the profiler's command line) met. Bounded: REPORT_MAX_BLOCKS headers of at most
    REPORT_MAX_HEADER bytes, each parsed to at most REPORT_MAX_FIELDS fields."""
    try:
        version, results, command_line = _walk_report(fd, size)
    except _Broken as broken:
        return str(broken)
    if results != REPORT_RESULTS:
        return f"it holds {results} results, not the {REPORT_RESULTS} asked for"
    if version in REPORT_KNOWN_VERSIONS and not command_line:
        return "the session's last blocks are missing: it ends after its results"
    return None


def _walk_report(fd: int, size: int) -> tuple[int | None, int, bool]:
    """(the file version, the results the blocks declare, whether the command line was met)."""
    at = len(REPORT_MAGIC)
    length = _report_u32(fd, at, size, "its file header")
    if length > REPORT_MAX_FILE_HEADER:
        raise _Broken(f"its file header would be {length:,} bytes")
    head = _report_read(fd, at + 4, length, size, "its file header")
    version = next((v for n, v in _fields(head) if n == 1 and isinstance(v, int)), None)
    at += 4 + length
    results, command_line = 0, False
    for _ in range(REPORT_MAX_BLOCKS):
        if at == size:
            return version, results, command_line
        length = _report_u32(fd, at, size, "a block")
        if not 0 < length <= REPORT_MAX_HEADER:
            raise _Broken(f"a block header at byte {at:,} would be {length:,} bytes")
        header = _report_read(fd, at + 4, length, size, "a block header")
        payload = 0
        for number, value in _fields(header):
            if number == BLOCK_RESULTS and isinstance(value, int):
                results += value
            elif number == BLOCK_PAYLOAD_SIZE and isinstance(value, int):
                payload = value
            elif number == BLOCK_SESSION_DETAILS and isinstance(value, bytes):
                command_line = command_line or _holds_command_line(value)
        at += 4 + length + payload
        if at > size:
            raise _Broken("its last block is cut short")
    raise _Broken(f"it has more than {REPORT_MAX_BLOCKS:,} blocks")


def _holds_command_line(part: bytes) -> bool:
    """Whether a block's SessionDetails holds the profiler's command line; a part
    past REPORT_MAX_PART bytes, or one that does not parse, does not."""
    if len(part) > REPORT_MAX_PART:
        return False
    try:
        return any(number == SESSION_COMMAND_LINE for number, _ in _fields(part))
    except _Broken:
        return False


def _report_u32(fd: int, at: int, size: int, what: str) -> int:
    return int.from_bytes(_report_read(fd, at, 4, size, what), "little")


def _report_read(fd: int, at: int, length: int, size: int, what: str) -> bytes:
    if at + length > size:
        raise _Broken(f"{what} is cut short")
    data = os.pread(fd, length, at)
    if len(data) < length:
        raise _Broken(f"{what} is cut short")
    return data


def _fields(data: bytes) -> list[tuple[int, int | bytes]]:
    """(field number, value) of a protobuf message, at most REPORT_MAX_FIELDS of them: varints
    as ints, length-delimited fields as bytes, fixed-width ones passed over."""
    found: list[tuple[int, int | bytes]] = []
    i = 0
    while i < len(data):
        if len(found) >= REPORT_MAX_FIELDS:
            raise _Broken(f"a header holds more than {REPORT_MAX_FIELDS} fields")
        key, i = _varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(data, i)
            found.append((number, value))
        elif wire == 2:
            length, i = _varint(data, i)
            if i + length > len(data):
                raise _Broken("a header's field runs past its end")
            found.append((number, data[i:i + length]))
            i += length
        elif wire in (1, 5):
            i += 8 if wire == 1 else 4
            if i > len(data):
                raise _Broken("a header's field runs past its end")
        else:
            raise _Broken("a header is not a protobuf message")
    return found


def _varint(data: bytes, i: int) -> tuple[int, int]:
    value = 0
    for shift in range(0, 70, 7):
        if i >= len(data):
            raise _Broken("a header's number runs past its end")
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, i
    raise _Broken("a header's number is longer than ten bytes")


def send_report(fd: int, size: int) -> int:
    """Stream the opened report to stdout (fd 1, unbuffered); returns the bytes sent."""
    sent = 0
    while sent < size:
        chunk = os.pread(fd, min(size - sent, 1 << 20), sent)
        if not chunk:
            break
        view = memoryview(chunk)
        while view:
            view = view[os.write(1, view):]
        sent += len(chunk)
    return sent


def no_report_reason(lines: list[str]) -> str:
    errors = [line for line in lines if "==ERROR==" in line or "==WARNING==" in line]
    return f"ncu wrote no report: {errors[-1]}" if errors else "ncu wrote no report"
