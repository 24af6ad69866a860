"""Captures as a QProcess driven by signals, one process for each request (a request may hold
several reports: both kernels, a list of sizes, one run and one password): never a blocking wait
in a slot.

A thin driver of viewer.capture.run.HelperRun: the QProcess's output, its exit, the person's
cancel and a timer are told to the run, and what it answers is done here (the report's bytes into
store.ReportSink, the helper's stdin closed, a kill, progress words). The argv, the environment and
every word come from viewer.capture (Route, Request, explain, progress). Once every report is
committed, a job off the GUI thread reads each one for its GPU and writes its provenance beside it
(settle.record_provenance, as the terminal does); only then does `succeeded(captured)` fire, with
each report already read, so the window need not read it again.
"""

from __future__ import annotations

import html
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, QProcessEnvironment, QTimer, Signal

from viewer.capture import provenance
from viewer.capture.client import (
    CANCEL_GRACE_S,
    CANCELLED,
    CaptureError,
    PartlyKept,
    Request,
    RequestError,
    Route,
    cancelled,
    record_provenance,
    settle_all,
)
from viewer.capture.helper.protocol import MAX_REPORT_BYTES
from viewer.capture.run import Action, CloseStdin, Finished, HelperRun, Kill, Progress, Write
from viewer.capture.store import ReportSink, SinkError, capture_stem, open_captures
from viewer.core.jobs import Job
from viewer.core.model import Report
from viewer.qt.kit.workers import Worker

WAITING = {
    "pkexec": "Waiting for an administrator's password...",
    "direct": "Starting the capture helper...",
}


@dataclass(frozen=True)
class Captured:
    """A committed report and what made it: the request and the helper's `done` event; `claim`
    is its sidecar's name, taken empty when the report was committed; `report` is the report as
    read for its provenance (None until then, or where it cannot be read)."""

    path: Path
    request: Request
    done: dict[str, object]
    claim: provenance.Claim | None = None
    report: Report | None = None


def record_captured(captured: Sequence[Captured], route_kind: str, job: Job) -> list[Captured]:
    """Read each new report for its GPU and write its provenance beside it (off the GUI thread);
    returns them with the reports read.

    A report that cannot be read keeps a provenance without the GPU; the window says what is
    wrong with it when it opens it."""
    read = []
    for i, item in enumerate(captured):
        part = job.part(i / len(captured), (i + 1) / len(captured))
        report = record_provenance(item.path, item.request, route_kind, item.done, item.claim,
                                   part)
        read.append(replace(item, report=report))
    return read


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
    `succeeded(captured)` (a list of Captured, each with its report read), `failed(message)`,
    `cancelled()`, `running_changed(running)`."""

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
        self._run: HelperRun | None = None  # the helper now running, told what happens to it
        self._grace_s = grace_ms / 1000
        self._outcome: tuple[str, str] = ("", "")
        self._running = False
        self._timer = QTimer(self)  # wakes the run at its deadline (the kill after the grace)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._tick)
        self.recorder = Worker(self, max_threads=1)
        self.recorder.done.connect(self._recorded)
        self.recorder.failed.connect(lambda _message: self._emit_outcome())

    @property
    def running(self) -> bool:
        """From start() until the outcome is signalled (provenance written)."""
        return self._running

    def start(self, requests: Sequence[Request]) -> None:
        """Run each request in turn, each in one run of the helper."""
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
        if self._run is not None:
            self._act(self._run.stop(CANCELLED, time.monotonic()))

    def shutdown(self, msecs: int = round(CANCEL_GRACE_S * 1000)) -> None:
        """The app is closing: stop the helper now, waiting (bounded) for it to clean up."""
        proc, run = self.process, self._run
        if proc is not None and run is not None:
            self._act(run.stop(CANCELLED, time.monotonic()))  # closes stdin, if not yet
            if not proc.waitForFinished(msecs):
                proc.kill()
                proc.waitForFinished(1000)
        self.recorder.shutdown(msecs)

    # ------------------------------------------------------------------ one process

    def _start_next(self) -> None:
        request = self.requests[self._index]
        try:
            argv = self.route.argv(request)
            self._sink = ReportSink(open_captures(), capture_stem(
                request.target, request.dim, request.set),
                cap=MAX_REPORT_BYTES * len(request.reports()))
        except (CaptureError, RequestError, SinkError, OSError, ValueError) as exc:
            self._finish("failed", " ".join(str(exc).split()))
            return
        self._run = HelperRun(self.route.kind, self._grace_s)
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
        if self.process is not None and self._run is not None:
            self._act(self._run.out(bytes(self.process.readAllStandardOutput().data())))

    def _read_stderr(self) -> None:
        if self.process is not None and self._run is not None:
            self._act(self._run.err(bytes(self.process.readAllStandardError().data())))

    def _finished(self, code: int, status: QProcess.ExitStatus) -> None:
        run = self._run
        if self.process is None or run is None:
            return
        self._read_stdout()
        self._read_stderr()
        self._act(run.out_closed())
        self._act(run.err_closed())
        if status == QProcess.ExitStatus.CrashExit:  # `code` is then the signal, if any
            self._act(run.exited(signal=code if code > 0 else 9))
        else:
            self._act(run.exited(code))

    def _error(self, error: QProcess.ProcessError) -> None:
        """Only a failed start ends here (the other errors are followed by `finished`)."""
        proc, run = self.process, self._run
        if error != QProcess.ProcessError.FailedToStart or proc is None or run is None:
            return
        self._act(run.failed_to_start(proc.program(), proc.errorString()))

    def _tick(self) -> None:
        if self._run is not None:
            self._act(self._run.tick(time.monotonic()))

    def _act(self, actions: list[Action]) -> None:
        """Do what the run answered, then wake it again at its deadline."""
        for action in actions:
            match action:
                case Write(data):
                    self._write(data)
                case CloseStdin():
                    if self.process is not None:
                        self.process.closeWriteChannel()
                case Kill():
                    if self.process is not None:
                        self.process.kill()
                case Progress(words, fraction):
                    self._say(words, fraction)
                case Finished():
                    self._ended(action)
        deadline = self._run.deadline if self._run is not None else None
        if deadline is None:
            self._timer.stop()
        elif not self._timer.isActive():
            self._timer.start(max(0, math.ceil((deadline - time.monotonic()) * 1000)))

    def _write(self, data: bytes) -> None:
        if self._sink is None or self._run is None:
            return
        try:
            self._sink.write(data)
        except SinkError as exc:
            self._act(self._run.stop(str(exc), time.monotonic()))

    def _ended(self, finished: Finished) -> None:
        """The helper is gone: keep its report, or say why not, then start the next one."""
        proc, sink = self.process, self._sink
        self.process, self._sink, self._run = None, None, None
        self._timer.stop()
        if proc is not None:
            proc.deleteLater()
        if sink is None:
            return
        try:
            kept = settle_all(finished, sink, self.requests[self._index])
        except CaptureError as exc:
            if isinstance(exc, PartlyKept):
                self.captured += [Captured(k.path, k.request, k.done, k.claim) for k in exc.kept]
            self._finish(CANCELLED if cancelled(exc) else "failed", str(exc))
            return
        self.captured += [Captured(k.path, k.request, k.done, k.claim) for k in kept]
        self._index += 1
        if self._index < len(self.requests):
            self._start_next()
        else:
            self._finish("succeeded", "")

    # ------------------------------------------------------------------ words and endings

    def _say(self, words: str, fraction: float | None) -> None:
        count = len(self.requests)
        step = self._run.step if self._run is not None else None
        if step is not None and step.count > 1:
            words = f"{step.target} at {step.dim} ({step.index + 1} of {step.count}): {words}"
        elif count > 1 and self._index < count:
            target = self.requests[self._index].target
            words = f"{target} ({self._index + 1} of {count}): {words}"
        self.stage.emit(words[:1].upper() + words[1:])
        if fraction is not None:
            self.progress.emit(min(1.0, (self._index + fraction) / max(1, count)))

    def _finish(self, outcome: str, message: str) -> None:
        """Say how it ended, once the provenance of what was committed is written."""
        if self.captured and outcome != "succeeded":
            kept = ", ".join(str(c.path) for c in self.captured)
            message = f"{message.rstrip('.')}. Kept what finished: {kept}."
        self._outcome = (outcome, message)
        if self.captured:
            self._say("Reading the new report for its GPU...", None)
            self.recorder.submit(record_captured, list(self.captured), self.route.kind)
        else:
            self._emit_outcome()

    def _recorded(self, captured: list[Captured]) -> None:
        self.captured = captured
        self._emit_outcome()

    def _emit_outcome(self) -> None:
        outcome, message = self._outcome
        self._running = False
        if outcome == "succeeded":
            self.succeeded.emit(list(self.captured))
        elif outcome == CANCELLED:
            self.stage.emit(message)
            self.cancelled.emit()
        else:
            self.failed.emit(message)
        self.running_changed.emit(False)
