"""Naive against tiled in the Source view: the rows that issue global loads (naive, tiled) and
shared loads (tiled) lined up in three columns, each row with its loads per thread and each
column's total, beside the lesson's derivation where the kernel is the lesson's at the lesson's
layout (`Comparison.lesson`), then viewer.analysis.source.compare's sentences."""

from __future__ import annotations

from collections.abc import Sequence, Set
from enum import StrEnum

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from viewer.analysis.source import GLOBAL_LOADS, SHARED_LOADS, Comparison, Row, row_key
from viewer.analysis.source_columns import place_text
from viewer.core import formatting as fmt
from viewer.core.elide import wrappable_names
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.plain_text import plain_tip
from viewer.qt.kit.style import Role, Style


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    LOADS = "loads"
    LOADS_TITLE = "loads_title"
    LOADS_TOTAL = "loads_total"
    SENTENCE = "sentence"



def per_thread_text(value: float | None, kind: str | None) -> str:
    """'128 global loads / thread' (`kind` None: '128 loads / thread', under a title that says
    which): what is counted said with it, so that it is not read as the table's instructions
    per thread (every instruction of the line)."""
    what = "loads" if kind is None else "shared loads" if kind == SHARED_LOADS else "global loads"
    return fmt.MISSING if value is None else f"{fmt.count(round(value, 2))} {what} / thread"


def lesson_text(got: float | None, lesson: int | None, kind: str) -> str:
    """'1,024 global loads / thread (the lesson: 1,024)'."""
    said = per_thread_text(got, kind)
    return said if lesson is None else f"{said} (the lesson: {lesson:,})"


class LoadRows(QWidget):
    """The comparison's sentences and its three columns of load rows; `row_labels(key)` are
    the labels of row `key` (viewer.qt.views.source.source_tree.row_key)."""

    def __init__(self, style: Style, comparison: Comparison, names: Sequence[str],
                 marked: Set[str | None] = frozenset(), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.comparison = comparison
        self._rows: dict[str, list[QLabel]] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(style.px(4))
        role: Role = "body" if style.projector else "small"
        grid = QGridLayout()
        grid.setHorizontalSpacing(style.px(18))
        grid.setVerticalSpacing(style.px(2))
        n, t = comparison.lesson("naive"), comparison.lesson("tiled")
        a, b = names
        columns = (
            (f"{a}: global loads", comparison.naive_global, GLOBAL_LOADS,
             comparison.naive_global_per_thread, n.global_loads_per_thread if n else None),
            (f"{b}: global loads", comparison.tiled_global, GLOBAL_LOADS,
             comparison.tiled_global_per_thread, t.global_loads_per_thread if t else None),
            (f"{b}: shared loads", comparison.tiled_shared, SHARED_LOADS,
             comparison.tiled_shared_per_thread, t.shared_loads_per_thread if t else None),
        )
        for column, (title, rows, kind, total, lesson) in enumerate(columns):
            # wrapped, every label: three columns fit a laptop's width in projector type
            grid.addWidget(style.label(wrappable_names(title), "body", bold=True, wrap=True,
                                       name=one_of(Names.LOADS_TITLE, column)), 0, column)
            grid.addWidget(style.label(lesson_text(total, lesson, kind), "body", bold=True,
                                       wrap=True,
                                       color="memory" if kind == GLOBAL_LOADS else "shared",
                                       name=one_of(Names.LOADS_TOTAL, column)), 1, column)
            for number, row in enumerate(rows):
                grid.addWidget(self._row(style, row, kind, role, row_key(row) in marked,
                                         one_of(Names.LOADS, column, number)), 2 + number, column)
            grid.setColumnStretch(column, 1)
        layout.addLayout(grid)
        for number, sentence in enumerate(comparison.sentences):
            label = style.label(sentence, "body", wrap=True, name=one_of(Names.SENTENCE, number))
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            layout.addWidget(label)
        layout.addStretch(1)

    def _row(self, style: Style, row: Row, kind: str, role: Role, marked: bool,
             name: str) -> QLabel:
        text = (row.text or " ".join(row.opcodes)).strip()
        if len(text) > 48:
            text = text[:47] + "\u2026"
        said = per_thread_text(row.per_thread(kind), None)  # its column's title says which
        words = f"{place_text(row)}  {text}  \u2014 {said}"
        label = style.label(words, role, name=name, highlight=marked, bold=marked, wrap=True)
        label.setToolTip(plain_tip(row.text or ""))
        self._rows.setdefault(row_key(row), []).append(label)
        return label

    def row_labels(self, key: str) -> list[QLabel]:
        return list(self._rows.get(key, []))
