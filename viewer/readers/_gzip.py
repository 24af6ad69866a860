"""Gzip-compressed reports and exports (how they travel by mail and chat), read transparently.

A file that starts with gzip's magic is judged by its decompressed head, and read from a private
copy: decompressed in pieces into a temporary folder only this user can enter, never past the
size its format may have (so a small bomb fills neither memory nor disk), removed after.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import zlib
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path

from viewer.core.model import ReportError

MAGIC = b"\x1f\x8b"
_GZIP_WBITS = 16 + zlib.MAX_WBITS
_CHUNK = 1 << 20
_MIB = 1 << 20


def is_gzip(head: bytes) -> bool:
    return head.startswith(MAGIC)


@dataclass
class Stream:
    """The decompressed bytes of a gzip file in pieces; `ended` says whether its last member
    ended (False after the walk: the compressed file was cut short)."""

    path: Path
    limit: int
    ended: bool = False

    def __iter__(self) -> Iterator[bytes]:
        return self.pieces()

    def pieces(self) -> Generator[bytes, None, None]:
        total = 0
        try:
            with self.path.open("rb") as f:
                d = zlib.decompressobj(_GZIP_WBITS)
                buf = b""
                while True:
                    if not buf:
                        buf = f.read(_CHUNK)
                        if not buf:
                            return
                    out = d.decompress(buf, _CHUNK)
                    total += len(out)
                    if total > self.limit:
                        raise ReportError(self.path, "is gzip-compressed and decompresses to more"
                                          f" than {self.limit / _MIB:,.0f} MiB, the most read")
                    if out:
                        yield out
                    if not d.eof:
                        self.ended = False
                        buf = d.unconsumed_tail
                        continue
                    self.ended = True
                    buf = d.unused_data
                    if len(buf) < len(MAGIC):
                        buf += f.read(_CHUNK)
                    if not buf.startswith(MAGIC):  # no further member: trailing bytes ignored
                        return
                    d = zlib.decompressobj(_GZIP_WBITS)
        except zlib.error as exc:
            raise ReportError(self.path, f"is gzip-compressed but damaged ({exc})") from None
        except OSError as exc:
            raise ReportError(self.path, f"cannot be read ({exc.strerror or exc})") from None


def head(path: Path, size: int) -> bytes:
    """The first `size` decompressed bytes of the gzip file at `path`."""
    out = bytearray()
    with contextlib.closing(Stream(path, limit=1 << 62).pieces()) as pieces:
        for piece in pieces:
            out += piece
            if len(out) >= size:
                break
    if not out:
        raise ReportError(path, "is gzip-compressed and empty")
    return bytes(out[:size])


def _inner_name(path: Path) -> str:
    """The name the file had before it was compressed ('naive.ncu-rep'), when it is plain."""
    name = path.name
    for suffix in (".gz", ".gzip", ".GZ"):
        if name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
            break
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "report"
    return name


@contextlib.contextmanager
def private_folder() -> Iterator[Path]:
    """A temporary folder only this user can enter, removed with what it holds."""
    folder = Path(tempfile.mkdtemp(prefix="ncu-reader-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def decompressed(path: Path, limit: int) -> Iterator[tuple[Path, bool]]:
    """A private decompressed copy of the gzip file at `path` (at most `limit` bytes), and
    whether its compressed data ended as it should; the copy is removed after."""
    with private_folder() as folder:
        copy = folder / _inner_name(path)
        stream = Stream(path, limit)
        fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "wb") as out:
                for piece in stream:
                    out.write(piece)
        except OSError as exc:
            raise ReportError(path, f"cannot be decompressed ({exc.strerror or exc})") from None
        yield copy, stream.ended


@contextlib.contextmanager
def readable(path: Path, limit: int) -> Iterator[tuple[Path, bool]]:
    """`path` itself, or its decompressed copy when it is gzip-compressed (see `decompressed`);
    with whether the compressed data ended as it should (True for a plain file)."""
    with path.open("rb") as f:
        compressed = is_gzip(f.read(len(MAGIC)))
    if not compressed:
        yield path, True
        return
    with decompressed(path, limit) as found:
        yield found


CUT_SHORT_GZIP = "its gzip data ends before its last member does"
"""Why a compressed export looks cut short."""
