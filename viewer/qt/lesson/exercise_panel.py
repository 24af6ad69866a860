"""The lesson's exercise beside the reading tabs: one question at a time, answered by a row.

The student answers by picking, in the open report, the row or counter that settles the question
(a click, or Tab and Enter: viewer.qt.kit.row_pick), or, where no row settles it, by choosing one
of its answers (buttons). A question in parts ("which row explains that, and which row cannot?")
takes one row per part: a pick answers the part marked, a right one moves on to the next, and the
question is right once every part is (scored once). The panel checks the answer with
viewer.lesson.exercise, explains only the option given, and lets the student try again; a right
answer jumps to the row (its tab, framed), and a question answered right explains every option,
as "Solution" does. A check without a row is refused. Showing a question moves the window to the
view it is about. Hints come one at a time. Where the open report shows the question in numbers
(viewer.lesson.exercise_report), that is said beside the lesson's words. A score line keeps each
question's outcome (viewer.lesson.exercise_score).
Question 4 says this machine's own driver setting where there is one. viewer.qt.lesson
.exercise_dock docks it on the right of a window, toggled with E; its jumps go through the
window's `navigate(view, row)`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from viewer.core.model import Kernel, Report
from viewer.lesson import exercise_score
from viewer.lesson.exercise import (
    Exercise,
    Option,
    Question,
    Verdict,
    answer,
    choose,
)
from viewer.lesson.exercise import machine_answer as machine_words
from viewer.lesson.exercise_progress import Progress
from viewer.lesson.exercise_report import lead_words, report_words
from viewer.lesson.lesson_pair import LessonPair, lesson_pair
from viewer.qt.kit.flow_layout import FlowLayout
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.row_pick import row_name, same_row
from viewer.qt.kit.session_reads import SessionReads
from viewer.qt.kit.style import Role, Style
from viewer.qt.kit.view import Selection
from viewer.qt.kit.wrapped_column import WrappedColumn
from viewer.qt.lesson import exercise_rows as rows
from viewer.qt.lesson.exercise_lines import SourceLines, line_button
from viewer.qt.lesson.exercise_panel_names import Names

KEY = "E"
HOW = ("Answer by picking the row or counter in the report that settles it: click it, or Tab "
       "to it and press Enter. A wrong answer is explained; try again.")
HOW_CHOICES = "No row of a report settles this one: choose an answer. A wrong one is explained; " \
    "try again."
HOW_PARTS = ("Answer each part by picking its row in the report: click it, or Tab to it and press "
             "Enter. A pick answers the part marked below, and a right one moves on to the next. "
             "A wrong answer is explained; try again.")


class ExercisePanel(QWidget):
    """The exercise, one question at a time. `pick(key)` answers with a row; `check()` checks
    the last pick (refusing none); `choose(option)` answers with a choice; `show_hint()`,
    `show_solution()`; `jump_requested(view, row)` asks the window to show a view (a row framed
    in it, '' for none); `show_selection(selection)` gives it the kernels on screen."""

    jump_requested = Signal(str, str)
    question_changed = Signal(int)

    def __init__(self, exercise: Exercise, style: Style | None = None,
                 parent: QWidget | None = None, reads: SessionReads | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(Names.EXERCISE_PANEL)
        self.exercise = exercise
        self._style = style or Style()
        self.index = 0
        self.progress = [Progress(tally=exercise_score.Tally(parts=max(1, len(q.parts))))
                         for q in exercise.questions]
        self._kernels: tuple[Kernel, ...] = ()
        self._names: tuple[str, ...] = ()
        self._reports: tuple[Report, ...] = ()
        self.lines = SourceLines(reads, self)  # question 2's loads at their lines of code
        self.lines.changed.connect(self._render)
        self.setAutoFillBackground(True)
        self.scroll_area = QScrollArea(self)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.scroll_area)
        self._render()

    # ------------------------------------------------------------------ the state

    @property
    def question(self) -> Question:
        return self.exercise.questions[self.index]

    @property
    def state(self) -> Progress:
        return self.progress[self.index]

    @property
    def style_(self) -> Style:
        return self._style

    def set_style(self, style: Style) -> None:
        self._style = style
        self._render()

    def show_selection(self, selection: Selection) -> None:
        """The kernels on screen, whose values the report's words are computed from."""
        self.set_kernels(selection.kernels, selection.names, selection.reports)

    def set_kernels(self, kernels: Sequence[Kernel], names: Sequence[str],
                    reports: Sequence[Report] = ()) -> None:
        self._kernels, self._names, self._reports = tuple(kernels), tuple(names), tuple(reports)
        self._render()

    @property
    def pair(self) -> LessonPair | None:
        """The open naive and tiled kernels, None unless two are on screen."""
        return lesson_pair(self._kernels, self._names)

    def set_question(self, index: int) -> None:
        """Show question `index` and move the window to the view it is about."""
        index = max(0, min(index, len(self.exercise.questions) - 1))
        changed = index != self.index
        self.index = index
        self._render()
        if changed:
            self.question_changed.emit(index)
        self.show_view()

    def show_view(self) -> None:
        """Ask the window for the view the question shown is about (none: every frame away)."""
        self.jump_requested.emit(self.question.view, "")

    def next_question(self) -> None:
        self.set_question(self.index + 1)

    def previous_question(self) -> None:
        self.set_question(self.index - 1)

    def pick(self, key: str) -> Verdict:
        """Answer the question shown with row `key` (a summary key or an ncu metric name)."""
        self.state.pick = key
        return self.check()

    def check(self) -> Verdict:
        """Check the row picked for this question (for the part marked, in a question in parts);
        with none picked the answer is refused."""
        state, parts = self.state, self.question.parts
        part = parts[state.part].id if parts else ""
        state.verdict = answer(self.question, self._option_key(state.pick), part)
        state.given = state.pick
        if state.verdict.option is not None or (state.pick and not self.question.choices):
            state.tally.answered(state.verdict.correct, state.part)
        if parts and state.verdict.correct and state.pick:  # on to the next part left open
            state.right.setdefault(state.part, state.pick)
            state.part = next((i for i in [*range(state.part + 1, len(parts)),
                                           *range(state.part)] if i not in state.right),
                              state.part)
            state.pick = None  # Check asks the next part for a row of its own
        self._render()
        self._reveal(Names.VERDICT)
        option = state.verdict.option
        if state.verdict.correct and option is not None and option.target.step != "none":
            self.jump_requested.emit(option.target.step, option.target.key)
        return state.verdict

    def answer_part(self, index: int) -> None:
        """Mark part `index` of the question shown as the one a pick answers."""
        self.state.part = max(0, min(index, len(self.question.parts) - 1))
        self._render()

    @property
    def answered_right(self) -> bool:
        """Whether the question shown is answered right: its answer, or every one of its parts."""
        state, parts = self.state, self.question.parts
        if parts:
            return len(state.right) == len(parts)
        return state.verdict is not None and state.verdict.correct

    def choose(self, option: Option) -> Verdict:
        """Answer the question shown with its choice `option`."""
        state = self.state
        state.pick = state.given = None
        state.verdict = choose(self.question, option)
        state.tally.answered(state.verdict.correct)
        self._render()
        self._reveal(Names.VERDICT)
        return state.verdict

    def score_text(self) -> str:
        """The total, then each question's outcome."""
        tallies = [p.tally for p in self.progress]
        ids = [q.id for q in self.exercise.questions]
        return (f"{exercise_score.total_line(tallies)} "
                f"{exercise_score.per_question_line(ids, tallies)}")

    def show_hint(self) -> bool:
        """Show the next hint; False when every hint is already shown."""
        if self.state.hints >= len(self.question.hints):
            return False
        self.state.hints += 1
        self._render()
        self._reveal(one_of(Names.HINT, self.state.hints))
        return True

    def show_solution(self) -> None:
        self.state.solution = True
        self.state.tally.solution_shown()
        self._render()
        self._reveal(Names.SOLUTION)

    def go_to(self, option: Option) -> None:
        """Ask the window to show the row `option` names."""
        if option.target.step != "none":
            self.jump_requested.emit(option.target.step, option.target.key)

    def _reveal(self, name: str) -> None:
        """Scroll what was just shown into view (in a room, the verdict under a long question)."""
        content = self.scroll_area.widget()
        shown = content.findChild(QLabel, name) if content is not None else None
        if shown is not None and content is not None:
            layout = content.layout()
            if layout is not None:
                layout.activate()
            self.scroll_area.ensureWidgetVisible(shown, 0, self._style.px(40))

    def _option_key(self, key: str | None) -> str | None:
        """The picked row in the spelling the question's options use (a summary key and its
        metric name are the same row)."""
        if key is None:
            return None
        spelled = (o.target.key for o in self.question.options if same_row(o.target.key, key))
        return next(spelled, key)

    # ------------------------------------------------------------------ drawing

    @property
    def _draw(self) -> rows.Draw:
        return rows.Draw(self._style)

    def _label(self, text: str, role: Role = "body", *, bold: bool = False,
               color: str = "text", name: str = "", rich: bool = False) -> QLabel:
        return self._draw.label(text, role, bold=bold, color=color, name=name, rich=rich)

    def _button(self, text: str, name: str, slot: Callable[[], object],
                enabled: bool = True) -> QPushButton:
        return self._draw.button(text, name, slot, enabled)

    def _rich(self, lead: str, color: str, text: str) -> str:
        return self._draw.rich(lead, color, text)

    def _render(self) -> None:
        style, question, state = self._style, self.question, self.state
        style.apply_palette(self)
        content = WrappedColumn()
        layout = QVBoxLayout(content)
        margin = style.px(10)
        layout.setContentsMargins(margin, margin, margin, margin)
        layout.setSpacing(style.px(8))
        self._heading(layout)
        lead = lead_words(question.report, self.pair)
        if lead:
            layout.addWidget(self._label(self._rich("Counts:", "text", lead),
                                         name=Names.QUESTION_LEAD, rich=True))
        machine = machine_words(question)
        if machine:
            layout.addWidget(self._label(self._rich("This machine:", "text", machine),
                                         name=Names.MACHINE_ANSWER, rich=True))
        how = HOW_CHOICES if question.choices else HOW_PARTS if question.parts else HOW
        layout.addWidget(self._label(how, "small", color="secondary", name=Names.HOW))
        if question.choices:
            rows.choices(self._draw, layout, question, self.choose)
        if question.parts:
            rows.parts(self._draw, layout, question, state.part, state.right, self._row_words,
                       self.answer_part)
        layout.addLayout(self._actions())
        layout.addLayout(self._navigation())
        for number, hint in enumerate(question.hints[:state.hints], 1):
            layout.addWidget(self._label(self._rich(f"Hint {number}:", "text", hint),
                                         name=one_of(Names.HINT, number), rich=True))
        if state.verdict is not None:
            layout.addWidget(self._verdict_label(state))
        if state.solution:
            layout.addWidget(self._label(self._rich("Solution:", "text", question.solution),
                                         name=Names.SOLUTION, rich=True))
        here = report_words(question.report, self.pair)
        if here and (state.verdict is not None or state.solution):
            layout.addWidget(self._label(self._rich("This report:", "text", here),
                                         name=Names.REPORT_WORDS, rich=True))
            if question.report == "loads":
                self._source_lines(layout)
        if state.solution or self.answered_right:
            rows.options(self._draw, layout, question, self.go_to)
        layout.addWidget(self._label(self.score_text(), "small", color="secondary",
                                     name=Names.SCORE))
        layout.addStretch(1)
        old = self.scroll_area.takeWidget()
        if old is not None:
            old.deleteLater()
        self.scroll_area.setWidget(content)

    def _heading(self, layout: QVBoxLayout) -> None:
        """The exercise's title, the question's number, the end summary once every question is
        settled, and the question."""
        count = len(self.exercise.questions)
        layout.addWidget(self._label(self.exercise.title, "small", color="secondary",
                                     name=Names.EXERCISE_TITLE))
        layout.addWidget(self._label(f"Question {self.index + 1} of {count}", "heading",
                                     bold=True, name=Names.QUESTION_NUMBER))
        done = exercise_score.end_summary(
            [q.id for q in self.exercise.questions], [p.tally for p in self.progress],
            [q.reread for q in self.exercise.questions])
        if done:  # where it is seen, above the question, once every question is settled
            layout.addWidget(self._label("\n".join(done), name=Names.END_SUMMARY))
        # in a room the question is read once and the verdict often: body size keeps both near
        layout.addWidget(self._label(self.question.text,
                                     "body" if self._style.projector else "heading",
                                     bold=True, name=Names.QUESTION_TEXT))

    def _source_lines(self, layout: QVBoxLayout) -> None:
        """Question 2 at its lines of code, with a button to the line in the Source view."""
        found = self.lines.of(self.pair, self._kernels, self._reports)
        if found is None:
            return
        if isinstance(found, str):
            layout.addWidget(self._label(found, "small", color="secondary",
                                         name=Names.SOURCE_LINES))
            return
        layout.addWidget(self._label(self._rich("In the source:", "text", found.text),
                                     name=Names.SOURCE_LINES))
        button = line_button(found, self._style, self.jump_requested.emit)
        if button is not None:
            layout.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)

    def _navigation(self) -> FlowLayout:
        row = FlowLayout(spacing=self._style.px(6))
        count = len(self.exercise.questions)
        row.addWidget(self._button("&Previous", Names.PREVIOUS_BUTTON, self.previous_question,
                                   self.index > 0))
        row.addWidget(self._button("&Next", Names.NEXT_BUTTON, self.next_question,
                                   self.index < count - 1))
        return row

    def _actions(self) -> FlowLayout:
        """Hint, Solution and Check, on as many lines as the panel's width needs."""
        question, state = self.question, self.state
        row = FlowLayout(spacing=self._style.px(6))
        left = len(question.hints) - state.hints
        hint = (f"H&int ({state.hints + 1} of {len(question.hints)})" if left else
                "No more hints" if question.hints else "No hints")
        row.addWidget(self._button(hint, Names.HINT_BUTTON, self.show_hint, left > 0))
        row.addWidget(self._button("&Solution", Names.SOLUTION_BUTTON, self.show_solution,
                                   not state.solution))
        row.addWidget(self._button("&Check", Names.CHECK_BUTTON, self.check))
        return row

    def _verdict_label(self, state: Progress) -> QLabel:
        """'Right: DRAM Throughput.' (or 'Not this row: ...', 'Not accepted.') in its colour,
        then the explanation of what was picked."""
        verdict = state.verdict
        assert verdict is not None
        given = state.given
        if given is None and verdict.option is not None:  # a choice
            mark = "\u2713 Right" if verdict.correct else "\u2717 Not this one"
            lead, color = f"{mark}: {verdict.option.text}", (
                "shared" if verdict.correct else "warning")
        elif given is None or (verdict.option is None and self.question.choices):
            lead, color = "Not accepted.", "warning"
        elif verdict.correct:
            lead, color = f"Right: {self._row_words(given)}.", "shared"
        else:
            lead, color = f"Not this row: {self._row_words(given)}.", "warning"
        asked = self.question.part(verdict.part) if self.question.parts else None
        if asked is not None:  # which part it answered, and whether that settles the question
            number = self.question.parts.index(asked) + 1
            lead = f"Part {number}, {asked.text[:1].lower()}{asked.text[1:]}: {lead}"
            if verdict.correct and self.answered_right:
                count = len(self.question.parts)
                lead += " Both parts right." if count == 2 else f" All {count} parts right."
        return self._label(self._rich(lead, color, verdict.explanation), name=Names.VERDICT,
                           rich=True)

    def _row_words(self, key: str) -> str:
        """The picked row's name: its option's label, else the app's label of the row."""
        option = next((o for o in self.question.options if same_row(o.target.key, key)), None)
        return (option.target.label if option is not None else "") or row_name(key)
