"""Export as an instructor meets it: Markdown says which kernel has more in the memory step's
own words. The shipped pair of profiles/, copied where the test may write."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QLabel

from viewer.analysis.comparison import COMPARED
from viewer.qt.kit.object_names import one_of
from viewer.qt.shell.main_window import MainWindow, default_tabs
from viewer.qt.views.memory.memory_tab import Names as MemoryNames

PROFILES = Path(__file__).resolve().parents[3] / "profiles"
PAIR = ("naive.ncu-rep", "tiled.ncu-rep")
MEMORY = 1  # the reading step set_tab takes


@pytest.fixture
def settings(tmp_path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


def copy_pair(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copy(PROFILES / name, folder / name)) for name in PAIR]


def open_window(qtbot, settings: QSettings, paths: list[Path]) -> MainWindow:
    window = MainWindow(settings=settings, tabs=default_tabs())
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        window.open_paths(paths)
    return window


@pytest.fixture
def reports(tmp_path) -> list[Path]:
    return copy_pair(tmp_path / "reports")


@pytest.fixture
def window(qtbot, settings, reports) -> MainWindow:
    win = open_window(qtbot, settings, reports)
    yield win
    win.worker.shutdown(30_000)


def test_markdown_says_which_has_more_as_the_memory_tab_does(window, tmp_path) -> None:
    window.set_tab(MEMORY)
    lines = window.export(tmp_path / "pair.md").read_text(encoding="utf-8").splitlines()
    cells = {line.split(" | ")[0].removeprefix("| "): line.split(" | ")[-1].removesuffix(" |")
             for line in lines if line.startswith("| ")}
    page = window.current_tab()
    shown = 0
    for key, label in COMPARED:
        on_screen = page.findChild(QLabel, one_of(MemoryNames.RATIO, key))
        if on_screen is not None:
            assert cells[label] == on_screen.text()
            shown += 1
    assert shown >= 8
    assert cells["Sectors per request"] == "matmul_tiled 2.00x matmul_naive"  # never '0.50x'
