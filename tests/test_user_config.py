"""The tests keep out of the user's own configuration: Qt's settings, the file dialog's history
and every other XDG folder point at a folder of the test run's own (tests/conftest.py)."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths
from PySide6.QtWidgets import QFileDialog
from shiboken6 import Shiboken

Location = QStandardPaths.StandardLocation


def snapshot(path: Path) -> tuple[int, bytes] | None:
    """A file's modification time and content, None where there is none."""
    try:
        return path.stat().st_mtime_ns, path.read_bytes()
    except FileNotFoundError:
        return None


def test_the_xdg_folders_are_the_runs_own(user_dirs: dict[str, Path]) -> None:
    for name, users in user_dirs.items():
        own = Path(os.environ[name])
        assert own.is_dir(), name
        assert own != users and not own.is_relative_to(users), name
        assert not users.is_relative_to(own), name


def test_qt_finds_its_folders_in_the_runs_own(qapp, user_dirs: dict[str, Path]) -> None:
    for location, name in ((Location.GenericConfigLocation, "XDG_CONFIG_HOME"),
                           (Location.GenericDataLocation, "XDG_DATA_HOME"),
                           (Location.GenericCacheLocation, "XDG_CACHE_HOME"),
                           (Location.GenericStateLocation, "XDG_STATE_HOME")):
        found = Path(QStandardPaths.writableLocation(location))
        assert found == Path(os.environ[name]), name
        assert not found.is_relative_to(user_dirs[name]), name


def test_the_file_dialogs_history_lands_in_the_runs_own_folder(
        qapp, tmp_path: Path, user_dirs: dict[str, Path]) -> None:
    """Qt's own file dialog keeps its last folder in QtProject.conf under the config folder when
    it is destroyed; the user's QtProject.conf is left exactly as it was."""
    users = user_dirs["XDG_CONFIG_HOME"] / "QtProject.conf"
    before = snapshot(users)
    visited = tmp_path / "visited"
    visited.mkdir()
    dialog = QFileDialog(None, "Open", str(visited))
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
    Shiboken.delete(dialog)  # ~QFileDialog saves its settings
    own = Path(QStandardPaths.writableLocation(Location.GenericConfigLocation)) / "QtProject.conf"
    assert snapshot(users) == before
    assert own.parent == Path(os.environ["XDG_CONFIG_HOME"])
    assert visited.as_uri() in own.read_text(encoding="utf-8")
    settings = QSettings(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, "QtProject")
    assert Path(settings.fileName()) == own
