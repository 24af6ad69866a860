"""Write a file whole or not at all: into a temporary file in the target's folder, then renamed.

Whoever reads the target (a slide deck, a course build) sees the old file or the new one, never
half of one, and a failed write leaves the old file as it was and no temporary file behind.
Without `replace=True` an existing file is never overwritten, not even one that appears while the
new one is being written: the new file is hard-linked into place, which fails if the name exists.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path

# Where hard links are refused (FAT and exFAT sticks, some network shares): fall back to a check
# and a rename.
_NO_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS, errno.EMLINK,
             errno.EXDEV, errno.EACCES}


def exists_error(path: Path) -> FileExistsError:
    return FileExistsError(errno.EEXIST, "already exists; not replaced", str(path))


def write_atomically(path: Path | str, write: Callable[[Path], object], *,
                     replace: bool = False) -> Path:
    """Call `write(temporary)` to write the content, then move it to `path`.

    FileExistsError if `path` exists and `replace` is false (nothing is written then). The new
    file gets the mode an ordinary new file would get, or the mode of the file it replaces.
    """
    path = Path(path)
    if not replace and os.path.lexists(path):
        raise exists_error(path)
    temporary = _new_temporary(path)
    try:
        write(temporary)
        _flush(temporary)
        if replace:
            _keep_mode(path, temporary)
            os.replace(temporary, path)
        else:
            _move_without_replacing(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return path


def write_text_atomically(path: Path | str, text: str, *, replace: bool = False) -> Path:
    """`text` as UTF-8, written whole or not at all."""
    return write_atomically(path, lambda t: t.write_text(text, encoding="utf-8"), replace=replace)


def _new_temporary(path: Path) -> Path:
    """An empty new file beside `path`, hidden, created with the process's umask applied."""
    for _ in range(100):
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.part")
        try:
            os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return temporary
    raise exists_error(path)


def _keep_mode(path: Path, temporary: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.chmod(temporary, stat.S_IMODE(os.stat(path).st_mode))


def _flush(temporary: Path) -> None:
    """The content on disk before the rename names it, so a crash leaves old or new."""
    fd = os.open(temporary, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _move_without_replacing(temporary: Path, path: Path) -> None:
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise exists_error(path) from None
    except OSError as exc:
        if exc.errno not in _NO_LINKS:
            raise
        if os.path.lexists(path):
            raise exists_error(path) from None
        os.replace(temporary, path)
