"""Where captured reports are kept, and how one is written without ever replacing another.

The helper streams the report on stdout; the user's own process writes it here (root writes
nothing the user controls). The captures folder and the ncu-reader folder above it are the user's
own (viewer.capture.folder): never reached through a link, owned by the user, made 0700 (an own
0755 one is tightened), and refused, naming the folder, where they are someone else's or cannot be
made private. A `ReportSink` opens the folder once and does everything relative to that open
folder: it writes into a temporary file there (O_EXCL, O_NOFOLLOW), then links it to the first
name whose provenance sidecar's name is free too (`STEM.ncu-rep` and `STEM.ncu-rep.json`, then
`STEM-2...`): os.link and O_EXCL fail rather than replace an existing file or follow a link, so a
capture never overwrites anything nor takes an old note for its own, and a link or a rename put at
the folder's path meanwhile redirects nothing. Every failure (a folder that cannot be made, used
or written, a full disk) is a SinkError of one line naming the folder, and leaves no temporary
file. No Qt.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

from viewer.capture.folder import Folder, FolderError, open_folder
from viewer.capture.helper.protocol import MAX_REPORT_BYTES, REPORT_MAGIC
from viewer.capture.provenance import Claim, claim_sidecar

SUFFIX = ".ncu-rep"
MAX_NAMES = 1000
"""STEM-2 .. STEM-1000: past that, something is wrong and the capture is refused."""
_STEM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}", re.ASCII)


class SinkError(Exception):
    """The report could not be kept; the text is one message for a person."""


def captures_dir(environ: Mapping[str, str] | None = None, home: Path | None = None) -> Path:
    """$XDG_DATA_HOME/ncu-reader/captures (default ~/.local/share/...), made if missing; it and
    ncu-reader are the user's own, 0700 (viewer.capture.folder).

    A relative XDG_DATA_HOME is ignored, as the XDG spec says. SinkError, naming the folder,
    where it cannot be made, something that is not a folder (a link included) is in its way, or
    it is someone else's or writable by others and cannot be made private."""
    folder = open_captures(environ, home)
    folder.close()
    return folder.path


def open_captures(environ: Mapping[str, str] | None = None, home: Path | None = None) -> Folder:
    """The captures folder as captures_dir makes and checks it, held open: a ReportSink given it
    writes in the very folder checked."""
    environ = os.environ if environ is None else environ
    data = environ.get("XDG_DATA_HOME", "")
    base = Path(data) if os.path.isabs(data) else (home or Path.home()) / ".local" / "share"
    captures = base / "ncu-reader" / "captures"
    try:
        return open_folder(captures, own=2, make=True)
    except FolderError as exc:
        raise _unusable(captures, str(exc)) from None


def _unusable(captures: Path, why: str) -> SinkError:
    return SinkError(f"Cannot keep captures in {captures}: {why} "
                     "(set XDG_DATA_HOME to keep them elsewhere).")


def capture_stem(target: str, dim: int | str, set_name: str, now: datetime | None = None) -> str:
    """A report's name without suffix: `naive-512-full-20261201-120301` (UTC); a run's list of
    sizes is joined by `_` (`both-256_512-full-...`, the name of its stream's temporary file)."""
    now = now or datetime.now(UTC)
    return f"{target}-{str(dim).replace(',', '_')}-{set_name}-{now.astimezone(UTC):%Y%m%d-%H%M%S}"


class ReportSink:
    """A report arriving in chunks: `write`, then `commit()` (kept under a free name) or `abort()`
    (nothing left behind). Also a context manager that aborts unless committed. `directory` is
    opened once (its last name checked as the user's own folder) and every file is made in that
    open folder."""

    def __init__(self, directory: Path | Folder, stem: str, cap: int = MAX_REPORT_BYTES) -> None:
        if not _STEM.fullmatch(stem):
            raise ValueError(f"not a plain file name stem: {stem!r}")
        named = directory.path if isinstance(directory, Folder) else Path(directory)
        self.directory = named
        self.stem = stem
        self.cap = cap
        self.size = 0
        self.path: Path | None = None  # the final name, once committed
        self.claim: Claim | None = None  # its sidecar's name, taken empty at the commit
        self._head = b""
        self._temp: str | None = None
        try:
            self.folder = (directory if isinstance(directory, Folder)
                           else open_folder(named if named.is_absolute() else Path.cwd() / named))
        except FolderError as exc:
            raise SinkError(f"Cannot use the captures folder {named}: {exc}; nothing was "
                            "saved.") from None
        try:
            fd, self._temp = _new_file(self.folder, f".{stem}.", ".part")
        except OSError as exc:
            raise SinkError(f"Cannot write in the captures folder {named}: "
                            f"{exc.strerror}; nothing was saved.") from None
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
            path, claim = self._take_names(temp, self.stem)
        except OSError as exc:
            raise self._failed(exc) from None
        finally:
            self.abort()
        self.path, self.claim = path, claim
        with contextlib.suppress(OSError):
            os.fsync(self.folder.fd)
        return path

    def commit_parts(self, parts: Sequence[tuple[str, int]],
                     first: bool = False) -> list[tuple[Path, Claim]]:
        """The stream as several reports one after another, each `(stem, bytes)`: all checked
        first (their sizes add up to what arrived, or, with `first`, to at most that: the
        reports that arrived whole before a run failed, the rest dropped; each at most
        MAX_REPORT_BYTES and starting with the report's magic), then each copied into a file of
        its own and kept as `commit` keeps one, under the first free pair of names for its stem.
        The stream's temporary file goes either way; a disk that fails part way keeps the parts
        already kept."""
        if self._temp is None:
            raise SinkError("This report was already committed or aborted.")
        temp = self._temp
        try:
            self._file.close()
            src = os.open(temp, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=self.folder.fd)
            try:
                offsets = self._check_parts(src, parts, first)
                kept = [self._keep_part(src, at, stem, size)
                        for at, (stem, size) in zip(offsets, parts, strict=True)]
            finally:
                os.close(src)
        except OSError as exc:
            raise self._failed(exc) from None
        finally:
            self.abort()
        with contextlib.suppress(OSError):
            os.fsync(self.folder.fd)
        return kept

    def _check_parts(self, src: int, parts: Sequence[tuple[str, int]],
                     first: bool = False) -> list[int]:
        """Where each part starts; SinkError unless every part is a report as commit_parts says."""
        total = sum(size for _, size in parts)
        if total > self.size or (total != self.size and not first):
            raise SinkError(f"The helper's reports add up to {sum(s for _, s in parts):,} bytes "
                            f"but {self.size:,} arrived; nothing was saved.")
        offsets: list[int] = []
        at = 0
        for stem, size in parts:
            if not _STEM.fullmatch(stem):
                raise ValueError(f"not a plain file name stem: {stem!r}")
            if size > MAX_REPORT_BYTES or os.pread(src, len(REPORT_MAGIC), at) != REPORT_MAGIC:
                raise SinkError(f"Part {len(offsets) + 1} of what arrived is not an Nsight "
                                "Compute report (its magic bytes or its size); nothing was saved.")
            offsets.append(at)
            at += size
        return offsets

    def _keep_part(self, src: int, at: int, stem: str, size: int) -> tuple[Path, Claim]:
        """Bytes `at`..`at + size` of the stream in a file of their own, kept under `stem`."""
        fd, name = _new_file(self.folder, f".{stem}.", ".part")
        try:
            with os.fdopen(fd, "wb") as part:
                done = 0
                while done < size:
                    chunk = os.pread(src, min(size - done, 1 << 20), at + done)
                    if not chunk:
                        raise OSError(0, "the stream ended early")
                    part.write(chunk)
                    done += len(chunk)
                part.flush()
                os.fsync(part.fileno())
            return self._take_names(name, stem)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name, dir_fd=self.folder.fd)

    def _failed(self, exc: OSError) -> SinkError:
        """The disk's refusal as one message; the temporary file is removed."""
        self.abort()
        return SinkError(f"Could not write the report in {self.directory}: "
                         f"{exc.strerror or exc}; nothing was saved.")

    def _take_names(self, temp: str, stem: str) -> tuple[Path, Claim]:
        """The first N whose report and sidecar names are both free, both taken: the report's by
        a hard link (where links are refused, by an empty file the report then moves onto), the
        sidecar's by O_EXCL. A sidecar already there gives back the report name just taken."""
        fd = self.folder.fd
        for n in range(1, MAX_NAMES + 1):
            name = f"{stem}{'' if n == 1 else f'-{n}'}{SUFFIX}"
            made = _take(self.folder, temp, name)
            if made is None:
                continue
            final = self.directory / name
            try:
                claim = claim_sidecar(final, self.folder)
                if not made.linked:
                    try:
                        os.replace(temp, name, src_dir_fd=fd, dst_dir_fd=fd)
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
                        f"{stem}; nothing was saved.")

    def abort(self) -> None:
        """Drop the temporary file; safe to call more than once."""
        if not self._file.closed:
            with contextlib.suppress(OSError):  # a full disk refuses the last flush too
                self._file.close()
        if self._temp is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self._temp, dir_fd=self.folder.fd)
            self._temp = None

    def __enter__(self) -> ReportSink:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.abort()


def _new_file(folder: Folder, prefix: str, suffix: str) -> tuple[int, str]:
    """A new empty 0600 file in `folder` under a random name: (its descriptor, its name)."""
    for _ in range(100):
        name = f"{prefix}{secrets.token_hex(6)}{suffix}"
        try:
            return os.open(name, _NEW, 0o600, dir_fd=folder.fd), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {folder.path}")


_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class _Taken:
    """A report name this sink took: a hard link to its temporary file, or an empty file."""

    folder: Folder
    name: str
    device: int
    inode: int
    linked: bool

    def give_back(self) -> None:
        """Remove what was put at the name, if it is still there (and nothing else)."""
        with contextlib.suppress(OSError):
            st = os.stat(self.name, dir_fd=self.folder.fd, follow_symlinks=False)
            if (st.st_dev, st.st_ino) == (self.device, self.inode):
                os.unlink(self.name, dir_fd=self.folder.fd)


def _take(folder: Folder, temp: str, name: str) -> _Taken | None:
    """Take `name` in `folder` for the file `temp` there without replacing anything; None if it
    is taken."""
    fd = folder.fd
    try:
        os.link(temp, name, src_dir_fd=fd, dst_dir_fd=fd, follow_symlinks=False)
    except FileExistsError:
        return None
    except OSError:  # no hard links here: claim the name with an empty file
        try:
            made = os.open(name, _NEW, 0o600, dir_fd=fd)
        except FileExistsError:
            return None
        try:
            st = os.fstat(made)
        finally:
            os.close(made)
        return _Taken(folder, name, st.st_dev, st.st_ino, linked=False)
    st = os.stat(temp, dir_fd=fd, follow_symlinks=False)
    return _Taken(folder, name, st.st_dev, st.st_ino, linked=True)


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n:,} bytes"
