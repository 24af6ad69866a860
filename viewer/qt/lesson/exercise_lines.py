"""The lesson at the line of code (the exercise's question 2, Predict's requests row): the open
pair's source counters, read through the session (`Need.source`, off the GUI thread, one read
serving the Source view too: viewer.qt.kit.view_reads), worded by viewer.lesson.exercise_source.

`SourceLines.of(pair, kernels, reports, words)` is what is known now: the lines `words` makes of
the two functions (LoadLines; by default question 2's, `load_lines`), READING
while the counters are read (asked for on the first call), or None where the open files cannot
hold them (an export, a read that failed, a report without source counters). `changed` is
emitted when the read of the pair last asked for is taken in or fails.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Final

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QPushButton

from viewer.core.model import Kernel, Report
from viewer.lesson.exercise_source import LoadLines, load_lines
from viewer.lesson.lesson_pair import LessonPair
from viewer.qt.kit.plain_text import plain_mnemonic, plain_tip
from viewer.qt.kit.session_reads import SessionReads
from viewer.qt.kit.style import Style
from viewer.qt.kit.view_reads import ViewReads
from viewer.readers import sniff
from viewer.readers.source import KernelSource
from viewer.session import Need
from viewer.session.shown import State


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    SOURCE_LINE_BUTTON = "source_line_button"


NEED = Need.of(source=True)
READING: Final = "Reading the kernels' source lines from the reports…"
Words = Callable[[KernelSource, KernelSource, LessonPair], LoadLines | None]


def loads_words(naive: KernelSource, tiled: KernelSource, pair: LessonPair) -> LoadLines | None:
    """Question 2's: the lines that issue each kernel's global and shared loads."""
    return load_lines(naive, tiled, (pair.naive_name, pair.tiled_name))


class SourceLines(QObject):
    """The pair's load lines as the session holds them."""

    changed = Signal()

    def __init__(self, reads: SessionReads | None = None, parent: QObject | None = None
                 ) -> None:
        super().__init__(parent)
        self.wanted = ViewReads(NEED, reads=reads, parent=self)  # asked when drawn
        self.wanted.changed.connect(lambda whole: self.changed.emit() if whole else None)
        self.reads = self.wanted.reads

    def of(self, pair: LessonPair | None, kernels: Sequence[Kernel],
           reports: Sequence[Report], words: Words = loads_words) -> LoadLines | str | None:
        """The lines, READING, or None (see the module's docstring)."""
        wants = _wants(pair, kernels, reports) if pair is not None else None
        if pair is None or wants is None:
            self.wanted.show((), ())
            return None
        self.wanted.show([r for r, _ in wants], [k for _, k in wants])
        if self.wanted.state is State.READING:
            return READING
        found = [self.reads.session.source(r, k) for r, k in wants]
        if self.wanted.state is State.ERROR or any(not f for f in found):
            return None
        naive, tiled = found
        assert naive and tiled
        return words(naive[0], tiled[0], pair)


def line_button(found: LoadLines, style: Style, show: Callable[[str, str], object]
                ) -> QPushButton | None:
    """'Show matmul.py:122': `show('source', row)` frames the row in the Source view; None
    where `found` names no row."""
    row = found.row
    if row is None:
        return None
    button = QPushButton(plain_mnemonic(f"Show {found.place}"))
    button.setObjectName(Names.SOURCE_LINE_BUTTON)
    button.setFont(style.font("body"))
    button.setToolTip(plain_tip(f"{found.place} framed in the Source view (C)"))
    button.clicked.connect(lambda _checked=False: show("source", row))
    return button


def _wants(pair: LessonPair | None, kernels: Sequence[Kernel], reports: Sequence[Report]
           ) -> list[tuple[Report, Kernel]] | None:
    """(report, kernel) of naive then tiled, None unless both files can hold source counters."""
    if pair is None or len(reports) != len(kernels):
        return None
    by_kernel = {id(k): r for k, r in zip(kernels, reports, strict=True)}
    wants = [(by_kernel.get(id(k)), k) for k in (pair.naive, pair.tiled)]
    if any(r is None or r.format not in sniff.SOURCE_FORMATS for r, _ in wants):
        return None
    return [(r, k) for r, k in wants if r is not None]
