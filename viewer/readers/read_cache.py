"""The cache of what was read: a report opened again, unchanged, is not read again.

read_report (viewer.readers) asks it, so the terminal's commands and the window's loading job both
use it. An entry is kept under $XDG_CACHE_HOME/ncu-reader (~/.cache/ncu-reader), named by a hash
of its key: the file's device, inode, size, modification time (ns) and a blake2b hash of its first
and last 64 KiB, with the readers' own version (the package's version and its readers' and core's
modules, by size and time) so that a changed reader reads again. An entry is used only when all of
it matches (the key is repeated inside it: viewer.readers.cache_format) and only what was read
whole is kept, never a refusal. Later reads of more of a file (a .ncu-rep's other metrics, its
extras, source pages) go to the file, as they do after a first read.

The folder is the user's alone (0700, entries 0600): one that is not the user's, is writable by
others or is a symbolic link is not used, said once on stderr. An entry is written to a new
private name (O_CREAT | O_EXCL | O_NOFOLLOW) and renamed into place, never over anything but an
entry, so two processes writing at once leave a valid entry. Entries are data checked on load:
one damaged, cut, foreign or for another key is removed and the file read again. The folder is
kept under MAX_BYTES, the least recently used entries dropped first.

`--no-cache` (turn_off) or NCU_READER_NO_CACHE=1 reads every file, and keeps nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import stat
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from viewer.core.model import Report
    from viewer.readers._opened import Opened

FOLDER = "ncu-reader"
NO_CACHE = "NCU_READER_NO_CACHE"
MAX_BYTES = 256 << 20
"""The folder's size at most: the oldest entries are dropped beyond it."""
ENDS = 64 << 10
"""How much of a file's head and tail its key hashes."""
STALE_S = 3600.0
"""A half-written entry (its writer stopped) older than this is removed."""
_ENTRY = re.compile(r"^[0-9a-f]{32}\.entry$")
_TEMPORARY = re.compile(r"^\.[0-9a-f]{32}\.entry\.[0-9a-f]{16}\.part$")
_off = False
_said: set[str] = set()
_code: str | None = None

Key = dict[str, object]


def turn_off() -> None:
    """Read every file from now on, and keep nothing (`--no-cache`)."""
    global _off
    _off = True


def is_on() -> bool:
    """Whether reads use the cache: not turned off, NCU_READER_NO_CACHE unset (or 0)."""
    return not _off and os.environ.get(NO_CACHE, "").strip() in ("", "0")


def folder() -> Path:
    """$XDG_CACHE_HOME/ncu-reader, or ~/.cache/ncu-reader where that is unset or relative."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / FOLDER


def key_of(source: Opened) -> Key:
    """What names the open file `source`: its identity, a hash of its ends, the readers'
    version."""
    device, inode, size, mtime_ns = source.stamp
    ends = hashlib.blake2b(digest_size=32)
    ends.update(source.pread(ENDS, 0))
    ends.update(source.pread(ENDS, max(0, size - ENDS)))
    return {"device": device, "inode": inode, "size": size, "mtime_ns": mtime_ns,
            "ends": ends.hexdigest(), "readers": _readers_version()}


def _readers_version() -> str:
    global _code
    if _code is None:
        import viewer

        here = Path(viewer.__file__).parent
        code = hashlib.blake2b(viewer.__version__.encode(), digest_size=16)
        for module in sorted([*here.glob("readers/*.py"), *here.glob("core/*.py")]):
            info = module.stat()
            code.update(f"{module.name} {info.st_size} {info.st_mtime_ns}\n".encode())
        _code = code.hexdigest()
    return _code


def _name(key: Key) -> str:
    text = repr(sorted(key.items())).encode("utf-8")
    return hashlib.blake2b(text, digest_size=16).hexdigest() + ".entry"


def _say(line: str) -> None:
    from viewer.core.terminal_text import visible

    if line not in _said:
        _said.add(line)
        print(visible(f"ncu-reader: {line}; reading without a cache"), file=sys.stderr)


def _open_folder() -> int | None:
    """The cache folder, opened (made first where missing); None where it is not safe to use."""
    where = folder()
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.mkdir(where, 0o700)
        fd = os.open(where, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        _say(f"cannot use the cache folder {where} ({exc.strerror or exc})")
        return None
    info = os.fstat(fd)
    problem = ("is not yours" if info.st_uid != os.getuid()
               else "is writable by others" if info.st_mode & 0o022 else None)
    if problem is not None:
        os.close(fd)
        _say(f"the cache folder {where} {problem}")
        return None
    if info.st_mode & 0o077:
        os.fchmod(fd, 0o700)
    return fd


def _is_mine(info: os.stat_result) -> bool:
    return (stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid()
            and not info.st_mode & 0o077)


def load(key: Key, source: str) -> Report | None:
    """The Report kept for `key`, named `source`; None where there is none to trust (a
    damaged or foreign one is removed)."""
    from viewer.readers import cache_format

    fd = _open_folder()
    if fd is None:
        return None
    name = _name(key)
    try:
        try:
            entry = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                            dir_fd=fd)
        except OSError:
            return None  # none yet, or not a file of ours (a link: never followed)
        try:
            info = os.fstat(entry)
            if not _is_mine(info) or info.st_size > MAX_BYTES:
                return None
            data = _read_all(entry, info.st_size)
        finally:
            os.close(entry)
        try:
            report = cache_format.decode(data, key, source)
        except cache_format.BadEntry:
            _remove(fd, name)
            return None
        _touch(fd, name)
        return report
    finally:
        os.close(fd)


def _read_all(fd: int, size: int) -> bytes:
    parts = []
    while size > 0:
        part = os.read(fd, size)
        if not part:
            break
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def _remove(fd: int, name: str) -> None:
    try:
        if _is_mine(os.stat(name, dir_fd=fd, follow_symlinks=False)):
            os.unlink(name, dir_fd=fd)
    except OSError:
        pass


def _touch(fd: int, name: str) -> None:
    """Mark the entry used now: the least recently used are dropped first."""
    with contextlib.suppress(OSError):
        os.utime(name, dir_fd=fd, follow_symlinks=False)


def store(key: Key, report: Report) -> None:
    """Keep `report`, read whole from the file `key` names; nothing where the folder is not
    safe, the entry too large, or its name taken by anything but an entry."""
    from viewer.readers import cache_format

    data = cache_format.encode(report, key)
    if len(data) > MAX_BYTES:
        return
    fd = _open_folder()
    if fd is None:
        return
    name = _name(key)
    part = f".{name}.{secrets.token_hex(8)}.part"
    try:
        _write_new(fd, part, data)
        try:
            there = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            there = None
        if there is None or _is_mine(there):
            os.replace(part, name, src_dir_fd=fd, dst_dir_fd=fd)
        _prune(fd)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            os.unlink(part, dir_fd=fd)
        os.close(fd)


def _write_new(fd: int, name: str, data: bytes) -> None:
    entry = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                    0o600, dir_fd=fd)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(entry, view):]
    finally:
        os.close(entry)


def _prune(fd: int) -> None:
    """Drop the least recently used entries beyond MAX_BYTES, and half-written stale ones."""
    entries: list[tuple[float, int, str]] = []
    now = time.time()
    with os.scandir(fd) as found:
        for item in found:
            try:
                info = item.stat(follow_symlinks=False)
            except OSError:
                continue
            if not _is_mine(info):
                continue
            if _ENTRY.match(item.name):
                entries.append((info.st_mtime, info.st_size, item.name))
            elif _TEMPORARY.match(item.name) and now - info.st_mtime > STALE_S:
                _remove(fd, item.name)
    total = sum(size for _, size, _ in entries)
    for _, size, name in sorted(entries):
        if total <= MAX_BYTES:
            break
        _remove(fd, name)
        total -= size
