"""The exercise panel's drawing: labels, buttons and rich text in one style (`Draw`), and the
lists of a question, each entry a button beside its words: its choices, its parts (the one a
pick answers marked) and every option, under its part's name (viewer.qt.lesson.exercise_panel
shows them)."""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout

from viewer.lesson.exercise import Option, Part, Question
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.row_pick import row_name
from viewer.qt.kit.style import Role, Style


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    CHOICE = "choice"
    CHOICE_TEXT = "choice_text"
    GO = "go"
    OPTION = "option"
    OPTIONS_PART = "options_part"
    OPTIONS_TITLE = "options_title"
    PART = "part"
    PART_TEXT = "part_text"


@dataclass(frozen=True)
class Draw:
    """Widgets in `style`: wrapped labels, buttons, a bold coloured lead before plain text."""

    style: Style

    def label(self, text: str, role: Role = "body", *, bold: bool = False,
              color: str = "text", name: str = "", rich: bool = False) -> QLabel:
        label = self.style.label(text, role, bold=bold, color=color, name=name, wrap=True,
                                 rich=rich)
        label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        return label

    def button(self, text: str, name: str, slot: Callable[[], object],
               enabled: bool = True) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.setFont(self.style.font("body"))
        button.setEnabled(enabled)
        button.clicked.connect(lambda _checked=False: slot())
        return button

    def rich(self, lead: str, color: str, text: str) -> str:
        """A bold coloured lead, then plain text, as rich text."""
        shade = getattr(self.style.colors, color)
        return (f"<b style='color:{shade}'>{html.escape(lead, False)}</b> "
                f"{html.escape(text, False).replace(chr(10) * 2, '<br><br>')}")


def _row(layout: QVBoxLayout, words: QLabel, button: QPushButton | None,
         button_first: bool) -> None:
    row = QHBoxLayout()
    if button is not None and button_first:
        row.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
    row.addWidget(words, 1)
    if button is not None and not button_first:
        row.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
    layout.addLayout(row)


def choices(draw: Draw, layout: QVBoxLayout, question: Question,
            choose: Callable[[Option], object]) -> None:
    """The answers of a question no row settles, one button each."""
    for number, option in enumerate(question.choices, 1):
        _row(layout, draw.label(f"{number}. {option.text}", name=one_of(Names.CHOICE_TEXT, number)),
             draw.button(f"Choose {number}", one_of(Names.CHOICE, number),
                         functools.partial(choose, option)), True)


def parts(draw: Draw, layout: QVBoxLayout, question: Question, marked: int,
          right: Mapping[int, str], row_words: Callable[[str], str],
          answer_part: Callable[[int], object]) -> None:
    """A question's parts, each with a button that marks it as the one a pick answers
    (`marked`), and the row it was answered right with (`right`, named by `row_words`)."""
    for index, part in enumerate(question.parts):
        number = index + 1
        button = draw.button(f"Answer part {number}", one_of(Names.PART, number),
                             functools.partial(answer_part, index))
        button.setCheckable(True)
        button.setChecked(index == marked)
        if index in right:
            said = f"right: {row_words(right[index])}"
        else:
            said = "open" + (", the row you pick answers it" if index == marked else "")
        _row(layout, draw.label(f"{number}. {part.text}: {said}.",
                                name=one_of(Names.PART_TEXT, number), bold=index == marked),
             button, True)


def options(draw: Draw, layout: QVBoxLayout, question: Question,
            go_to: Callable[[Option], object]) -> None:
    """Every option (under its part's name, in a question in parts): whether it settles the
    question, why, and a button to its row."""
    layout.addWidget(draw.label("Every option", "heading", bold=True, name=Names.OPTIONS_TITLE))
    numbered = list(enumerate(question.options, 1))
    each: list[Part | None] = [*question.parts] or [None]
    for index, part in enumerate(each):
        if part is not None:
            layout.addWidget(draw.label(f"Part {index + 1}: {part.text}", bold=True,
                                        name=one_of(Names.OPTIONS_PART, index + 1)))
        for number, option in numbered:
            if part is None or option.part == part.id:
                _option(draw, layout, number, option, go_to)


def _option(draw: Draw, layout: QVBoxLayout, number: int, option: Option,
            go_to: Callable[[Option], object]) -> None:
    mark, color = ("Right", "shared") if option.correct else ("Wrong", "warning")
    row = option.target.step != "none"
    named = option.target.label or (row_name(option.target.key) if row else "")
    lead = f"{mark}: {named}." if named else f"{mark}:"
    words = draw.label(f"{draw.rich(lead, color, '')}<b>{html.escape(option.text, False)}</b>"
                       f"<br>{html.escape(option.explanation, False)}",
                       name=one_of(Names.OPTION, number), rich=True)
    button = (draw.button("Show", one_of(Names.GO, number), functools.partial(go_to, option))
              if row else None)
    _row(layout, words, button, False)
