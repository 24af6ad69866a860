"""Start the window from parsed command-line arguments; `--screenshot` renders it and exits.

The window opens at the user's last size and place where they fit a screen, else sized from the
screen (viewer.qt.shell.window_place). A screenshot is always 1280x800 (1920x1080 in projector
mode): it waits until loading has finished, writes the whole window as a PNG and returns 0. A file
that cannot be read is refused in the banner and on stderr, one line each, and the status is 1; the
picture is still written when another file could be read (it shows the banner), not when none
could, nor when the files hold no kernel `--kernels` or `-k` asks for (the first picks under a
banner would pass for the kernels asked for). Like every export, a screenshot never writes over
a file: OUT.png that exists (a link too, even a dangling one) is refused in one line before
anything is read, and the picture is written beside it and linked into place
(viewer.core.atomic_write), so a link put there meanwhile is neither followed nor replaced.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QEventLoop,
    QMessageLogContext,
    QSize,
    QTimer,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtWidgets import QApplication

from viewer.analysis.reading import READING_ORDER, SERIES_VIEW
from viewer.core import shipped
from viewer.core.atomic_write import write_atomically
from viewer.core.terminal_text import visible, visible_lines
from viewer.qt.shell import window_place
from viewer.qt.shell.window_place import DESK_SIZE

if TYPE_CHECKING:
    from viewer.qt.kit.workers import Worker
    from viewer.qt.shell.main_window import MainWindow

PROJECTOR_SIZE = QSize(1920, 1080)
# How long a screenshot waits for its files before giving up.
LOAD_TIMEOUT_S = 300


# Qt's offscreen platform says this about every window it cannot resize natively: noise, not news.
_OFFSCREEN_NOISE = ("This plugin does not support propagateSizeHints()",)


def _quiet_offscreen(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    if message not in _OFFSCREEN_NOISE:
        print(visible_lines(message), file=sys.stderr)


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


def startup_paths(files: list[Path], series: bool = False) -> list[Path]:
    """The files named, else what ships for the tab asked for when it is there (the sweep for
    the Series view, else the comparison: shipped.opened_with_no_file), else nothing."""
    if files:
        return list(files)
    found = shipped.opened_with_no_file(series)
    return found if all(p.is_file() for p in found) else []


def wait_for_loading(window: MainWindow, timeout_s: float = LOAD_TIMEOUT_S,
                     failures: list[BaseException] | None = None) -> bool:
    """Run the event loop until the window has shown what it read, or said why not; False on
    timeout. An exception raised in a slot meanwhile (Qt would print it and wait on) ends the
    wait too, printed and appended to `failures`."""
    if not window.busy:
        return True
    loop = QEventLoop()
    timer = QTimer()
    timer.setSingleShot(True)
    for signal in (timer.timeout, window.loaded, window.load_failed, window.worker.cancelled):
        signal.connect(loop.quit)
    timer.start(round(timeout_s * 1000))

    def stop(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        print(visible_lines("".join(traceback.format_exception(kind, value, tb))).rstrip("\n"),
              file=sys.stderr)
        if failures is not None:
            failures.append(value)
        loop.quit()

    hook, sys.excepthook = sys.excepthook, stop
    try:
        if window.busy:
            loop.exec()
    finally:
        sys.excepthook = hook
    return not window.busy


def save_screenshot(window: MainWindow, out: Path) -> None:
    """Let pending layout and paint settle, then write the whole window as a new PNG.

    FileExistsError if `out` exists (or appears meanwhile), OSError if it cannot be written."""
    for _ in range(3):
        QApplication.processEvents()

    def write(temporary: Path) -> None:
        if not window.grab().save(str(temporary), "PNG"):
            raise OSError(f"could not write {temporary}")

    write_atomically(out, write)


def exists_line(out: Path) -> str:
    """The one line that refuses a taken OUT.png."""
    return visible(f"ncu-reader: {out} exists; name a new file (a screenshot never writes "
                   "over one)")


def start_reading(paths: list[Path]) -> Worker:
    """A worker already reading `paths`, so that the read (a .ncu-rep's child process) runs while
    the window's modules are imported and its widgets built."""
    from viewer.qt.kit.workers import Worker
    from viewer.qt.shell.loading import read_reports

    worker = Worker()
    worker.submit(read_reports, paths)
    return worker


def open_window(args: argparse.Namespace) -> MainWindow:
    """The window of `python -m viewer` shown, its files being read (when none are named, the
    shipped comparison, or the shipped sweep for `--tab series`); a screenshot's window at its
    fixed size, remembering nothing."""
    screenshot: Path | None = args.screenshot
    if screenshot is not None:
        quiet_offscreen_noise()
    application()
    paths = startup_paths(list(args.files), args.tab == SERIES_VIEW)
    reading = start_reading(paths) if paths else None
    from viewer.qt.shell.main_window import (
        MainWindow,  # the widgets' imports, while the files are read
    )
    from viewer.qt.shell.opening import StartPicks

    window = MainWindow(record_recent=screenshot is None, worker=reading)
    numbers: tuple[int, ...] = getattr(args, "kernels", None) or ()
    spec: str | None = getattr(args, "kernel", None)
    if numbers or spec is not None:
        window.start_picks = StartPicks(numbers, spec)
    if paths:
        window.show_reading(paths)
    if screenshot is not None:
        window.resize(screenshot_size(args))
        maximized = False
    else:
        maximized = window_place.place(window, window.settings)
    window.set_tab(READING_ORDER.index(args.tab) if args.tab in READING_ORDER else 0)
    if args.tab == SERIES_VIEW:
        window.reading.go_to(SERIES_VIEW)
    if maximized:
        window.showMaximized()
    else:
        window.show()
    if args.projector:
        window.set_projector(True, full_screen=screenshot is None)
    return window


def screenshot_size(args: argparse.Namespace) -> QSize:
    """`--size WxH` where given, else 1280x800 (1920x1080 in projector mode)."""
    size: tuple[int, int] | None = getattr(args, "size", None)
    if size is not None:
        return QSize(*size)
    return PROJECTOR_SIZE if args.projector else DESK_SIZE


def run(args: argparse.Namespace) -> int:
    """The window until it is closed, or its screenshot written: the exit status."""
    screenshot: Path | None = args.screenshot
    if screenshot is not None and os.path.lexists(screenshot):
        print(exists_line(screenshot), file=sys.stderr)
        return 1
    window = open_window(args)
    app = application()
    if screenshot is None:
        return app.exec()

    failures: list[BaseException] = []
    done = wait_for_loading(window, failures=failures)
    if failures:
        print("ncu-reader: the window failed while showing the files (the traceback is above)",
              file=sys.stderr)
        window.worker.cancel()
        return 1
    if not done:
        print(f"ncu-reader: loading did not finish within {LOAD_TIMEOUT_S} s", file=sys.stderr)
        window.worker.cancel()
        return 2
    if (window.last_error and not window.reports) or window.refused_picks:
        return 1  # nothing could be read, or not the kernels asked for: no picture
    try:
        save_screenshot(window, screenshot)
    except FileExistsError:
        print(exists_line(screenshot), file=sys.stderr)
        return 1
    except OSError as exc:
        reason = f": {exc.strerror}" if exc.strerror else ""
        print(visible(f"ncu-reader: {screenshot}: could not write the PNG{reason}"),
              file=sys.stderr)
        return 1
    window.worker.shutdown()
    return 1 if window.last_error else 0
