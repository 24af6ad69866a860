"""Whether a window can open, decided before Qt is started (Qt would abort the process)."""

from __future__ import annotations

from pathlib import Path

import pytest

from viewer.display import (
    NO_DISPLAY,
    debian_package,
    display_problem,
    missing_library,
    xcb_plugin,
    xcb_problem,
)


def test_no_display_at_all() -> None:
    assert display_problem({}) == NO_DISPLAY


def test_a_platform_or_wayland_needs_no_x_check() -> None:
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}) is None


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


def test_the_installed_plugin_is_found_and_judged() -> None:
    plugin = xcb_plugin()
    assert plugin is not None and plugin.name == "libqxcb.so"
    problem = xcb_problem(plugin)  # depends on this machine's X libraries: either answer is fine
    assert problem is None or "sudo apt install" in problem
