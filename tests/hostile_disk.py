"""Unlucky places to keep captures, for the capture tests: a small real filesystem that fills up,
a disk that fills after a few bytes (injected), and a run as the user nobody (the tests run as
root, whom folder modes do not stop)."""

from __future__ import annotations

import errno
import io
import os
import shutil
import subprocess
import tempfile
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

NOBODY = 65534
FULL = "No space left on device"


@contextmanager
def small_disk(folder: Path, size: str = "256k") -> Iterator[Path]:
    """A tmpfs of `size` mounted at `folder` for the block's duration; the test is skipped where
    mounting is refused (not root, no CAP_SYS_ADMIN, no mount command)."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root and mount(8)")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs",
                           str(folder)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"mount -t tmpfs was refused here: {done.stderr.strip()}")
    try:
        yield folder
    finally:
        if subprocess.run(["umount", str(folder)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(folder)], capture_output=True)


class _FillingFile(io.BufferedWriter):
    """A file on a disk with `room` bytes left: past them, every write fails with ENOSPC."""

    def __init__(self, fd: int, room: int) -> None:
        super().__init__(io.FileIO(fd, "wb"))
        self.room = room

    def write(self, data: bytes) -> int:  # type: ignore[override]
        if len(data) > self.room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(data)
        return super().write(data)


def fill_after(monkeypatch: pytest.MonkeyPatch, room: int) -> None:
    """Stands in for a full disk: files opened with os.fdopen(fd, "wb") (the capture's report)
    take `room` bytes, then fail with ENOSPC."""
    real = os.fdopen

    def fdopen(fd: int, mode: str = "r", *args: object, **kwargs: object) -> object:
        if mode == "wb" and not args and not kwargs:
            return _FillingFile(fd, room)
        return real(fd, mode, *args, **kwargs)

    monkeypatch.setattr(os, "fdopen", fdopen)


def full_at_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stands in for a full disk noticed only when the data is flushed (delayed allocation,
    network filesystems): os.fsync fails with ENOSPC."""

    def fsync(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", fsync)


@contextmanager
def public_dir() -> Iterator[Path]:
    """A new root-owned 0755 folder in /tmp, which the user nobody may enter but not write in
    (pytest's tmp_path is private to root); removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix="ncu-reader-test-", dir="/tmp"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def as_nobody(fn: Callable[[], tuple[int, str]]) -> tuple[int, str]:
    """Run `fn` in a forked child as the user nobody: its (exit status, text). The child does not
    exec (the interpreter lives under /root, which nobody may not read), so what `fn` needs must
    be imported already. Skipped unless this runs as root."""
    if os.geteuid() != 0:
        pytest.skip("switching to the user nobody needs root")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            code, text = fn()
        except BaseException:  # the parent reports it
            code, text = 99, traceback.format_exc()
        os.write(write, text.encode())
        os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        text = pipe.read().decode()
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), text
