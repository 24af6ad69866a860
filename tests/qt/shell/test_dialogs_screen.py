"""The window's dialogs and panels as a person sees them, on the shipped pair at 1366x768 and
1920x1080, desk and projector: F1's keys fit the window, every row in view or scrolled to by the
keys; the Open dialog's columns are as wide as what they show; the Capture dialog shows its whole
check-up within the window, no small box of its own; a failed open's banner and the compare
line's A and B are in the type of the mode.

One window per size and mode (module-scoped)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, QRect, QSettings, Qt
from PySide6.QtGui import QFontMetrics, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QApplication,
    QFileSystemModel,
    QLabel,
    QScrollArea,
    QTreeView,
    QWidget,
)

from viewer.capture.client import choose_route
from viewer.core import shipped
from viewer.qt.capture.capture_dialog import CaptureDialog
from viewer.qt.kit.style import Style
from viewer.qt.shell.main_window import MainWindow, default_tabs
from viewer.qt.shell.opening import file_dialog

SIZES = [(1366, 768), (1920, 1080)]
BODY = Style(projector=True).points("body")
HEADING = Style(projector=True).points("heading")


def settle() -> None:
    for _ in range(6):
        QApplication.processEvents()


@pytest.fixture(scope="module", params=[(size, projector) for size in SIZES
                                        for projector in (False, True)],
                ids=lambda p: f"{p[0][0]}x{p[0][1]}-{'projector' if p[1] else 'desk'}")
def window(request, qapp, tmp_path_factory) -> Iterator[MainWindow]:
    size, projector = request.param
    tmp = tmp_path_factory.mktemp("dialogs")
    settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, tabs=default_tabs(), record_recent=False)
    win.resize(*size)
    win.show()
    loaded: list[bool] = []
    win.loaded.connect(lambda: loaded.append(True))
    win.open_paths(shipped.comparison())
    while not loaded:
        QApplication.processEvents()
    win.set_projector(projector, full_screen=False)
    win.resize(*size)
    win.setProperty("screen_size", size)
    settle()
    yield win
    win.worker.shutdown(30_000)
    win.close()
    win.deleteLater()
    settle()


def fits(widget: QWidget, window: MainWindow) -> bool:
    return widget.width() <= window.width() and widget.height() <= window.height()


def in_view(area: QScrollArea, widget: QWidget) -> bool:
    viewport = area.viewport()
    return viewport.rect().contains(QRect(widget.mapTo(viewport, QPoint(0, 0)), widget.size()))


def test_f1_fits_the_window_and_every_key_is_reached_by_the_keys(window, qtbot) -> None:
    window.show_keys()
    dialog = window.keys_dialog
    try:
        qtbot.waitExposed(dialog)
        settle()
        assert fits(dialog, window), (dialog.size(), window.size())
        area = dialog.findChild(QScrollArea)
        assert area is not None
        labels = [w for w in area.widget().findChildren(QLabel) if w.text()]
        assert len(labels) == 2 * len(dialog.rows)
        assert area.widget().width() <= area.viewport().width()  # nothing cut at the right
        assert labels[0].font().pointSizeF() >= (BODY if window.projector else 10)
        assert area.hasFocus()
        bar = area.verticalScrollBar()
        seen = {id(w) for w in labels if in_view(area, w)}
        for _ in range(len(labels)):
            if bar.value() == bar.maximum():
                break
            qtbot.keyClick(area, Qt.Key.Key_PageDown)
            seen |= {id(w) for w in labels if in_view(area, w)}
        assert seen == {id(w) for w in labels}  # every row, in view at one point
        qtbot.keyClick(area, Qt.Key.Key_PageUp)
        assert bar.value() < bar.maximum() or bar.maximum() == 0
    finally:
        dialog.close()


def test_the_open_dialogs_columns_show_what_they_hold(window, qtbot) -> None:
    dialog = file_dialog(window, window.tab_style)
    dialog.setDirectory(str(shipped.comparison()[0].parent))
    dialog.show()
    try:
        view = next(v for v in dialog.findChildren(QTreeView) if v.isVisible())
        model = view.model()
        assert isinstance(model, QFileSystemModel)
        qtbot.waitUntil(lambda: model.rowCount(view.rootIndex()) >= 2, timeout=10_000)
        settle()
        assert fits(dialog, window)
        header = view.header()
        metrics = QFontMetrics(header.font())
        for column in range(4):
            assert not view.isColumnHidden(column)
            title = str(model.headerData(column, Qt.Orientation.Horizontal))
            wanted = max(view.sizeHintForColumn(column), metrics.horizontalAdvance(title))
            assert view.columnWidth(column) >= wanted, (title, view.columnWidth(column), wanted)
        right = sum(view.columnWidth(c) for c in range(4))
        assert right <= view.viewport().width()  # every column in view, none scrolled to
    finally:
        dialog.close()


def test_the_capture_dialog_shows_its_whole_checkup_in_the_window(window, qtbot,
                                                                   tmp_path) -> None:
    from tests.checkup_machine import machine_checkup

    run_checkup = machine_checkup(tmp_path / "machine", installed=False)
    route = choose_route(params=tmp_path / "no-such-params")
    dialog = CaptureDialog(route, window.tab_style, window, run_checkup=run_checkup)
    dialog.show()
    try:
        qtbot.waitUntil(lambda: dialog.findings is not None, timeout=30_000)
        settle()
        assert fits(dialog, window), (dialog.size(), window.size())
        checkup = dialog.checkup_text
        assert checkup.isVisible()
        assert checkup.height() >= checkup.heightForWidth(checkup.width())  # whole, not cut
        holder = checkup.parentWidget()
        while holder is not None and not isinstance(holder, QScrollArea):
            holder = holder.parentWidget()
        if holder is not None:  # what scrolls is the dialog's page, not a box of the check-up
            assert holder.viewport().height() >= 0.5 * dialog.height()
            assert holder.widget().isAncestorOf(dialog.kernel)
            assert holder.widget().width() <= holder.viewport().width()
    finally:
        dialog.close()


def test_a_failed_opens_banner_takes_the_modes_type(window, qtbot, tmp_path) -> None:
    projector = window.projector
    bad = tmp_path / "bad.ncu-rep"
    bad.write_bytes(b"not a report")
    window.set_projector(not projector, full_screen=False)
    with qtbot.waitSignal(window.load_failed, timeout=60_000):
        window.open_paths([bad])
    window.set_projector(projector, full_screen=False)  # the mode changes under the banner
    window.resize(*window.property("screen_size"))
    settle()
    banner = window.reading.banner
    try:
        assert banner.isVisible() and bad.name in banner.text.text()
        want = window.tab_style.points("body")
        assert banner.text.font().pointSizeF() == want
        assert banner.text.fontInfo().pointSizeF() >= want - 0.5
        for button in banner.findChildren(QWidget):
            if button is not banner.text and hasattr(button, "text"):
                assert button.font().pointSizeF() == want
    finally:
        banner.hide()
        window.resize(*window.property("screen_size"))
        settle()


def first_points(line: QLabel) -> float:
    """The point size the line's first letter (A) is drawn at."""
    doc = QTextDocument()
    doc.setDefaultFont(line.font())
    doc.setHtml(line.text())
    cursor = QTextCursor(doc)
    cursor.movePosition(QTextCursor.MoveOperation.NextCharacter)
    assert doc.toPlainText().lstrip().startswith("A ")
    return cursor.charFormat().font().pointSizeF()


def test_the_compare_lines_a_and_b_read_from_the_back_row(window) -> None:
    line = window.reading.compare_line
    assert line.isVisible()
    if window.projector:
        assert first_points(line) >= HEADING
        assert line.height() >= QFontMetrics(window.tab_style.font("heading")).lineSpacing()
    else:
        assert first_points(line) == Style().points("body")
