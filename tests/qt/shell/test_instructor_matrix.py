"""The instructor's screen, every view: at 1366x768 and 1920x1080, desk and projector, on the
shipped pair and on two long-named cuBLAS kernels of the PyTorch capture (#2 and #7). The window
never exceeds the screen; in projector mode no view scrolls sideways, nor a reading tab with the
exercise open (its labels over its rows where the third the exercise takes leaves too little), and
every label in the view, the side panels and the Open dialog is at least the projector's smallest
type, and so is the memory chart's painted text at the scale it is drawn. The compare line takes
at most a fifth of the height (its warnings folded where they would take more), and no word of it
runs past its right edge, and where the window is short its warnings fold to one line; no view
says one again. The numbers stay on screen: every value column of Every metric (where its names
keep a readable least beside them; else A and B, and the table says its columns scroll) and the
load columns of Source lie inside their table, with long kernel names too.

One window per size, mode and pair (module-scoped), every view shown in it in turn."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QDockWidget, QLabel, QScrollArea, QWidget

from tests.qt.windows import SIZES, close_window, open_window, settle
from viewer.analysis.metric_words import NAME_CHARS, NAME_SHARE, PAD
from viewer.analysis.source_columns import COLUMNS as SOURCE_COLUMNS
from viewer.analysis.source_columns import LOAD_TITLES
from viewer.qt.kit.style import _POINTS, Style
from viewer.qt.shell.compare_line import HEIGHT_SHARE, SHORT_HEIGHT, first_sentence
from viewer.qt.shell.main_window import MainWindow
from viewer.qt.shell.opening import file_dialog
from viewer.qt.views.memory.memory_tab import MemoryChartView, MemoryTab
from viewer.qt.views.metrics.metrics_view import MetricsView
from viewer.qt.views.source.source_view import SourceView

SMALLEST = min(Style(projector=True).points(role) for role in _POINTS)


@pytest.fixture(scope="module", params=[(size, projector, pair) for size in SIZES
                                        for projector in (False, True)
                                        for pair in ("shipped", "torch")],
                ids=lambda p: f"{p[0][0]}x{p[0][1]}-{'projector' if p[1] else 'desk'}-{p[2]}")
def window(request, qapp, tmp_path_factory) -> Iterator[MainWindow]:
    size, projector, pair = request.param
    win = open_window(tmp_path_factory.mktemp("matrix"), size, projector,
                      (2, 7) if pair == "torch" else None)
    win.setProperty("pair", pair)
    yield win
    close_window(win)


def shown(window: MainWindow, view) -> QWidget:
    window.navigate(view.VIEW, "")
    settle()
    return window.reading.tabs.currentWidget()


def sideways(page: QWidget) -> list[str]:
    """The scroll areas of `page` whose content is wider than their viewport."""
    return [f"{area.objectName() or 'scroll area'}: {area.widget().width()} px in "
            f"{area.viewport().width()}" for area in page.findChildren(QScrollArea)
            if area.isVisible() and area.widget() is not None
            and area.widget().width() > area.viewport().width()]


def small_labels(widget: QWidget) -> list[str]:
    """The visible labels of `widget` whose type is smaller than the projector's smallest."""
    return [f"{label.objectName() or label.text()[:30]!r}: {label.font().pointSizeF()} pt"
            for label in widget.findChildren(QLabel)
            if label.isVisible() and label.text() and label.font().pointSizeF() < SMALLEST]


def side_panels(window: MainWindow) -> list[QDockWidget]:
    return [d for d in window.findChildren(QDockWidget) if d.isVisible()]


def test_the_window_never_exceeds_the_screen(window) -> None:
    screen = window.size()
    for view in window.reading.views:
        shown(window, view)
        assert window.width() <= screen.width() and window.height() <= screen.height(), view.VIEW
        assert window.minimumSizeHint().width() <= screen.width(), view.VIEW


def test_no_view_scrolls_sideways_in_projector_mode(window) -> None:
    if not window.projector:
        pytest.skip("projector mode only")
    wide = {view.VIEW: sideways(shown(window, view)) for view in window.reading.views}
    assert not {k: v for k, v in wide.items() if v}


def test_projector_text_is_large_in_every_view(window) -> None:
    if not window.projector:
        pytest.skip("projector mode only")
    small = {view.VIEW: small_labels(shown(window, view)) for view in window.reading.views}
    assert not {k: v for k, v in small.items() if v}


def test_the_side_panels_take_the_projector_type(window) -> None:
    if not window.projector:
        pytest.skip("projector mode only")
    window.exercise.action.trigger()
    window.kernel_dock.show()
    settle()
    try:
        panels = side_panels(window)
        assert window.exercise.dock in panels and window.kernel_dock in panels
        small = {d.objectName(): small_labels(d) for d in panels}
        assert not {k: v for k, v in small.items() if v}
        assert all(d.font().pointSizeF() >= SMALLEST for d in panels)
        assert window.width() <= window.size().width()
    finally:
        window.exercise.dock.hide()
        window.kernel_dock.hide()
        settle()


def test_the_side_panels_never_scroll_sideways(window) -> None:
    """The exercise (its button rows wrap) and the kernel list, one kernel a row and grouped
    by name, each fit its panel."""
    if not window.projector:
        pytest.skip("projector mode only")
    window.exercise.action.trigger()
    settle()
    try:
        panel = window.exercise.panel
        assert not sideways(window.exercise.dock)
        panel.show_hint()
        panel.show_solution()  # every option, each with its Show button
        settle()
        assert not sideways(window.exercise.dock)
    finally:
        window.exercise.dock.hide()
        settle()
    kernel_list = window.kernel_list
    window.kernel_dock.show()
    settle()
    try:
        assert kernel_list.view.horizontalScrollBar().maximum() == 0
        kernel_list.set_grouped(True)
        settle()
        groups = kernel_list.group_view
        assert groups.horizontalScrollBar().maximum() == 0
        header = groups.horizontalHeader()
        assert all(header.sectionViewportPosition(c) + header.sectionSize(c)
                   <= groups.viewport().width()
                   for c in range(header.count()) if not groups.isColumnHidden(c))
    finally:
        kernel_list.set_grouped(False)
        window.kernel_dock.hide()
        settle()


def test_the_reading_tabs_fit_beside_the_exercise(window) -> None:
    if not window.projector:
        pytest.skip("projector mode only")
    window.exercise.action.trigger()
    settle()
    try:
        wide = {view.VIEW: sideways(shown(window, view)) for view in window.reading.tab_pages}
        assert not {k: v for k, v in wide.items() if v}
    finally:
        window.exercise.dock.hide()
        settle()


def test_the_memory_charts_painted_type_is_the_projectors(window) -> None:
    """The chart is a picture, not labels: its smallest font times the scale it is drawn at is
    at least the projector's smallest type, beside the exercise or not, and the picture is
    never wider than its view (its bands wrap onto rows; the page scrolls down)."""
    if not window.projector:
        pytest.skip("projector mode only")
    for exercise in (False, True):
        window.exercise.dock.setVisible(exercise)
        settle()
        try:
            page = shown(window, MemoryTab)
            view = page.findChild(MemoryChartView)
            points = view.item.smallest_points * view.transform().m11()
            where = f"exercise {'open' if exercise else 'closed'}"
            assert points >= SMALLEST, f"{where}: {points:.1f} pt"
            assert view.item.boundingRect().width() * view.transform().m11() <= view.width(), where
            assert not sideways(page), where
        finally:
            window.exercise.dock.hide()
            settle()


def test_the_open_dialog_takes_the_projector_type(window) -> None:
    if not window.projector:
        pytest.skip("projector mode only")
    dialog = file_dialog(window, window.tab_style)
    try:
        assert dialog.font().pointSizeF() >= SMALLEST
        assert all(label.font().pointSizeF() >= SMALLEST for label in dialog.findChildren(QLabel))
        assert dialog.width() <= window.width()
    finally:
        dialog.deleteLater()


def unbroken_words(text: str) -> list[str]:
    """The runs of a rich text a wrapped label cannot break (no space, no zero-width break)."""
    plain = html.unescape(re.sub(r"<[^>]+>", " ", text))
    return [w for w in re.split(r"[ \n\u200b]+", plain) if w]


def test_the_compare_line_takes_at_most_a_fifth_of_the_height(window) -> None:
    line = window.reading.compare_line
    for exercise in (False, True):
        window.exercise.dock.setVisible(exercise)
        settle()
        try:
            tall = {view.VIEW: line.height() for view in window.reading.tab_pages
                    if shown(window, view) and line.height() > HEIGHT_SHARE * window.height()}
            assert not tall, f"exercise {'open' if exercise else 'closed'}"
        finally:
            window.exercise.dock.hide()
            settle()


def test_no_word_of_the_compare_line_runs_past_its_edge(window) -> None:
    """Its names and its warnings (opened, as N shows them), beside the exercise and the kernel
    list or not."""
    line = window.reading.compare_line
    shown(window, window.reading.tab_pages[0])
    opened = line.folded
    if opened:
        line.toggle_notes()
    metrics = QFontMetrics(window.tab_style.font("body", bold=True))
    try:
        for exercise, kernels in ((False, False), (True, False), (True, True)):
            window.exercise.dock.setVisible(exercise)
            window.kernel_dock.setVisible(kernels)
            settle()
            room = line.width() - 2 * window.tab_style.px(10)
            wide = [w for w in unbroken_words(line.text())
                    if metrics.horizontalAdvance(w) > room]
            assert not wide, f"exercise {exercise}, kernel list {kernels}"
    finally:
        window.exercise.dock.hide()
        window.kernel_dock.hide()
        if opened:
            line.toggle_notes()
        settle()


def in_view(header, column: int, width: int) -> bool:
    start = header.sectionViewportPosition(column)
    return start >= 0 and start + header.sectionSize(column) <= width


def test_every_value_column_of_every_metric_lies_in_its_table(window, qtbot) -> None:
    """The values are the point, and the names say what they are: every value lies inside
    the table where the names keep their least (NAME_CHARS, at most NAME_SHARE of the table);
    where the values leave less, the names keep it all the same, A and B lie inside, and the
    table says that its columns scroll. No value is cut."""
    page = shown(window, MetricsView)
    qtbot.waitUntil(lambda: not page.reading, timeout=120_000)
    settle()
    table, model = page.table, page.model
    header, width = table.horizontalHeader(), table.viewport().width()
    values = [c for c, title in enumerate(model.columns)
              if title not in ("Metric", "Description") and not table.isColumnHidden(c)]
    # the diff: A, B, change, B/A, better when (the desk's), verdict, unit
    assert model.rowCount() > 40 and len(values) == (6 if window.projector else 7)
    metrics = table.fontMetrics()
    longest = max(metrics.horizontalAdvance(n) for n in model.texts(0)) + PAD
    least = min(longest, NAME_CHARS * metrics.averageCharWidth(), int(NAME_SHARE * width))
    assert header.sectionSize(0) >= least
    outside = [model.title(c) for c in values if not in_view(header, c, width)]
    assert table.scroll_words.isVisible() == bool(outside), outside
    assert all(in_view(header, c, width) for c in (1, 2))  # A and B
    if outside:
        assert "scroll sideways" in table.scroll_words.text()
    cut = [t for c in values for t in model.texts(c)
           if metrics.horizontalAdvance(t) > header.sectionSize(c)]
    assert not cut


def test_the_load_columns_of_source_lie_in_their_tables(window, qtbot) -> None:
    page = shown(window, SourceView)
    qtbot.waitUntil(lambda: page.ready, timeout=120_000)
    settle()
    trees = [p.tree for p in page.panes if p.tree.isVisible()]
    if window.property("pair") == "torch":
        assert not trees  # a details export holds no source counters: it says so
        return
    assert len(trees) == 2
    loads = [n for n, c in enumerate(SOURCE_COLUMNS) if c.title in LOAD_TITLES]
    for tree in trees:
        shown_loads = [n for n in loads if not tree.isColumnHidden(n)]
        assert "global loads / thread" in [SOURCE_COLUMNS[n].title for n in shown_loads]
        outside = [SOURCE_COLUMNS[n].title for n in shown_loads
                   if not in_view(tree.header(), n, tree.viewport().width())]
        assert not outside, tree.objectName()


def test_a_short_window_folds_the_warnings_to_one_line(window) -> None:
    line = window.reading.compare_line
    shown(window, window.reading.tab_pages[0])
    assert line.misreads  # both pairs: clocks not locked (and the sizes, or the requests)
    if window.height() >= SHORT_HEIGHT and not window.projector:
        assert not line.folded
        return
    assert line.folded and line.text().count("Careful:") == 1


def test_every_metric_says_no_warning_the_compare_line_says(window, qtbot) -> None:
    page = shown(window, MetricsView)
    qtbot.waitUntil(lambda: not page.reading, timeout=120_000)
    said = page.warnings.text().replace("\u200b", "") if page.warnings.isVisible() else ""
    repeated = [m.kind for m in window.reading.compare_line.misreads
                if first_sentence(m.text)[:40] in said]
    assert not repeated
