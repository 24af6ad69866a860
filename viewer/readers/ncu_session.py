"""How ncu captured a report, read from the report itself: clock control, ncu and CUDA versions,
creation time, the profiler's command line (viewer.core.model.Session).

ncu_report does not expose the session, so a .ncu-rep's container is walked here, in pure Python
and bounded. What its bytes show (ncu 2025.3.1, file version 7, every .ncu-rep in tests/data):

    b"NVR\\0", u32 LE n, FileHeader (n bytes, protobuf: 1 = version)
    then blocks to the end of the file, each:
    u32 LE n, BlockHeader (n bytes, protobuf), then PayloadSize bytes (sources, results)

    BlockHeader: 1 NumSources, 2 NumResults, 3 SessionDetails (a message), 4 StringTable,
                 5 PayloadSize, 6 Process (pid, host, executable)

The session is spread over small blocks with no payload: the first block holds its creation time
(SessionDetails field 2, Unix seconds) and the host; blocks after the results hold its attributes
(field 8, repeated {1 name, 2 value}: "CUDA Version", "Nsight Compute Target", ...) and the
profiler's command line (field 11). The walk reads each block header's fields from the file and
seeks over string tables and payloads, so a large report is never read whole; each session part
read is capped, and so are the blocks walked. A text export holds no session, but each kernel
there carries ncu's warning when clocks were not locked; that line is the report's evidence.

Reading never raises: a file that is not such a container, or is cut short or garbled, gives
what was read before the damage, or None; absent fields are None.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

from viewer.core.model import Session
from viewer.readers.sniff import DETAILS_TEXT, NCU_REP

MAGIC = b"NVR\x00"
MAX_FILE_HEADER = 1 << 10
MAX_PART = 1 << 16  # one block's SessionDetails, bytes; a larger one is skipped
MAX_SESSION = 1 << 20  # all SessionDetails together, bytes
MAX_BLOCKS = 1 << 20
MAX_TEXT = 1 << 24  # bytes of a text export searched for ncu's warning
MAX_TIME = 1 << 40  # Unix seconds beyond this are not a creation time

# SessionDetails fields, and the attribute names ncu prints on `--page session`.
_CREATED, _ATTRIBUTE, _COMMAND_LINE = 2, 8, 11
_SESSION_DETAILS, _PAYLOAD_SIZE = 3, 5
CUDA_VERSION = "CUDA Version"
NCU_VERSION = "Nsight Compute Target"

# ncu's documented default for --clock-control: the clocks are locked to base.
DEFAULT_CLOCK_CONTROL = "base"
_CLOCK = re.compile(r"(?:^|\s)--clock-control(?:=|\s+)([A-Za-z]+)(?=\s|$)")
# In a text export, under each kernel: "Warning: Data collection happened without fixed GPU
# frequencies. ..." (and ncu's stdout prints it after "==WARNING==").
_UNLOCKED = re.compile(r"^\s*((?:==WARNING==\s*|Warning:\s*)Data collection happened without "
                       r"fixed GPU frequencies\b.*?)\s*$")


class _Damaged(Exception):
    """The bytes stop making sense: what was read so far is kept."""


def read(path: Path, fmt: str) -> Session | None:
    """The session `path` records (a .ncu-rep's, or a details text's warning), else None."""
    try:
        if fmt == NCU_REP:
            return container_session(path)
        if fmt == DETAILS_TEXT:
            return text_session(path)
    except (OSError, ValueError):
        return None
    return None


def clock_control(command_line: str) -> tuple[str, str]:
    """--clock-control's value in ncu's `command_line` and what told it, ncu's default when the
    line names none."""
    match = _CLOCK.search(command_line)
    if match:
        return match.group(1).lower(), "its profiler command line"
    return DEFAULT_CLOCK_CONTROL, ("ncu's default: its profiler command line names no "
                                   "--clock-control")


def container_session(path: Path) -> Session | None:
    """A .ncu-rep's session, from the SessionDetails parts of its block headers."""
    created = command_line = None
    attributes: dict[str, str] = {}
    with path.open("rb") as f:
        for part in _session_parts(f):
            try:
                for number, value in _fields(part):
                    if number == _CREATED and isinstance(value, int):
                        created = value
                    elif number == _COMMAND_LINE and isinstance(value, bytes):
                        command_line = _text(value) or command_line
                    elif number == _ATTRIBUTE and isinstance(value, bytes):
                        attributes.update(_attribute(value))
            except _Damaged:
                continue
            if created is not None and command_line and NCU_VERSION in attributes \
                    and CUDA_VERSION in attributes:
                break  # all there is to read: the rest of a large report is left alone
    if created is None and command_line is None and not attributes:
        return None
    clock, source = clock_control(command_line) if command_line else (None, None)
    return Session(clock_control=clock, clock_source=source,
                   ncu_version=attributes.get(NCU_VERSION),
                   cuda_version=attributes.get(CUDA_VERSION), created=_iso(created),
                   command_line=command_line)


def text_session(path: Path) -> Session | None:
    """A details text's clock evidence: ncu's warning that clocks were not fixed, else None."""
    read_bytes = 0
    with path.open("rb") as f:
        for raw in f:
            read_bytes += len(raw)
            if read_bytes > MAX_TEXT:
                return None
            match = _UNLOCKED.match(raw.decode("utf-8", "replace"))
            if match:
                return Session(clock_control="none", clock_source="ncu's own warning in it",
                               warning=match.group(1))
    return None


def _session_parts(f: BinaryIO) -> Iterator[bytes]:
    """Each block header's SessionDetails, in file order; stops at the first damage."""
    if f.read(len(MAGIC)) != MAGIC:
        return
    size_of_file = os.fstat(f.fileno()).st_size
    try:
        size = _u32(f)
        if size > MAX_FILE_HEADER:
            return
        f.seek(size, 1)
        total = 0
        for _ in range(MAX_BLOCKS):
            head = f.read(4)
            if not head:
                return
            if len(head) < 4:
                raise _Damaged
            end = f.tell() + int.from_bytes(head, "little")
            payload = 0
            while f.tell() < end:
                number, wire = divmod(_varint(f), 8)
                if wire == 0:
                    value = _varint(f)
                    if number == _PAYLOAD_SIZE:
                        payload = value
                elif wire == 2:
                    length = _varint(f)
                    if f.tell() + length > end:
                        raise _Damaged
                    if number == _SESSION_DETAILS and length <= MAX_PART \
                            and total + length <= MAX_SESSION:
                        part = f.read(length)
                        if len(part) < length:
                            raise _Damaged
                        total += length
                        yield part
                    else:
                        f.seek(length, 1)
                elif wire in (1, 5):
                    f.seek(8 if wire == 1 else 4, 1)
                else:
                    raise _Damaged
            if f.tell() != end or end + payload > size_of_file:
                raise _Damaged
            f.seek(payload, 1)
    except _Damaged:
        return


def _u32(f: BinaryIO) -> int:
    data = f.read(4)
    if len(data) < 4:
        raise _Damaged
    return int.from_bytes(data, "little")


def _varint(f: BinaryIO) -> int:
    value = 0
    for shift in range(0, 70, 7):
        byte = f.read(1)
        if not byte:
            raise _Damaged
        value |= (byte[0] & 0x7F) << shift
        if byte[0] < 0x80:
            return value
    raise _Damaged


def _fields(data: bytes) -> Iterator[tuple[int, int | bytes]]:
    """(field number, value) of a protobuf message: varints as ints, length-delimited as bytes;
    fixed-width fields are passed over."""
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
                raise _Damaged
            yield number, data[i:i + length]
            i += length
        elif wire in (1, 5):
            i += 8 if wire == 1 else 4
            if i > len(data):
                raise _Damaged
        else:
            raise _Damaged


def _varint_at(data: bytes, i: int) -> tuple[int, int]:
    value = 0
    for shift in range(0, 70, 7):
        if i >= len(data):
            raise _Damaged
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, i
    raise _Damaged


def _attribute(data: bytes) -> dict[str, str]:
    """{name: value} of one session attribute ({1 name, 2 value}); {} when it is not one."""
    found = dict(_fields(data))
    name, value = found.get(1), found.get(2)
    if isinstance(name, bytes) and isinstance(value, bytes) and _text(name) and _text(value):
        return {_text(name) or "": _text(value) or ""}
    return {}


def _text(data: bytes) -> str | None:
    text = data.decode("utf-8", "replace").strip()
    return text or None


def _iso(seconds: int | None) -> str | None:
    if seconds is None or not 0 < seconds < MAX_TIME:
        return None
    try:
        return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")
    except (OverflowError, OSError, ValueError):
        return None
