"""Where the window opens (viewer.qt.shell.window_place): sized from the screen's available
geometry, so a 1366x768 laptop shows the whole window and its status line; the user's size and place
remembered, and restored only where they fit the screen of the day.

The offscreen platform's screen is set by a JSON file (`offscreen:configfile=...`); its
`offscreen:size=WxH` is not an option it knows (the screen stays 800x800).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, QSettings, QSize
from PySide6.QtGui import QImage

from viewer.qt.shell import window_place
from viewer.qt.shell.main_window import MainWindow, default_tabs
from viewer.qt.shell.window_place import DESK_SIZE, FRAME, first_geometry, fits, place

ROOT = Path(__file__).resolve().parents[3]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
LAPTOP = QRect(0, 0, 1366, 768)
WIDE = QRect(0, 0, 1920, 1080)


@pytest.fixture
def settings(tmp_path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


def test_the_first_window_fits_a_laptop_screen_with_room_for_its_frame() -> None:
    rect = first_geometry(LAPTOP)
    assert LAPTOP.contains(rect.marginsAdded(FRAME))
    assert rect.height() < DESK_SIZE.height()  # 800 would not fit 768
    assert rect.width() == LAPTOP.width() - FRAME.left() - FRAME.right()  # the screen's width
    assert rect.center().x() in (LAPTOP.center().x(), LAPTOP.center().x() + 1)


def test_a_panel_on_the_screen_is_left_alone() -> None:
    available = QRect(0, 32, 1366, 736)  # a top bar takes 32 pixels
    assert available.contains(first_geometry(available).marginsAdded(FRAME))


def test_a_large_screen_gets_the_size_it_allows() -> None:
    """1920x1080 opens at 1904x1032, not a fixed 1280x800 (nor 1280x720) in its middle."""
    assert first_geometry(WIDE).size() == QSize(1920 - 16, 1080 - 48)
    assert WIDE.contains(first_geometry(WIDE).marginsAdded(FRAME))
    on_the_right = QRect(1920, 0, 2560, 1440)  # a second monitor
    assert on_the_right.contains(first_geometry(on_the_right))


def test_a_window_placed_on_a_laptop_shows_its_status_line(qtbot, settings) -> None:
    window = MainWindow(settings=settings, tabs=default_tabs(), record_recent=False)
    qtbot.addWidget(window)
    assert place(window, settings, [LAPTOP]) is False
    window.show()
    qtbot.waitExposed(window)
    status = window.statusBar()
    bottom = status.mapTo(window, status.rect().bottomLeft()) + window.geometry().topLeft()
    assert LAPTOP.contains(window.geometry())
    assert LAPTOP.contains(bottom)
    assert window.geometry() == first_geometry(LAPTOP)


def test_the_users_size_and_place_come_back_where_they_fit(qtbot, settings) -> None:
    window = MainWindow(settings=settings, tabs=default_tabs())
    qtbot.addWidget(window)
    window.setGeometry(QRect(100, 60, 900, 600))
    window.show()
    qtbot.waitExposed(window)
    window.close()
    assert window_place.saved_geometry(settings) == (QRect(100, 60, 900, 600), False)
    again = MainWindow(settings=settings, tabs=default_tabs())
    qtbot.addWidget(again)
    place(again, settings, [LAPTOP])
    assert again.geometry() == QRect(100, 60, 900, 600)


@pytest.mark.parametrize("saved", [QRect(1500, 100, 900, 600),  # on a monitor gone since
                                   QRect(0, 0, 1800, 1000),  # larger than this screen
                                   QRect(0, 0, 0, 0)])  # damaged
def test_a_saved_place_that_does_not_fit_the_screen_is_not_restored(qtbot, settings,
                                                                    saved) -> None:
    settings.setValue(window_place.GEOMETRY_KEY, saved)
    settings.setValue(window_place.MAXIMIZED_KEY, True)
    window = MainWindow(settings=settings, tabs=default_tabs(), record_recent=False)
    qtbot.addWidget(window)
    assert place(window, settings, [LAPTOP]) is False
    assert window.geometry() == first_geometry(LAPTOP)


def test_a_maximized_window_opens_maximized_again(qtbot, settings) -> None:
    settings.setValue(window_place.GEOMETRY_KEY, QRect(10, 40, 800, 500))
    settings.setValue(window_place.MAXIMIZED_KEY, True)
    window = MainWindow(settings=settings, tabs=default_tabs(), record_recent=False)
    qtbot.addWidget(window)
    assert place(window, settings, [WIDE, LAPTOP]) is True
    assert window.geometry() == QRect(10, 40, 800, 500)  # what un-maximizing comes back to
    assert not fits(QRect(10, 40, 800, 500), [QRect(0, 0, 640, 480)])


def test_a_window_that_records_nothing_leaves_no_place_behind(qtbot, settings) -> None:
    window = MainWindow(settings=settings, tabs=default_tabs(), record_recent=False)
    qtbot.addWidget(window)
    window.show()
    window.close()
    assert window_place.saved_geometry(settings) is None


# `python -m viewer FILES` as started by a user, on a 1366x768 screen: where the window is, where
# its status line is, and a picture of the screen (the desktop dark grey, the window drawn on it).
OPEN_ON_SCREEN = textwrap.dedent("""
    import argparse, json, sys
    from pathlib import Path
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QColor, QImage, QPainter
    from viewer.qt.shell import app as qt_app
    from viewer.qt.shell.main_window import MainWindow

    out, files = Path(sys.argv[1]), [Path(p) for p in sys.argv[2:]]
    application = qt_app.application()
    qt_app.quiet_offscreen_noise()

    def report():
        window = next(w for w in application.topLevelWidgets() if isinstance(w, MainWindow))
        if window.busy:
            QTimer.singleShot(50, report)
            return
        application.processEvents()
        screen = window.screen().availableGeometry()
        status = window.statusBar()
        corner = status.mapToGlobal(status.rect().bottomRight())
        canvas = QImage(screen.size(), QImage.Format.Format_RGB32)
        canvas.fill(QColor("#404040"))
        painter = QPainter(canvas)
        painter.drawPixmap(window.geometry().topLeft() - screen.topLeft(), window.grab())
        painter.end()
        canvas.save(str(out), "PNG")
        g = window.geometry()
        print(json.dumps({"screen": screen.getRect(), "window": g.getRect(),
                          "status_bottom_right": [corner.x(), corner.y()],
                          "error": window.last_error}))
        window.close()
        application.quit()

    QTimer.singleShot(50, report)
    args = argparse.Namespace(files=files, tab="memory", projector=False, screenshot=None)
    sys.exit(qt_app.run(args))
""")


def open_on_screen(tmp_path: Path, out: Path, *files: Path,
                   screen: tuple[int, int] = (1366, 768)) -> dict:
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0,
                                               "width": screen[0], "height": screen[1]}]}))
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    result = subprocess.run([sys.executable, "-c", OPEN_ON_SCREEN, str(out), *map(str, files)],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.slow
def test_on_a_1366_by_768_laptop_the_whole_window_shows(tmp_path) -> None:
    shot = tmp_path / "laptop.png"
    seen = open_on_screen(tmp_path, shot, H200 / "numba-naive.ncu-rep",
                          H200 / "numba-tiled.ncu-rep")
    screen, window = QRect(*seen["screen"]), QRect(*seen["window"])
    assert screen == LAPTOP
    assert screen.contains(window.marginsAdded(FRAME))
    x, y = seen["status_bottom_right"]
    assert screen.contains(x, y)  # the status line's bottom is on the screen
    assert seen["error"] == ""
    picture = QImage(str(shot))
    assert picture.size() == QSize(1366, 768)
    desktop = picture.pixel(2, 2)  # the corner is desktop, not window
    assert picture.pixel(window.center()) != desktop
    assert picture.pixel(x, y - 2) != desktop  # the status line is drawn, on screen
    # the next start finds the size and place it was closed at
    again = open_on_screen(tmp_path, tmp_path / "again.png", H200 / "numba-naive.ncu-rep")
    assert QRect(*again["window"]) == window


@pytest.mark.slow
def test_on_a_1920_by_1080_screen_the_window_opens_as_large_as_it_allows(tmp_path) -> None:
    wide = (1920, 1080)
    seen = open_on_screen(tmp_path, tmp_path / "wide.png", *shipped_pair(), screen=wide)
    screen, window = QRect(*seen["screen"]), QRect(*seen["window"])
    assert screen == WIDE and screen.contains(window.marginsAdded(FRAME))
    assert window.size() == first_geometry(WIDE).size()  # not 1280x720 in its middle
    assert window.width() > DESK_SIZE.width() and window.height() > DESK_SIZE.height()


def shipped_pair() -> list[Path]:
    return [ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"]
