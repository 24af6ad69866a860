"""The Capture dialog: which kernel, what sizes (one, or a list captured in one run with one
password: viewer.qt.kit.sizes_edit), which section set, which clocks; then progress, Cancel,
and one line when it fails.

The route (viewer.capture.client.choose_route) is said in a sentence at the top; without one the
sentence says why and Capture stays disabled. The run itself is
viewer.qt.capture.capture_run.CaptureRun; on success the dialog closes and `open_capture`
(viewer.qt.shell.capture_open) opens the new reports beside what is on screen, as the run read
them (nothing is read again). Enter starts,
Esc cancels a run (or closes the dialog when nothing runs). "Check this machine" shows the
check-up (viewer.capture.checkup, run off the GUI thread): the route a capture would take, then
each part of it, what was seen and what to do, in the terminal's own lines; without a route it is
shown as the dialog opens. The dialog grows to show it whole, within the window it opens over
(viewer.qt.kit.dialog_room); beyond that everything above the buttons scrolls as one page, never
the check-up in a box of its own.
"""

from __future__ import annotations

import html
import sys
from collections.abc import Callable, Sequence

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from viewer.capture.checkup import Finding, checkup, finding_lines
from viewer.capture.client import Request, Route
from viewer.capture.helper.protocol import BOTH, CLOCKS, SETS
from viewer.core.jobs import Job
from viewer.core.terminal_text import visible
from viewer.qt.capture.capture_run import Captured, CaptureRun
from viewer.qt.kit.dialog_room import dialog_room, fit_dialog
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.sizes_edit import SizesEdit
from viewer.qt.kit.style import Style
from viewer.qt.kit.workers import Worker

DESK_WIDTH, PROJECTOR_WIDTH = 600, 960  # the projector's fits a 1024-wide screen
SHORTCUT = "Ctrl+Shift+C"

ROUTE_TEXT = {
    "direct": "Runs ncu as you: this driver lets every user read counters.",
    "pkexec": "Asks for an administrator's password (pkexec), then runs ncu as root.",
}
KERNELS = {"naive": "naive", "tiled": "tiled", "both (one report each)": BOTH}
CLOCK_TEXT = ("base locks the GPU's clocks at their base value, so two captures compare; "
              "none leaves them alone, for machines that refuse to lock them.")


def route_sentence(route: Route) -> str:
    """The route in a sentence; root running the installed helper (a direct route with no
    interpreter before it) and no route at all are said in the client's own words."""
    if route.kind == "direct" and not route.prefix:
        return route.reason
    return ROUTE_TEXT.get(route.kind) or route.reason


def checkup_html(findings: Sequence[Finding], style: Style) -> str:
    """The findings as the dialog shows them: the terminal's lines (finding_lines), a finding's
    own in its tint (the warning's where it is missing), its fix below in the secondary tint."""
    c = style.colors
    rows = []
    for f in findings:
        first, *rest = (html.escape(visible(line)) for line in finding_lines(f))
        fix = "".join(f"<br><span style='color: {c.secondary};'>{line}</span>" for line in rest)
        tint = c.text if f.ok else c.warning
        rows.append(f"<p style='white-space: pre-wrap;'><b style='color: {tint};'>{first}</b>"
                    f"{fix}</p>")
    return "".join(rows)


def _checkup_job(run_checkup: Callable[[], list[Finding]], job: Job) -> list[Finding]:
    return run_checkup()


class CaptureDialog(QDialog):
    """Choose and run a capture. `captured(captured)` carries the new reports (a list of
    Captured), naive first. `run_checkup` is the check-up it runs off the GUI thread."""

    captured = Signal(list)

    def __init__(self, route: Route, style: Style | None = None,
                 parent: QWidget | None = None, *,
                 run_checkup: Callable[[], list[Finding]] = checkup) -> None:
        super().__init__(parent)
        self.setWindowTitle("Capture - ncu-reader")
        self.setModal(True)
        self.route = route
        self.message = ""
        self.findings: list[Finding] | None = None
        self._style = style or Style()
        self._run_checkup = run_checkup
        self.checker = Worker(self, max_threads=1)
        self.run = CaptureRun(route, self)
        self._ask_parts()
        self._run_parts()
        self._button_parts()
        self._lay_out()
        self._connect_run()
        self._update()
        self.set_style(self._style)
        if route.kind == "none":
            self.check()

    # ------------------------------------------------------------------ its parts

    def _ask_parts(self) -> None:
        """The route's sentence and the form: kernel, size, section set, clocks."""
        self.route_text = plain_label(route_sentence(self.route), self)
        self.route_text.setObjectName("route")
        self.route_text.setWordWrap(True)
        self.kernel = QComboBox(self)
        self.kernel.addItems(list(KERNELS))
        self.dim = SizesEdit(self)
        self.set_box = QComboBox(self)
        self.set_box.addItems(list(SETS))
        self.set_box.setCurrentText("full")
        self.clock = QComboBox(self)
        self.clock.addItems(list(CLOCKS))
        self.clock.setCurrentText("base")
        self.clock_text = plain_label(CLOCK_TEXT, self)
        self.clock_text.setObjectName("clock_text")
        self.clock_text.setWordWrap(True)
        self.form = form = QFormLayout()
        form.addRow("&Kernel", self.kernel)
        form.addRow("&Sizes N (N x N)", self.dim)
        form.addRow("Section s&et", self.set_box)
        form.addRow("C&lock control", self.clock)
        form.addRow("", self.clock_text)

    def _run_parts(self) -> None:
        """What a run shows: its stage, its progress, the line it fails with, the check-up."""
        self.stage = plain_label("", self)
        self.stage.setObjectName("stage")
        self.stage.setWordWrap(True)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 1000)
        self.error = plain_label("", self)
        self.error.setObjectName("error")
        self.error.setWordWrap(True)
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.checkup_text = QLabel("", self)
        self.checkup_text.setObjectName("checkup")
        self.checkup_text.setWordWrap(True)
        self.checkup_text.setTextFormat(Qt.TextFormat.RichText)
        self.checkup_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.checkup_text.hide()

    def _button_parts(self) -> None:
        """Check this machine, Capture (the default) and Close."""
        self.buttons = QDialogButtonBox(self)
        self.capture_button = QPushButton("Capture", self)
        self.capture_button.setDefault(True)
        self.close_button = QPushButton("Close", self)
        self.close_button.setAutoDefault(False)
        self.check_button = QPushButton("Check this &machine", self)
        self.check_button.setObjectName("check")
        self.check_button.setAutoDefault(False)
        self.buttons.addButton(self.check_button, QDialogButtonBox.ButtonRole.HelpRole)
        self.check_button.clicked.connect(self.check)
        self.buttons.addButton(self.capture_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(self.close_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.capture_button.clicked.connect(self.start)
        self.close_button.clicked.connect(self.reject)

    def _lay_out(self) -> None:
        """Everything but the buttons on one `page`, scrolled where the window's room ends."""
        self.page = QWidget()
        self.page.setObjectName("capture_page")
        self.column = layout = QVBoxLayout(self.page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.route_text)
        layout.addLayout(self.form)
        layout.addWidget(self.stage)
        layout.addWidget(self.progress)
        layout.addWidget(self.error)
        layout.addWidget(self.checkup_text)
        layout.addStretch(1)
        self.page_scroll = QScrollArea(self)
        self.page_scroll.setObjectName("page_scroll")
        self.page_scroll.setWidgetResizable(True)
        self.page_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.page_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.page_scroll.setWidget(self.page)
        self.outer = QVBoxLayout(self)
        self.outer.addWidget(self.page_scroll, 1)
        self.outer.addWidget(self.buttons)

    def _connect_run(self) -> None:
        """The run's and the check-up's signals to what the dialog shows."""
        self.run.stage.connect(self.stage.setText)
        self.run.progress.connect(lambda f: self.progress.setValue(round(f * 1000)))
        self.run.succeeded.connect(self._succeeded)
        self.run.failed.connect(self._failed)
        self.run.cancelled.connect(self._cancelled)
        self.run.running_changed.connect(self._update)
        self.checker.done.connect(self._show_checkup)
        self.checker.failed.connect(self._checkup_failed)

    # ------------------------------------------------------------------ what is asked

    @property
    def can_capture(self) -> bool:
        return self.route.kind != "none" and not self.run.running

    def requests(self) -> list[Request]:
        """The one request: the kernel or both, at each size listed, in one run of the helper."""
        return [Request(KERNELS[self.kernel.currentText()], self.dim.text(),
                        self.set_box.currentText(), self.clock.currentText())]

    def start(self) -> None:
        """Validate and start the capture (Enter)."""
        if not self.can_capture:
            return
        self.dim.interpretText()
        requests = self.requests()
        try:
            for request in requests:
                request.validate()
        except ValueError as exc:
            self._failed(" ".join(str(exc).split()))
            return
        self.message = ""
        self.error.hide()
        self.progress.setValue(0)
        self.run.start(requests)

    def cancel(self) -> None:
        self.run.cancel()

    def check(self) -> None:
        """Run the check-up off the GUI thread; its findings replace those shown."""
        self.check_button.setEnabled(False)
        self.checkup_text.setText("Checking this machine...")
        self.checkup_text.show()
        self._fit()
        self.checker.submit(_checkup_job, self._run_checkup)

    def shutdown(self) -> None:
        """Stop a run now (the window is closing)."""
        self.run.shutdown()
        self.checker.shutdown()

    # ------------------------------------------------------------------ outcomes

    def _succeeded(self, captured: list[Captured]) -> None:
        self.stage.setText("Captured: " + ", ".join(c.path.name for c in captured))
        self.captured.emit(list(captured))
        self.accept()

    def _failed(self, message: str) -> None:
        self.message = message
        print(visible(f"ncu-reader: {message}"), file=sys.stderr)
        self.error.setText(message)
        self.error.show()
        self.stage.setText("")

    def _show_checkup(self, findings: list[Finding]) -> None:
        self.findings = list(findings)
        self.checkup_text.setText(checkup_html(self.findings, self._style))
        self.check_button.setEnabled(True)
        self._fit()

    def _checkup_failed(self, message: str) -> None:
        self.checkup_text.setText(html.escape(f"The check-up failed: {message}"))
        self.check_button.setEnabled(True)
        self._fit()

    def _cancelled(self) -> None:
        self.progress.setValue(0)

    def _update(self, *_args: object) -> None:
        running = self.run.running
        self.capture_button.setEnabled(self.can_capture)
        self.close_button.setText("Cancel" if running else "Close")
        for box in (self.kernel, self.dim, self.set_box, self.clock):
            box.setEnabled(not running and self.route.kind != "none")
        self.progress.setVisible(running)
        self.stage.setVisible(running or bool(self.stage.text()))
        self.error.setVisible(bool(self.message) and not running)
        self._fit()

    # ------------------------------------------------------------------ look and keys

    def set_style(self, style: Style) -> None:
        """Desk or projector scale: the window's own Style."""
        c = style.colors
        self._style = style
        self.setFont(style.font("body"))
        # Fonts of single labels go in the sheet too: a label's own setFont does not survive a
        # style sheet that matches it.
        self.setStyleSheet(
            f"QDialog {{ background: {c.background}; }} QLabel {{ color: {c.text}; }}"
            f" QPushButton {{ padding: {style.px(4)}px {style.px(14)}px; }}"
            f" #route {{ font-weight: bold; }}"
            f" #page_scroll, #capture_page {{ background: {c.background}; }}"
            f" #clock_text {{ color: {c.secondary}; font-size: {style.points('small')}pt; }}"
            f" #error {{ color: {c.warning}; font-weight: bold; }}")
        margin = style.px(14)
        self.outer.setContentsMargins(margin, margin, margin, margin)
        self.outer.setSpacing(style.px(8))
        self.column.setSpacing(style.px(8))
        self.form.setHorizontalSpacing(style.px(12))
        self.form.setVerticalSpacing(style.px(6))
        room = dialog_room(self.parentWidget())
        self.setMinimumWidth(min(PROJECTOR_WIDTH if style.projector else DESK_WIDTH,
                                 room.width()))
        if self.findings is not None:
            self.checkup_text.setText(checkup_html(self.findings, style))
        self._fit()

    def _fit(self) -> None:
        """Grow to show every wrapped line (a long error, the route's reason, the check-up),
        within the window's room; the page scrolls beyond it."""
        self.column.activate()
        width = max(self.width(), self.minimumWidth())
        margins = self.outer.contentsMargins()
        inner = width - margins.left() - margins.right()
        bar = self.page_scroll.verticalScrollBar().sizeHint().width()
        page = self.page.heightForWidth(inner - bar)
        wanted = (max(page, self.page.minimumSizeHint().height()) + self.buttons.sizeHint().height()
                  + self.outer.spacing() + margins.top() + margins.bottom())
        if wanted > self.height() or width > self.width():
            fit_dialog(self, QSize(width, max(wanted, self.height())), self.parentWidget())

    def reject(self) -> None:
        """Esc or Cancel: stop a run; with none running, close."""
        if self.run.running:
            self.cancel()
        else:
            super().reject()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.run.running:
            self.cancel()
            event.ignore()
            return
        super().closeEvent(event)
