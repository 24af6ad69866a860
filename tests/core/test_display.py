"""Whether a window can open, decided before Qt is started (Qt would abort the process).

Each case sets what display_problem reads: the platform, the environment, the PySide6 install it
finds and the dynamic loader's answer, and the display it connects to (a number nothing listens
on, a real Xvfb, a TCP port that accepts); so each has one right answer, whatever this machine
has.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import select
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.x_displays import unused_display
from viewer.core import display
from viewer.core.display import (
    NO_DISPLAY,
    debian_package,
    display_problem,
    missing_library,
    x_server_problem,
    xcb_plugin,
    xcb_problem,
)

PLATFORMS = Path("Qt") / "plugins" / "platforms"


@pytest.fixture(autouse=True)
def on_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows and macOS never need the X check: every case here is about Linux."""
    monkeypatch.setattr(display.sys, "platform", "linux")


def pyside_at(monkeypatch: pytest.MonkeyPatch, *locations: Path) -> None:
    """Make find_spec('PySide6') answer with a package at `locations` (none: not installed)."""
    real = importlib.util.find_spec

    def find_spec(name: str, package: str | None = None):
        if name != "PySide6":
            return real(name, package)
        if not locations:
            return None
        spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
        spec.submodule_search_locations = [str(p) for p in locations]
        return spec

    monkeypatch.setattr(display.importlib.util, "find_spec", find_spec)


def loader(monkeypatch: pytest.MonkeyPatch, error: str | None) -> list[str]:
    """Make ctypes.CDLL fail with the loader's `error`, or load (None); returns what it loaded."""
    loaded: list[str] = []

    def cdll(path: str):
        loaded.append(path)
        if error is not None:
            raise OSError(error)
        return object()

    monkeypatch.setattr(display.ctypes, "CDLL", cdll)
    return loaded


@pytest.fixture
def answering() -> Iterator[str]:
    """'127.0.0.1:N': a display whose TCP port (6000 + N) accepts connections."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        assert port > display.X_TCP_PORT
        yield f"127.0.0.1:{port - display.X_TCP_PORT}"


@pytest.fixture
def xvfb() -> Iterator[str]:
    """':N' of a real X server (Xvfb), started for the test; it says its number when ready."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed")
    ready, told = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(told), "-nolisten", "tcp"],
                              pass_fds=(told,), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    os.close(told)
    try:
        said = b""
        while not said.endswith(b"\n"):
            assert select.select([ready], [], [], 30)[0], "Xvfb did not say its display"
            chunk = os.read(ready, 16)
            assert chunk, "Xvfb ended before it was ready"
            said += chunk
        yield f":{int(said)}"
    finally:
        os.close(ready)
        server.terminate()
        server.wait(30)


def test_no_display_at_all() -> None:
    assert display_problem({}) == NO_DISPLAY


def test_a_platform_or_wayland_needs_no_x_check(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = loader(monkeypatch, "libxcb-cursor.so.0: cannot open shared object file")
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}) is None
    assert loaded == []


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_windows_and_macos_need_no_check(monkeypatch: pytest.MonkeyPatch, platform: str) -> None:
    monkeypatch.setattr(display.sys, "platform", platform)
    assert display_problem({}) is None


@pytest.mark.parametrize(
    ("library", "package"),
    [("libxcb-icccm.so.4", "libxcb-icccm4"), ("libxcb-cursor.so.0", "libxcb-cursor0"),
     ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"), ("libxcb-render-util.so.0",
                                                      "libxcb-render-util0")],
)
def test_debian_package_names(library: str, package: str) -> None:
    assert debian_package(library) == package


def test_the_missing_library_is_read_from_the_loaders_error() -> None:
    error = "libxcb-keysyms.so.1: cannot open shared object file: No such file or directory"
    assert missing_library(error) == "libxcb-keysyms.so.1"
    assert missing_library("something else") is None


def test_a_plugin_that_cannot_load_names_what_to_install(tmp_path: Path) -> None:
    broken = tmp_path / "libqxcb.so"
    broken.write_bytes(b"not a shared object")
    problem = xcb_problem(broken)
    assert problem is not None and problem.startswith("Qt's xcb plugin cannot load")
    assert display_problem({"DISPLAY": ":0"}, plugin=broken) == problem


def test_the_plugin_is_found_in_the_pyside6_install(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    empty, install = tmp_path / "empty", tmp_path / "site-packages" / "PySide6"
    (install / PLATFORMS).mkdir(parents=True)
    empty.mkdir()
    plugin = install / PLATFORMS / "libqxcb.so"
    plugin.write_bytes(b"")
    pyside_at(monkeypatch, empty, install)
    assert xcb_plugin() == plugin
    pyside_at(monkeypatch, empty)
    assert xcb_plugin() is None
    pyside_at(monkeypatch)
    assert xcb_plugin() is None


def test_a_missing_x_library_is_named_with_its_package(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    plugin = tmp_path / "libqxcb.so"
    loaded = loader(monkeypatch, "libxcb-cursor.so.0: cannot open shared object file: "
                                 "No such file or directory")
    problem = display_problem({"DISPLAY": ":0"}, plugin=plugin)
    assert loaded == [str(plugin)]
    assert problem is not None
    assert problem.startswith("Qt's xcb plugin needs libxcb-cursor.so.0, which is not installed")
    assert "'sudo apt install libxcb-cursor0'" in problem
    assert all(package in problem for package in display.XCB_PACKAGES)


def test_a_plugin_that_loads_opens_a_window(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path, answering: str) -> None:
    plugin = tmp_path / "libqxcb.so"
    loaded = loader(monkeypatch, None)
    assert display_problem({"DISPLAY": answering}, plugin=plugin) is None
    assert loaded == [str(plugin)]


def test_with_a_display_the_installed_plugin_is_the_one_tried(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path,
                                                              answering: str) -> None:
    install = tmp_path / "PySide6"
    (install / PLATFORMS).mkdir(parents=True)
    (install / PLATFORMS / "libqxcb.so").write_bytes(b"")
    pyside_at(monkeypatch, install)
    loaded = loader(monkeypatch, None)
    assert display_problem({"DISPLAY": answering}) is None
    assert loaded == [str(install / PLATFORMS / "libqxcb.so")]


def test_no_pyside6_plugin_means_nothing_to_try(monkeypatch: pytest.MonkeyPatch,
                                                answering: str) -> None:
    pyside_at(monkeypatch)
    loaded = loader(monkeypatch, "never asked")
    assert xcb_problem(None) is None
    assert display_problem({"DISPLAY": answering}) is None
    assert loaded == []


def test_a_display_no_x_server_answers_on_is_said_before_qt_aborts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pyside_at(monkeypatch)  # no xcb plugin to try: the server alone is asked, whatever is installed
    number = unused_display()
    for name in (f":{number}", f":{number}.0", f"unix:{number}"):
        problem = display_problem({"DISPLAY": name})
        assert problem is not None
        assert problem.startswith(f"no X server answers on DISPLAY={name} (nothing accepts a "
                                  f"connection at /tmp/.X11-unix/X{number}). ")
        assert f"'Xvfb :{number} &'" in problem and "xcb-cursor" not in problem


def test_a_running_x_server_answers(xvfb: str, answering: str) -> None:
    assert x_server_problem(xvfb) is None
    assert x_server_problem(f"unix{xvfb}.0") is None
    assert x_server_problem(answering) is None
    assert x_server_problem("tcp/" + answering) is None


def test_a_tcp_display_that_refuses_is_said_with_its_host_and_port() -> None:
    host = "127.0.0.1"
    with socket.socket() as closed:  # a port taken and not listening refuses connections
        closed.bind((host, 0))
        port = closed.getsockname()[1]
        name = f"{host}:{port - display.X_TCP_PORT}"
        problem = x_server_problem(name)
    assert problem is not None
    assert problem.startswith(f"no X server answers on DISPLAY={name} ({host} port {port}: ")


def test_a_display_name_x_cannot_read_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    pyside_at(monkeypatch)  # as above: no library check comes first
    problem = display_problem({"DISPLAY": "nonsense"})
    assert problem is not None and problem.startswith("DISPLAY=nonsense is not an X display name")


def test_a_missing_library_is_said_before_the_silent_server(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    """Both wrong: the library comes first (with it missing no server would help)."""
    loader(monkeypatch, "libxcb-cursor.so.0: cannot open shared object file")
    problem = display_problem({"DISPLAY": f":{unused_display()}"},
                              plugin=tmp_path / "libqxcb.so")
    assert problem is not None and problem.startswith("Qt's xcb plugin needs libxcb-cursor.so.0")
