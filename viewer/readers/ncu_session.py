"""How ncu captured a report, read from the report itself: clock control, ncu and CUDA versions,
creation time, the profiler's command line (viewer.core.model.Session).

ncu_report does not expose the session, so a .ncu-rep's container is walked here, in the parent
and bounded (viewer.readers.ncu_container says how). The session is spread over small blocks with
no payload: the first block holds its creation time (SessionDetails field 2, Unix seconds) and
the host; blocks after the results hold its attributes (field 8, repeated {1 name, 2 value}:
"CUDA Version", "Nsight Compute Target", ...) and the profiler's command line (field 11). The walk
stops once all of them are read, so the rest of a large report is left alone. A text export holds
no session, but each kernel there carries ncu's warning when clocks were not locked; that line is
the report's evidence. Its lines are read a bounded piece at a time, the first MAX_TEXT bytes.

Reading never raises: a file that is not such a container, or is cut short or garbled, gives
what was read before the damage, or None; absent fields are None.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

from viewer.core.model import Session
from viewer.readers._text_lines import LONGEST_LINE
from viewer.readers.ncu_container import ATTRIBUTE, COMMAND_LINE, Damaged, Walk, binary, fields
from viewer.readers.sniff import DETAILS_TEXT, NCU_REP

MAX_TEXT = 1 << 24  # bytes of a text export searched for ncu's warning
MAX_TIME = 1 << 40  # Unix seconds beyond this are not a creation time

# SessionDetails's creation time, and the attribute names ncu prints on `--page session`.
_CREATED = 2
CUDA_VERSION = "CUDA Version"
NCU_VERSION = "Nsight Compute Target"

# ncu's documented default for --clock-control: the clocks are locked to base.
DEFAULT_CLOCK_CONTROL = "base"
_CLOCK = re.compile(r"(?:^|\s)--clock-control(?:=|\s+)([A-Za-z]+)(?=\s|$)")
# In a text export, under each kernel: "Warning: Data collection happened without fixed GPU
# frequencies. ..." (and ncu's stdout prints it after "==WARNING=="). Matched on a stripped line,
# so that no backtracking over its end can take more than linear time.
_UNLOCKED = re.compile(r"(?:==WARNING==\s*|Warning:\s*)Data collection happened without fixed "
                       r"GPU frequencies\b.*")


def read(path: Path | BinaryIO, fmt: str) -> Session | None:
    """The session `path` records (a .ncu-rep's, or a details text's warning), else None; `path`
    may be the file opened for reading bytes."""
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


def container_session(source: Path | BinaryIO) -> Session | None:
    """A .ncu-rep's session, from the SessionDetails parts of its block headers."""
    created = command_line = None
    attributes: dict[str, str] = {}
    with binary(source) as f:
        for block in Walk(f):
            for part in block.details:
                try:
                    for number, value in fields(part):
                        if number == _CREATED and isinstance(value, int):
                            created = value
                        elif number == COMMAND_LINE and isinstance(value, bytes):
                            command_line = _text(value) or command_line
                        elif number == ATTRIBUTE and isinstance(value, bytes):
                            attributes.update(_attribute(value))
                except Damaged:
                    continue
            if created is not None and command_line and NCU_VERSION in attributes \
                    and CUDA_VERSION in attributes:
                break  # all there is to read: the rest of a large report is left alone
    if created is None and command_line is None and not attributes:
        return None
    clock, source_ = clock_control(command_line) if command_line else (None, None)
    return Session(clock_control=clock, clock_source=source_,
                   ncu_version=attributes.get(NCU_VERSION),
                   cuda_version=attributes.get(CUDA_VERSION), created=_iso(created),
                   command_line=command_line)


def text_session(source: Path | BinaryIO) -> Session | None:
    """A details text's clock evidence: ncu's warning that clocks were not fixed, else None.
    Lines are read LONGEST_LINE bytes at most at a time; a longer one is passed over."""
    read_bytes = 0
    with binary(source) as f:
        if not isinstance(source, Path) and f.seekable():
            f.seek(0)
        continued = False  # the piece goes on a line longer than LONGEST_LINE
        while raw := f.readline(LONGEST_LINE):
            read_bytes += len(raw)
            if read_bytes > MAX_TEXT:
                return None
            whole = not continued and (raw.endswith(b"\n") or len(raw) < LONGEST_LINE)
            continued = not raw.endswith(b"\n")
            match = _UNLOCKED.match(raw.decode("utf-8", "replace").strip()) if whole else None
            if match:
                return Session(clock_control="none", clock_source="ncu's own warning in it",
                               warning=match.group(0))
    return None


def _attribute(data: bytes) -> dict[str, str]:
    """{name: value} of one session attribute ({1 name, 2 value}); {} when it is not one."""
    found = dict(fields(data))
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
