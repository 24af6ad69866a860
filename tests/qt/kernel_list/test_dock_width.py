"""The kernel list takes the room its names need whenever it shows, however it is shown (Ctrl+L,
the View menu's entry, a report of many kernels), at most a third of the window: at 1920 desk
the shipped pair's names are painted whole. Its 'Group by name' box (and Every metric's box)
is as large as its words, in projector mode too. At 1366x768 and 1920x1080, desk and
projector."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QCheckBox, QStyle, QStyleOptionButton

from tests.qt.shell.test_names_apart import painted
from tests.qt.windows import SIZES, close_window, open_window, settle
from viewer.qt.kernel_list.kernel_dock import LIST_WIDTH, SHARE
from viewer.qt.kit.style import INDICATOR_PX
from viewer.qt.shell.main_window import MainWindow
from viewer.qt.views.metrics.metrics_view import MetricsView


@pytest.fixture(scope="module", params=[(size, projector) for size in SIZES
                                        for projector in (False, True)],
                ids=lambda p: f"{p[0][0]}x{p[0][1]}-{'projector' if p[1] else 'desk'}")
def window(request, qapp, tmp_path_factory) -> Iterator[MainWindow]:
    size, projector = request.param
    win = open_window(tmp_path_factory.mktemp("dock"), size, projector)
    yield win
    close_window(win)


def shown_by_ctrl_l(window: MainWindow, qtbot) -> None:
    dock = window.kernel_dock
    dock.hide()
    settle()
    window.window_actions.kernel_list.trigger()  # the dock's own toggle: Ctrl+L
    qtbot.waitUntil(dock.isVisible)
    least = min(LIST_WIDTH, int(window.width() * SHARE))
    qtbot.waitUntil(lambda: dock.width() >= least, timeout=5_000)
    settle()


def test_ctrl_l_opens_the_list_wide_enough_for_its_names(window, qtbot) -> None:
    shown_by_ctrl_l(window, qtbot)
    dock = window.kernel_dock
    try:
        assert dock.width() >= min(LIST_WIDTH, int(window.width() * SHARE))
        if not window.projector:  # the projector's type may need more than the share
            assert dock.width() <= window.width() * SHARE + 1
        if window.width() >= 1920 and not window.projector:
            shown = painted(window.kernel_list.view, 1)
            whole = {e.kernel.name for e in window.kernel_list.entries()}
            assert set(shown) == whole
            assert all(texts == {name} for name, texts in shown.items()), shown
    finally:
        dock.hide()
        settle()


def test_the_list_follows_the_windows_width(window, qtbot) -> None:
    """Shown at 1366 wide and the window widened to 1920, the list widens with it."""
    if window.projector:
        pytest.skip("the desk's window is resized; projector mode fills the screen")
    size = window.size()
    window.resize(1366, size.height())
    settle()
    shown_by_ctrl_l(window, qtbot)
    try:
        narrow = window.kernel_dock.width()
        window.resize(1920, size.height())
        qtbot.waitUntil(lambda: window.kernel_dock.width() > narrow, timeout=5_000)
    finally:
        window.kernel_dock.hide()
        window.resize(size)
        settle()


def indicator(box: QCheckBox) -> tuple[int, int]:
    """The box's box as its style lays it out (its sheet's size where it has one)."""
    box.ensurePolished()
    option = QStyleOptionButton()
    option.initFrom(box)
    rect = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    return rect.width(), rect.height()


def test_the_check_boxes_boxes_scale_with_the_type(window) -> None:
    metrics = next(v for v in window.reading.views if isinstance(v, MetricsView))
    for box in (window.kernel_list.group_box, metrics.controls.one_sided):
        width, height = indicator(box)
        assert width == height == (2 if window.projector else 1) * INDICATOR_PX
        assert height >= box.fontMetrics().height() / 2  # beside its words, not a speck
