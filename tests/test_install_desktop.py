"""The desktop entry, the icon and the .ncu-rep MIME type, and `make install-desktop` into a
temporary XDG_DATA_HOME (no root needed)."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from viewer.capture.helper import protocol

REPO = Path(__file__).resolve().parents[1]
RESOURCES = REPO / "resources"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"
SVG_NS = "{http://www.w3.org/2000/svg}"
INSTALLED = ("applications/ncu-reader.desktop", "icons/hicolor/scalable/apps/ncu-reader.svg",
             "mime/packages/ncu-reader-mime.xml")
# The Desktop Menu Specification's main categories (its Appendix A): an entry naming two of them
# is shown in two of a menu's folders.
MAIN_CATEGORIES = frozenset({"AudioVideo", "Audio", "Video", "Development", "Education", "Game",
                             "Graphics", "Network", "Office", "Science", "Settings", "System",
                             "Utility"})


def desktop_entry(path: Path) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return dict(parser["Desktop Entry"])


def test_the_desktop_entry_opens_reports_with_the_app():
    entry = desktop_entry(RESOURCES / "ncu-reader.desktop")
    assert entry["Type"] == "Application"
    assert entry["Exec"] == "ncu-reader %F"
    assert entry["MimeType"] == "application/x-ncu-rep;"
    assert entry["Icon"] == "ncu-reader"
    assert entry["Terminal"] == "false"


def test_the_desktop_entry_names_one_main_category():
    categories = desktop_entry(RESOURCES / "ncu-reader.desktop")["Categories"]
    assert categories.endswith(";")
    assert [c for c in categories.split(";")[:-1] if c in MAIN_CATEGORIES] == ["Education"]


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None,
                    reason="needs desktop-file-validate (desktop-file-utils)")
def test_desktop_file_validate_has_nothing_to_say_about_the_entry():
    """No error, no warning and no hint (two main categories are a hint)."""
    done = subprocess.run(["desktop-file-validate", str(RESOURCES / "ncu-reader.desktop")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def test_the_mime_type_knows_reports_by_name_and_by_their_first_four_bytes():
    root = ET.parse(RESOURCES / "ncu-reader-mime.xml").getroot()
    (mime,) = root.findall(f"{MIME_NS}mime-type")
    assert mime.get("type") == "application/x-ncu-rep"
    assert [g.get("pattern") for g in mime.iter(f"{MIME_NS}glob")] == ["*.ncu-rep"]
    (match,) = mime.iter(f"{MIME_NS}match")
    assert (match.get("type"), match.get("offset")) == ("string", "0")
    value = (match.get("value") or "").encode("ascii").decode("unicode_escape").encode("latin-1")
    assert value == protocol.REPORT_MAGIC == b"NVR\0"
    reports = sorted((REPO / "profiles").glob("*.ncu-rep"))
    assert reports
    for report in reports:
        assert report.read_bytes()[:4] == value, report


def test_the_icon_is_a_square_svg():
    root = ET.parse(RESOURCES / "ncu-reader.svg").getroot()
    assert root.tag == f"{SVG_NS}svg"
    x, y, w, h = (float(v) for v in (root.get("viewBox") or "").split())
    assert (x, y) == (0, 0) and w == h > 0


def run_desktop(verb: str, data: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_DATA_HOME": str(data),
           "LANG": "C.UTF-8"}
    return subprocess.run(["bash", str(RESOURCES / "install-desktop.sh"), verb], env=env,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_install_desktop_puts_three_files_under_xdg_data_home_and_takes_them_back(tmp_path):
    data, home = tmp_path / "data", tmp_path / "home"
    home.mkdir()
    done = run_desktop("install", data, home)
    assert done.returncode == 0, done.stderr
    for name in INSTALLED:
        assert (data / name).is_file(), name
    assert not any(home.iterdir())  # XDG_DATA_HOME, not ~/.local/share
    program, args = desktop_entry(data / INSTALLED[0])["Exec"].split(" ", 1)
    assert args == "%F"
    # `ncu-reader` when it is on PATH, else the checkout's own .venv/bin/ncu-reader
    assert program == "ncu-reader" or (
        program == str(REPO / ".venv" / "bin" / "ncu-reader") and os.access(program, os.X_OK))
    if shutil.which("desktop-file-validate"):
        done = subprocess.run(["desktop-file-validate", str(data / INSTALLED[0])],
                              capture_output=True, text=True, timeout=60, check=False)
        assert (done.returncode, done.stdout + done.stderr) == (0, "")
    if shutil.which("update-mime-database", path="/usr/bin:/bin"):
        magic = (data / "mime" / "magic").read_bytes()
        assert b"[60:application/x-ncu-rep]\n>0=\x00\x04NVR\x00\n" in magic
    done = run_desktop("uninstall", data, home)
    assert done.returncode == 0, done.stderr
    for name in INSTALLED:
        assert not (data / name).exists(), name
