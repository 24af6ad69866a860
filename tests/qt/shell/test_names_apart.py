"""Two different kernels never read alike where the window paints their names: the kernel
list, the group view and the tabs' A/B headings, at 1366x768 and 1920x1080, desk and
projector, on the shipped pair and on the PyTorch capture's `tn` and `nn` cuBLAS gemms (#2 and
#44, 121 characters that differ in one). What is painted is computed as Qt paints it: an item
view's text through its delegate, elided by the font to the cell less the style's margins; an
ElidedName's own `shown_text`. The list's header row is in the list's type.

One window per size, mode and pair (module-scoped)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QStyle,
    QStyleOptionHeader,
    QStyleOptionViewItem,
    QTableView,
)

from tests.qt.windows import SIZES, close_window, open_window, settle
from viewer.qt.kernel_list.name_delegate import text_width
from viewer.qt.kit.elided_name import ElidedName
from viewer.qt.shell.main_window import MainWindow
from viewer.qt.views.metrics.metrics_view import MetricsView

TN, NN = 2, 44  # sm80_xmma_gemm_..._tn_n_tilesize64x64x8_... and its _nn_n_ twin



@pytest.fixture(scope="module", params=[(size, projector, pair) for size in SIZES
                                        for projector in (False, True)
                                        for pair in ("shipped", "torch")],
                ids=lambda p: f"{p[0][0]}x{p[0][1]}-{'projector' if p[1] else 'desk'}-{p[2]}")
def window(request, qapp, tmp_path_factory) -> Iterator[MainWindow]:
    size, projector, pair = request.param
    win = open_window(tmp_path_factory.mktemp("apart"), size, projector,
                      (TN, NN) if pair == "torch" else None)
    win.kernel_dock.show()
    settle()
    yield win
    close_window(win)


def painted(view: QTableView, column: int) -> dict[str, set[str]]:
    """Each whole name of `column` (the model's text) -> the texts painted for it."""
    model = view.model()
    delegate = view.itemDelegateForColumn(column) or view.itemDelegate()
    out: dict[str, set[str]] = {}
    for row in range(model.rowCount()):
        index = model.index(row, column)
        option = QStyleOptionViewItem()
        option.initFrom(view)
        option.font = view.font()
        option.fontMetrics = view.fontMetrics()
        option.rect = view.visualRect(index)
        option.rect.setWidth(view.columnWidth(column))
        option.textElideMode = view.textElideMode()
        option.widget = view
        delegate.initStyleOption(option, index)
        text = option.fontMetrics.elidedText(option.text, option.textElideMode,
                                             text_width(option, view))
        out.setdefault(str(model.data(index)), set()).add(text)
    return out


def alike(shown: dict[str, set[str]]) -> list[str]:
    """The texts painted for more than one name."""
    seen: dict[str, set[str]] = {}
    for name, texts in shown.items():
        for text in texts:
            seen.setdefault(text, set()).add(name)
    return [f"{text!r}: {sorted(names)}" for text, names in seen.items() if len(names) > 1]


def test_the_kernel_list_paints_no_two_names_alike(window) -> None:
    kernels = window.kernel_list
    kernels.set_grouped(False)
    settle()
    assert kernels.view.isVisible()
    shown = painted(kernels.view, 1)
    assert len(shown) > 1
    assert not alike(shown)


def test_the_group_view_paints_no_two_names_alike(window) -> None:
    kernels = window.kernel_list
    kernels.set_grouped(True)
    settle()
    try:
        shown = painted(kernels.group_view, 0)
        assert len(shown) > 1
        assert not alike(shown)
    finally:
        kernels.set_grouped(False)
        settle()


def test_the_list_and_the_headings_never_show_two_kernels_alike(window) -> None:
    """The headings of every tab, and the list's rows, one set of texts per kernel."""
    kernels = window.kernel_list
    shown = painted(kernels.view, 1)
    names = [e.kernel.name for e in window.picks]
    assert len(set(names)) == 2
    for view in window.reading.views:
        window.navigate(view.VIEW, "")
        settle()
        page = window.reading.tabs.currentWidget()
        for heading in page.findChildren(ElidedName):
            if heading.isVisible() and heading.text() in names:
                shown.setdefault(heading.text(), set()).add(heading.shown_text())
    assert not alike(shown)


def test_the_lists_header_row_is_in_the_lists_type(window) -> None:
    view = window.kernel_list.view
    header = view.horizontalHeader()
    assert header.font().pointSizeF() == view.font().pointSizeF()


def test_the_status_line_paints_both_names_apart(window) -> None:
    """What the line paints (its text, clipped to its width) names A and B apart."""
    line = window.status_line.text
    if not line.isVisible():
        pytest.skip("no status line at this size and mode: nothing painted")
    text, width = line.text(), line.contentsRect().width()
    advance = line.fontMetrics().horizontalAdvance
    painted = next(text[:n] for n in range(len(text), -1, -1) if advance(text[:n]) <= width)
    said = re.search(r"\bA (.+?)(?: with|,) B (.+?)(;|$)", painted)
    assert said is not None, f"{painted!r} of {text!r}"
    assert said.group(1) != said.group(2)


def painted_header(header: QHeaderView, section: int) -> str:
    """What the header paints of `section`'s title: elided, as QHeaderView does, to its label's
    rect (with the sort arrow where the section shows one now)."""
    option = QStyleOptionHeader()
    option.initFrom(header)
    option.rect = QRect(0, 0, header.sectionSize(section), header.height())
    option.section = section
    option.orientation = Qt.Orientation.Horizontal
    option.state |= QStyle.StateFlag.State_Horizontal
    if header.sortIndicatorSection() == section:
        option.sortIndicator = QStyleOptionHeader.SortIndicator.SortDown
    room = header.style().subElementRect(QStyle.SubElement.SE_HeaderLabel, option, header)
    text = str(header.model().headerData(section, Qt.Orientation.Horizontal))
    return header.fontMetrics().elidedText(text, header.textElideMode(), room.width())


def test_every_metrics_a_and_b_headers_paint_the_two_names_apart(window, qtbot) -> None:
    view = next(v for v in window.reading.views if isinstance(v, MetricsView))
    window.navigate(view.VIEW, "")
    qtbot.waitUntil(lambda: not view.reading and view.model.is_diff, timeout=120_000)
    settle()
    header = view.table.horizontalHeader()
    for sort in (-1, 1):  # unsorted, and sorted by A's column (its arrow takes room)
        header.setSortIndicator(sort, Qt.SortOrder.DescendingOrder)
        settle()
        a, b = (painted_header(header, c) for c in (1, 2))
        assert a.startswith("A ") and b.startswith("B ")
        assert a[2:] != b[2:], (a, b)
    header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)


def test_a_kernel_shown_alone_reads_apart_from_its_look_alikes(window) -> None:
    """#2 alone and #44 alone (the tn and nn gemms): their headings and the first-launch note
    each name keep the part where the two differ."""
    entries = {e.kernel.index: e for e in window.kernel_list.entries()}
    if len(entries) < 3:
        pytest.skip("the shipped pair has no look-alikes")
    shown: dict[str, set[str]] = {}
    try:
        for number in (TN, NN):
            window.show_entries([entries[number]])
            window.set_tab(0)
            settle()
            page = window.reading.tabs.currentWidget()
            name = entries[number].kernel.name
            texts = {h.shown_text() for h in page.findChildren(ElidedName) if h.isVisible()}
            notes = [label.text() for label in page.findChildren(QLabel)
                     if label.isVisible() and label.text().startswith("This is the first of")]
            assert texts and notes
            shown[name] = texts | {n.split(" launches of ")[1].split(" in this")[0]
                                   for n in notes}
    finally:
        window.show_entries([entries[TN], entries[NN]])
        settle()
    assert not alike(shown)
