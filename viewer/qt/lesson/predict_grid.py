"""The Predict step's table: one row per kernel and quantity, then the speed row.

Each row holds the student's input until it is revealed; then the input gives way to what was
typed (as the lesson read it), and the row's cells get the derivation, the counter, the two
differences and the lesson's reading. Before that every cell says only '?', and its width is
already the width of the figure to come, so a row revealed in front of a room moves nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QComboBox, QGridLayout, QLabel, QLineEdit, QSizePolicy, QWidget

from viewer.lesson import predict_text as text
from viewer.lesson import reveal as lesson
from viewer.lesson.lesson_pair import ROLES, LessonPair
from viewer.qt.kit.elided_name import ElidedName
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.plain_text import plain_tip
from viewer.qt.kit.style import Style
from viewer.qt.lesson.guess_inputs import FasterBox, GuessEdit


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    CELL = "cell"
    FASTER = "faster"
    GUESS = "guess"
    HEAD = "head"
    NAME = "name"
    NAME_SPEED = "name_speed"
    TYPED = "typed"


SPEED = "speed"
ORDER: tuple[str, ...] = (*(f"{role}.{q}" for q in lesson.QUANTITIES for role in ROLES), SPEED)
"""The rows in the order they are revealed: each quantity for both kernels, then the speed."""

HEADERS = ("", "", "Your\nprediction", "Derived", "Measured", "You vs\nmeasured",
           "The lesson's\nreading")
READING = len(HEADERS) - 1  # the reading's column at the desk; under the row in projector mode
VERDICT = READING - 1  # you vs measured: a column on the row's line, at the desk and projected
HIDDEN = "?"
# The widest figure each revealed cell is expected to hold (derived, measured, the difference).
_SAMPLES = ("16,777,216", "16,777,216", "\u2717 off by -99.99 %")
_INPUT_SAMPLE = "16,777,216 B"
_QUANTITY_SAMPLE = "Sectors moved"  # the quantity's column; a laptop beside the list must do
_NAME_SAMPLE = "matmul_naive_xy"  # the widest a kernel's name column grows
_FASTER_CHARS = 10  # the faster box's width, in characters

Label = Callable[..., QLabel]  # ReadingTab.label


@dataclass
class RowCells:
    """One row's widgets: its inputs, what was typed (shown once revealed) and the cells."""

    name: QLabel
    inputs: list[QWidget]
    typed: QLabel
    cells: list[QLabel]  # derived, measured, you vs measured, the lesson's reading


def _width(style: Style, sample: str, bold: bool = False) -> int:
    return QFontMetrics(style.font("body", bold=bold)).horizontalAdvance(sample) + style.px(12)


def guess_edit(style: Style, texts: dict[str, str], key: str, hint: str,
               sample: str = _INPUT_SAMPLE,
               enter: Callable[[GuessEdit], None] | None = None) -> GuessEdit:
    """A field for `key`'s prediction, holding and updating `texts[key]`; Enter calls
    `enter(field)` (default: on to the next field)."""
    edit = GuessEdit()
    edit.returnPressed.connect(lambda: (enter or _next_field)(edit))
    edit.setObjectName(one_of(Names.GUESS, key))
    edit.setFont(style.font("body"))
    edit.setFixedWidth(_width(style, sample))
    edit.setPlaceholderText(hint)
    edit.setText(texts.get(key, ""))
    edit.textEdited.connect(lambda value: texts.__setitem__(key, value))
    edit.textEdited.connect(lambda value: check_field(edit, key, value, style))
    check_field(edit, key, edit.text(), style)
    return edit


def check_field(edit: QLineEdit, key: str, typed: str, style: Style) -> str:
    """Mark `edit` as it is typed: a field that is not a number with its row's unit gets a
    warning border and its one-line reason as its tooltip; the reason ('' for none)."""
    problem = text.field_problem(key, typed)
    edit.setProperty("problem", problem)
    edit.setToolTip(plain_tip(problem))
    edit.setStyleSheet(f"border: {style.px(2)}px solid {style.colors.warning};" if problem
                       else "")
    return problem


def _next_field(edit: GuessEdit) -> None:
    edit.focusNextChild()


def faster_box(style: Style, pair: LessonPair, chosen: str | None,
               choose: Callable[[str | None], None]) -> FasterBox:
    """'?' or one of the two kernels by the names shown."""
    box = FasterBox()
    box.setObjectName(Names.FASTER)
    box.setFont(style.font("body"))
    # as wide as a short name: a long one is elided in the box and whole in its list
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(_FASTER_CHARS)
    box.addItem(HIDDEN, None)
    for role in ROLES:
        box.addItem(pair.name(role), role)
    box.setCurrentIndex(max(0, box.findData(chosen)))
    box.currentIndexChanged.connect(lambda _i: choose(box.currentData()))
    return box


def build_grid(label: Label, style: Style, pair: LessonPair, texts: dict[str, str],
               box: FasterBox, enter: Callable[[GuessEdit], None]
               ) -> tuple[QGridLayout, dict[str, RowCells], list[QLabel]]:
    """The table, every row hidden, its rows by key and its column headings. Each row's cells
    sit on its label's line; at the desk the reading is the last column, in projector mode it
    runs under its row, across the table, in larger type."""
    projector = style.projector
    headers = HEADERS[:READING] if projector else HEADERS
    grid = QGridLayout()
    grid.setHorizontalSpacing(style.px(12))
    grid.setVerticalSpacing(style.px(4))
    grid.setColumnStretch(len(headers) - 1 if not projector else len(headers), 1)
    headings = _headings(label, grid, headers)
    rows: dict[str, RowCells] = {}
    row = 1
    for key in ORDER:
        role, _, quantity = key.partition(".")
        typed = label("", bold=True, name=one_of(Names.TYPED, key))
        typed.hide()
        if key == SPEED:
            name = _quantity(label, style, text.SPEED_LABEL)  # the box names the kernel
            name.setObjectName(Names.NAME_SPEED)
            grid.addWidget(name, row, 0)
            ratio = guess_edit(style, texts, SPEED, "by how much", "by how much", enter)
            grid.addWidget(box, row, 1)
            grid.addWidget(ratio, row, 2)
            grid.addWidget(typed, row, 1, 1, 2)
            inputs: list[QWidget] = [box, ratio]
        else:
            if role == ROLES[0]:
                grid.addWidget(_quantity(label, style, text.quantity_label(quantity)), row, 0)
            name = _kernel_name(style, pair, role, key)
            edit = guess_edit(style, texts, key, text.EXAMPLES[quantity], enter=enter)
            grid.addWidget(name, row, 1)
            grid.addWidget(edit, row, 2)
            grid.addWidget(typed, row, 2)
            inputs = [edit]
        rows[key] = RowCells(name, inputs, typed, _hidden_cells(label, style, grid, key, row))
        row += 2 if projector else 1
    return grid, rows, headings


def _headings(label: Label, grid: QGridLayout, headers: tuple[str, ...]) -> list[QLabel]:
    """The column headings on the grid's first row, figures' headings aligned right."""
    headings: list[QLabel] = []
    for column, head in enumerate(headers):
        align = Qt.AlignmentFlag.AlignRight if 2 < column < READING else Qt.AlignmentFlag.AlignLeft
        heading = label(head, "small", bold=True, color="secondary",
                        name=one_of(Names.HEAD, column))
        heading.setAlignment(align | Qt.AlignmentFlag.AlignBottom)
        grid.addWidget(heading, 0, column, align | Qt.AlignmentFlag.AlignBottom)
        headings.append(heading)
    return headings


def _hidden_cells(label: Label, style: Style, grid: QGridLayout, key: str,
                  row: int) -> list[QLabel]:
    """Row `key`'s cells before it is revealed, each '?' on the row's line as wide as its
    figure to come, and its reading: hidden in the last column at the desk; in projector mode
    an empty line under the row, kept one line high so a reveal moves no row below."""
    projector = style.projector
    cells = []
    for column, sample in enumerate(_SAMPLES, 3):
        cell = label(HIDDEN, color="secondary", name=one_of(Names.CELL, key, column))
        cell.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        cell.setMinimumWidth(_width(style, sample, bold=column == 4))
        if projector and column == VERDICT:  # its words wrap (the speed row's are long)
            cell.setWordWrap(True)
            cell.setMaximumWidth(cell.minimumWidth())
        grid.addWidget(cell, row, column)
        cells.append(cell)
    reading = label("", name=one_of(Names.CELL, key, READING), wrap=True)
    if projector:
        reading.setMinimumHeight(reading.fontMetrics().lineSpacing())
        grid.addWidget(reading, row + 1, 1, 1, READING - 1)
    else:
        reading.hide()
        grid.addWidget(reading, row, READING)
    cells.append(reading)
    return cells


def _kernel_name(style: Style, pair: LessonPair, role: str, key: str) -> ElidedName:
    """A kernel's name in its column's width (a cuBLAS name would widen the page), whole on
    hover."""
    name = ElidedName(pair.name(role), [pair.name(r) for r in ROLES])
    style.paint_label(name)
    whole = name.fontMetrics().horizontalAdvance(name.text()) + style.px(12)
    name.setMinimumWidth(min(whole, _width(style, _NAME_SAMPLE)))
    name.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)  # to that
    name.setObjectName(one_of(Names.NAME, key))
    return name


def _quantity(label: Label, style: Style, words: str) -> QLabel:
    """A quantity's name, wrapped at the width of the shortest one."""
    widget = label(words, bold=True, wrap=True)
    widget.setMinimumWidth(_width(style, _QUANTITY_SAMPLE, bold=True))
    return widget


def fill_row(cells: RowCells, shown: text.Shown, style: Style, clicks: QObject) -> None:
    """Reveal one row: what was typed in place of the input, then the lesson's cells; a click
    on the row then asks for its counter (`clicks` filters the events)."""
    for widget in cells.inputs:
        widget.hide()
        if isinstance(widget, QLineEdit):
            widget.setReadOnly(True)
    cells.typed.setText(shown.guess or text.NO_GUESS)
    style.paint_label(cells.typed, bold=bool(shown.guess),
                      color="text" if shown.guess else "secondary")
    cells.typed.show()
    reading = len(cells.cells) - 1
    verdict_color = {True: "shared", False: "warning", None: "text"}[shown.right]
    for column, (cell, value) in enumerate(zip(cells.cells, shown.cells, strict=True)):
        cell.setText(value)
        color = "accent" if column == reading else verdict_color if column == 2 else "text"
        style.paint_label(cell, bold=column in (1, 2), color=color)
        cell.show()
    for widget in (cells.name, cells.typed, *cells.cells):
        widget.setProperty("metric", shown.metric)
        tip = text.jump_tip(shown.metric)
        widget.setToolTip(plain_tip(f"{widget.text()}\n{tip}" if widget is cells.name and
                                    cells.name.objectName() != "name_speed" else tip))
        widget.setCursor(Qt.CursorShape.PointingHandCursor)
        widget.installEventFilter(clicks)


def mark_next(rows: dict[str, RowCells], shown: int, style: Style) -> None:
    """Highlight the name of the row the room is asked about now (none once all are shown)."""
    for index, key in enumerate(ORDER):
        style.paint_label(rows[key].name, highlight=index == shown,
                          bold=index == shown or key == SPEED)
