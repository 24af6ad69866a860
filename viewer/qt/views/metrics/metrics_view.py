"""Every metric: a searchable table of every metric in the kernel, with its unit and ncu's own
description where the report carries one; with two kernels, the full diff of every metric both
hold, the largest relative change first (and, on request, those only one holds), a filter on the
size of the change, CSV export, and a warning at the top of what the window's compare line does
not say already (viewer.lesson.metric_warnings: SM clocks that differ, metrics one kernel holds,
a hit rate above 100 %).

The first read keeps a few hundred metrics; the rest (and ncu's descriptions) are read when the
view is shown, off the GUI thread (through the session: viewer.qt.kit.view_reads): its progress
shows alone, then the table once, whole, with its controls (none moves under the cursor).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from PySide6.QtCore import Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from viewer.analysis import metric_table
from viewer.analysis import metric_words as words
from viewer.core.model import Kernel, Report
from viewer.lesson.metric_warnings import diff_warnings
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.session_reads import SessionReads
from viewer.qt.kit.style import Style
from viewer.qt.kit.view import FramesNoRow, ShowsReports
from viewer.qt.kit.view_reads import ViewReads
from viewer.qt.views.metrics.metric_controls import MetricControls
from viewer.qt.views.metrics.metric_export import export_csv
from viewer.qt.views.metrics.metric_model import (
    ROW_COLUMNS,
    MetricModel,
    diff_columns,
    diff_lines,
    row_line,
)
from viewer.qt.views.metrics.metric_notes import MetricNotes
from viewer.qt.views.metrics.metric_table_view import MetricTable
from viewer.readers.extras import MetricAbout
from viewer.session import Need
from viewer.session.shown import State

NEED = Need.of(None, about=True)  # every metric, with ncu's words on each


class MetricsView(FramesNoRow, ShowsReports, QWidget):
    """Every metric of one kernel, or the full diff of two (A first)."""

    navigate = Signal(str, str)
    VIEW: ClassVar[str] = "metrics"
    TITLE: ClassVar[str] = "Every metric"
    QUESTION: ClassVar[str] = ("Every metric the report holds, with ncu's words on each; what "
                               "changed from A to B?")
    KEY: ClassVar[str] = "M"

    def __init__(self, style: Style | None = None, parent: QWidget | None = None,
                 reads: SessionReads | None = None) -> None:
        super().__init__(parent)
        self._style = style or Style()
        self.kernels: list[Kernel] = []
        self.names: list[str] = []
        self.reports: list[Report] = []
        self._stale = False  # the table is made when the view is shown
        self.wanted = ViewReads(NEED, self, reads)
        self.wanted.changed.connect(self._reads_changed)
        self._make_words()
        self._make_controls()
        self.model = MetricModel(self)  # the table of metrics, sorting by any column
        self.table = MetricTable(self.model, self)
        self.count = plain_label("", self)
        self._lay_out()
        self.set_style(self._style)
        self.clear()

    def _make_words(self) -> None:
        """The heading, the warnings, the note and the read's progress."""
        self.notes = MetricNotes(self)
        self.heading, self.warnings, self.note = (self.notes.heading, self.notes.warnings,
                                                  self.notes.note)
        self.progress = self.wanted.progress_bar(self)

    def _make_controls(self) -> None:
        """Search, the change's threshold, those one kernel holds, export."""
        self.controls = MetricControls(self)
        self.search, self.threshold = self.controls.search, self.controls.threshold
        self.one_sided, self.export_button = self.controls.one_sided, self.controls.export_button
        self.search.textChanged.connect(self._filter)
        self.threshold.valueChanged.connect(self._filter)
        self.one_sided.toggled.connect(lambda _: self._show())
        self.export_button.clicked.connect(lambda: self.export_csv())

    def _lay_out(self) -> None:
        """The words over the body: the controls, the table, the count."""
        layout = QVBoxLayout(self)
        for widget in (self.heading, self.warnings, self.note, self.progress):
            layout.addWidget(widget)
        self.body = QWidget(self)  # hidden while every metric is read
        inside = QVBoxLayout(self.body)
        inside.setContentsMargins(0, 0, 0, 0)
        inside.addLayout(self.controls)
        inside.addWidget(self.table, 1)
        for widget in (self.table.scroll_words, self.count):
            inside.addWidget(widget)
        layout.addWidget(self.body, 1)

    # ---------------------------------------------------------------- content

    @property
    def compare_mode(self) -> bool:
        return len(self.kernels) == 2

    @property
    def reads(self) -> SessionReads:
        return self.wanted.reads

    def set_kernels(self, kernels: Sequence[Kernel], names: Sequence[str],
                    reports: Sequence[Report]) -> None:
        self.kernels, self.names, self.reports = list(kernels), list(names), list(reports)
        self.wanted.show(self.reports, self.kernels)  # the rest is read once shown
        self._stale = True  # the table is made when the view is shown
        if self.isVisible():
            self._show()
        self._progress()

    def clear(self) -> None:
        self.kernels, self.names, self.reports = [], [], []
        self.wanted.show((), ())
        self._stale = False
        self.heading.setText(words.NO_SELECTION)
        for widget in (self.warnings, self.note, self.progress):
            widget.hide()
        self.model.set_lines([], ROW_COLUMNS)
        self._controls()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self._show()
        self._progress()

    @property
    def reading(self) -> bool:
        """Whether the rest of the kernels' metrics is being read."""
        return self.wanted.reading

    def _reads_changed(self, whole: bool) -> None:
        """A read of the kernels shown moved on (`whole`: arrived or failed)."""
        self._progress()
        if not whole or self.wanted.state is State.READING:
            return
        if self.isVisible():
            self._show()
        else:
            self._stale = True

    def _progress(self) -> None:
        """The read of every metric and ncu's words on them, while it runs."""
        self.progress.setVisible(self.wanted.state is State.READING and bool(self.kernels))
        self.wanted.paint(self.progress)
        self.progress.setFormat(words.reading_text(self.wanted.message))

    def about_of(self, which: int) -> dict[str, MetricAbout]:
        return self.reads.session.extras(self.reports[which], self.kernels[which]).about

    def _show(self) -> None:
        """The table from what the kernels hold now."""
        if not self.kernels:
            return
        self._stale = False
        self.body.setVisible(self.wanted.state is not State.READING)
        if self.wanted.state is State.READING:  # the table comes once, whole
            self.notes.reading()
            return
        if self.compare_mode:
            about = {**self.about_of(1), **self.about_of(0)}
            a, b = self.kernels
            lines, diffs, only = diff_lines(a, b, about, self.one_sided.isChecked())
            self.one_sided.setText(words.one_sided_text(only))
            self.one_sided.setVisible(bool(only))
            self.model.set_lines(lines, diff_columns(self.names))
            self.heading.setText(words.diff_heading(diffs, self.names, self._style.projector))
            self.notes.warn(self.warning_texts())
        else:
            found = metric_table.rows(self.kernels[0], self.about_of(0))
            self.one_sided.hide()
            self.model.set_lines([row_line(r) for r in found], ROW_COLUMNS)
            self.heading.setText(words.rows_heading(len(found), self.names[0]))
            self.notes.warn(metric_table.hit_rate_notes(found))
        error = self.wanted.error if self.wanted.state is State.ERROR else ""
        note = words.note_text(error, self.reports[0].format != "ncu-rep")
        self.note.setText(note or words.NO_DESCRIPTIONS)
        self.note.setVisible(note is not None)
        self._controls()
        self.table.fit()

    def warning_texts(self) -> list[str]:
        """Why A and B may differ beyond their code, that the compare line does not say."""
        return diff_warnings(self.kernels, self.names, self.reports)

    def _filter(self) -> None:
        least = self.threshold.value() if self.compare_mode else 0.0
        self.model.set_filter(self.search.text(), least)
        self.count.setText(words.count_text(self.model.rowCount(), self.model.total()))

    def _controls(self) -> None:
        self.controls.show_for(self.compare_mode, bool(self.kernels))
        self._filter()

    # ---------------------------------------------------------------- CSV

    def csv_text(self) -> str:
        """What the table shows now, as CSV."""
        return words.table_csv(self.model.shown(), self.names)

    def export_csv(self, path: Path | str | None = None) -> Path | None:
        """Write the table shown as CSV to `path` (asked for when None); asks before replacing a
        file. The path written, or None."""
        written = export_csv(self, self.csv_text, "-vs-".join(self.names) or "metrics", path,
                             self.notes.say)
        if written is not None:
            self.count.setText(f"{self.count.text()}; written to {written}")
        return written

    # ---------------------------------------------------------------- looks

    @property
    def style_(self) -> Style:
        """The style in use (named so as not to shadow QWidget.style())."""
        return self._style

    def set_style(self, style: Style) -> None:
        self._style = style
        style.apply_palette(self)
        self.notes.set_style(style)
        style.paint_label(self.count, "small", color="secondary")
        for widget in (self.table, self.progress, self.table.horizontalHeader()):
            widget.setFont(style.font("body"))
        self.controls.set_style(style)
        if self.kernels and self.isVisible():
            self._show()
        elif self.kernels:
            self._stale = True
        self.model.colors = {"better": style.color("shared"), "worse": style.color("accent")}
        self.table.set_style(style)
        self.table.fit()
