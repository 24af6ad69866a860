"""Kernel timing: both matmuls through the lesson's launch order on this machine's GPU.

The panel picks a size, runs the timing (viewer.kernels.runner.time_kernels by default) off the
GUI thread on a viewer.qt.kit.workers.Worker, and shows each kernel's timed launches, their medians,
the ratio of the medians and numba's dispatch overhead, measured apart. The worker runs one job at
a time, so the last launch of a cancelled run never overlaps the next run on the GPU. Before it
offers Run, the panel asks, also off the GUI thread, whether numba can reach a CUDA GPU; without
one it says so in one line. numba is imported by those jobs, not when this module is imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
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
    DeviceCheck,
    check_text,
    device_text,
    dispatch_text,
    find_device,
    launch_order_text,
    launches_axis_text,
    queue_warning,
    ratio_text,
    size_text,
    time_kernels,
    timed_or_unavailable,
    timing_sizes,
)
from viewer.core import formatting as fmt
from viewer.core.jobs import Job
from viewer.qt.kit.reading_tab import WrappedColumn
from viewer.qt.kit.style import Role, Style
from viewer.qt.kit.workers import Worker
from viewer.qt.views.timing.timing_plot import X_LABEL, LaunchTimesPlot, kernel_color

if TYPE_CHECKING:
    from viewer.kernels.runner import TimingResult

RUN_SHORTCUT = "Ctrl+R"

# At or above this width in pixels, the numbers sit beside the plot rather than below it.
SIDE_BY_SIDE_PX = 1000


_COLUMNS = ("kernel", "median", "min", "max", "GFLOP/s", "check")
_DESK_ONLY = ("min", "max")  # the plot shows them; a projected table keeps to the medians
_LEFT, _RIGHT = Qt.AlignmentFlag.AlignLeft, Qt.AlignmentFlag.AlignRight
_ALIGN = (_LEFT, _RIGHT, _RIGHT, _RIGHT, _RIGHT, _LEFT)


def _cell_name(column: str, kernel: str) -> str:
    return f"{column.replace('/', '_')}_{kernel}"


class TimingPanel(QWidget):
    """Size, Run (Ctrl+R) and Cancel; the timed launches plotted and their medians in numbers.

    `run_timing(dim, job) -> TimingResult` and `find_device(job) -> DeviceCheck` are the plain
    functions it runs off the GUI thread. The look for a GPU starts when the panel is first
    shown (or at `check_device()`).
    """

    TITLE = "Kernel timing"

    def __init__(self, style: Style | None = None, parent: QWidget | None = None, *,
                 run_timing: Callable[[int, Job], TimingResult] = time_kernels,
                 find_device: Callable[[Job], DeviceCheck] = find_device) -> None:
        super().__init__(parent)
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
        self.intro = self._label("", "body", name="intro", wrap=True)
        self.intro.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)

        self.plot = LaunchTimesPlot(self._style, self)
        self.plot.setObjectName("plot")
        self.numbers_scroll = self._build_numbers()
        results = QWidget(self)
        self.body = QBoxLayout(QBoxLayout.Direction.TopToBottom, results)
        self.body.setContentsMargins(0, 0, 0, 0)
        self.body.addWidget(self.plot, 3)
        self.body.addWidget(self.numbers_scroll, 2)

        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.intro)
        self.stack.addWidget(results)

        self.outer = layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.note)
        layout.addLayout(self.controls)
        layout.addWidget(self.status)
        layout.addWidget(self.stack, 1)

        self.worker.done.connect(self._apply_result)
        self.worker.failed.connect(self._show_failure)
        self.worker.cancelled.connect(self._show_cancelled)
        self.worker.progress.connect(self._show_progress)
        self.worker.busy_changed.connect(self._update_controls)
        self.probe.done.connect(self._apply_device)
        self.probe.failed.connect(self._probe_failed)
        self._update_intro(launch_order=False)
        self.set_style(self._style)
        self._update_controls()

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

    def _build_numbers(self) -> QScrollArea:
        numbers = WrappedColumn()
        numbers.setObjectName("numbers")
        self.numbers = numbers
        self.device = self._label("", "body", bold=True, name="device", wrap=True)
        self.grid = QGridLayout()
        self.headers = {text: self._label(text, "small", bold=True, color="secondary")
                        for text in _COLUMNS}
        for index, header in enumerate(self.headers.values()):
            header.setAlignment(_ALIGN[index] | Qt.AlignmentFlag.AlignBottom)
            self.grid.addWidget(header, 0, index)
        self.grid.setColumnStretch(len(_COLUMNS) - 1, 1)
        self.rows: dict[str, dict[str, QLabel]] = {}
        self.ratio_caption = self._label("Ratio of the median launch times", "small",
                                         color="secondary", name="ratio_caption")
        self.ratio = self._label("", "headline", bold=True, name="ratio", wrap=True)
        self.dispatch = self._label("", "body", name="dispatch", wrap=True)
        self.warnings = self._label("", "body", bold=True, color="warning", name="warnings",
                                    wrap=True)
        self.order = self._label("", "small", color="secondary", name="launch_order", wrap=True)
        self.numbers_column = column = QVBoxLayout(numbers)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.device)
        column.addLayout(self.grid)
        column.addWidget(self.ratio_caption)
        column.addWidget(self.ratio)
        column.addWidget(self.dispatch)
        column.addWidget(self.warnings)
        column.addWidget(self.order)
        column.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setObjectName("numbers_scroll")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(numbers)
        return scroll

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
        self._set_status(f"Timing both kernels at {size_text(self.dim)} on {check.device}...")
        self.worker.submit(timed_or_unavailable, self._run_timing, self.dim)

    def cancel(self) -> None:
        self.worker.cancel()

    def show_result(self, result: TimingResult) -> None:
        """Display a timing result: the plot, the numbers, the device."""
        self.result = result
        self._label_launches()
        self.plot.show_timing(result)
        self._fill_numbers()
        self._place_numbers()
        self.stack.setCurrentIndex(1)

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
        for widget in (self.size_box, self.run_button, self.cancel_button, self.progress):
            widget.setFont(style.font("body"))
        button = f"padding: {style.px(4)}px {style.px(12)}px;"
        self.run_button.setStyleSheet(button)
        self.cancel_button.setStyleSheet(button)
        margin = style.px(10)
        self.outer.setContentsMargins(margin, margin, margin, margin)
        self.outer.setSpacing(style.px(6))
        self.controls.setSpacing(style.px(8))
        self.progress.setMaximumWidth(style.px(320))
        self.numbers_column.setSpacing(style.px(6))
        self.grid.setHorizontalSpacing(style.px(16))
        self.grid.setVerticalSpacing(style.px(4))
        for name in _DESK_ONLY:
            self.headers[name].setVisible(not style.projector)
        self.plot.set_style(style)
        if self.result is not None:
            self._label_launches()
        self.plot.setMinimumHeight(style.px(150))
        if self.result is not None:
            self._fill_numbers()
        self._place_numbers()

    def shutdown(self, msecs: int = 30_000) -> bool:
        """Cancel what runs and wait for the jobs to return (for closing the window)."""
        return self.probe.shutdown(msecs) and self.worker.shutdown(msecs)

    # ------------------------------------------------------------------ job results

    def _apply_device(self, check: DeviceCheck) -> None:
        self.device_check = check
        if check.device is not None:
            self._set_status(f"Ready to time on {check.device}.")
        else:
            self._set_status(check.problem or NEEDS_GPU, "problem")
        self._update_intro()
        self._update_controls()

    def _probe_failed(self, message: str) -> None:
        self._apply_device(DeviceCheck(
            problem=f"No timing here: looking for a GPU failed ({message}). {NEEDS_GPU}"))

    def _apply_result(self, result: TimingResult | DeviceCheck) -> None:
        if isinstance(result, DeviceCheck):
            self._apply_device(result)
            return
        self.show_result(result)
        failed = [k.kernel for k in result.kernels if not k.passed]
        if failed:
            self._set_status(f"Timed at {size_text(result.dim)}, but {' and '.join(failed)} "
                             "computed a wrong product: see the check column.", "problem")
        else:
            self._set_status(f"Timed both kernels at {size_text(result.dim)}.")

    def _still_shown(self) -> str:
        if self.result is None:
            return ""
        return f" The plot still shows the run at {size_text(self.result.dim)}."

    def _show_failure(self, message: str) -> None:
        self._set_status(f"Timing failed: {message.rstrip('.')}.{self._still_shown()}", "problem")

    def _show_cancelled(self) -> None:
        self._set_status(f"Cancelled.{self._still_shown()}")

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

    def _update_intro(self, launch_order: bool = True) -> None:
        order = f" {launch_order_text()}" if launch_order else ""
        self.intro.setText(
            "Run times the naive and tiled matmuls at the chosen size on this machine's GPU."
            f"{order} Each timed launch waits behind a hold kernel, so the events time the kernel "
            "and not numba's dispatch, which is measured on the same launches and shown apart.")

    def _fill_numbers(self) -> None:
        result = self.result
        if result is None:
            return
        style = self._style
        for cells in self.rows.values():
            for label in cells.values():
                self.grid.removeWidget(label)
                label.setParent(None)  # out of findChild's reach at once
                label.deleteLater()
        self.rows = {}
        for row, timing in enumerate(result.kernels, 1):
            ms = fmt.milliseconds
            texts = (timing.kernel, ms(timing.median_ms), ms(min(timing.launches_ms)),
                     ms(max(timing.launches_ms)), f"{timing.gflops():,.0f}", check_text(timing))
            cells = {}
            for column, (name, text) in enumerate(zip(_COLUMNS, texts, strict=True)):
                label = QLabel(text, self.numbers)
                label.setObjectName(_cell_name(name, timing.kernel))
                label.setFont(style.font("body", bold=name in ("kernel", "median")))
                tint = style.colors.text
                if name == "kernel":
                    tint = kernel_color(style, row - 1).name()
                elif name == "check" and not timing.passed:
                    tint = style.colors.warning
                label.setStyleSheet(f"color: {tint};")
                label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                label.setAlignment(_ALIGN[column] | Qt.AlignmentFlag.AlignVCenter)
                label.setVisible(not (style.projector and name in _DESK_ONLY))
                self.grid.addWidget(label, row, column)
                cells[name] = label
            self.rows[timing.kernel] = cells
        self.device.setText(device_text(result))
        ratio = ratio_text(result)
        self.ratio.setText(ratio)
        self.ratio.setVisible(bool(ratio))
        self.ratio_caption.setVisible(bool(ratio))
        self.dispatch.setText(dispatch_text(result))
        warnings = " ".join(w for w in (queue_warning(k) for k in result.kernels) if w)
        self.warnings.setText(warnings)
        self.warnings.setVisible(bool(warnings))
        self.order.setText(launch_order_text())

    def _label_launches(self) -> None:
        """The x axis names the launch order, where there is room for it."""
        self.plot.set_x_label(X_LABEL if self._style.projector else launches_axis_text())

    def _place_numbers(self) -> None:
        self.numbers_column.activate()
        bar = self.numbers_scroll.verticalScrollBar().sizeHint().width()
        self.numbers_scroll.setMinimumWidth(self.numbers.minimumSizeHint().width() + bar)
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
