"""Every metric: a searchable table of every metric in the kernel, with its unit and ncu's own
description where the report carries one; with two kernels, the full diff of every metric both
hold, the largest relative change first (and, on request, those only one holds), a filter on the
size of the change, CSV export, and a warning at the top when the two ran on different GPUs,
clocks or ncu versions, or when ncu reports a hit rate above 100 %.

The first read keeps a few hundred metrics; the rest (and ncu's descriptions) are read when the
view is shown, off the GUI thread (through the session: viewer.qt.kit.view_reads), with
progress here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDoubleSpinBox,
    QFileDialog,
    QGridLayout,
    QHeaderView,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from viewer.analysis import metric_table
from viewer.analysis.metric_table import MetricDiff, MetricRow
from viewer.core.elide import wrappable_names
from viewer.core.model import Kernel, Report
from viewer.lesson.misreads import compare_misreads
from viewer.qt.kit.plain_text import plain_label, plain_tip
from viewer.qt.kit.session_reads import SessionReads
from viewer.qt.kit.style import Style
from viewer.qt.kit.view import FramesNoRow, ShowsReports
from viewer.qt.kit.view_reads import ViewReads
from viewer.qt.views.metrics.metric_model import (
    ROW_COLUMNS,
    MetricModel,
    diff_columns,
    diff_line,
    one_sided_line,
    row_line,
)
from viewer.readers.extras import MetricAbout
from viewer.session import Need
from viewer.session.shown import State

NEED = Need.of(None, about=True)  # every metric, with ncu's words on each
NO_DESCRIPTIONS = ("This file is an export: it carries values and names but not ncu's units or "
                   "descriptions (a .ncu-rep does).")
NOT_READ = "Could not read the rest of the metrics"


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
        self._make_table()
        self._lay_out()
        self.set_style(self._style)
        self.clear()

    def _make_words(self) -> None:
        """The heading, the warnings, the note and the read's progress."""
        self.heading = plain_label("", self)
        self.heading.setWordWrap(True)
        self.warnings = plain_label("", self)
        self.warnings.setObjectName("warnings")
        self.warnings.setWordWrap(True)
        self.note = plain_label("", self)
        self.note.setWordWrap(True)
        self.progress = self.wanted.progress_bar(self)

    def _make_controls(self) -> None:
        """Search, the change's threshold, those one kernel holds, export."""
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search metric names, labels and descriptions")
        self.search.setClearButtonEnabled(True)
        self.threshold_label = plain_label("Only what changed by more than", self)
        self.threshold = QDoubleSpinBox(self)
        self.threshold.setRange(0.0, 1e6)
        self.threshold.setDecimals(1)
        self.threshold.setSuffix(" %")
        self.one_sided = QCheckBox(self)
        self.one_sided.setObjectName("one_sided")
        self.export_button = QPushButton("Export CSV...", self)
        self.search.textChanged.connect(self._filter)
        self.threshold.valueChanged.connect(self._filter)
        self.one_sided.toggled.connect(lambda _: self._show())
        self.export_button.clicked.connect(lambda: self.export_csv())

    def _make_table(self) -> None:
        """The table of metrics, sorting by any column, and the count under it."""
        self.model = MetricModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = self.table.horizontalHeader()
        header.setSortIndicatorShown(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header.setStretchLastSection(True)
        self.count = plain_label("", self)

    def _lay_out(self) -> None:
        """The words over the controls, the table, the count."""
        self.controls = QGridLayout()
        layout = QVBoxLayout(self)
        for widget in (self.heading, self.warnings, self.note, self.progress):
            layout.addWidget(widget)
        layout.addLayout(self.controls)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.count)

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
        self.heading.setText("Open a report and pick a kernel to list its metrics.")
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
        message = self.wanted.message
        self.progress.setValue(self.wanted.steps)
        self.progress.setFormat(message[:1].upper() + message[1:] + "..." if message
                                else "Reading every metric...")

    def about_of(self, which: int) -> dict[str, MetricAbout]:
        return self.reads.session.extras(self.reports[which], self.kernels[which]).about

    def _show(self) -> None:
        """The table from what the kernels hold now."""
        if not self.kernels:
            return
        self._stale = False
        if self.compare_mode:
            about = {**self.about_of(1), **self.about_of(0)}
            diffs = metric_table.diff(self.kernels[0], self.kernels[1], about)
            lines = [diff_line(d) for d in diffs]
            only = metric_table.one_sided(self.kernels[0], self.kernels[1], about)
            self.one_sided.setText(f"Also the {len(only):,} held by one kernel only")
            self.one_sided.setVisible(bool(only))
            if only and self.one_sided.isChecked():
                lines += [one_sided_line(o) for o in only]
            self.model.set_lines(lines, diff_columns(self.names))
            both = f"{len(diffs):,} metrics both {self.names[0]} (A) and {self.names[1]} (B) hold"
            self.heading.setText(f"{both}, the largest change first." if self._style.projector
                                 else f"{both}, the largest relative change first; coloured "
                                 "where higher or lower is known to be better.")
            self._warn(self.warning_texts())
        else:
            found = metric_table.rows(self.kernels[0], self.about_of(0))
            self.one_sided.hide()
            self.model.set_lines([row_line(r) for r in found], ROW_COLUMNS)
            self.heading.setText(f"{len(found):,} metrics of {self.names[0]}.")
            self._warn(metric_table.hit_rate_notes(found))
        error = self.wanted.error if self.wanted.state is State.ERROR else ""
        exported = self.reports[0].format != "ncu-rep"
        self.note.setText(f"{NOT_READ}: {error}" if error else NO_DESCRIPTIONS)
        self.note.setVisible(bool(error) or exported)
        self._controls()
        self._fit()

    def warning_texts(self) -> list[str]:
        """Why A and B may differ beyond their code: GPUs, clocks, ncu versions."""
        a, b = self.kernels
        ra, rb = self.reports
        texts = metric_table.provenance_warnings(a, b, (ra.session, rb.session))
        texts += [f"{name}: {note}" for name, kernel in zip(self.names, self.kernels, strict=True)
                  for note in metric_table.hit_rate_notes(metric_table.rows(kernel))]
        texts += [m.text for m in compare_misreads(a, b, ra, rb)
                  if m.kind.endswith(("-clocks", "-ncu")) or m.kind == "clocks-not-locked"]
        return texts

    def _warn(self, texts: list[str]) -> None:
        self.warnings.setText("\n".join(f"\u26a0 {wrappable_names(t)}" for t in texts))
        self.warnings.setVisible(bool(texts))

    def _filter(self) -> None:
        least = self.threshold.value() if self.compare_mode else 0.0
        self.model.set_filter(self.search.text(), least)
        self._count()

    def _controls(self) -> None:
        for widget in (self.threshold_label, self.threshold):
            widget.setVisible(self.compare_mode)
        if not self.compare_mode:
            self.one_sided.hide()
        self.export_button.setEnabled(bool(self.kernels))
        self._filter()
        self._count()

    def _count(self) -> None:
        shown, total = self.model.rowCount(), self.model.total()
        self.count.setText(f"{total:,} metrics" if shown == total
                           else f"{shown:,} of {total:,} metrics")

    # ---------------------------------------------------------------- CSV

    def csv_text(self) -> str:
        """What the table shows now, as CSV."""
        shown = self.model.shown()
        if self.compare_mode:
            return metric_table.diff_csv([d for d in shown if isinstance(d, MetricDiff)],
                                         *self.names)
        return metric_table.rows_csv([r for r in shown if isinstance(r, MetricRow)])

    def export_csv(self, path: Path | str | None = None) -> Path | None:
        """Write the table shown as CSV to `path` (asked for when None); asks before replacing a
        file. The path written, or None."""
        if path is None:
            stem = "-vs-".join(self.names) or "metrics"
            chosen, _ = QFileDialog.getSaveFileName(
                self, "Export the table as CSV", f"{stem}.csv", "CSV (*.csv)",
                options=QFileDialog.Option.DontConfirmOverwrite)
            if not chosen:
                return None
            path = chosen
        path = Path(path)
        replace = False
        if path.exists():
            answer = QMessageBox.question(self, "Replace?",
                                          plain_tip(f"{path.name} exists. Replace it?"))
            if answer != QMessageBox.StandardButton.Yes:
                return None
            replace = True
        try:
            written = metric_table.write_csv(path, self.csv_text(), replace=replace)
        except OSError as exc:
            self.note.setText(f"Could not write {path.name}: {exc.strerror or exc}")
            self.note.show()
            return None
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
        style.paint_label(self.heading, "body" if style.projector else "heading", bold=True)
        style.paint_label(self.warnings, "body", bold=True, color="warning")
        style.paint_label(self.note, "small", color="secondary")
        style.paint_label(self.count, "small", color="secondary")
        style.paint_label(self.threshold_label, "body")
        for widget in (self.search, self.threshold, self.one_sided, self.export_button, self.table,
                       self.progress, self.table.horizontalHeader()):
            widget.setFont(style.font("body"))
        self._place_controls(style.projector)
        if self.kernels and self.isVisible():
            self._show()
        elif self.kernels:
            self._stale = True
        self.model.colors = {"better": style.color("shared"), "worse": style.color("accent")}
        rows = self.table.fontMetrics().height() + style.px(6)
        self.table.verticalHeader().setDefaultSectionSize(rows)
        self.table.verticalHeader().setMinimumSectionSize(rows)
        self._fit()

    def _place_controls(self, stacked: bool) -> None:
        """Search, threshold and export on one line; in projector mode the search alone."""
        for widget in (self.search, self.threshold_label, self.threshold, self.export_button,
                       self.one_sided):
            self.controls.removeWidget(widget)
        self.controls.addWidget(self.search, 0, 0, 1, 1 if not stacked else 3)
        row, column = (1, 0) if stacked else (0, 1)
        self.controls.addWidget(self.threshold_label, row, column)
        self.controls.addWidget(self.threshold, row, column + 1)
        self.controls.addWidget(self.export_button, row, column + 2)
        self.controls.addWidget(self.one_sided, row + 1, 0, 1, 4)
        for c in range(4):
            self.controls.setColumnStretch(c, 0)
        self.controls.setColumnStretch(0, 1)

    def _fit(self) -> None:
        metrics = self.table.fontMetrics()
        header = self.table.horizontalHeader()
        widths = {"Metric": 40 if self._style.projector else 46, "Description": 60,
                  "Unit": 12, "Better when": 12, "Verdict": 9, "B/A": 9, "Change": 14}
        # Names are the point of this page: the Metric column takes the longest name shown,
        # up to most of the table's width, so that two names never read alike for a cut.
        names = [row.name for row in self.model.shown()]
        longest = max((metrics.horizontalAdvance(n) for n in names), default=0) + 24
        room = int(self.table.viewport().width() * 0.7)
        for column, title in enumerate(self.model.columns):
            chars = widths.get(title, 18)
            width = max(metrics.horizontalAdvance(title) + 24, chars * metrics.averageCharWidth())
            if title == "Metric":
                width = max(width, min(longest, room))
            header.resizeSection(column, width)
