"""T4 vs this report: the lesson's published Tesla T4 rows beside the open report's.

What moved across GPUs (hit rates, durations, throughput percentages) and what did not (request
and sector counts, the order between the kernels) comes first, in viewer.lesson.t4_reference's words
computed from the values; then the rows as the lesson spells them, the T4's pair beside this
report's, each row's own words in its tooltip; then where the T4 figures come from. Without the
naive and tiled kernels open, or with the T4 table itself open, the T4's rows stand alone. A value
a report lacks is missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QSizePolicy, QVBoxLayout, QWidget

from viewer.core import formatting as fmt
from viewer.core.elide import breakable, wrappable
from viewer.core.model import Kernel, Report
from viewer.lesson import t4_reference
from viewer.lesson.lesson_pair import ROLES, LessonPair, lesson_pair
from viewer.lesson.t4_reference import CrossRow
from viewer.qt.kit.elided_name import ElidedName
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.plain_text import plain_tip
from viewer.qt.kit.reading_tab import ReadingTab
from viewer.qt.kit.style import Role, Style


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    DEVICE = "device"
    LABEL = "label"
    MOVED = "moved"
    NEEDS_PAIR = "needs_pair"
    ORDER_NOTE = "order_note"
    PROVENANCE = "provenance"
    SAME_TABLE = "same_table"
    SUMMARY = "summary"
    VALUE = "value"


NEEDS_PAIR = ("Open the naive and the tiled kernel side by side (the app opens the shipped pair "
              "when no file is named) to set this report's rows beside the T4's.")
MOVED = {True: "moved", False: "did not move", None: "not in both"}
_NAME_SAMPLE = "matmul_naive"  # the widest a kernel's name column grows


class ReferenceTab(ReadingTab):
    """The published T4 table beside the naive and tiled kernels open now."""

    VIEW = "reference"
    KEY = "R"
    TITLE = "T4 vs this report"
    QUESTION = ("The lesson's Tesla T4 beside this report: which rows moved across GPUs, and "
                "which did not?")

    def __init__(self, style: Style | None = None, parent: QWidget | None = None) -> None:
        self._t4: Report | None = None
        super().__init__(style, parent)

    def t4(self) -> Report:
        """The published table, read once."""
        if self._t4 is None:
            self._t4 = t4_reference.reference_report()
        return self._t4

    def t4_pair(self) -> tuple[Kernel, Kernel]:
        by_name = {k.name: k for k in self.t4().kernels}
        return by_name[ROLES[0]], by_name[ROLES[1]]

    def cross_rows(self) -> list[CrossRow]:
        """The rows shown: beside the open pair, or the T4's alone (its `here` unused)."""
        pair = self.pair()
        here = (pair.naive, pair.tiled) if pair is not None else self.t4_pair()
        return t4_reference.cross_gpu(self.t4_pair(), here)

    def pair(self) -> LessonPair | None:
        """The open pair to set beside the T4; None when none is open, or the T4 table itself."""
        if t4_reference.is_reference(self.kernels):
            return None
        return lesson_pair(self.kernels, self.names)

    def _build(self, layout: QVBoxLayout) -> None:
        pair = self.pair()
        rows = self.cross_rows()
        if pair is None:
            same = t4_reference.is_reference(self.kernels)
            layout.addWidget(self.label(t4_reference.SAME_TABLE if same else NEEDS_PAIR, "heading",
                                        bold=True, wrap=True,
                                        name=Names.SAME_TABLE if same else Names.NEEDS_PAIR))
        else:
            lead: Role = "body" if self.style_.projector else "heading"  # the table must fit too
            for number, words in enumerate(t4_reference.summary_words(rows)):
                layout.addWidget(self.label(wrappable(words), lead if number < 2 else "body",
                                            bold=number < 2, wrap=True,
                                            name=one_of(Names.SUMMARY, number)))
            if pair.order_note:
                layout.addWidget(self.label(pair.order_note, color="secondary", wrap=True,
                                            name=Names.ORDER_NOTE))
        layout.addLayout(self._table(rows, pair))
        layout.addWidget(self.label(t4_reference.provenance_text(self.t4()), "small",
                                    color="secondary", wrap=True, name=Names.PROVENANCE))

    def _name(self, name: str, names: Sequence[str]) -> ElidedName:
        """A kernel's name over its column, elided to a short name's width, whole on hover."""
        heading = ElidedName(name, names)
        self.style_.paint_label(heading, "small", bold=True, color="secondary")
        heading.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        whole = heading.fontMetrics().horizontalAdvance(name) + self.style_.px(2)
        heading.setMinimumWidth(min(whole, heading.fontMetrics().horizontalAdvance(_NAME_SAMPLE)))
        heading.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        return heading

    def _table(self, rows: Sequence[CrossRow], pair: LessonPair | None) -> QGridLayout:
        grid = QGridLayout()
        grid.setHorizontalSpacing(self.style_.px(14))
        grid.setVerticalSpacing(self.style_.px(3))
        grid.setColumnStretch(0, 1)
        right = Qt.AlignmentFlag.AlignRight
        t4_n, here_n = rows[0].sizes if rows else (None, None)

        def at(n: int | None) -> str:
            return f", N = {n}" if n is not None else ""
        sides = [((self.t4_pair()[0].device_label or "T4") + at(t4_n), ROLES)]
        if pair is not None:
            sides.append(((pair.naive.device_label or "this report") + at(here_n),
                          (pair.naive_name, pair.tiled_name)))
        for side, (device, names) in enumerate(sides):
            grid.addWidget(self.label(device, bold=True, name=one_of(Names.DEVICE, side)), 0,
                           1 + 2 * side, 1, 2, Qt.AlignmentFlag.AlignHCenter)
            for offset, name in enumerate(names):
                grid.addWidget(self._name(name, names), 1, 1 + 2 * side + offset)
        last = 1 + 2 * len(sides)
        if pair is not None:
            grid.addWidget(self.label("Across GPUs", "small", bold=True, color="secondary"), 1,
                           last)
        for number, row in enumerate(rows, 2):
            held = pair is not None and row.moved is False
            tip = plain_tip(row.words) if pair is not None else ""
            heading = self.label(breakable(row.label), bold=held, wrap=True,
                                 name=one_of(Names.LABEL, number))
            heading.setToolTip(tip)
            grid.addWidget(heading, number, 0)
            values = (*row.t4, *row.here) if pair is not None else row.t4
            for column, value in enumerate(values, 1):
                shown = (t4_reference.t4_figure(row, value) if column <= 2
                         else fmt.by_unit(value, row.unit))
                cell = self.label(shown, bold=held,
                                  color="text" if value is not None else "missing",
                                  name=one_of(Names.VALUE, number, column))
                cell.setToolTip(tip)
                grid.addWidget(cell, number, column, right)
            if pair is not None:
                verdict = self.label(MOVED[row.moved], bold=held, highlight=held,
                                     color="text" if row.moved is not None else "missing",
                                     name=one_of(Names.MOVED, number))
                verdict.setToolTip(tip)
                grid.addWidget(verdict, number, last,
                               Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        return grid
