"""A file's stamp (device, inode, size, modification time), to tell when it was rewritten.

The .ncu-rep reader starts a child per slice of a report, and each child opens the file anew; ncu
may meanwhile write a new report to the same path. Comparing stamps before and after each child
(and before reading more of a report opened earlier) refuses to splice two files into one report.
"""

from __future__ import annotations

import os
from pathlib import Path

from viewer.core.model import FileStamp, ReportError


def stamp(path: Path) -> FileStamp:
    """The stamp of the file at `path` now; ReportError when it cannot be looked at."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise ReportError(path, f"cannot be read ({exc.strerror or exc})") from None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def check(path: Path, expected: FileStamp, since: str = "while it was being read") -> None:
    """ReportError unless the file at `path` still has the stamp `expected`."""
    now = stamp(path)
    if now == expected:
        return
    what = [word for word, a, b in zip(("device", "inode", "size", "modification time"),
                                       expected, now, strict=True) if a != b]
    raise ReportError(path, f"was rewritten {since} (its {', '.join(what)} changed):"
                      " open it again")
