"""Whether a window can open here, and if not, what to install or set, in one line.

Qt aborts the whole process when its platform plugin cannot load. On Linux the usual causes are no
display at all, or X libraries that the xcb plugin links against and the system lacks (since Qt 6.5
libxcb-cursor0 among them). Both are found here before Qt is started, without importing Qt.
"""

from __future__ import annotations

import ctypes
import importlib.util
import re
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


def display_problem(env: Mapping[str, str], plugin: Path | None = None) -> str | None:
    """Why no window can open with this environment, or None when one can."""
    if env.get("QT_QPA_PLATFORM") or sys.platform in ("win32", "darwin"):
        return None
    if env.get("WAYLAND_DISPLAY"):
        return None
    if not env.get("DISPLAY"):
        return NO_DISPLAY
    return xcb_problem(plugin if plugin is not None else xcb_plugin())
