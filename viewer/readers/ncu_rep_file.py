"""The .ncu-rep file as the reader's children read it (viewer.readers.ncu_rep): the file itself
or a private copy (decompressed, or the whole blocks before damage), its magic checked, and the
name a child opens it by."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from viewer.core.model import ReportError
from viewer.readers import _gzip, _opened, ncu_container
from viewer.readers._text_lines import cut_short
from viewer.readers.sniff import MAX_BYTES, NCU_REP, NCU_REP_MAGIC


@dataclass(frozen=True)
class Plain:
    """The report as the children read it: `file`, its container as walked once, and where
    `file` holds only the whole blocks before damage, the damaged file's size (`whole_of`)."""

    file: _opened.Opened
    container: ncu_container.Container
    whole_of: int = 0

    def damage_note(self) -> list[str]:
        """The note on a report read from its whole blocks only (`whole_part`)."""
        if not self.whole_of:
            return []
        return [cut_short(f"its blocks stop making sense at byte {self.file.size:,} of"
                          f" {self.whole_of:,}: the results before that are read")]


@contextlib.contextmanager
def plain(source: _opened.Opened) -> Iterator[Plain]:
    """The report `source` as the child reads it: the file itself, or a private decompressed
    copy of a gzip-compressed one (removed after); its magic checked."""
    if not _gzip.is_gzip(source.pread(len(NCU_REP_MAGIC))):
        check_magic(source, source.path)
        with whole_part(source, source.path) as whole:
            yield whole
        return
    with _gzip.decompressed(source, MAX_BYTES[NCU_REP]) as (copy, ended):
        if not ended:
            raise ReportError(source.path, "is gzip-compressed and cut short: "
                              + _gzip.CUT_SHORT_GZIP)
        check_magic(copy, source.path)
        with whole_part(copy, source.path) as whole:
            yield whole


@contextlib.contextmanager
def whole_part(plain: _opened.Opened, named: Path) -> Iterator[Plain]:
    """`plain`, or where its blocks stop making sense after whole results
    (`Container.damaged_past_results`), a private copy of the whole blocks before the damage;
    ReportError (naming `named`) when no result comes before it."""
    container = ncu_container.walk(plain.here)
    if not container.damaged_past_results or container.whole_to >= plain.size:
        yield Plain(plain, container)
        return
    if not container.results:
        raise ReportError(named, f"its blocks stop making sense at byte {container.whole_to:,}"
                          f" of {plain.size:,}, before any result: the report looks corrupt")
    with _opened.private_folder() as folder:
        copy = folder / "report.ncu-rep"
        fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "wb") as out:
            at = 0
            while at < container.whole_to:
                piece = plain.pread(min(1 << 20, container.whole_to - at), at)
                if not piece:
                    break
                out.write(piece)
                at += len(piece)
        with _opened.opened(copy) as whole:
            yield Plain(whole, ncu_container.walk(whole.here), whole_of=plain.size)


@contextlib.contextmanager
def child_name(plain: _opened.Opened) -> Iterator[str]:
    """The name the child opens `plain` by: its descriptor's (the child inherits it), or where
    /proc is missing its path, through a private link when the name is not UTF-8 (which
    ncu_report refuses); the link removed after."""
    here = plain.here
    try:
        str(here).encode("utf-8")
    except UnicodeEncodeError:
        with _opened.private_folder() as folder:
            link = folder / "report.ncu-rep"
            os.symlink(here.resolve(), link)
            yield str(link)
        return
    yield str(here)


NOT_NCU_REP = "not a .ncu-rep report (it does not start with NVR)"


def check_magic(plain: _opened.Opened, named: Path) -> None:
    """ReportError naming `named` when `plain` is not a .ncu-rep."""
    if plain.pread(len(NCU_REP_MAGIC)) != NCU_REP_MAGIC:
        raise ReportError(named, NOT_NCU_REP)
