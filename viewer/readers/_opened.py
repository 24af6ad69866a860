"""A report file opened once: every later pass over it reads that same file.

A file is judged and then read in several passes (its head sniffed, its kernels read, its session
walked, a .ncu-rep's children one after another). Opening it by name for each would let a file
swapped meanwhile be read in place of the one judged: a FIFO (an open for reading blocks for
ever), a link to /dev/zero (a read that never ends), another report (a count spliced from two).
So the file is opened once, without blocking, and refused unless it is a regular file; each later
pass opens `here`, the descriptor's own name under /proc, which reaches the same file whatever is
at the path now (a child given the descriptor, `pass_fds`, opens it by the same name). Where
/proc is not mounted, `here` is the path itself, and the stamp checks still refuse a file that
changed between passes.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from viewer.core.model import FileStamp, ReportError

_PROC_FD = Path("/proc/self/fd")
NOT_REGULAR = ("is not a regular file (a pipe, a device or a socket): save the report as a file"
               " and open that")


@dataclass(frozen=True)
class Opened:
    """One open report file: `path` as named (for every message), its descriptor, its size and
    stamp when opened, and `here`, a name that opens this same file."""

    path: Path
    fd: int
    size: int
    stamp: FileStamp
    here: Path

    def pread(self, size: int, at: int = 0) -> bytes:
        """At most `size` bytes from offset `at` (the descriptor's own offset left alone)."""
        try:
            return os.pread(self.fd, size, at)
        except OSError as exc:
            raise ReportError(self.path, f"cannot be read ({exc.strerror or exc})") from None

    def check(self, expected: FileStamp | None = None,
              since: str = "while it was being read") -> None:
        """ReportError unless the file has the stamp `expected` (else the one it had when
        opened: it was not rewritten in place)."""
        expected = self.stamp if expected is None else expected
        now = _stamp_of(os.fstat(self.fd))
        if now == expected:
            return
        what = [word for word, a, b in zip(("device", "inode", "size", "modification time"),
                                           expected, now, strict=True) if a != b]
        raise ReportError(self.path, f"was rewritten {since} (its {', '.join(what)} changed):"
                          " open it again")


@contextlib.contextmanager
def private_folder() -> Iterator[Path]:
    """A temporary folder only this user can enter, removed with what it holds."""
    folder = Path(tempfile.mkdtemp(prefix="ncu-reader-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def named(source: Opened) -> Iterator[Path]:
    """A name for `source` that opens the same file as `here` does and ends in the file's own
    name (a reader that names what it read, from a path's name or stem, names the file and not
    its descriptor): a link in a private folder to `here`, removed after; `path` itself where
    /proc is missing."""
    if source.here == source.path:
        yield source.path
        return
    with private_folder() as folder:
        name = source.path.name
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            name = "report"
        link = folder / (name or "report")
        os.symlink(source.here, link)
        yield link


def _stamp_of(info: os.stat_result) -> FileStamp:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def _here(fd: int, path: Path) -> Path:
    here = _PROC_FD / str(fd)
    return here if here.exists() else path


@contextlib.contextmanager
def opened(path: Path) -> Iterator[Opened]:
    """The regular file at `path`, opened once for the block; ReportError (naming `path`) for a
    missing, unreadable or empty file, a directory, a pipe or a device. Never blocks."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise ReportError(path, "no such file") from None
    except IsADirectoryError:
        raise ReportError(path, "is a directory, not a report file") from None
    except OSError as exc:
        raise ReportError(path, f"cannot be read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ReportError(path, "is a directory, not a report file")
        if not stat.S_ISREG(info.st_mode):
            raise ReportError(path, NOT_REGULAR)
        if info.st_size == 0:
            raise ReportError(path, "is empty")
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
        yield Opened(path=path, fd=fd, size=info.st_size, stamp=_stamp_of(info),
                     here=_here(fd, path))
    finally:
        os.close(fd)
