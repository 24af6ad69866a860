"""Whether a window can open here, and if not, what to install or set, in one line.

Qt aborts the whole process when its platform plugin cannot load. On Linux the usual causes are no
display at all, X libraries that the xcb plugin links against and the system lacks (since Qt 6.5
libxcb-cursor0 among them), and a DISPLAY no X server answers on (a stale one, a closed ssh -X
session), for which Qt's abort names libxcb-cursor0 all the same. All three are found here before
Qt is started, without importing Qt: the last by connecting to the display's socket as libxcb
would (/tmp/.X11-unix/XN, abstract or on disk, for ':N'; TCP port 6000 + N of the host for
'host:N'). A server that answers but refuses the connection (its authorisation) is Qt's to say.
"""

from __future__ import annotations

import ctypes
import importlib.util
import re
import socket
import sys
from collections.abc import Mapping
from pathlib import Path

# What Qt 6's xcb plugin needs beyond a desktop's usual X libraries (Debian/Ubuntu names).
XCB_PACKAGES = ("libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libxcb-image0",
                "libxcb-render-util0", "libxkbcommon-x11-0")

NO_DISPLAY = ("no display found (DISPLAY and WAYLAND_DISPLAY are unset). Run it on a desktop, over "
              "'ssh -X', or under Xvfb ('xvfb-run make run'); QT_QPA_PLATFORM=offscreen renders "
              "without one.")


def xcb_plugin() -> Path | None:
    """The xcb platform plugin of the installed PySide6, found without importing it."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        plugin = Path(location) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
        if plugin.exists():
            return plugin
    return None


def debian_package(library: str) -> str:
    """The Debian/Ubuntu package that usually ships a shared library ('libxcb-icccm.so.4' ->
    'libxcb-icccm4', 'libxkbcommon-x11.so.0' -> 'libxkbcommon-x11-0')."""
    m = re.match(r"^(lib[\w+.-]*?)\.so\.(\d+)", library)
    if not m:
        return library
    name, major = m.groups()
    return f"{name}-{major}" if name[-1].isdigit() else f"{name}{major}"


def missing_library(load_error: str) -> str | None:
    """The library named in a dynamic loader's error ('libfoo.so.1: cannot open shared ...')."""
    m = re.search(r"(lib[\w+.-]+\.so[\w.]*): cannot open shared object file", load_error)
    return m.group(1) if m else None


def xcb_problem(plugin: Path | None) -> str | None:
    """Why Qt's xcb plugin would fail to load, or None when it loads (or there is none to try)."""
    if plugin is None:
        return None
    try:
        ctypes.CDLL(str(plugin))
    except OSError as exc:
        library = missing_library(str(exc))
        if library is None:
            return f"Qt's xcb plugin cannot load: {' '.join(str(exc).split())}."
        return (f"Qt's xcb plugin needs {library}, which is not installed (Debian/Ubuntu: "
                f"'sudo apt install {debian_package(library)}'; Qt 6 needs all of "
                f"{' '.join(XCB_PACKAGES)}).")
    return None


X11_SOCKETS = "/tmp/.X11-unix"
"""Where an X server on this machine listens, as X + its display number."""
X_TCP_PORT = 6000
"""The TCP port of display 0; display N listens on X_TCP_PORT + N."""
ANSWER_TIMEOUT_S = 3.0
"""How long a display's host may take to accept a connection before it counts as silent."""
_DISPLAY_NAME = re.compile(r"^(?:(?P<protocol>[a-z0-9]+)/)?(?P<host>.*):(?P<number>\d+)"
                           r"(?:\.\d+)?$")


def _unix_answers(path: str) -> bool:
    """Whether something accepts a connection on the local socket `path` (on Linux, its
    abstract twin first, as libxcb tries it)."""
    names = ["\0" + path] if sys.platform.startswith("linux") else []
    for name in [*names, path]:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(name)
            except OSError:
                continue
            return True
    return False


def x_server_problem(display: str, timeout_s: float = ANSWER_TIMEOUT_S) -> str | None:
    """Why no X server answers on `display` (DISPLAY's value), or None when one accepts a
    connection (or the name is one libxcb resolves in ways not tried here: a socket path,
    DECnet)."""
    m = _DISPLAY_NAME.match(display)
    if m is None:
        return (f"DISPLAY={display} is not an X display name (':0', 'host:10.0'), so no window "
                "can open. Point DISPLAY at a running X server, or unset it; "
                "QT_QPA_PLATFORM=offscreen renders without one.")
    protocol, host, number = m.group("protocol"), m.group("host"), int(m.group("number"))
    if host.startswith("/") or host.endswith(":"):
        return None
    if (protocol in (None, "unix") and host in ("", "unix")) or protocol == "unix":
        path = f"{X11_SOCKETS}/X{number}"
        if _unix_answers(path):
            return None
        where = f"nothing accepts a connection at {path}"
    else:
        port = X_TCP_PORT + number
        try:
            socket.create_connection((host, port), timeout=timeout_s).close()
        except OSError as exc:
            why = exc.strerror or (f"no answer within {timeout_s:g} s"
                                   if isinstance(exc, TimeoutError) else str(exc))
            where = f"{host} port {port}: {why}"
        else:
            return None
    return (f"no X server answers on DISPLAY={display} ({where}). Start one ('Xvfb :{number} "
            "&', or log in again over 'ssh -X'), point DISPLAY at one that runs, or unset it; "
            "QT_QPA_PLATFORM=offscreen renders without one.")


def display_problem(env: Mapping[str, str], plugin: Path | None = None) -> str | None:
    """Why no window can open with this environment, or None when one can: no display, Qt's xcb
    plugin unable to load (a library missing), or no X server on DISPLAY."""
    if env.get("QT_QPA_PLATFORM") or sys.platform in ("win32", "darwin"):
        return None
    if env.get("WAYLAND_DISPLAY"):
        return None
    display = env.get("DISPLAY")
    if not display:
        return NO_DISPLAY
    return (xcb_problem(plugin if plugin is not None else xcb_plugin())
            or x_server_problem(display))
