"""The Predict step on the shipped pair (profiles/, what a student with no GPU opens): typing,
Reveal, one row at a time in projector mode, the values of viewer.lesson.reveal, nothing
measured on the page before Reveal, and the window's keys for it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QLineEdit, QPushButton, QWidget

from tests.conftest import open_shipped
from viewer.core import shipped
from viewer.core.model import Kernel
from viewer.lesson import predict_text
from viewer.lesson.reveal import Guess, SpeedGuess, reveal, speed
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.style import Style
from viewer.qt.lesson.exercise_lines import Names as LineNames
from viewer.qt.lesson.predict_grid import Names as GridNames
from viewer.qt.lesson.predict_tab import ORDER, Names, PredictTab
from viewer.qt.lesson.sticky_header import Names as StickyNames
from viewer.qt.shell.main_window import MainWindow
from viewer.readers import read_report

NAMES = ["matmul_naive", "matmul_tiled"]


@pytest.fixture(scope="module")
def pair() -> list[Kernel]:
    """The shipped naive and tiled reports' kernels."""
    return [read_report(path).kernels[0] for path in shipped.comparison()]


@pytest.fixture
def tab(qtbot, pair) -> PredictTab:
    page = PredictTab(Style())
    qtbot.addWidget(page)
    page.resize(1280, 760)
    page.set_kernels(pair, NAMES)
    page.show()
    return page


def child(widget: QWidget, kind: type, name: str):
    found = widget.findChild(kind, name)
    assert found is not None, f"no {kind.__name__} {name!r}"
    return found


def cells(tab: PredictTab, key: str) -> list[str]:
    return [cell.text() for cell in tab.rows[key].cells]


def every_text(widget: QWidget) -> str:
    """What the page could show: every label's text and tooltip, every field's text."""
    texts = [w.text() + " " + w.toolTip() for w in widget.findChildren(QLabel)]
    texts += [w.text() for w in widget.findChildren(QLineEdit)]
    return "\n".join(texts)


def expected_cells(row) -> list[str]:
    derived = predict_text.figure(row.quantity, row.derived)
    if row.quantity == "dram_bytes":
        derived = "\u2265 " + derived
    verdict = (predict_text.floor_verdict(row.guess, row.measured, row.derived)
               if row.quantity == "dram_bytes" else
               predict_text.guess_verdict(row.guess, row.measured))[0]
    return [derived, predict_text.figure(row.quantity, row.measured), verdict, row.reading]


def test_nothing_measured_or_derived_is_on_the_page_before_reveal(tab, pair) -> None:
    shown = every_text(tab)
    for row in reveal(*pair):
        for value in expected_cells(row):
            if value:
                assert value not in shown, f"{row.kernel} {row.quantity}: {value!r} shows early"
    for value in (speed(*pair).reading, predict_text.faster_text(tab.pair, speed(*pair))):
        assert value not in shown
    assert all(cells(tab, key) == ["?", "?", "?", ""] for key in ORDER)
    assert not any(tab.rows[key].cells[-1].isVisible() for key in ORDER)
    assert tab.shown == 0


def test_typed_predictions_are_revealed_beside_the_lessons_values(tab, pair, qtbot) -> None:
    qtbot.keyClicks(child(tab, QLineEdit, one_of(GridNames.GUESS, "naive.requests")), "8,000,000")
    qtbot.keyClicks(child(tab, QLineEdit, one_of(GridNames.GUESS, "tiled.sectors")), "2.1e6")
    qtbot.keyClicks(child(tab, QLineEdit, one_of(GridNames.GUESS, "naive.dram_bytes")), "4.7 MB")
    box = child(tab, QComboBox, GridNames.FASTER)
    box.setCurrentIndex(box.findData("tiled"))
    qtbot.keyClicks(child(tab, QLineEdit, one_of(GridNames.GUESS, "speed")), "2x")
    qtbot.mouseClick(child(tab, QPushButton, Names.REVEAL), Qt.MouseButton.LeftButton)

    assert tab.shown == len(ORDER)  # at the desk, Reveal uncovers every row
    guesses = {"naive": Guess(requests=8e6, dram_bytes=4.7e6), "tiled": Guess(sectors=2.1e6)}
    rows = reveal(*pair, guesses)
    assert sorted(f"{r.kernel}.{r.quantity}" for r in rows) == sorted(ORDER[:-1])
    for row in rows:
        key = f"{row.kernel}.{row.quantity}"
        assert cells(tab, key) == expected_cells(row), key
    assert cells(tab, "naive.requests")[:3] == ["8,388,608", "8,388,608", "\u2717 off by -4.63 %"]
    assert tab.rows["naive.requests"].typed.text() == "8,000,000"
    assert tab.rows["tiled.requests"].typed.text() == predict_text.NO_GUESS
    assert cells(tab, "tiled.sectors_per_request")[1] == "4.00"
    expected = speed(*pair, SpeedGuess("tiled", 2.0))
    assert cells(tab, "speed")[1] == f"matmul_tiled {expected.duration_ratio:.2f}x"
    assert cells(tab, "speed")[-1] == expected.reading
    assert tab.rows["speed"].typed.text() == "matmul_tiled, 2.00x"
    # locked, shown as typed
    assert not child(tab, QLineEdit, one_of(GridNames.GUESS, "naive.requests")).isVisible()
    assert not child(tab, QPushButton, Names.REVEAL).isEnabled()


def test_the_dram_floor_is_checked_as_a_floor(tab, qtbot) -> None:
    """3.15 MB typed is the derived floor (>= 3.15 MB): right as derived, never "off by"; a
    lower figure the measured 2.10 MB is above is consistent with it."""
    qtbot.keyClicks(child(tab, QLineEdit, one_of(GridNames.GUESS, "naive.dram_bytes")), "3.15 MB")
    qtbot.keyClicks(child(tab, QLineEdit, one_of(GridNames.GUESS, "tiled.dram_bytes")), "1 MB")
    qtbot.mouseClick(child(tab, QPushButton, Names.REVEAL), Qt.MouseButton.LeftButton)
    assert cells(tab, "naive.dram_bytes")[2] == (
        "\u2713 the floor as derived; measured 0.67x of it, below it")
    assert cells(tab, "tiled.dram_bytes")[2] == (
        "\u2713 consistent: measured at or above your floor (2.10x)")


def test_the_speed_row_says_you_vs_measured_in_its_cell(tab, qtbot) -> None:
    box = child(tab, QComboBox, GridNames.FASTER)
    box.setCurrentIndex(box.findData("naive"))
    qtbot.keyClicks(child(tab, QLineEdit, one_of(GridNames.GUESS, "speed")), "1.43x")
    qtbot.mouseClick(child(tab, QPushButton, Names.REVEAL), Qt.MouseButton.LeftButton)
    assert cells(tab, "speed")[2] == (
        "\u2717 matmul_naive is not the faster; ratio \u2713 within 1 %")
    assert "wrong" in cells(tab, "speed")[-1]  # the reading says it too, and the cell agrees


def test_projector_mode_reveals_one_row_at_a_time(tab, qtbot) -> None:
    tab.set_style(Style(projector=True))
    button = child(tab, QPushButton, Names.REVEAL)
    assert button.font().pointSizeF() >= 20
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert tab.shown == 1
    assert cells(tab, ORDER[0])[0] == "8,388,608"
    assert all(cells(tab, key)[:3] == ["?", "?", "?"] for key in ORDER[1:])
    assert tab.reveal_next() and tab.reveal_next()
    assert tab.shown == 3
    assert cells(tab, ORDER[3])[:3] == ["?", "?", "?"]
    assert tab.rows[ORDER[3]].name.styleSheet().count("background")  # the row asked about now
    tab.set_style(Style())  # a restyle keeps what was revealed
    assert tab.shown == 3 and cells(tab, ORDER[2])[0] == "16,777,216"


def test_enter_in_a_field_reveals_its_row_in_projector_mode(tab, qtbot) -> None:
    tab.set_style(Style(projector=True))
    field = child(tab, QLineEdit, one_of(GridNames.GUESS, "naive.requests"))
    field.setFocus()
    qtbot.keyClicks(field, "8e6")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert tab.shown == 1
    assert tab.rows["naive.requests"].typed.text() == "8,000,000"
    # the row asked about next
    assert child(tab, QLineEdit, one_of(GridNames.GUESS, "tiled.requests")).hasFocus()


def test_a_prediction_that_is_not_a_number_is_refused_with_a_sentence(tab, qtbot) -> None:
    qtbot.keyClicks(child(tab, QLineEdit, one_of(GridNames.GUESS, "naive.requests")), "lots")
    assert not tab.reveal_next()
    assert tab.shown == 0
    message = child(tab, QLabel, Names.MESSAGE).text()
    assert message.startswith("matmul_naive, Global load requests: 'lots' is not a number")
    assert cells(tab, ORDER[0])[0] == "?"


def test_swapping_keeps_the_predictions_and_other_kernels_clear_them(tab, pair, qtbot) -> None:
    qtbot.keyClicks(child(tab, QLineEdit, one_of(GridNames.GUESS, "naive.requests")), "123")
    tab.reveal_next()
    tab.set_kernels(pair[::-1], NAMES[::-1])
    assert tab.shown == 1 and tab.state.texts["naive.requests"] == "123"
    assert tab.rows["naive.requests"].typed.text() == "123"
    other = [replace(k) for k in pair]
    tab.set_kernels(other, NAMES)
    assert tab.shown == 0 and tab.state.texts == {}


def test_kernels_of_unknown_size_take_a_typed_size(qtbot, pair) -> None:
    foreign = [replace(k, name=f"sgemm_{i}", display_name=f"sgemm_{i}")
               for i, k in enumerate(pair)]
    tab = PredictTab(Style())
    qtbot.addWidget(tab)
    tab.set_kernels(foreign, ["sgemm_0", "sgemm_1"])
    assert "order picked" in child(tab, QLabel, Names.ORDER_NOTE).text()
    assert not tab.reveal_next()
    assert "size" in child(tab, QLabel, Names.MESSAGE).text()
    qtbot.keyClicks(child(tab, QLineEdit, one_of(GridNames.GUESS, "size")), "512")
    assert tab.reveal_next()
    row = reveal(*foreign, dim=512)[0]
    assert cells(tab, ORDER[0]) == expected_cells(row)
    assert child(tab, QLineEdit, one_of(GridNames.GUESS, "size")).isReadOnly()


def test_one_kernel_asks_for_the_pair(qtbot, pair) -> None:
    tab = PredictTab(Style())
    qtbot.addWidget(tab)
    tab.set_kernels(pair[:1], NAMES[:1])
    assert child(tab, QLabel, Names.NEEDS_PAIR).text() == predict_text.NEEDS_PAIR
    assert tab.row_count == 0 and not tab.reveal_next()


# ---------------------------------------------------------------- in the window


@pytest.fixture
def window(shown_window, qtbot) -> MainWindow:
    """The shipped pair open."""
    open_shipped(shown_window, qtbot)
    return shown_window


def key(qtbot, k: Qt.Key, window: MainWindow) -> None:
    qtbot.keyClick(QApplication.focusWidget() or window, k)


def test_p_shows_predict_and_left_from_step_one_goes_to_it(window, qtbot) -> None:
    w = window
    assert w.tabs.currentWidget() is w.tab_pages[0]
    assert w.tabs.indexOf(w.predict_tab) == 0  # before step 1 in the tab bar
    key(qtbot, Qt.Key.Key_Left, w)
    assert w.tabs.currentWidget() is w.predict_tab
    key(qtbot, Qt.Key.Key_Right, w)
    assert w.tabs.currentWidget() is w.tab_pages[0]
    key(qtbot, Qt.Key.Key_P, w)
    assert w.tabs.currentWidget() is w.predict_tab
    assert w.predict_tab.row_count == len(ORDER)  # the shipped pair is the lesson's
    key(qtbot, Qt.Key.Key_R, w)
    assert w.tabs.currentWidget() is w.reference_tab


def test_space_reveals_one_row_at_a_time_in_projector_mode(window, qtbot) -> None:
    w = window
    key(qtbot, Qt.Key.Key_F5, w)
    assert w.predict_tab.style_.projector
    key(qtbot, Qt.Key.Key_Space, w)  # on step 1 Space reveals nothing
    assert w.predict_tab.shown == 0
    key(qtbot, Qt.Key.Key_P, w)
    w.setFocus()
    for count in (1, 2):
        key(qtbot, Qt.Key.Key_Space, w)
        assert w.predict_tab.shown == count
    key(qtbot, Qt.Key.Key_Return, w)
    assert w.predict_tab.shown == 3
    key(qtbot, Qt.Key.Key_Escape, w)
    assert not w.predict_tab.style_.projector and w.predict_tab.shown == 3


def test_typing_a_prediction_is_not_a_shortcut(window, qtbot) -> None:
    w = window
    w.tabs.setCurrentWidget(w.predict_tab)
    field = child(w.predict_tab, QLineEdit, one_of(GridNames.GUESS, "naive.requests"))
    field.setFocus()
    qtbot.keyClicks(field, "1 2 3 STPR")
    assert field.text() == "1 2 3 STPR"
    assert w.tabs.currentWidget() is w.predict_tab and w.names == NAMES
    qtbot.keyClick(field, Qt.Key.Key_Return)  # not a number: Enter says why, reveals nothing
    assert w.predict_tab.shown == 0 and QApplication.focusWidget() is field
    assert "is not a number" in field.toolTip()


def test_clicking_a_revealed_row_shows_its_counter(window, qtbot) -> None:
    w = window
    w.tabs.setCurrentWidget(w.predict_tab)
    w.predict_tab.reveal_to(len(ORDER))
    measured = w.predict_tab.rows["naive.sectors"].cells[1]
    qtbot.mouseClick(measured, Qt.MouseButton.LeftButton)
    memory = next(p for p in w.tab_pages if p.VIEW == "memory")
    assert w.tabs.currentWidget() is memory
    assert memory.marked_row == "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"


def test_f1_lists_predict_reveal_and_the_t4(window, qtbot) -> None:
    key(qtbot, Qt.Key.Key_F1, window)
    rows = dict(window.keys_dialog.rows)
    assert rows["P  Predict"] == "P"
    assert rows["R  T4 vs this report"] == "R"
    assert rows["Reveal the next row (Predict)"].startswith("Space")
    window.keys_dialog.close()


def test_a_field_is_checked_as_it_is_typed_with_its_rows_unit(window, qtbot) -> None:
    w = window
    w.tabs.setCurrentWidget(w.predict_tab)
    field = child(w.predict_tab, QLineEdit, one_of(GridNames.GUESS, "naive.requests"))
    field.setFocus()
    qtbot.keyClicks(field, "banana")
    assert "'banana' is not a number" in field.toolTip() and field.styleSheet()
    field.clear()
    qtbot.keyClicks(field, "4 MB")  # a number, but a count takes no unit
    assert "wrong unit here: type a count, no unit" in field.toolTip()
    field.clear()
    qtbot.keyClicks(field, "8,388,608")
    assert field.toolTip() == "" and field.styleSheet() == ""


def test_enter_in_a_field_reveals_its_row_and_moves_on(window, qtbot) -> None:
    w = window
    w.tabs.setCurrentWidget(w.predict_tab)
    field = child(w.predict_tab, QLineEdit, one_of(GridNames.GUESS, "naive.requests"))
    field.setFocus()
    qtbot.keyClicks(field, "8,388,608")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert w.predict_tab.shown == 1
    assert (QApplication.focusWidget()
            is child(w.predict_tab, QLineEdit, one_of(GridNames.GUESS, "tiled.requests")))


def test_right_and_wrong_predictions_differ_by_more_than_colour(window, qtbot) -> None:
    """A right guess is marked with a tick and the lesson's tolerance, a wrong one with a cross
    and how far off: the words differ, not the colour alone."""
    w = window
    tab = w.predict_tab
    w.tabs.setCurrentWidget(tab)
    tab.state.texts.update({"naive.requests": "8,388,608", "tiled.requests": "1,000,000"})
    tab.reveal_to(2)
    right = tab.rows["naive.requests"].cells[2].text()
    wrong = tab.rows["tiled.requests"].cells[2].text()
    assert right == "\u2713 within 1 %"
    assert wrong == "\u2717 off by +90.73 %"  # 1,000,000 against the measured 524,288


@pytest.mark.parametrize("projector", [False, True])
def test_the_column_headings_stay_in_view_after_reveal(tab, qtbot, projector) -> None:
    tab.set_style(Style(projector=projector))
    tab.resize(1366, 360)
    tab.reveal_to(len(ORDER))
    area = tab.scroll_area
    bar = area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    for _ in range(5):
        QApplication.processEvents()
    sticky = tab.findChild(QWidget, StickyNames.STICKY_HEADER)
    assert sticky is not None
    assert bar.value() > 0  # Reveal scrolled down to the last row, the headings above the top
    assert sticky.isVisible()  # pinned right above the viewport, never over it
    assert sticky.geometry().bottom() + 1 == area.viewport().geometry().top()
    derived = child(tab, QLabel, one_of(GridNames.CELL, "speed", 3))
    shown = {copy.text(): copy for copy in sticky.findChildren(QLabel) if copy.isVisible()}
    assert {"Derived", "Measured"} <= set(shown)
    right = derived.mapToGlobal(derived.rect().topRight()).x()
    heading = shown["Derived"]
    assert heading.mapToGlobal(heading.rect().topRight()).x() == right  # over its own column
    bar.setValue(0)
    QApplication.processEvents()
    assert not sticky.isVisible()


def test_the_revealed_requests_name_their_lines_of_code(window, qtbot) -> None:
    """The shipped pair carries line info: once both requests rows are revealed, Predict names
    the lines whose global loads make them, each request one warp-level load, and its button
    frames the first in the Source view."""
    from viewer.qt.views.source.source_view import SourceView

    tab = window.predict_tab
    window.tabs.setCurrentWidget(tab)
    assert tab.reveal_to(1) and tab.findChild(QLabel, Names.SOURCE_LINES) is None  # naive's alone
    assert tab.reveal_to(2)

    def words() -> str:
        label = tab.findChild(QLabel, Names.SOURCE_LINES)
        return label.text() if label is not None else ""

    qtbot.waitUntil(lambda: "lines 75-82" in words(), timeout=60_000)
    assert "matmul_naive's 8,388,608 requests are its warp-level global load instructions" in \
        words()
    assert "matmul_tiled's 524,288 requests" in words() and "lines 112" in words()
    button = tab.findChild(QPushButton, LineNames.SOURCE_LINE_BUTTON)
    assert button is not None and "matmul.py:75" in button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    source = window.tabs.currentWidget()
    assert isinstance(source, SourceView)
    qtbot.waitUntil(lambda: source.ready, timeout=60_000)
    assert source.marked_row is not None and source.marked_row.endswith("matmul.py:75")
