"""A folder of the user's, opened once and checked, for the captures and their notes.

`open_folder` walks a path from / one name at a time, each relative to the folder above it and
opened with O_NOFOLLOW. The last `own` names are the app's own folders: a link there is never
followed, and each must be a folder owned by the user and writable by nobody else (one with more
than 0700 is made 0700 where it is the user's; someone else's is refused and left as it is).
Above them a link is followed only when root or the user owns it (a home under /home -> var/home,
a data folder the user moved and linked), never to make a folder at a link's target. What comes
back holds the checked folder's descriptor: every later write is relative to it, so a link or a
rename put at its path afterwards redirects nothing. No Qt.
"""

from __future__ import annotations

import contextlib
import errno
import os
import pwd
import stat
import weakref
from collections import deque
from pathlib import Path

MAX_LINKS = 40
"""As many links as the kernel follows in one path (ELOOP past that)."""
_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_LINK_OR_FILE = {errno.ELOOP, errno.ENOTDIR, errno.EMLINK}  # EMLINK: FreeBSD's O_NOFOLLOW


class FolderError(Exception):
    """Why the folder cannot be used: a phrase naming the folder, for a sentence of the caller's."""


class Folder:
    """An open, checked folder: `path` as it was named, `fd` its descriptor (closed once nothing
    refers to this object, or by `close`)."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self.fd = fd
        self._close = weakref.finalize(self, os.close, fd)

    def close(self) -> None:
        self._close()

    def __repr__(self) -> str:
        return f"Folder({str(self.path)!r}, fd={self.fd})"


def open_folder(path: Path | str, *, own: int = 1, make: bool = False,
                uid: int | None = None) -> Folder:
    """Open the absolute `path`, checking its last `own` names as the app's own folders of the
    user `uid` (default: this process's); with `make`, missing folders are made (the app's own
    0700, those above with the umask's mode). FolderError, naming the folder, otherwise."""
    path = Path(path)
    uid = os.geteuid() if uid is None else uid
    if not path.is_absolute():
        raise FolderError(f"{path} is not an absolute path")
    names = list(path.parts[1:])
    if own > len(names) or any(n == ".." for n in names[len(names) - own:]):
        raise FolderError(f"{path} does not end in {own} plain folder names")
    # Each name, whether it is one of the app's own folders, and whether a link led to it (no
    # folder is made there); a followed link's target joins in front.
    todo = deque((name, i >= len(names) - own, False) for i, name in enumerate(names))
    fd = os.open("/", _FLAGS)
    walked = "/"
    links = 0
    try:
        while todo:
            name, ours, linked = todo.popleft()
            shown = os.path.join(walked, name)
            child = _open_child(fd, name, shown, ours, make and not linked, uid)
            if isinstance(child, str):  # a link above the app's folders, to be followed
                links += 1
                if links > MAX_LINKS:
                    raise FolderError(f"{shown}: too many links")
                target = Path(child)
                todo.extendleft(reversed([(n, False, True) for n in target.parts
                                          if n not in ("/", "")]))
                if target.is_absolute():
                    os.close(fd)
                    fd = os.open("/", _FLAGS)
                    walked = "/"
                continue
            os.close(fd)
            fd = child
            walked = os.path.normpath(shown) if name == ".." else shown
            if ours:
                _check_own(fd, shown, uid)
    except BaseException:
        os.close(fd)
        raise
    return Folder(path, fd)


def _open_child(fd: int, name: str, shown: str, ours: bool, make: bool, uid: int) -> int | str:
    """The folder `name` in `fd`, opened (made first when missing and `make`); or, where it is a
    link that may be followed, its target."""
    for _ in range(3):  # made here, or meanwhile by someone else: opened (and checked) next time
        try:
            return os.open(name, _FLAGS, dir_fd=fd)
        except FileNotFoundError:
            if not make:
                raise FolderError(f"{shown} does not exist") from None
            try:
                os.mkdir(name, 0o700 if ours else 0o777, dir_fd=fd)
            except FileExistsError:
                continue
            except OSError as exc:
                raise FolderError(f"cannot make {shown}: {exc.strerror}") from None
        except OSError as exc:
            if exc.errno not in _LINK_OR_FILE:
                raise FolderError(f"cannot open {shown}: {exc.strerror}") from None
            return _link_target(fd, name, shown, ours, uid)
    raise FolderError(f"cannot open {shown}: it keeps changing")


def _link_target(fd: int, name: str, shown: str, ours: bool, uid: int) -> str:
    try:
        st = os.stat(name, dir_fd=fd, follow_symlinks=False)
    except OSError as exc:
        raise FolderError(f"cannot open {shown}: {exc.strerror}") from None
    if not stat.S_ISLNK(st.st_mode):
        raise FolderError(f"{shown} is not a folder")
    if ours:
        raise FolderError(f"{shown} is a link (to {_readlink(fd, name)}); links are not "
                          "followed to the app's own folders")
    if st.st_uid not in (0, uid):
        raise FolderError(f"{shown} is a link owned by {_who(st.st_uid)}, neither root nor you; "
                          "it is not followed")
    return _readlink(fd, name)


def _readlink(fd: int, name: str) -> str:
    try:
        return os.readlink(name, dir_fd=fd)
    except OSError as exc:
        return f"an unreadable target: {exc.strerror}"


def _check_own(fd: int, shown: str, uid: int) -> None:
    """The user's folder, writable by nobody else: more than 0700 is made 0700 (theirs only)."""
    st = os.fstat(fd)
    if st.st_uid != uid:
        raise FolderError(f"{shown} is owned by {_who(st.st_uid)}, not by you")
    if stat.S_IMODE(st.st_mode) & 0o077:
        with contextlib.suppress(OSError):  # a filesystem without modes: its answer decides
            os.fchmod(fd, 0o700)
        st = os.fstat(fd)
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise FolderError(f"{shown} is writable by group or others (mode "
                          f"{stat.S_IMODE(st.st_mode):04o}) and cannot be made private")


def _who(uid: int) -> str:
    try:
        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except KeyError:
        return f"uid {uid}"
