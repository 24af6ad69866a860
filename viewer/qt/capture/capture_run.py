"""One capture, or two in a row, as a QProcess driven by signals: never a blocking wait in a slot.

The argv, the environment and every word come from viewer.capture.client (Route, Request), the
helper's stderr is read by its StderrLines, progress and failures are worded by its progress() and
explain(), and the report's bytes go into store.ReportSink as they arrive. Cancel closes the
helper's stdin (the helper then stops ncu's process group and exits 9); a helper that has not gone
after the client's grace period is killed (which fails, harmlessly, for one pkexec runs as root).
Once every report is committed, a job off the GUI thread reads each one for its GPU and writes its
provenance beside it; only then does `succeeded(paths)` fire.
"""

from __future__ import annotations

import contextlib
import html
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, QTimer, Signal

from viewer.capture import provenance
from viewer.capture.client import (
    CANCEL_GRACE_S,
    CANCELLED,
    CaptureCancelled,
    CaptureError,
    Request,
    RequestError,
    Route,
    StderrLines,
    progress,
    settle,
)
from viewer.capture.events import Event
from viewer.capture.store import ReportSink, SinkError, capture_stem, captures_dir
from viewer.core.jobs import Job
from viewer.core.model import ReportError
from viewer.qt.kit.workers import Worker

WAITING = {
    "pkexec": "Waiting for an administrator's password...",
    "direct": "Starting the capture helper...",
}


@dataclass(frozen=True)
class Captured:
    """A committed report and what made it: the request and the helper's `done` event; `claim`
    is its sidecar's name, taken empty when the report was committed."""

    path: Path
    request: Request
    done: dict
    claim: provenance.Claim | None = None


def record_provenance(captured: Sequence[Captured], route_kind: str, job: Job) -> list[Path]:
    """Read each new report for its GPU and write its provenance beside it (off the GUI thread).

    A report that cannot be read keeps a provenance without the GPU; the window says what is
    wrong with it when it opens it."""
    from viewer.readers import read_report

    for i, item in enumerate(captured):
        part = job.part(i / len(captured), (i + 1) / len(captured))
        try:
            kernels = read_report(item.path, part).kernels
        except ReportError:
            kernels = []
        request = item.request
        record = provenance.from_capture(
            request.target, int(request.dim), request.set, request.clock, route_kind,
            item.done, gpu=next((k.device_name for k in kernels if k.device_name), None))
        with contextlib.suppress(OSError):  # the report is kept even if its note cannot be
            provenance.write_provenance(item.path, record, item.claim)
    return [item.path for item in captured]


def provenance_html(sources: Sequence[str], letters: str, grey: str) -> str:
    """'<br>B: Captured here ...' for each shown report that has a provenance, else ''."""
    lines = []
    for letter, source in zip(letters, sources, strict=False):
        found = provenance.read_provenance(Path(source))
        if found is not None:
            tag = f"{letter}: " if letter.strip() else ""
            lines.append(f"<br><span style='color:{grey}'>{tag}"
                         f"{html.escape(provenance.describe(found))}</span>")
    return "".join(lines)


class CaptureRun(QObject):
    """Runs the requests one after another. Signals: `stage(words)`, `progress(fraction)`,
    `succeeded(paths)`, `failed(message)`, `cancelled()`, `running_changed(running)`."""

    stage = Signal(str)
    progress = Signal(float)
    succeeded = Signal(list)
    failed = Signal(str)
    cancelled = Signal()
    running_changed = Signal(bool)

    def __init__(self, route: Route, parent: QObject | None = None,
                 grace_ms: int = round(CANCEL_GRACE_S * 1000)) -> None:
        super().__init__(parent)
        self.route = route
        self.process: QProcess | None = None
        self.requests: list[Request] = []
        self.captured: list[Captured] = []
        self._index = 0
        self._sink: ReportSink | None = None
        self._lines = StderrLines()
        self._stopped: str | None = None  # CANCELLED, or why this side stopped the helper
        self._outcome: tuple[str, str] = ("", "")
        self._running = False
        self._kill_timer = QTimer(self)
        self._kill_timer.setSingleShot(True)
        self._kill_timer.setInterval(grace_ms)
        self._kill_timer.timeout.connect(self._kill)
        self.recorder = Worker(self, max_threads=1)
        self.recorder.done.connect(lambda _paths: self._emit_outcome())
        self.recorder.failed.connect(lambda _message: self._emit_outcome())

    @property
    def running(self) -> bool:
        """From start() until the outcome is signalled (provenance written)."""
        return self._running

    def start(self, requests: Sequence[Request]) -> None:
        """Capture each request in turn (naive then tiled for both)."""
        if self.running or not requests:
            return
        self.requests = list(requests)
        self.captured = []
        self._index = 0
        self._running = True
        self.running_changed.emit(True)
        self._start_next()

    def cancel(self) -> None:
        """Close the helper's stdin: it stops ncu and exits; kill it if it has not gone soon."""
        if self.process is not None and self._stopped is None:
            self._stop(CANCELLED)

    def shutdown(self, msecs: int = round(CANCEL_GRACE_S * 1000)) -> None:
        """The app is closing: stop the helper now, waiting (bounded) for it to clean up."""
        proc = self.process
        if proc is not None:
            self._stopped = self._stopped or CANCELLED
            proc.closeWriteChannel()
            if not proc.waitForFinished(msecs):
                proc.kill()
                proc.waitForFinished(1000)
        self.recorder.shutdown(msecs)

    # ------------------------------------------------------------------ one process

    def _start_next(self) -> None:
        request = self.requests[self._index]
        try:
            argv = self.route.argv(request)
            self._sink = ReportSink(captures_dir(), capture_stem(
                request.target, request.dim, request.set))
        except (CaptureError, RequestError, SinkError, OSError, ValueError) as exc:
            self._finish("failed", " ".join(str(exc).split()))
            return
        self._lines = StderrLines()
        self._stopped = None
        proc = QProcess(self)
        proc.setProgram(argv[0])
        proc.setArguments(argv[1:])
        if self.route.env:
            env = QProcessEnvironment.systemEnvironment()
            for name, value in self.route.env.items():
                env.insert(name, value)
            proc.setProcessEnvironment(env)
        proc.readyReadStandardOutput.connect(self._read_stdout)
        proc.readyReadStandardError.connect(self._read_stderr)
        proc.finished.connect(self._finished)
        proc.errorOccurred.connect(self._error)
        self.process = proc
        self._say(WAITING.get(self.route.kind, "Starting..."), 0.0)
        proc.start()  # stdin stays open: closing it is the cancel

    def _read_stdout(self) -> None:
        proc, sink = self.process, self._sink
        if proc is None or sink is None:
            return
        data = proc.readAllStandardOutput().data()
        if data and self._stopped is None:
            try:
                sink.write(data)
            except SinkError as exc:
                self._stop(str(exc))

    def _read_stderr(self) -> None:
        if self.process is not None:
            for event in self._lines.feed(self.process.readAllStandardError().data()):
                self._event(event)

    def _finished(self, code: int, status: QProcess.ExitStatus) -> None:
        proc, sink = self.process, self._sink
        if proc is None or sink is None:
            return
        self._read_stdout()
        self._read_stderr()
        for event in self._lines.close():
            self._event(event)
        self.process = None
        self._sink = None
        self._kill_timer.stop()
        proc.deleteLater()
        if status == QProcess.ExitStatus.CrashExit:
            code = -code if code > 0 else -9
        try:
            path, done = settle(code, self._stopped, self._lines, sink, self.route.kind)
        except CaptureError as exc:
            self._finish(CANCELLED if isinstance(exc, CaptureCancelled) else "failed", str(exc))
            return
        self.captured.append(Captured(path, self.requests[self._index], done, sink.claim))
        self._index += 1
        if self._index < len(self.requests):
            self._start_next()
        else:
            self._finish("succeeded", "")

    def _error(self, error: QProcess.ProcessError) -> None:
        """Only a failed start ends here (the other errors are followed by `finished`)."""
        proc = self.process
        if error != QProcess.ProcessError.FailedToStart or proc is None:
            return
        self.process = None
        if self._sink is not None:
            self._sink.abort()
            self._sink = None
        proc.deleteLater()
        self._finish("failed", f"Could not start {proc.program()}: {proc.errorString()}.")

    # ------------------------------------------------------------------ words and endings

    def _event(self, event: Event) -> None:
        found = progress(event)
        if found is not None:
            self._say(found[0], found[1])

    def _say(self, words: str, fraction: float | None) -> None:
        count = len(self.requests)
        if count > 1 and self._index < count:
            target = self.requests[self._index].target
            words = f"{target} ({self._index + 1} of {count}): {words}"
        self.stage.emit(words[:1].upper() + words[1:])
        if fraction is not None:
            self.progress.emit(min(1.0, (self._index + fraction) / max(1, count)))

    def _stop(self, why: str) -> None:
        self._stopped = why
        if self.process is not None:
            self.process.closeWriteChannel()
            self._kill_timer.start()

    def _kill(self) -> None:
        if self.process is not None:
            self.process.kill()

    def _finish(self, outcome: str, message: str) -> None:
        """Say how it ended, once the provenance of what was committed is written."""
        if self.captured and outcome != "succeeded":
            kept = ", ".join(str(c.path) for c in self.captured)
            message = f"{message.rstrip('.')}. Kept what finished: {kept}."
        self._outcome = (outcome, message)
        if self.captured:
            self._say("Reading the new report for its GPU...", None)
            self.recorder.submit(record_provenance, list(self.captured), self.route.kind)
        else:
            self._emit_outcome()

    def _emit_outcome(self) -> None:
        outcome, message = self._outcome
        self._running = False
        if outcome == "succeeded":
            self.succeeded.emit([c.path for c in self.captured])
        elif outcome == CANCELLED:
            self.stage.emit(message)
            self.cancelled.emit()
        else:
            self.failed.emit(message)
        self.running_changed.emit(False)
