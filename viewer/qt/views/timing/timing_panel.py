"""Kernel timing: both matmuls through the lesson's launch order on this machine's GPU.

The panel picks a size, runs the timing (viewer.kernels.runner.time_kernels by default) off the
GUI thread on a viewer.qt.kit.workers.Worker, and shows each kernel's timed launches, their medians,
the ratio of the medians and numba's dispatch overhead, measured apart. The worker runs one job at
a time, so the last launch of a cancelled run never overlaps the next run on the GPU. Before it
offers Run, the panel asks, also off the GUI thread, whether numba can reach a CUDA GPU; without
one it says so in one line. numba is imported by those jobs, not when this module is imported.
Until a run here, the times recorded on another GPU (viewer.analysis.timing_record) are shown,
labelled as recorded; a run replaces them on screen, and a button goes back to the record. The
panel's words are made in viewer.analysis.timing; the run's numbers are run_numbers.RunNumbers,
the record's record_view.RecordView.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from viewer.analysis.timing import (
    DEFAULT_SIZE,
    LOOKING,
    NEEDS_GPU,
    PLAIN_RUN_NOTE,
    SHOW_RECORD,
    SHOW_RUN,
    DeviceCheck,
    cancelled_text,
    failed_text,
    find_device,
    intro_text,
    launches_axis_text,
    probe_failed_text,
    ready_text,
    size_text,
    time_kernels,
    timed_or_unavailable,
    timed_text,
    timing_now_text,
    timing_sizes,
)
from viewer.analysis.timing_record import TimingRecord, read_record_or_none
from viewer.core.jobs import Job
from viewer.qt.kit.style import Role, Style
from viewer.qt.kit.workers import Worker
from viewer.qt.views.timing.record_view import RecordView
from viewer.qt.views.timing.run_numbers import RunNumbers
from viewer.qt.views.timing.timing_plot import X_LABEL, LaunchTimesPlot

if TYPE_CHECKING:
    from viewer.kernels.runner import TimingResult

RUN_SHORTCUT = "Ctrl+R"

# At or above this width in pixels, the numbers sit beside the plot rather than below it.
SIDE_BY_SIDE_PX = 1000
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
        self._run_timing = run_timing
        self._find_device = find_device
        self._looked = False
        self.device_check: DeviceCheck | None = None
        self.result: TimingResult | None = None
        self.status_kind = "info"
        self._styled: list[tuple[QLabel, Role, str, bool]] = []
        self.setAutoFillBackground(True)

        self.worker = Worker(self, max_threads=1)
        self.probe = Worker(self, max_threads=1)

        self.title = self._label(self.TITLE, "heading", bold=True, name="title")
        self.note = self._label(PLAIN_RUN_NOTE, "small", color="secondary",
                                name="plain_run_note", wrap=True)
        self.controls = self._build_controls()
        self.status = self._label(LOOKING, "body", name="status", wrap=True)
        first, results = self._build_record_page(), self._build_run_page()
        self.stack = QStackedWidget(self)
        self.stack.addWidget(first)
        self.stack.addWidget(results)

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
        self.size_box.currentIndexChanged.connect(self._show_record)
        self._update_intro(launch_order=False)
        self._show_record()
        self.set_style(self._style)
        self._update_controls()

    def _build_record_page(self) -> QWidget:
        """The first page: the record at the chosen size (where there is one), and the intro."""
        self.intro = self._label("", "body", name="intro", wrap=True)
        self.intro.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.recorded = RecordView(self._style, self)
        self.recorded.setObjectName("recorded")
        first = QWidget(self)
        first_column = QVBoxLayout(first)
        first_column.setContentsMargins(0, 0, 0, 0)
        first_column.addWidget(self.recorded)
        first_column.addWidget(self.intro)
        first_column.addStretch(1)
        return first

    def _build_run_page(self) -> QWidget:
        """The page of a run here: the plot, and the numbers below or beside it."""
        self.plot = LaunchTimesPlot(self._style, self)
        self.plot.setObjectName("plot")
        self.numbers_scroll = RunNumbers(self._style, self)
        self.numbers = self.numbers_scroll.numbers
        results = QWidget(self)
        self.body = QBoxLayout(QBoxLayout.Direction.TopToBottom, results)
        self.body.setContentsMargins(0, 0, 0, 0)
        self.body.addWidget(self.plot, 3)
        self.body.addWidget(self.numbers_scroll, 2)
        return results

    def _connect_jobs(self) -> None:
        """The run's and the look for a GPU's answers to their slots."""
        self.worker.done.connect(self._apply_result)
        self.worker.failed.connect(self._show_failure)
        self.worker.cancelled.connect(self._show_cancelled)
        self.worker.progress.connect(self._show_progress)
        self.worker.busy_changed.connect(self._update_controls)
        self.probe.done.connect(self._apply_device)
        self.probe.failed.connect(self._probe_failed)

    def _build_controls(self) -> QHBoxLayout:
        self.size_label = self._label("Size", "body", name="size_label")
        self.size_box = QComboBox(self)
        self.size_box.setObjectName("size")
        for dim in timing_sizes():
            self.size_box.addItem(size_text(dim), dim)
        self.size_box.setCurrentIndex(max(0, self.size_box.findData(DEFAULT_SIZE)))
        self.size_label.setBuddy(self.size_box)
        self.run_button = QPushButton(f"Run ({RUN_SHORTCUT})", self)
        self.run_button.setObjectName("run")
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setObjectName("cancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar(self)
        self.progress.setObjectName("progress")
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(True)
        self.progress.setFormat("%p%")
        self.record_button = QPushButton(SHOW_RECORD, self)
        self.record_button.setObjectName("record_toggle")
        self.record_button.clicked.connect(self.toggle_record)
        self.progress.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.run_action = QAction("Run kernel timing", self)
        self.run_action.setShortcut(QKeySequence(RUN_SHORTCUT))
        self.run_action.triggered.connect(lambda _checked=False: self.run())
        self.addAction(self.run_action)
        controls = QHBoxLayout()
        controls.addWidget(self.size_label)
        controls.addWidget(self.size_box)
        controls.addWidget(self.run_button)
        controls.addWidget(self.cancel_button)
        controls.addWidget(self.progress, 3)
        controls.addStretch(1)
        return controls

    # ------------------------------------------------------------------ public

    @property
    def dim(self) -> int:
        """The size the next run times."""
        return int(self.size_box.currentData())

    def set_dim(self, dim: int) -> None:
        index = self.size_box.findData(dim)
        if index < 0:
            raise ValueError(f"{dim} is not one of the sizes {timing_sizes()}")
        self.size_box.setCurrentIndex(index)

    @property
    def can_run(self) -> bool:
        return (self.device_check is not None and self.device_check.device is not None
                and not self.worker.busy)

    def check_device(self) -> None:
        """Look for a CUDA GPU off the GUI thread."""
        self._looked = True
        self.device_check = None
        self._set_status(LOOKING)
        self._update_controls()
        self.probe.submit(self._find_device)

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
        """Time both kernels at the chosen size; without a GPU, say so instead."""
        if self.worker.busy:
            return
        check = self.device_check
        if check is None or check.device is None:
            problem = check.problem if check is not None else None
            self._set_status(problem or LOOKING, "problem" if problem else "info")
            return
        self.progress.setValue(0)
        self._set_status(timing_now_text(self.dim, check.device))
        self.worker.submit(timed_or_unavailable, self._run_timing, self.dim)

    def cancel(self) -> None:
        self.worker.cancel()

    def show_result(self, result: TimingResult) -> None:
        """Display a timing result: the plot, the numbers, the device."""
        self.result = result
        self._label_launches()
        self.plot.show_timing(result)
        self.numbers_scroll.fill(result)
        self._place_numbers()
        self.stack.setCurrentIndex(RUN_PAGE)
        self._update_controls()

    @property
    def style_(self) -> Style:
        return self._style

    def set_style(self, style: Style) -> None:
        """Desk or projector scale."""
        self._style = style
        style.apply_palette(self)
        for label, role, color, bold in self._styled:
            self._paint(label, role, color, bold)
        self._paint_status()
        for widget in (self.size_box, self.run_button, self.cancel_button, self.progress,
                       self.record_button):
            widget.setFont(style.font("body"))
        button = f"padding: {style.px(4)}px {style.px(12)}px;"
        for widget in (self.run_button, self.cancel_button, self.record_button):
            widget.setStyleSheet(button)
        margin = style.px(10)
        self.outer.setContentsMargins(margin, margin, margin, margin)
        self.outer.setSpacing(style.px(6))
        self.controls.setSpacing(style.px(8))
        self.progress.setMaximumWidth(style.px(320))
        self.numbers_scroll.set_style(style)
        self.recorded.set_style(style)
        self.plot.set_style(style)
        if self.result is not None:
            self._label_launches()
        self.plot.setMinimumHeight(style.px(150))
        if self.result is not None:
            self.numbers_scroll.fill(self.result)
        self._place_numbers()

    def shutdown(self, msecs: int = 30_000) -> bool:
        """Cancel what runs and wait for the jobs to return (for closing the window)."""
        return self.probe.shutdown(msecs) and self.worker.shutdown(msecs)

    # ------------------------------------------------------------------ job results

    def _apply_device(self, check: DeviceCheck) -> None:
        self.device_check = check
        if check.device is not None:
            self._set_status(ready_text(check.device))
        else:
            self._set_status(check.problem or NEEDS_GPU, "problem")
        self._update_intro()
        self._update_controls()

    def _probe_failed(self, message: str) -> None:
        self._apply_device(DeviceCheck(problem=probe_failed_text(message)))

    def _apply_result(self, result: TimingResult | DeviceCheck) -> None:
        if isinstance(result, DeviceCheck):
            self._apply_device(result)
            return
        self.show_result(result)
        text, problem = timed_text(result)
        self._set_status(text, "problem" if problem else "info")

    def _show_failure(self, message: str) -> None:
        self._set_status(failed_text(message, self.result), "problem")

    def _show_cancelled(self) -> None:
        self._set_status(cancelled_text(self.result))

    def _show_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(round(fraction * 1000))
        device = self.device_check.device if self.device_check is not None else None
        if message and device:
            self._set_status(f"Timing on {device}: {message}")

    # ------------------------------------------------------------------ drawing

    def _update_controls(self, *_args: object) -> None:
        busy = self.worker.busy
        self.run_button.setEnabled(self.can_run)
        self.size_box.setEnabled(not busy)
        self.cancel_button.setEnabled(busy)
        self.progress.setVisible(busy)
        self.record_button.setVisible(self.result is not None and self.record is not None)
        self.record_button.setText(SHOW_RUN if self.showing_record else SHOW_RECORD)

    def _show_record(self, *_args: object) -> None:
        self.recorded.show_record(self.record, self.dim)
        self.recorded.setVisible(self.record is not None)

    def _update_intro(self, launch_order: bool = True) -> None:
        self.intro.setText(intro_text(launch_order))

    def _label_launches(self) -> None:
        """The x axis names the launch order, where there is room for it."""
        self.plot.set_x_label(X_LABEL if self._style.projector else launches_axis_text())

    def _place_numbers(self) -> None:
        self.numbers_scroll.fit_width()
        wide = self.width() >= SIDE_BY_SIDE_PX
        self.body.setDirection(QBoxLayout.Direction.LeftToRight if wide
                               else QBoxLayout.Direction.TopToBottom)
        self.body.setSpacing(self._style.px(16 if wide else 8))

    def _label(self, text: str, role: Role, *, bold: bool = False, color: str = "text",
               name: str = "", wrap: bool = False) -> QLabel:
        label = self._style.label(text, role, bold=bold, color=color, name=name, wrap=wrap,
                                  parent=self)
        self._styled.append((label, role, color, bold))
        return label

    def _paint(self, label: QLabel, role: Role, color: str, bold: bool) -> None:
        self._style.paint_label(label, role, bold=bold, color=color)

    def _set_status(self, text: str, kind: str = "info") -> None:
        self.status.setText(" ".join(text.split()))
        self.status_kind = kind
        self._paint_status()

    def _paint_status(self) -> None:
        problem = self.status_kind == "problem"
        self._paint(self.status, "body", "warning" if problem else "text", problem)

    # ------------------------------------------------------------------ events

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._looked:
            self.check_device()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place_numbers()
