"""The line-length bound of ncu's CSV exports, checked before a CSV parser is handed the file.

A CSV parser holds a whole line (pandas, the csv module): a damaged file of one 2 GB line would
be read into memory for tens of seconds before anything could be said. No ncu export prints a
line near LONGEST_LINE (the longest in the corpus, a raw page row of ~2,250 metrics, is 135 kB),
so a longer one is damage, found by scanning the file in pieces for newlines: each piece at most
LONGEST_LINE long, so only the gap across its first and last newline needs measuring.

The CSV readers also read a file through UpToLastLine (a line cut short is never parsed) and
check its first row's width before pandas sees it (check_first_row).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from viewer.core.model import ReportError

LONGEST_LINE = 8 << 20
_MIB = 1 << 20
# Blank lines passed over in search of the first row under the header.
FIRST_ROW_LINES = 1000


def check_lines(path: Path, longest: int = LONGEST_LINE) -> None:
    """ReportError when a line of the file at `path` is longer than `longest` bytes; reads
    `longest` bytes at a time, never more."""
    line, length = 1, 0  # the line now scanned (1-based), and its bytes seen so far
    try:
        with path.open("rb") as f:
            while piece := f.read(longest):
                first = piece.find(b"\n")
                if length + (len(piece) if first < 0 else first) > longest:
                    raise ReportError(path, f"line {line:,} is longer than {longest / _MIB:,.0f}"
                                      " MiB; no ncu export prints a line that long")
                if first < 0:
                    length += len(piece)
                    continue
                line += piece.count(b"\n")
                length = len(piece) - piece.rfind(b"\n") - 1
    except OSError as exc:
        raise ReportError(path, f"cannot be read ({exc.strerror or exc})") from None


class UpToLastLine:
    """A binary file read up to its last newline: a file cut short mid-line (its last line has
    no newline) is read as the whole lines before the cut, never as a row cut in two (inside
    a quoted value, where a byte cut of ncu's CSV nearly always lands, the parser would refuse
    the whole file). The cut is said by the caller (`_text_lines.unended`)."""

    def __init__(self, f: BinaryIO) -> None:
        self._f = f
        size = f.seek(0, os.SEEK_END)
        start = max(0, size - LONGEST_LINE - 1)
        f.seek(start)
        tail = f.read()
        newline = tail.rfind(b"\n")
        self.end = start + newline + 1 if newline >= 0 else 0
        f.seek(0)

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        return self._f.seek(offset, whence)

    def tell(self) -> int:
        return self._f.tell()

    def read(self, size: int = -1) -> bytes:
        left = max(0, self.end - self._f.tell())
        return self._f.read(left if size is None or size < 0 else min(size, left))

    def readline(self, size: int = -1) -> bytes:
        left = max(0, self.end - self._f.tell())
        return self._f.readline(left if size is None or size < 0 else min(size, left))

    def __iter__(self) -> Iterator[bytes]:
        while line := self.readline():
            yield line


def check_first_row(path: Path, f: UpToLastLine, line: int, fields: int) -> None:
    """Refuse a first row with more fields than the header: pandas would take its first fields
    for an index (no error, and slow: minutes for 100,000 fields). Leaves `f` where it was."""
    start, number = f.tell(), line
    text = f.readline()
    while text and not text.strip() and number < line + FIRST_ROW_LINES:
        text, number = f.readline(), number + 1
    f.seek(start)
    found = next(csv.reader([text.decode("utf-8", "replace").rstrip("\r\n")]), [])
    if len(found) > fields:
        raise ReportError(path, f"line {number:,} has {len(found):,} fields, more than its"
                          f" header's {fields:,}: the file is damaged")
