"""The lines of a text export, read safely: UTF-8 (a byte-order mark passed over), UTF-16 and
binary files refused, a line longer than any ncu prints read past in pieces, never held whole,
and whether the last line ended (a file cut short mid-line does not)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from viewer.core.model import Report, ReportError
from viewer.readers._utf16 import UTF16_REASON, is_utf16

# No ncu export prints a line this long: the rest of a longer one is passed over unread.
LONGEST_LINE = 1 << 20
CUT_SHORT = "the file looks cut short"


def open_text(path: Path, what: str) -> TextIO:
    """The file as UTF-8 text; UTF-16 and binary files refused (`what`: the format, in words)."""
    with path.open("rb") as f:
        start = f.read(4096)
    if is_utf16(start):
        raise ReportError(path, UTF16_REASON)
    if b"\x00" in start:
        raise ReportError(path, f"a binary file, not {what}")
    encoding = "utf-8-sig" if start.startswith(b"\xef\xbb\xbf") else "utf-8"
    return path.open(encoding=encoding, errors="replace")


class Lines:
    """The lines of `f` without their ends, None in place of one longer than LONGEST_LINE;
    after the walk, `unended` says whether the last line had no newline, `count` how many
    lines there were and `overlong` how many were too long."""

    def __init__(self, f: TextIO) -> None:
        self._f = f
        self.unended = False
        self.count = 0
        self.overlong = 0

    def __iter__(self) -> Iterator[str | None]:
        f = self._f
        for raw in iter(lambda: f.readline(LONGEST_LINE), ""):
            self.count += 1
            if len(raw) < LONGEST_LINE or raw.endswith("\n"):
                self.unended = not raw.endswith("\n")
                yield raw.rstrip("\n")
                continue
            while (rest := f.readline(LONGEST_LINE)) and not rest.endswith("\n"):
                pass
            self.unended = not rest
            self.overlong += 1
            yield None


def unended(path: Path) -> bool:
    """Whether the file's last byte is not a newline (a file ncu wrote ends with one)."""
    with path.open("rb") as f:
        f.seek(0, 2)
        if f.tell() == 0:
            return False
        f.seek(-1, 2)
        return f.read(1) != b"\n"


def cut_short(why: str) -> str:
    """The note a reader leaves on a report whose file ends too early: `why` says how."""
    return f"{CUT_SHORT} ({why}): the last kernel's values may be incomplete"


def mark_cut_short(report: Report, why: str) -> None:
    """Record that `report`'s file looks cut short, `why` saying how: the one way to, so that the
    reason is in `Report.cut_short` and its sentence (cut_short) in `Report.notes`."""
    if why not in report.cut_short:
        report.cut_short.append(why)
        report.notes.append(cut_short(why))


def settle_cut_short(report: Report) -> None:
    """Take into `Report.cut_short` the reason of each note cut_short made that a reader appended
    to `Report.notes` without mark_cut_short."""
    head, tail = f"{CUT_SHORT} (", "): the last kernel's values may be incomplete"
    for note in report.notes:
        if note.startswith(head) and note.endswith(tail):
            why = note[len(head) : -len(tail)]
            if why not in report.cut_short:
                report.cut_short.append(why)


UNENDED = "its last line has no newline"
"""Why a text or CSV export looks cut short: ncu ends every line it prints."""
