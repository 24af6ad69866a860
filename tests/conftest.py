"""Every test runs headless and without a GPU, however pytest is started."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Set before any test module imports Qt or numba.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

H200 = Path(__file__).parent / "data" / "corpus" / "h200"


@pytest.fixture(scope="session")
def naive():
    """The lesson's naive matmul as captured on an H200 (the corpus .ncu-rep)."""
    from viewer.readers import read_report

    return read_report(H200 / "numba-naive.ncu-rep").kernels[0]


@pytest.fixture(scope="session")
def tiled():
    """The lesson's tiled matmul as captured on an H200 (the corpus .ncu-rep)."""
    from viewer.readers import read_report

    return read_report(H200 / "numba-tiled.ncu-rep").kernels[0]


@pytest.fixture
def shown_window(qtbot, tmp_path):
    """A MainWindow at 1280x800, shown, its settings in tmp_path, remembering no recent file;
    its loading worker shut down after the test."""
    from PySide6.QtCore import QSettings

    from viewer.qt.shell.main_window import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, record_recent=False)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    yield win
    win.worker.shutdown(30_000)


def open_shipped(window, qtbot) -> None:
    """Open the shipped pair in `window` and wait until it is shown."""
    from viewer.core import shipped

    with qtbot.waitSignal(window.loaded, timeout=60_000):
        window.open_paths(shipped.comparison())
