"""Predict on the shipped pair at 1366x768 and 1920x1080, desk and projector, in the window: each
row's '?' cells on its label's line, no sideways scrolling, and, revealed row by row, the pinned
column headings above the rows, never over one.

One window per size and mode (module-scoped)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QWidget

from tests.qt.windows import SIZES, close_window, open_window, settle
from viewer.qt.lesson.predict_grid import HIDDEN
from viewer.qt.lesson.predict_tab import ORDER, PredictTab


@pytest.fixture(scope="module", params=[(size, projector) for size in SIZES
                                        for projector in (False, True)],
                ids=lambda p: f"{p[0][0]}x{p[0][1]}-{'projector' if p[1] else 'desk'}")
def tab(request, qapp, tmp_path_factory) -> Iterator[PredictTab]:
    size, projector = request.param
    win = open_window(tmp_path_factory.mktemp("predict"), size, projector)
    win.navigate("predict", "")
    settle(8)
    yield win.predict_tab
    close_window(win)


def in_area(tab: PredictTab, widget: QWidget) -> QRect:
    """`widget`'s rectangle in the scroll area's coordinates."""
    return QRect(widget.mapTo(tab.scroll_area, QPoint(0, 0)), widget.size())


def test_each_rows_question_marks_are_on_its_labels_line(tab) -> None:
    tab.start_over()
    settle()
    assert tab.shown == 0 and tab.row_count == len(ORDER)
    for key in ORDER:
        row = tab.rows[key]
        # the row's line: its name's, and its field's (where the speed row's name is stacked
        # over the row, a narrow layout, its box's)
        lines = [in_area(tab, row.inputs[0])]
        if not tab.reflow or key != ORDER[-1]:
            lines.append(in_area(tab, row.name))
        hidden = [c for c in row.cells if c.text() == HIDDEN]
        assert len(hidden) == 3, key
        for cell in hidden:
            at = in_area(tab, cell)
            for line in lines:
                assert line.top() <= at.center().y() <= line.bottom(), (key, cell.objectName())
    area = tab.scroll_area
    assert area.widget().width() <= area.viewport().width()  # and nothing scrolls sideways


def test_the_pinned_headings_never_cover_a_revealed_row(tab, qtbot) -> None:
    tab.start_over()
    settle()
    area = tab.scroll_area
    pinned = 0
    while tab.reveal_next():
        settle()
        viewport = area.viewport().geometry()
        last = tab.rows[ORDER[tab.shown - 1]]
        qtbot.waitUntil(lambda v=viewport, row=last: all(v.contains(in_area(tab, w)) for w in (
            row.name, *row.cells) if w.isVisible() and w.height()), timeout=5000)
        sticky = tab.sticky
        assert sticky is not None
        if sticky.isVisible():
            pinned += 1
            assert not sticky.geometry().intersects(viewport), tab.shown
            assert sticky.geometry().bottom() < viewport.top()
        last = tab.rows[ORDER[tab.shown - 1]]
        for widget in (last.name, *last.cells):  # the row just revealed is in view, whole
            at = in_area(tab, widget)
            if widget.isVisible() and widget.height():
                assert viewport.contains(at), (ORDER[tab.shown - 1], widget.objectName())
    assert tab.shown == len(ORDER)
    assert pinned or area.verticalScrollBar().maximum() == 0  # a scrolled table pinned them
    area.verticalScrollBar().setValue(0)
    settle()
    assert not tab.sticky.isVisible()
    assert area.viewport().geometry().top() == area.frameWidth()  # the margin given back
