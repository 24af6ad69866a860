"""Where captured reports are kept, and how one is written without ever replacing another.

The helper streams the report on stdout; the user's own process writes it here (root writes
nothing the user controls). A `ReportSink` writes into a temporary file in the captures folder,
then links it to the first name whose provenance sidecar's name is free too (`STEM.ncu-rep` and
`STEM.ncu-rep.json`, then `STEM-2...`): os.link and O_EXCL fail rather than replace an existing
file, so a capture never overwrites anything nor takes an old note for its own. Every failure (a
folder that cannot be made or written, a full disk) is a SinkError of one line naming the folder,
and leaves no temporary file. No Qt here.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

from viewer.capture.helper import MAX_REPORT_BYTES, REPORT_MAGIC
from viewer.capture.provenance import Claim, claim_sidecar

SUFFIX = ".ncu-rep"
MAX_NAMES = 1000
"""STEM-2 .. STEM-1000: past that, something is wrong and the capture is refused."""
_STEM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}", re.ASCII)


class SinkError(Exception):
    """The report could not be kept; the text is one message for a person."""


def captures_dir(environ: Mapping[str, str] | None = None, home: Path | None = None) -> Path:
    """$XDG_DATA_HOME/ncu-reader/captures (default ~/.local/share/...), made 0700 if missing.

    A relative XDG_DATA_HOME is ignored, as the XDG spec says. SinkError, naming the folder,
    where it cannot be made or something that is not a folder is in its way."""
    environ = os.environ if environ is None else environ
    data = environ.get("XDG_DATA_HOME", "")
    base = Path(data) if os.path.isabs(data) else (home or Path.home()) / ".local" / "share"
    captures = base / "ncu-reader" / "captures"
    ours = (base / "ncu-reader", captures)
    for folder in (*reversed(base.parents), base, *ours):
        try:
            folder.mkdir(mode=0o700 if folder in ours else 0o777)
        except FileExistsError:
            if not folder.is_dir():
                raise _unusable(captures, f"{folder} is not a folder") from None
            continue
        except OSError as exc:
            raise _unusable(captures, f"cannot make {folder}: {exc.strerror}") from None
        if folder in ours:
            os.chmod(folder, 0o700)  # mkdir's mode passes through the umask
    return captures


def _unusable(captures: Path, why: str) -> SinkError:
    return SinkError(f"Cannot keep captures in {captures}: {why} "
                     "(set XDG_DATA_HOME to keep them elsewhere).")


def capture_stem(target: str, dim: int | str, set_name: str, now: datetime | None = None) -> str:
    """A report's name without suffix: `naive-512-full-20261201-120301` (UTC)."""
    now = now or datetime.now(UTC)
    return f"{target}-{dim}-{set_name}-{now.astimezone(UTC):%Y%m%d-%H%M%S}"


class ReportSink:
    """A report arriving in chunks: `write`, then `commit()` (kept under a free name) or `abort()`
    (nothing left behind). Also a context manager that aborts unless committed."""

    def __init__(self, directory: Path, stem: str, cap: int = MAX_REPORT_BYTES) -> None:
        if not _STEM.fullmatch(stem):
            raise ValueError(f"not a plain file name stem: {stem!r}")
        self.directory = Path(directory)
        self.stem = stem
        self.cap = cap
        self.size = 0
        self.path: Path | None = None  # the final name, once committed
        self.claim: Claim | None = None  # its sidecar's name, taken empty at the commit
        self._head = b""
        try:
            fd, name = tempfile.mkstemp(dir=self.directory, prefix=f".{stem}.", suffix=".part")
        except OSError as exc:
            raise SinkError(f"Cannot write in the captures folder {self.directory}: "
                            f"{exc.strerror}; nothing was saved.") from None
        self._temp: Path | None = Path(name)
        self._file = os.fdopen(fd, "wb")

    def write(self, chunk: bytes) -> None:
        """Append `chunk`; SinkError past the cap (the caller stops the capture and aborts) or
        when the disk refuses it (the temporary file is gone then)."""
        if self._temp is None:
            raise SinkError("This report was already committed or aborted.")
        if self.size + len(chunk) > self.cap:
            raise SinkError(f"The report grew past {_size(self.cap)}, the most this app "
                            "keeps; nothing was saved.")
        if len(self._head) < len(REPORT_MAGIC):
            self._head = (self._head + chunk)[: len(REPORT_MAGIC)]
        try:
            self._file.write(chunk)
        except OSError as exc:
            raise self._failed(exc) from None
        self.size += len(chunk)

    def commit(self) -> Path:
        """Flush to disk, check the magic, link to the first free pair of names (the sidecar's
        taken empty, in `claim`, for write_provenance); the temp file goes."""
        if self._temp is None:
            raise SinkError("This report was already committed or aborted.")
        if self._head != REPORT_MAGIC:
            self.abort()
            raise SinkError("What arrived is not an Nsight Compute report (it does not start "
                            "with the report's magic bytes); nothing was saved.")
        temp = self._temp
        try:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            path, claim = self._take_names(temp)
        except OSError as exc:
            raise self._failed(exc) from None
        finally:
            self.abort()
        self.path, self.claim = path, claim
        _fsync_dir(self.directory)
        return path

    def _failed(self, exc: OSError) -> SinkError:
        """The disk's refusal as one message; the temporary file is removed."""
        self.abort()
        return SinkError(f"Could not write the report in {self.directory}: "
                         f"{exc.strerror or exc}; nothing was saved.")

    def _take_names(self, temp: Path) -> tuple[Path, Claim]:
        """The first N whose report and sidecar names are both free, both taken: the report's by
        a hard link (where links are refused, by an empty file the report then moves onto), the
        sidecar's by O_EXCL. A sidecar already there gives back the report name just taken."""
        for n in range(1, MAX_NAMES + 1):
            final = self.directory / f"{self.stem}{'' if n == 1 else f'-{n}'}{SUFFIX}"
            made = _take(temp, final)
            if made is None:
                continue
            try:
                claim = claim_sidecar(final)
                if not made.linked:
                    try:
                        os.replace(temp, final)
                    except OSError:
                        claim.release()
                        raise
            except OSError as exc:
                made.give_back()
                if isinstance(exc, FileExistsError):
                    continue
                raise
            return final, claim
        raise SinkError(f"{self.directory} already holds {MAX_NAMES} reports named "
                        f"{self.stem}; nothing was saved.")

    def abort(self) -> None:
        """Drop the temporary file; safe to call more than once."""
        if not self._file.closed:
            with contextlib.suppress(OSError):  # a full disk refuses the last flush too
                self._file.close()
        if self._temp is not None:
            self._temp.unlink(missing_ok=True)
            self._temp = None

    def __enter__(self) -> ReportSink:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.abort()


@dataclass(frozen=True)
class _Taken:
    """A report name this sink took: a hard link to its temporary file, or an empty file."""

    path: Path
    device: int
    inode: int
    linked: bool

    def give_back(self) -> None:
        """Remove what was put at the name, if it is still there (and nothing else)."""
        with contextlib.suppress(OSError):
            st = os.lstat(self.path)
            if (st.st_dev, st.st_ino) == (self.device, self.inode):
                os.unlink(self.path)


def _take(temp: Path, final: Path) -> _Taken | None:
    """Take the name `final` for `temp` without replacing anything; None if it is taken."""
    try:
        os.link(temp, final, follow_symlinks=False)
    except FileExistsError:
        return None
    except OSError:  # no hard links here: claim the name with an empty file
        try:
            fd = os.open(final, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except FileExistsError:
            return None
        try:
            st = os.fstat(fd)
        finally:
            os.close(fd)
        return _Taken(final, st.st_dev, st.st_ino, linked=False)
    st = os.lstat(temp)
    return _Taken(final, st.st_dev, st.st_ino, linked=True)


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n:,} bytes"


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
