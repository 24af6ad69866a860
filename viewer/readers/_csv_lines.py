"""The line-length bound of ncu's CSV exports, checked before a CSV parser is handed the file.

A CSV parser holds a whole line (pandas, the csv module): a damaged file of one 2 GB line would
be read into memory for tens of seconds before anything could be said. No ncu export prints a
line near LONGEST_LINE (the longest in the corpus, a raw page row of ~2,250 metrics, is 135 kB),
so a longer one is damage, found by scanning the file in pieces for newlines: each piece at most
LONGEST_LINE long, so only the gap across its first and last newline needs measuring.
"""

from __future__ import annotations

from pathlib import Path

from viewer.core.model import ReportError

LONGEST_LINE = 8 << 20
_MIB = 1 << 20


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
