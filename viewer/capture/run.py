"""One run of the capture helper as a plain state machine: told what happened, it says what to do.

No I/O, no threads, no Qt, no clock: a driver (viewer.capture.client for the terminal,
viewer.qt.capture.capture_run for the window) reads the helper's pipes and its exit, tells the run
each thing as it happens, and carries out the actions it answers.

The helper's protocol (viewer/capture/helper/protocol.py): stdout carries the report's bytes and
nothing else, stderr JSON lines (`started`, `ncu`, `done`, `error`); its exit code is one of its
EXIT_* (126 and 127 are pkexec's own). A stop (the person cancels, or the sink refuses a chunk)
closes the helper's stdin, which is the cancel it listens for, and drops every report byte after
it; a helper still there a grace period later is killed, and again every grace period after (a kill
fails, harmlessly, for a helper that pkexec runs as root). The run ends once stdout and stderr have
closed and the exit is known: `Finished` holds the helper's `done` event, or the one failure to
report, and the reports the helper said it sent whole (`sent`), so that a run of several that
fails part way can keep those (viewer.capture.settle.settle_all).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from viewer.capture.events import Event, StderrLines, explain, progress
from viewer.capture.helper import protocol as h
from viewer.core.jobs import Cancelled

CANCEL_GRACE_S = h.KILL_GRACE_S + 10.0
"""After closing the helper's stdin, how long to wait for it before killing it."""
CANCELLED = "cancelled"
"""Why a run stopped when the person cancelled it (any other reason is a sentence)."""


class CaptureError(Exception):
    """A capture that failed; the text is one message for a person."""

    def __init__(self, message: str, exit_code: int | None = None) -> None:
        super().__init__(message)
        self.exit_code = exit_code


class CaptureCancelled(CaptureError, Cancelled):
    """The capture was cancelled (ncu stopped, nothing saved)."""


# ---------------------------------------------------------------------- what the run answers


@dataclass(frozen=True)
class Write:
    """Append these report bytes to the sink."""

    data: bytes


@dataclass(frozen=True)
class CloseStdin:
    """Close the helper's stdin: the helper stops ncu's process group and exits 9."""


@dataclass(frozen=True)
class Kill:
    """Kill the helper: it outlived the grace period after its stdin was closed."""


@dataclass(frozen=True)
class Progress:
    """Words for a running capture and, where known, the fraction done (0..1)."""

    words: str
    fraction: float | None


@dataclass(frozen=True)
class Step:
    """The helper started report `index` of the `count` in its run: `target` at `dim`."""

    target: str
    dim: int
    index: int
    count: int


@dataclass(frozen=True)
class Sent:
    """The helper's `sent` event: report `target` at `dim` went out whole, `bytes` long."""

    target: str
    dim: int
    bytes: int


def sent_of(event: Event) -> Sent | None:
    """The Sent a `sent` event says, else None."""
    info = event.get("sent")
    if not isinstance(info, dict):
        return None
    target, dim, size = (info.get(k) for k in ("target", "dim", "bytes"))
    if isinstance(target, str) and isinstance(dim, int) and isinstance(size, int) and size > 0:
        return Sent(target, dim, size)
    return None


@dataclass(frozen=True)
class Finished:
    """The run is over: `failure` to report (the sink is then aborted), else `done`, the helper's
    `done` event, for a report that arrived whole (the sink is then committed). `code` is the
    helper's exit status, negative for the signal that ended it, None when it never started."""

    code: int | None
    done: dict[str, object] | None
    failure: CaptureError | None
    sent: tuple[Sent, ...] = ()
    """The reports the helper said it sent whole, in order, whatever the ending."""


Action = Write | CloseStdin | Kill | Progress | Step | Finished


def step_of(event: Event) -> Step | None:
    """The Step a `started` event says (one naming its index and count), else None."""
    info = event.get("started")
    if not isinstance(info, dict):
        return None
    target, dim, index, count = (info.get(k) for k in ("target", "dim", "index", "count"))
    if not (isinstance(target, str) and all(isinstance(v, int) for v in (dim, index, count))):
        return None
    assert isinstance(dim, int) and isinstance(index, int) and isinstance(count, int)
    return Step(target, dim, index, count)


# ---------------------------------------------------------------------- the run


class HelperRun:
    """One helper process, from its start to `Finished`. Each input returns the actions it
    calls for, in order; after `Finished`, inputs return none. `deadline` is when the run next
    wants `tick(now)`, on the same clock as the `now` it was given (None: no need)."""

    def __init__(self, route_kind: str = "direct", grace_s: float = CANCEL_GRACE_S) -> None:
        self.route_kind = route_kind
        self.grace_s = grace_s
        self.lines = StderrLines()
        self.received = 0
        """Report bytes handed to the sink (none after a stop)."""
        self.stopped: str | None = None
        """CANCELLED, or the sentence saying why this side stopped the helper."""
        self.deadline: float | None = None
        self.finished: Finished | None = None
        self.step: Step | None = None
        """The report of the run now being captured, once the helper said it started."""
        self.sent: list[Sent] = []
        """The reports the helper said it sent whole, in order."""
        self._out_open = True
        self._err_open = True
        self._status: int | None = None

    # ------------------------------------------------------------------ the helper's side

    def out(self, data: bytes) -> list[Action]:
        """Bytes read from the helper's stdout: the report."""
        if self.finished or self.stopped is not None or not data:
            return []
        self.received += len(data)
        return [Write(data)]

    def err(self, data: bytes) -> list[Action]:
        """Bytes read from the helper's stderr: its event lines."""
        if self.finished:
            return []
        return self._said(self.lines.feed(data))

    def out_closed(self) -> list[Action]:
        """The helper's stdout reached its end."""
        self._out_open = False
        return self._maybe_finished()

    def err_closed(self) -> list[Action]:
        """The helper's stderr reached its end: a last line without a newline still counts."""
        if self.finished or not self._err_open:
            return []
        self._err_open = False
        return self._said(self.lines.close()) + self._maybe_finished()

    def exited(self, code: int = 0, signal: int | None = None) -> list[Action]:
        """The helper exited with `code`, or was ended by `signal`."""
        if self.finished or self._status is not None:
            return []
        self._status = -signal if signal is not None else code
        return self._maybe_finished()

    def failed_to_start(self, program: str, why: str) -> list[Action]:
        """The helper's process could not be started at all (`why`: the system's words)."""
        if self.finished:
            return []
        return self._finish(Finished(None, None, CaptureError(f"Could not start {program}: "
                                                              f"{why}.")))

    # ------------------------------------------------------------------ this side

    def stop(self, why: str, now: float) -> list[Action]:
        """Stop the helper (`why`: CANCELLED or a sentence); the first stop is the one kept."""
        if self.finished or self.stopped is not None:
            return []
        self.stopped = why
        self.deadline = now + self.grace_s
        return [CloseStdin()]

    def tick(self, now: float) -> list[Action]:
        """The time is `now`: kill a helper that outlived its grace period."""
        if self.finished or self.deadline is None or now < self.deadline:
            return []
        self.deadline = now + self.grace_s
        return [Kill()]

    # ------------------------------------------------------------------ the ending

    def _said(self, events: list[Event]) -> list[Action]:
        """A Step for each report started, and the progress each event says; in a run of several
        reports the fraction is that of the whole run (and each report's `sent` says nothing
        the `done` does not in a run of one)."""
        actions: list[Action] = []
        for event in events:
            sent = sent_of(event)
            if sent is not None:
                self.sent.append(sent)
            step = step_of(event)
            if step is not None:
                self.step = step
                actions.append(step)
            count = self.step.count if self.step else 1
            found = progress(event) if count > 1 or "sent" not in event else None
            if found is None:
                continue
            words, fraction = found
            if fraction is not None and count > 1 and self.step and "done" not in event:
                fraction = (self.step.index + fraction) / count
            actions.append(Progress(words, fraction))
        return actions

    def _maybe_finished(self) -> list[Action]:
        if self.finished or self._out_open or self._err_open or self._status is None:
            return []
        return self._finish(self._ending(self._status))

    def _finish(self, finished: Finished) -> list[Action]:
        finished = replace(finished, sent=tuple(self.sent))
        self.finished = finished
        self.deadline = None
        return [finished]

    def _ending(self, code: int) -> Finished:
        """Why the run failed, first reason first: this side's stop, the helper's exit, a report
        that is not the whole of what the helper said it sent."""
        done = self.lines.done.get("done") if self.lines.done else None
        if self.stopped == CANCELLED:
            return Finished(code, None, CaptureCancelled(explain(h.EXIT_CANCELLED, []), code))
        if self.stopped:
            return Finished(code, None, CaptureError(self.stopped, code))
        if code != h.EXIT_OK:
            return Finished(code, None, CaptureError(
                explain(code, self.lines.history(), self.route_kind), code))
        if not isinstance(done, dict) or done.get("bytes") != self.received:
            return Finished(code, None, CaptureError(
                "The helper ended without saying the whole report was sent "
                f"({self.received:,} bytes arrived); nothing was saved.", code))
        return Finished(code, {str(k): v for k, v in done.items()}, None)
