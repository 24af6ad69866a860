"""The exercise panel: day 42's four questions, answered by picking a row of the open report.

In the window with the shipped naive/tiled pair: a right row is marked right, explained with every
option, and framed in its tab; a wrong row is explained and nothing jumps; an answer that names
no row is refused; hints come one at a time and the solution apart from them; question 4 says
this machine's driver setting; E shows the panel and F1 lists it. Rows are picked by a click, by
Enter on a focused row, and on the memory chart.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QWidget

from tests.conftest import open_shipped
from viewer.capture import probe
from viewer.core import metrics
from viewer.lesson import exercise
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.row_pick import RowLabel, row_name
from viewer.qt.kit.value_bar import ValueBar
from viewer.qt.lesson.exercise_dock import Names as DockNames
from viewer.qt.lesson.exercise_lines import Names as LineNames
from viewer.qt.lesson.exercise_panel import ExercisePanel
from viewer.qt.lesson.exercise_panel_names import Names
from viewer.qt.lesson.exercise_rows import Names as RowNames
from viewer.qt.shell.keys_dialog import key_rows
from viewer.qt.shell.main_window import MainWindow
from viewer.qt.views.memory.memory_tab import MemoryChartView

DAY42 = exercise.load_exercise()


@pytest.fixture
def window(shown_window, qtbot) -> MainWindow:
    """The shipped pair open, the exercise panel shown on question 1."""
    open_shipped(shown_window, qtbot)
    shown_window.exercise.action.trigger()
    assert shown_window.exercise.dock.isVisible()
    return shown_window


def panel_of(window: MainWindow) -> ExercisePanel:
    return window.exercise.panel


def step(window: MainWindow, name: str) -> QWidget:
    return next(p for p in window.tab_pages if name == p.VIEW)


def text_of(widget: QWidget, name: str) -> str:
    label = widget.findChild(QLabel, name)
    assert label is not None, f"no label {name!r}"
    return label.text()


def shown(widget: QWidget, name: str) -> bool:
    return widget.findChild(QLabel, name) is not None


def click_row(window: MainWindow, qtbot, step_name: str, key: str, kind: type = ValueBar):
    """Show the tab of `step_name` and click the first `kind` widget of row `key` in it."""
    page = step(window, step_name)
    window.tabs.setCurrentWidget(page)
    widget = next(w for w in page.row_widgets(key) if isinstance(w, kind))
    page.scroll_area.ensureWidgetVisible(widget)
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)
    return widget


def test_clicking_the_right_row_marks_it_right_and_jumps(window, qtbot) -> None:
    panel = panel_of(window)
    window.tabs.setCurrentWidget(window.timing_scroll)  # the jump must bring the row back
    sol = step(window, "sol")
    bar = next(w for w in sol.row_widgets("dram_throughput_pct") if isinstance(w, ValueBar))
    bar.picked.emit(bar.row_key)  # as a click does (the tab is not shown to be clicked)
    verdict = panel.state.verdict
    assert verdict is not None and verdict.correct
    assert text_of(panel, Names.VERDICT).startswith("<b") and "Right: DRAM Throughput." in (
        text_of(panel, Names.VERDICT))
    assert window.tabs.currentWidget() is sol
    assert sol.marked_row == "dram_throughput_pct"
    assert all(w.marked for w in sol.row_widgets("dram_throughput_pct"))
    assert not any(w.marked for w in sol.row_widgets("memory_throughput_pct"))
    for number, option in enumerate(panel.question.options, 1):  # every option explained
        assert option.explanation[:40] in text_of(panel, one_of(RowNames.OPTION, number))


def test_a_mouse_click_on_a_row_answers(window, qtbot) -> None:
    bar = click_row(window, qtbot, "sol", "l1tex_throughput_pct")
    assert panel_of(window).state.pick == "l1tex_throughput_pct"
    assert panel_of(window).state.verdict.correct  # the lesson's unit is L1TEX
    assert bar.marked


def test_a_wrong_row_explains_it_and_nothing_jumps(window, qtbot) -> None:
    panel = panel_of(window)
    click_row(window, qtbot, "sol", "memory_throughput_pct", RowLabel)
    verdict = panel.state.verdict
    assert verdict is not None and not verdict.correct
    wrong = next(o for o in panel.question.options if o.target.key == "memory_throughput_pct")
    assert verdict.option == wrong
    words = text_of(panel, Names.VERDICT)
    assert "Not this row: Memory Throughput." in words
    assert wrong.explanation[:60] in words
    assert not shown(panel, one_of(RowNames.OPTION, 1))  # the other options wait for a right answer
    assert step(window, "sol").marked_row is None


def test_a_row_no_option_names_does_not_settle_it(window, qtbot) -> None:
    panel = panel_of(window)
    click_row(window, qtbot, "sol", "l2_throughput_pct")
    assert panel.state.verdict.option is None and not panel.state.verdict.correct
    assert "does not settle this question" in text_of(panel, Names.VERDICT)


def test_an_answer_that_names_no_row_is_refused(window, qtbot) -> None:
    panel = panel_of(window)
    qtbot.mouseClick(panel.findChild(QPushButton, Names.CHECK_BUTTON), Qt.MouseButton.LeftButton)
    verdict = panel.state.verdict
    assert verdict is not None and not verdict.correct and verdict.option is None
    words = text_of(panel, Names.VERDICT)
    assert "Not accepted." in words and exercise.NO_ROW[:40] in words
    assert not shown(panel, one_of(RowNames.OPTION, 1))


def test_hints_come_one_at_a_time_and_the_solution_apart(window, qtbot) -> None:
    panel = panel_of(window)
    panel.next_question()
    question = panel.question
    assert question.id == "2" and len(question.hints) == 2
    button = panel.findChild(QPushButton, Names.HINT_BUTTON)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert question.hints[0] in text_of(panel, one_of(Names.HINT, 1))
    assert not shown(panel, one_of(Names.HINT, 2)) and not shown(panel, Names.SOLUTION)
    assert panel.show_hint() and shown(panel, one_of(Names.HINT, 2))
    assert not panel.show_hint()  # no third
    assert not panel.findChild(QPushButton, Names.HINT_BUTTON).isEnabled()
    assert not shown(panel, Names.SOLUTION)
    panel.next_question()  # the solution of question 3 without its hint
    panel.show_solution()
    assert question.solution != panel.question.solution
    assert panel.question.solution[:50] in text_of(panel, Names.SOLUTION)
    assert not shown(panel, one_of(Names.HINT, 1))
    assert shown(panel, one_of(RowNames.OPTION, 1))  # the solution explains every option
    panel.previous_question()  # each question keeps its own
    assert shown(panel, one_of(Names.HINT, 2)) and not shown(panel, Names.SOLUTION)


def test_enter_on_a_focused_row_answers(window, qtbot) -> None:
    panel = panel_of(window)
    panel.set_question(1)
    memory = step(window, "memory")
    window.tabs.setCurrentWidget(memory)
    row = next(w for w in memory.row_widgets("global_load_sectors") if isinstance(w, RowLabel))
    row.setFocus()
    assert row.focusPolicy() == Qt.FocusPolicy.StrongFocus
    qtbot.keyClick(row, Qt.Key.Key_Return)
    assert panel.state.verdict.correct and memory.marked_row == "global_load_sectors"
    chart = memory.chart_item()
    assert chart.marked == "global_load_sectors"  # framed on the chart too


def test_tab_reaches_the_rows(window, qtbot) -> None:
    sol = step(window, "sol")
    window.tabs.setCurrentWidget(sol)
    first = sol.row_widgets(sol.row_keys()[0])[0]
    first.setFocus()
    reached = {first.row_key}
    for _ in range(40):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        focused = QApplication.focusWidget()
        if getattr(focused, "row_key", None):
            reached.add(focused.row_key)
    assert {"memory_throughput_pct", "dram_throughput_pct", "duration_ns"} <= reached


def test_a_click_on_the_memory_chart_answers(window, qtbot) -> None:
    panel = panel_of(window)
    panel.set_question(1)
    memory = step(window, "memory")
    window.tabs.setCurrentWidget(memory)
    view = memory.findChild(MemoryChartView)
    item = memory.chart_item()
    rect = next(r for r, key in item.regions if key == "global_load_requests")
    point = view.mapFromScene(item.mapToScene(rect.center()))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(point))
    assert panel.state.pick == "global_load_requests"
    assert not panel.state.verdict.correct  # "sixteen times fewer loads": the obvious wrong one


def chart_click(window: MainWindow, qtbot, key: str) -> None:
    """Show the memory tab and click the number of row `key` on its chart."""
    memory = step(window, "memory")
    window.tabs.setCurrentWidget(memory)
    view = memory.findChild(MemoryChartView)
    item = memory.chart_item()
    rect = next(r for r, k in item.regions if k == key)
    view.ensureVisible(item.mapRectToScene(rect))
    point = view.mapFromScene(item.mapToScene(rect.center()))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(point))


def test_every_row_a_student_can_pick_is_named_in_words(window) -> None:
    """Every row of the reading tabs and of the memory chart has a name for people, so no
    verdict or tooltip names a row by its metric."""
    for name in ("sol", "memory", "occupancy"):
        page = step(window, name)
        keys = page.row_keys() + (page.chart_item().row_keys() if name == "memory" else [])
        assert keys, name
        for key in keys:
            assert not metrics.is_metric_name(row_name(key)), (name, key)


def test_every_option_names_its_row_as_its_tab_labels_it(window) -> None:
    for question in DAY42.questions:
        for option in question.options:
            if option.target.step == "none":
                continue
            labels = [w.text().strip() for w in step(window, option.target.step).row_widgets(
                option.target.key) if isinstance(w, RowLabel)]
            assert not labels or option.target.label in labels, (question.id, labels)


def test_the_dram_box_is_named_as_the_chart_shows_it(window, qtbot) -> None:
    """The chart's DRAM box ('2.10 MB moved', the kernels' bytes read + written) picked as an
    answer is named in words, never as dram__bytes.sum."""
    panel = panel_of(window)
    chart_click(window, qtbot, "dram__bytes.sum")
    assert panel.state.pick == "dram__bytes.sum"
    words = text_of(panel, Names.VERDICT)
    assert "DRAM bytes moved does not settle this question" in words
    assert "dram__" not in words


def test_every_option_is_a_row_the_tabs_let_you_pick(window) -> None:
    """In the tables of its tab, or as a number on the memory chart (the DRAM box)."""
    chart = step(window, "memory").chart_item().row_keys()
    for question in DAY42.questions:
        for option in question.options:
            if option.target.step == "none":
                continue
            page = step(window, option.target.step)
            on_chart = option.target.step == "memory" and option.target.key in chart
            assert page.row_widgets(option.target.key) or on_chart, (question.id,
                                                                     option.target.key)


def all_text(panel: ExercisePanel) -> str:
    return "\n".join(label.text() for label in panel.findChildren(QLabel))


def click_part(panel: ExercisePanel, qtbot, number: int) -> None:
    qtbot.mouseClick(panel.findChild(QPushButton, one_of(RowNames.PART, number)),
                     Qt.MouseButton.LeftButton)


def test_question_2_takes_the_row_that_explains_it_and_the_row_that_cannot(window,
                                                                           qtbot) -> None:
    """The DRAM box, the same in both kernels, is no row that explains the speedup and is a
    row that cannot; the question is right once both parts are, and scored once."""
    panel = panel_of(window)
    panel.set_question(1)
    assert panel.findChild(QPushButton, one_of(RowNames.PART, 1)).isChecked()
    assert text_of(panel, one_of(RowNames.PART_TEXT, 1)) == (
        "1. The row that explains it: open, the row you pick answers it.")
    assert text_of(panel, one_of(RowNames.PART_TEXT, 2)) == "2. The row that cannot: open."
    chart_click(window, qtbot, "dram__bytes.sum")  # for part 1: wrong, and said why
    words = text_of(panel, Names.VERDICT)
    assert ("Part 1, the row that explains it: Not this row: DRAM bytes moved.") in words
    assert "That makes it a row that cannot." in words
    assert "Q2 open, 1 wrong so far" in text_of(panel, Names.SCORE)
    click_row(window, qtbot, "memory", "global_load_sectors", RowLabel)
    assert "Part 1, the row that explains it: Right: Sectors moved (global loads)." in (
        text_of(panel, Names.VERDICT))
    assert step(window, "memory").marked_row == "global_load_sectors"  # jumped to it
    assert panel.findChild(QPushButton, one_of(RowNames.PART, 2)).isChecked()  # on to part 2
    assert text_of(panel, one_of(RowNames.PART_TEXT, 1)) == (
        "1. The row that explains it: right: Sectors moved (global loads).")
    assert not shown(panel, one_of(RowNames.OPTION, 1))  # every option waits for both parts
    assert "Q2 open, 1 of 2 parts right, 1 wrong so far" in text_of(panel, Names.SCORE)
    chart_click(window, qtbot, "dram__bytes.sum")  # for part 2: right
    words = text_of(panel, Names.VERDICT)
    assert ("Part 2, the row that cannot: Right: DRAM bytes moved. Both parts right.") in words
    assert "the same in both cannot explain a difference in time" in words
    assert all(shown(panel, one_of(RowNames.OPTIONS_PART, n)) for n in (1, 2))
    assert len([n for n in range(1, 30) if shown(panel, one_of(RowNames.OPTION, n))]) == len(
        panel.question.options)
    assert "Q2 right after 1 wrong try" in text_of(panel, Names.SCORE)
    assert "dram__" not in all_text(panel) and "l1tex__" not in all_text(panel)


def test_the_request_count_is_wrong_for_one_part_and_right_for_the_other(window,
                                                                         qtbot) -> None:
    panel = panel_of(window)
    panel.set_question(1)
    memory = step(window, "memory")
    memory.row_picked.emit("global_load_requests")  # the obvious wrong row that explains
    assert "Part 1, the row that explains it: Not this row: Global load requests." in (
        text_of(panel, Names.VERDICT))
    click_part(panel, qtbot, 2)
    assert panel.findChild(QPushButton, one_of(RowNames.PART, 2)).isChecked()
    assert not panel.findChild(QPushButton, one_of(RowNames.PART, 1)).isChecked()
    memory.row_picked.emit("global_load_requests")  # the lesson's row that cannot
    words = text_of(panel, Names.VERDICT)
    assert "Part 2, the row that cannot: Right: Global load requests." in words
    assert "Both parts" not in words
    # back to the part left open
    assert panel.findChild(QPushButton, one_of(RowNames.PART, 1)).isChecked()
    memory.row_picked.emit("global_load_sectors")
    assert panel.answered_right and "Both parts right." in text_of(panel, Names.VERDICT)
    assert "Q2 right after 1 wrong try" in text_of(panel, Names.SCORE)


def test_question_2_right_on_the_first_try_counts_once(window, qtbot) -> None:
    panel = panel_of(window)
    panel.set_question(1)
    memory = step(window, "memory")
    memory.row_picked.emit("global_load_sectors")
    qtbot.mouseClick(panel.findChild(QPushButton, Names.CHECK_BUTTON), Qt.MouseButton.LeftButton)
    assert "Not accepted." in text_of(panel, Names.VERDICT)  # part 2 asks for a row of its own
    memory.row_picked.emit("shared_load_instructions")
    memory.row_picked.emit("dram_bytes_read")  # after the question is right: counts nothing
    assert text_of(panel, Names.SCORE).startswith(
        "Score: 1 of 4 right on the first try, 0 after tries, 0 solution shown, 3 open.")
    assert "Q2 right on the first try" in text_of(panel, Names.SCORE)


def test_the_show_button_frames_an_options_row(window, qtbot) -> None:
    panel = panel_of(window)
    panel.set_question(2)
    panel.show_solution()
    number, option = next((n, o) for n, o in enumerate(panel.question.options, 1)
                          if o.target.key == "launch__waves_per_multiprocessor")
    qtbot.mouseClick(panel.findChild(QPushButton, one_of(RowNames.GO, number)),
                     Qt.MouseButton.LeftButton)
    occupancy = step(window, "occupancy")
    assert window.tabs.currentWidget() is occupancy
    assert occupancy.marked_row == option.target.key
    panel.set_question(0)  # a new question takes the frames away
    assert occupancy.marked_row is None


def test_rows_picked_while_the_panel_is_hidden_answer_nothing(window) -> None:
    window.exercise.action.trigger()
    assert not window.exercise.dock.isVisible()
    sol = step(window, "sol")
    sol.row_picked.emit("dram_throughput_pct")
    assert panel_of(window).state.verdict is None


def test_rows_are_picked_only_while_the_exercise_is_open(window, qtbot) -> None:
    sol = step(window, "sol")
    window.tabs.setCurrentWidget(sol)
    bar = next(w for w in sol.row_widgets("dram_throughput_pct") if isinstance(w, ValueBar))
    assert bar.picking and bar.focusPolicy() == Qt.FocusPolicy.StrongFocus
    assert bar.cursor().shape() == Qt.CursorShape.PointingHandCursor
    window.exercise.action.trigger()
    assert not bar.picking and bar.focusPolicy() == Qt.FocusPolicy.NoFocus
    assert not step(window, "memory").chart_item().picking
    with qtbot.assertNotEmitted(sol.row_picked):
        qtbot.mouseClick(bar, Qt.MouseButton.LeftButton)
    assert sol.mark_row("dram_throughput_pct") and bar.marked  # marking needs no picking
    window.exercise.action.trigger()
    with qtbot.waitSignal(sol.row_picked) as picked:
        qtbot.mouseClick(bar, Qt.MouseButton.LeftButton)
    assert picked.args == ["dram_throughput_pct"]


def test_e_toggles_the_panel_and_f1_lists_it(window, qtbot) -> None:
    assert dict(key_rows(window.actions()))["Exercise"] == "E"
    window.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_E)
    assert not window.exercise.dock.isVisible()
    qtbot.keyClick(window, Qt.Key.Key_E)
    assert window.exercise.dock.isVisible()


def test_projector_mode_restyles_the_panel(window, qtbot) -> None:
    panel = panel_of(window)
    window.set_projector(True, full_screen=False)
    assert panel.style_.projector
    assert panel.findChild(QLabel, Names.QUESTION_TEXT).font().pointSizeF() >= 20
    window.set_projector(False)
    assert not panel.style_.projector


@pytest.mark.parametrize("admin_only, words", [(True, "set to 1"), (False, "set to 0"),
                                               (None, None)])
def test_question_4_says_this_machines_driver_setting(qtbot, monkeypatch, admin_only,
                                                      words) -> None:
    monkeypatch.setattr(probe, "admin_only", lambda _params=None: admin_only)
    panel = ExercisePanel(DAY42)
    qtbot.addWidget(panel)
    panel.set_question(3)
    assert "RmProfilingAdminOnly" in panel.question.text
    if words is None:  # no NVIDIA driver here: nothing is said
        assert not shown(panel, Names.MACHINE_ANSWER)
    else:
        assert words in text_of(panel, Names.MACHINE_ANSWER)
    panel.set_question(0)
    assert not shown(panel, Names.MACHINE_ANSWER)


def test_install_docks_one_panel(qtbot, tmp_path) -> None:
    """MainWindow installs the panel once; a second call would add a second dock."""
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, record_recent=False)
    qtbot.addWidget(win)
    docks = [d for d in win.findChildren(QWidget) if d.objectName() == DockNames.EXERCISE_DOCK]
    assert docks == [win.exercise.dock] and not win.exercise.dock.isVisible()
    win.worker.shutdown(30_000)


def test_a_wrong_pick_lets_the_student_try_again_and_the_score_keeps_it(window, qtbot) -> None:
    panel = panel_of(window)
    sol = step(window, "sol")
    sol.row_picked.emit("memory_throughput_pct")  # the obvious wrong answer
    assert not panel.state.verdict.correct and not shown(panel, one_of(RowNames.OPTION, 1))
    assert "Q1 open, 1 wrong so far" in text_of(panel, Names.SCORE)
    sol.row_picked.emit("dram_throughput_pct")  # a second try, right
    assert panel.state.verdict.correct and shown(panel, one_of(RowNames.OPTION, 1))
    assert "Q1 right after 1 wrong try" in text_of(panel, Names.SCORE)
    panel.set_question(1)
    panel.show_solution()
    panel.set_question(2)
    step(window, "occupancy").row_picked.emit("launch__waves_per_multiprocessor")
    panel.set_question(0)  # the score survives moving between questions
    words = text_of(panel, Names.SCORE)
    assert words.startswith("Score: 1 of 4 right on the first try, 1 after tries, "
                            "1 solution shown, 1 open.")
    assert ("Q1 right after 1 wrong try; Q2 solution shown; Q3 right on the first try; "
            "Q4 open.") in words


def test_showing_a_question_moves_the_window_to_its_view(window, qtbot) -> None:
    panel = panel_of(window)
    window.tabs.setCurrentWidget(window.timing_scroll)
    panel.set_question(1)
    assert window.tabs.currentWidget() is step(window, "memory")
    panel.set_question(2)
    assert window.tabs.currentWidget() is step(window, "occupancy")
    window.tabs.setCurrentWidget(window.timing_scroll)
    window.exercise.action.trigger()  # hidden, then shown again on question 3
    window.exercise.action.trigger()
    assert window.tabs.currentWidget() is step(window, "occupancy")


def test_question_2_says_the_open_reports_loads_and_the_lessons(window) -> None:
    panel = panel_of(window)
    panel.set_question(1)
    assert not shown(panel, Names.REPORT_WORDS)  # nothing measured before an answer
    step(window, "memory").row_picked.emit("global_load_requests")
    words = text_of(panel, Names.REPORT_WORDS)
    assert "matmul_tiled 64 global and 640 shared" in words
    assert "The lesson counts 1,024 shared loads per thread in the source" in words
    assert "1,088" not in text_of(panel, Names.VERDICT)


def test_question_2_says_both_load_counts_with_the_question(window) -> None:
    """Before any answer: the lesson's count of the source (1,088 for tiled, attributed) and the
    report's SASS count (704), since the question's "more" is true of the first only."""
    panel = panel_of(window)
    panel.set_question(1)
    assert panel.state.verdict is None
    lead = text_of(panel, Names.QUESTION_LEAD)
    assert "The lesson counts loads in the kernels' source" in lead and "1,088" in lead
    assert "matmul_tiled 704 (64 global, 640 shared): fewer." in lead


def test_hints_and_the_solution_are_drawn_as_rich_text_not_shown_as_markup(window) -> None:
    panel = panel_of(window)
    panel.set_question(1)
    panel.show_hint()
    panel.show_solution()
    step(window, "memory").row_picked.emit("global_load_sectors")
    for name in ("hint_1", "solution", "report_words", "question_lead"):
        label = panel.findChild(QLabel, name)
        assert label.textFormat() == Qt.TextFormat.RichText, name
        assert "<b style=" in label.text() and "&lt;b" not in label.text(), name


def test_the_end_summary_shows_at_the_top_once_every_question_is_settled(window) -> None:
    panel = panel_of(window)
    for index in range(len(DAY42.questions)):
        assert not shown(panel, Names.END_SUMMARY)
        panel.set_question(index)
        panel.show_solution()
    summary = text_of(panel, Names.END_SUMMARY)
    assert summary.startswith("Exercise done. Score: 0 of 4 right on the first try")
    assert "Q4: solution shown." in summary


def test_question_4_is_answered_by_its_own_choices(window, qtbot) -> None:
    panel = panel_of(window)
    panel.set_question(3)
    buttons = [panel.findChild(QPushButton, one_of(RowNames.CHOICE, n))
               for n in range(1, len(panel.question.choices) + 1)]
    assert all(b is not None for b in buttons)
    wrong = next(n for n, o in enumerate(panel.question.choices) if not o.correct)
    qtbot.mouseClick(buttons[wrong], Qt.MouseButton.LeftButton)
    assert (not panel.state.verdict.correct and "\u2717 Not this one"
            in text_of(panel, Names.VERDICT))
    assert not shown(panel, one_of(RowNames.OPTION, 1))
    right = next(n for n, o in enumerate(panel.question.choices) if o.correct)
    qtbot.mouseClick(panel.findChild(QPushButton, one_of(RowNames.CHOICE, right + 1)),
                     Qt.MouseButton.LeftButton)
    assert panel.state.verdict.correct and "\u2713 Right" in text_of(panel, Names.VERDICT)
    assert (shown(panel, one_of(RowNames.OPTION, 1)) and "Q4 right after 1 wrong try"
            in text_of(panel, Names.SCORE))
    step(window, "memory").row_picked.emit("global_load_sectors")  # a row settles nothing here
    assert "Not accepted." in text_of(panel, Names.VERDICT)


def test_the_report_words_follow_a_new_report_opened_while_the_panel_shows(window,
                                                                           qtbot) -> None:
    from viewer.core import shipped

    panel = panel_of(window)
    panel.set_question(1)
    step(window, "memory").row_picked.emit("global_load_requests")
    assert "matmul_tiled 64 global and 640 shared" in text_of(panel, Names.REPORT_WORDS)
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        window.open_paths([shipped.reference()])
    assert panel.isVisible()
    words = text_of(panel, Names.REPORT_WORDS)
    assert "640 shared" not in words and "does not hold the shared load count" in words
    assert "16,777,077" in words  # the T4 table's own sectors


def test_question_2_names_the_lines_of_code_and_shows_the_one_asked_about(window, qtbot) -> None:
    """The shipped pair carries line info: after an answer, question 2 names the lines that
    issue each kernel's loads (read through the session, off the GUI thread), and its button
    shows the tiled kernel's shared-load line framed in the Source view."""
    from viewer.qt.views.source.source_view import SourceView

    panel = panel_of(window)
    panel.set_question(1)
    assert not shown(panel, Names.SOURCE_LINES)  # nothing before an answer
    step(window, "memory").row_picked.emit("global_load_sectors")
    qtbot.waitUntil(lambda: "line 122" in text_of(panel, Names.SOURCE_LINES), timeout=60_000)
    words = text_of(panel, Names.SOURCE_LINES)
    assert "matmul_naive's global loads (1,024 per thread) come from lines 75-82" in words
    assert "its shared loads (640 per thread) from line 122" in words
    button = panel.findChild(QPushButton, LineNames.SOURCE_LINE_BUTTON)
    assert button is not None and "matmul.py:122" in button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    source = window.tabs.currentWidget()
    assert isinstance(source, SourceView)
    qtbot.waitUntil(lambda: source.ready, timeout=60_000)
    assert source.marked_row is not None and source.marked_row.endswith("matmul.py:122")
    tiled = source.panes[1]
    assert tiled.model.marked == source.marked_row
    assert tiled.model.row_of(source.marked_row).isValid()


def test_question_2s_line_button_fits_the_panel_in_projector_type(window, qtbot) -> None:
    window.set_projector(True, full_screen=False)
    window.resize(1366, 768)
    window.exercise.action.trigger()  # hidden, then shown again: it takes its third anew
    window.exercise.action.trigger()
    panel = panel_of(window)
    panel.set_question(1)
    step(window, "memory").row_picked.emit("global_load_sectors")
    qtbot.waitUntil(lambda: "line 122" in text_of(panel, Names.SOURCE_LINES), timeout=60_000)
    scroll = panel.scroll_area
    button = panel.findChild(QPushButton, LineNames.SOURCE_LINE_BUTTON)

    def fits() -> None:
        assert button is not None and button.isVisible()
        assert scroll.widget().width() <= scroll.viewport().width()
        assert button.width() <= scroll.viewport().width()

    qtbot.waitUntil(fits, timeout=5_000)  # once the layout has settled
    assert "Source view (C)" in button.toolTip()
