"""Where captured reports are kept, and how one is written without ever replacing another.

The helper streams the report on stdout; the user's own process writes it here (root writes
nothing the user controls). A `ReportSink` writes into a temporary file in the captures folder,
then links it to the first free name (`STEM.ncu-rep`, `STEM-2.ncu-rep`, ...): os.link fails rather
than replace an existing file, so a capture never overwrites anything. No Qt here.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

from viewer.capture.helper import MAX_REPORT_BYTES, REPORT_MAGIC

SUFFIX = ".ncu-rep"
MAX_NAMES = 1000
"""STEM-2 .. STEM-1000: past that, something is wrong and the capture is refused."""
_STEM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}", re.ASCII)


class SinkError(Exception):
    """The report could not be kept; the text is one message for a person."""


def captures_dir(environ: Mapping[str, str] | None = None, home: Path | None = None) -> Path:
    """$XDG_DATA_HOME/ncu-reader/captures (default ~/.local/share/...), made 0700 if missing.

    A relative XDG_DATA_HOME is ignored, as the XDG spec says."""
    environ = os.environ if environ is None else environ
    data = environ.get("XDG_DATA_HOME", "")
    base = Path(data) if os.path.isabs(data) else (home or Path.home()) / ".local" / "share"
    base.mkdir(parents=True, exist_ok=True)
    folder = base
    for name in ("ncu-reader", "captures"):
        folder = folder / name
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            continue
        os.chmod(folder, 0o700)  # mkdir's mode passes through the umask
    return folder


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
        self._head = b""
        fd, name = tempfile.mkstemp(dir=self.directory, prefix=f".{stem}.", suffix=".part")
        self._temp: Path | None = Path(name)
        self._file = os.fdopen(fd, "wb")

    def write(self, chunk: bytes) -> None:
        """Append `chunk`; SinkError past the cap (the caller stops the capture and aborts)."""
        if self._temp is None:
            raise SinkError("This report was already committed or aborted.")
        if self.size + len(chunk) > self.cap:
            raise SinkError(f"The report grew past {_size(self.cap)}, the most this app "
                            "keeps; nothing was saved.")
        if len(self._head) < len(REPORT_MAGIC):
            self._head = (self._head + chunk)[: len(REPORT_MAGIC)]
        self._file.write(chunk)
        self.size += len(chunk)

    def commit(self) -> Path:
        """Flush to disk, check the magic, link to the first free name; the temp file goes."""
        if self._temp is None:
            raise SinkError("This report was already committed or aborted.")
        if self._head != REPORT_MAGIC:
            self.abort()
            raise SinkError("What arrived is not an Nsight Compute report (it does not start "
                            "with the report's magic bytes); nothing was saved.")
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
        temp = self._temp
        try:
            self.path = self._link(temp)
        finally:
            self.abort()
        _fsync_dir(self.directory)
        return self.path

    def _link(self, temp: Path) -> Path:
        for n in range(1, MAX_NAMES + 1):
            final = self.directory / f"{self.stem}{'' if n == 1 else f'-{n}'}{SUFFIX}"
            try:
                os.link(temp, final, follow_symlinks=False)
            except FileExistsError:
                continue
            except OSError:  # no hard links here: claim the name, then move onto it
                try:
                    os.close(os.open(final, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
                except FileExistsError:
                    continue
                os.replace(temp, final)
            return final
        raise SinkError(f"{self.directory} already holds {MAX_NAMES} reports named "
                        f"{self.stem}; nothing was saved.")

    def abort(self) -> None:
        """Drop the temporary file; safe to call more than once."""
        if not self._file.closed:
            self._file.close()
        if self._temp is not None:
            self._temp.unlink(missing_ok=True)
            self._temp = None

    def __enter__(self) -> ReportSink:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.abort()


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
