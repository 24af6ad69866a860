"""Kernel timing: both matmuls through the lesson's launch order on this machine's GPU.

The panel picks a size or a list of sizes (each timed in turn: viewer.kernels.sizes), has
timing_jobs.TimingJobs run the timing off the GUI thread (viewer.kernels.runner.time_kernels by
default), and shows each kernel's timed launches, their medians, the ratio of the medians and
numba's dispatch overhead, measured apart. Before it offers Run, it asks (also off the GUI thread)
whether numba can reach a CUDA GPU; without one it says so in one line. Until a run here, the times
recorded on another GPU (viewer.analysis.timing_record) are shown, labelled as recorded; a run
replaces them on screen, and a button goes back to the record. The panel's words are made in
viewer.analysis.timing; the run's numbers are run_numbers.RunNumbers, the record's
record_view.RecordView; the controls timing_controls, the pages timing_pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QStackedWidget, QVBoxLayout, QWidget

from viewer.analysis.timing import (
    LOOKING,
    PLAIN_RUN_NOTE,
    DeviceCheck,
    find_device,
    intro_text,
    time_kernels,
)
from viewer.analysis.timing_record import TimingRecord, read_record_or_none
from viewer.analysis.timing_status import status_line
from viewer.core.jobs import Job
from viewer.qt.kit.style import Role, Style
from viewer.qt.kit.styled_labels import StyledLabels
from viewer.qt.views.timing.timing_controls import TimingControls
from viewer.qt.views.timing.timing_jobs import TimingJobs
from viewer.qt.views.timing.timing_pages import RecordPage, RunPage
from viewer.qt.views.timing.timing_panel_names import Names

if TYPE_CHECKING:
    from viewer.kernels.runner import TimingResult
    from viewer.kernels.sizes import SizesTiming

INTRO_PAGE, RUN_PAGE = 0, 1


class TimingPanel(QWidget):
    """Size, Run (Ctrl+R) and Cancel; the timed launches plotted and their medians in numbers.

    `run_timing(dim, job) -> TimingResult` and `find_device(job) -> DeviceCheck` are the plain
    functions it runs off the GUI thread. The look for a GPU starts when the panel is first
    shown (or at `check_device()`). Until a run here, the first page shows `record` (the
    shipped timing record by default) at the chosen size; after one, the run replaces it and
    `record_button` goes back and forth.
    """

    TITLE = "Kernel timing"

    def __init__(self, style: Style | None = None, parent: QWidget | None = None, *,
                 run_timing: Callable[[int, Job], TimingResult] = time_kernels,
                 find_device: Callable[[Job], DeviceCheck] = find_device,
                 record: TimingRecord | bool | None = True) -> None:
        super().__init__(parent)
        self.record = read_record_or_none() if record is True else record or None
        self._style = style or Style()
        self.result: TimingResult | SizesTiming | None = None
        self.status_kind = "info"
        self._labels = StyledLabels()
        self.setAutoFillBackground(True)

        self.jobs = TimingJobs(self, run_timing, find_device, lambda: self.result)
        self.worker, self.probe = self.jobs.worker, self.jobs.probe

        self.title = self._label(self.TITLE, "heading", bold=True, name=Names.TITLE)
        self.note = self._label(PLAIN_RUN_NOTE, "small", color="secondary",
                                name=Names.PLAIN_RUN_NOTE, wrap=True)
        self.controls = TimingControls(self._style, self)
        self.size_box, self.progress = self.controls.size_box, self.controls.progress
        self.run_button, self.cancel_button = self.controls.run_button, self.controls.cancel_button
        self.record_button, self.run_action = self.controls.record_button, self.controls.run_action
        self.status = self._label(LOOKING, "body", name=Names.STATUS, wrap=True)
        self.first, self.results = RecordPage(self._style, self), RunPage(self._style, self)
        self.intro, self.recorded = self.first.intro, self.first.recorded
        self.plot, self.numbers_scroll = self.results.plot, self.results.numbers_scroll
        self.numbers, self.body = self.numbers_scroll.numbers, self.results.body
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.first)
        self.stack.addWidget(self.results)

        self.outer = layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.note)
        layout.addLayout(self.controls)
        status_row = QHBoxLayout()
        status_row.addWidget(self.status, 1)
        status_row.addWidget(self.record_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(status_row)
        layout.addWidget(self.stack, 1)
        self._connect_jobs()
        self.size_box.textChanged.connect(self._show_record)
        self._update_intro(launch_order=False)
        self._show_record()
        self.set_style(self._style)
        self._update_controls()

    def _connect_jobs(self) -> None:
        """What the jobs say to what the panel draws; the buttons to the jobs."""
        self.jobs.said.connect(self._set_status)
        self.jobs.answered.connect(self._show_device_answer)
        self.jobs.changed.connect(self._update_controls)
        self.jobs.timed.connect(self.show_result)
        self.jobs.progressed.connect(self.progress.setValue)
        self.worker.busy_changed.connect(self._update_controls)
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.record_button.clicked.connect(self.toggle_record)
        self.run_action.triggered.connect(lambda _checked=False: self.run())

    # ------------------------------------------------------------------ public

    @property
    def dims(self) -> tuple[int, ...]:
        """The sizes the next run times, in order (the field's, corrected as Enter would)."""
        return self.size_box.value()

    @property
    def dim(self) -> int:
        """The first size the next run times (the record shown is at it)."""
        return self.dims[0]

    def set_dim(self, dims: int | tuple[int, ...]) -> None:
        self.size_box.setValue(dims)

    @property
    def device_check(self) -> DeviceCheck | None:
        """The answer to the look for a GPU; None until there is one."""
        return self.jobs.device_check

    @property
    def can_run(self) -> bool:
        return self.jobs.can_run

    def check_device(self) -> None:
        """Look for a CUDA GPU off the GUI thread."""
        self.jobs.check_device()

    @property
    def rows(self) -> dict[str, dict[str, QLabel]]:
        """The run's cells: rows[kernel][column]."""
        return self.numbers_scroll.rows

    @property
    def showing_record(self) -> bool:
        return self.stack.currentIndex() == INTRO_PAGE

    def toggle_record(self) -> None:
        """Between this machine's run and the record (once there is a run)."""
        if self.result is None:
            return
        self.stack.setCurrentIndex(RUN_PAGE if self.showing_record else INTRO_PAGE)
        self._update_controls()

    def run(self) -> None:
        """Time both kernels at the chosen sizes; without a GPU, say so instead."""
        self.size_box.interpretText()
        self.jobs.run(self.dims)

    def cancel(self) -> None:
        self.jobs.cancel()

    def show_result(self, result: TimingResult | SizesTiming) -> None:
        """Display a timing result: the plot, the numbers, the device."""
        self.result = result
        self.results.show_timing(result, self.width(), self._style)
        self.stack.setCurrentIndex(RUN_PAGE)
        self._update_controls()

    @property
    def style_(self) -> Style:
        return self._style

    def set_style(self, style: Style) -> None:
        """Desk or projector scale."""
        self._style = style
        style.apply_palette(self)
        self._labels.paint(style)
        self._paint_status()
        self.controls.set_style(style)
        margin = style.px(10)
        self.outer.setContentsMargins(margin, margin, margin, margin)
        self.outer.setSpacing(style.px(6))
        self.first.set_style(style)
        self.results.set_style(style, self.result, self.width())

    def shutdown(self, msecs: int = 30_000) -> bool:
        """Cancel what runs and wait for the jobs to return (for closing the window)."""
        return self.jobs.shutdown(msecs)

    # ------------------------------------------------------------------ drawing

    def _show_device_answer(self) -> None:
        self._update_intro()
        self._update_controls()

    def _update_controls(self, *_args: object) -> None:
        self.controls.show_for(self.worker.busy, self.can_run,
                               self.result is not None and self.record is not None,
                               self.showing_record)

    def _show_record(self, *_args: object) -> None:
        self.recorded.show_record(self.record, self.dim)
        self.recorded.setVisible(self.record is not None)

    def _update_intro(self, launch_order: bool = True) -> None:
        self.intro.setText(intro_text(launch_order))

    def _place_numbers(self) -> None:
        self.results.place(self.width(), self._style)

    def _label(self, text: str, role: Role, *, bold: bool = False, color: str = "text",
               name: str = "", wrap: bool = False) -> QLabel:
        return self._labels.make(self._style, text, role, bold=bold, color=color, name=name,
                                 wrap=wrap, parent=self)

    def _paint(self, label: QLabel, role: Role, color: str, bold: bool) -> None:
        self._style.paint_label(label, role, bold=bold, color=color)

    def _set_status(self, text: str, kind: str = "info") -> None:
        self.status.setText(status_line(text))
        self.status_kind = kind
        self._paint_status()

    def _paint_status(self) -> None:
        problem = self.status_kind == "problem"
        self._paint(self.status, "body", "warning" if problem else "text", problem)

    # ------------------------------------------------------------------ events

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self.jobs.looked:
            self.check_device()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place_numbers()
