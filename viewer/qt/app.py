"""Start the window from parsed command-line arguments; `--screenshot` renders it and exits.

A screenshot waits until loading has finished, writes the whole window as a PNG (1280x800, or
1920x1080 in projector mode) and returns 0; when a file failed to load the window has already
printed its one-line error on stderr and the status is 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PySide6.QtCore import (
    QEventLoop,
    QMessageLogContext,
    QSize,
    QTimer,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtWidgets import QApplication

from viewer import cli
from viewer.qt.main_window import MainWindow

TABS = ("sol", "memory", "occupancy")
DESK_SIZE = QSize(1280, 800)
PROJECTOR_SIZE = QSize(1920, 1080)
# How long a screenshot waits for its files before giving up.
LOAD_TIMEOUT_S = 300


# Qt's offscreen platform says this about every window it cannot resize natively: noise, not news.
_OFFSCREEN_NOISE = ("This plugin does not support propagateSizeHints()",)


def _quiet_offscreen(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    if message not in _OFFSCREEN_NOISE:
        print(message, file=sys.stderr)


def quiet_offscreen_noise() -> None:
    """Pass Qt's messages to stderr, less the offscreen platform's resize notices."""
    qInstallMessageHandler(_quiet_offscreen)


def application() -> QApplication:
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName("ncu-reader")
    app.setOrganizationName("ncu-reader")
    return app


def startup_paths(files: list[Path]) -> list[Path]:
    """The files named, else the shipped comparison when it is there, else nothing."""
    if files:
        return list(files)
    shipped = cli.shipped_comparison()
    return shipped if all(p.is_file() for p in shipped) else []


def wait_for_loading(window: MainWindow, timeout_s: float = LOAD_TIMEOUT_S) -> bool:
    """Run the event loop until the window has shown what it read, or said why not; False on
    timeout."""
    if not window.busy:
        return True
    loop = QEventLoop()
    timer = QTimer()
    timer.setSingleShot(True)
    for signal in (timer.timeout, window.loaded, window.load_failed, window.worker.cancelled):
        signal.connect(loop.quit)
    timer.start(round(timeout_s * 1000))
    if window.busy:
        loop.exec()
    return not window.busy


def save_screenshot(window: MainWindow, out: Path) -> bool:
    """Let pending layout and paint settle, then write the whole window as a PNG."""
    for _ in range(3):
        QApplication.processEvents()
    return window.grab().save(str(out), "PNG")


def run(args: argparse.Namespace) -> int:
    screenshot: Path | None = args.screenshot
    if screenshot is not None:
        quiet_offscreen_noise()
    app = application()
    window = MainWindow(record_recent=screenshot is None)
    window.resize(PROJECTOR_SIZE if args.projector and screenshot is not None else DESK_SIZE)
    window.set_tab(TABS.index(args.tab) if args.tab in TABS else 0)
    window.show()
    if args.projector:
        window.set_projector(True, full_screen=screenshot is None)
    paths = startup_paths(list(args.files))
    if paths:
        window.open_paths(paths)
    if screenshot is None:
        return app.exec()

    if not wait_for_loading(window):
        print(f"ncu-reader: loading did not finish within {LOAD_TIMEOUT_S} s", file=sys.stderr)
        window.worker.cancel()
        return 2
    if window.last_error:
        return 1
    if not save_screenshot(window, screenshot):
        print(f"ncu-reader: {screenshot}: could not write the PNG", file=sys.stderr)
        return 1
    window.worker.shutdown()
    return 0
