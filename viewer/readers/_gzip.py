"""Gzip-compressed reports and exports (how they travel by mail and chat), read transparently.

A file that starts with gzip's magic is judged by its decompressed head, and read from a private
copy: decompressed once, in pieces, into a temporary folder only this user can enter, then every
pass reads the copy. Gzip inside gzip (a file compressed twice) is unwrapped, up to MAX_LAYERS.
What a damaged or hostile file may cost is bounded, and it is refused as soon as it passes a
bound: the size its format may have, MAX_MEMBERS members, and a ratio no report reaches (past
RATIO_FROM bytes, more than MAX_RATIO decompressed bytes per compressed byte: a gzip bomb), so a
small bomb fills neither memory nor disk.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import zlib
from collections.abc import Iterator
from pathlib import Path

from viewer.core.model import ReportError
from viewer.readers import _opened

MAGIC = b"\x1f\x8b"
_GZIP_WBITS = 16 + zlib.MAX_WBITS
_CHUNK = 1 << 20
_MIB = 1 << 20
MAX_LAYERS = 4
"""Gzip inside gzip this deep is unwrapped; deeper is refused."""
MAX_MEMBERS = 1 << 12
"""Members of one gzip stream (`cat a.gz b.gz` makes two); real files have one."""
RATIO_FROM = 16 * _MIB
MAX_RATIO = 250
"""Real exports decompress 4- to 20-fold; gzip's most is about 1,030-fold."""

CUT_SHORT_GZIP = "its gzip data ends before its last member does"
"""Why a compressed export looks cut short."""


def is_gzip(head: bytes) -> bool:
    return head.startswith(MAGIC)


class _Taken:
    """Compressed bytes taken in from the file itself, for the ratio of every layer."""

    def __init__(self) -> None:
        self.count = 0


class Stream:
    """The decompressed bytes of the compressed `pieces` (a file's, or another layer's), in
    pieces of at most _CHUNK bytes, bounded as the module says (the ratio against `taken`, the
    file's own compressed bytes read so far); `ended` says, after the walk, whether its last
    member ended (False: the compressed data was cut short)."""

    def __init__(self, pieces: Iterator[bytes], named: Path, limit: int, taken: _Taken) -> None:
        self._pieces = pieces
        self.named = named
        self.limit = limit
        self.taken = taken
        self.ended = False

    def __iter__(self) -> Iterator[bytes]:
        total = members = 0
        try:
            d = zlib.decompressobj(_GZIP_WBITS)
            buf = b""
            while True:
                if not buf:
                    buf = next(self._pieces, b"")
                    if not buf:
                        return
                out = d.decompress(buf, _CHUNK)
                total += len(out)
                self._check(total)
                if out:
                    yield out
                if not d.eof:
                    self.ended = False
                    buf = d.unconsumed_tail
                    continue
                self.ended = True
                members += 1
                buf = d.unused_data
                while len(buf) < len(MAGIC) and (more := next(self._pieces, b"")):
                    buf += more
                if not buf.startswith(MAGIC):  # no further member: trailing bytes ignored
                    return
                if members >= MAX_MEMBERS:
                    raise ReportError(self.named, "is gzip-compressed in more than"
                                      f" {MAX_MEMBERS:,} members: the file is damaged")
                d = zlib.decompressobj(_GZIP_WBITS)
        except zlib.error as exc:
            raise ReportError(self.named, f"is gzip-compressed but damaged ({exc})") from None

    def _check(self, total: int) -> None:
        if total > self.limit:
            raise ReportError(self.named, "is gzip-compressed and decompresses to more than"
                              f" {self.limit / _MIB:,.0f} MiB, the most read")
        if total > RATIO_FROM and total > MAX_RATIO * max(self.taken.count, 1):
            raise ReportError(self.named, "is gzip-compressed and decompresses more than"
                              f" {MAX_RATIO}-fold, as no report does: a gzip bomb?")


class Layers:
    """The innermost decompressed bytes of a gzip file, its layers unwrapped (a layer whose
    first bytes are gzip's magic is decompressed again, up to MAX_LAYERS); `ended`, after the
    walk, says whether every layer's last member ended."""

    def __init__(self, source: _opened.Opened, limit: int) -> None:
        taken = _Taken()
        self.streams: list[Stream] = []
        pieces = _file_pieces(source, taken)
        for depth in range(MAX_LAYERS):
            stream = Stream(pieces, source.path, limit, taken)
            self.streams.append(stream)
            start, pieces = _peek(iter(stream), len(MAGIC))
            if not is_gzip(start):
                break
            if depth == MAX_LAYERS - 1:
                raise ReportError(source.path,
                                  f"is gzip-compressed more than {MAX_LAYERS} times over")
        self._pieces = pieces

    def __iter__(self) -> Iterator[bytes]:
        return self._pieces

    @property
    def ended(self) -> bool:
        return all(stream.ended for stream in self.streams)


_FILE_PIECE = 64 << 10
"""Compressed bytes read at a time: the ratio counts what was read, so a bomb's first piece
lets out at most MAX_RATIO times this before it is refused (16 MiB, not 250 MiB)."""


def _file_pieces(source: _opened.Opened, taken: _Taken) -> Iterator[bytes]:
    while piece := source.pread(_FILE_PIECE, taken.count):
        taken.count += len(piece)
        yield piece


def _peek(pieces: Iterator[bytes], size: int) -> tuple[bytes, Iterator[bytes]]:
    """The first `size` bytes of `pieces`, and `pieces` again from their start."""
    held: list[bytes] = []
    got = 0
    for piece in pieces:
        held.append(piece)
        got += len(piece)
        if got >= size:
            break
    return b"".join(held)[:size], itertools.chain(held, pieces)


def head(source: _opened.Opened, size: int) -> bytes:
    """The first `size` decompressed bytes of the gzip file `source` (its layers unwrapped)."""
    out = bytearray()
    for piece in Layers(source, limit=1 << 62):
        out += piece
        if len(out) >= size:
            break
    if not out:
        raise ReportError(source.path, "is gzip-compressed and empty")
    return bytes(out[:size])


def _inner_name(path: Path) -> str:
    """The name the file had before it was compressed ('naive.ncu-rep'), when it is plain."""
    name = path.name
    for suffix in (".gz", ".gzip", ".GZ"):
        while name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "report"
    return name or "report"


@contextlib.contextmanager
def decompressed(source: _opened.Opened, limit: int) -> Iterator[tuple[_opened.Opened, bool]]:
    """A private decompressed copy of the gzip file `source` (at most `limit` bytes, its
    layers unwrapped), opened, and whether its compressed data ended as it should; the copy is
    removed after."""
    with _opened.private_folder() as folder:
        copy = folder / _inner_name(source.path)
        stream = Layers(source, limit)
        fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        try:
            with os.fdopen(fd, "wb") as out:
                for piece in stream:
                    out.write(piece)
        except OSError as exc:
            raise ReportError(source.path,
                              f"cannot be decompressed ({exc.strerror or exc})") from None
        if os.path.getsize(copy) == 0:
            raise ReportError(source.path, "is gzip-compressed and empty")
        with _opened.opened(copy) as plain:
            yield plain, stream.ended


@contextlib.contextmanager
def readable(source: _opened.Opened, limit: int) -> Iterator[tuple[_opened.Opened, bool]]:
    """`source` itself, or its decompressed copy when it is gzip-compressed (see
    `decompressed`); with whether the compressed data ended as it should (True for a plain
    file)."""
    if not is_gzip(source.pread(len(MAGIC))):
        yield source, True
        return
    with decompressed(source, limit) as found:
        yield found
