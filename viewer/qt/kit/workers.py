"""Run plain functions off the GUI thread and hand their results back on it.

A long function is plain code, `fn(*args, job=job)`, taking a viewer.core.jobs.Job for progress and
cancellation. `Worker.submit` runs it on a thread pool; `done`, `failed`, `progress` and
`cancelled` are emitted on the GUI thread. Each submit starts a new generation and cancels the one
before, so a result that arrives after a newer submit is dropped rather than applied. Whatever a
function raises becomes a `failed` signal with one line of text: nothing escapes into the event
loop.

Python's cyclic garbage collector runs in whichever thread happens to allocate. Were it to free the
last reference to a Qt widget from a pool thread, Qt would delete the widget there and crash. So
while a Worker exists or one of their jobs still runs, automatic collection is off and a timer on
the GUI thread collects instead, generation by generation at the interpreter's own thresholds
(pyqtgraph's GarbageCollector does the same). When the last Worker is gone and its last job has
returned, or the application quits, automatic collection is back as it was (PySide destroys
every Worker with the application, so one destroyed unquit counts too).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import itertools
import weakref
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import (
    QCoreApplication,
    QDeadlineTimer,
    QObject,
    QThreadPool,
    QTimer,
    Signal,
    Slot,
)

from viewer.core.jobs import Cancelled, Job, one_line

_DONE, _FAILED, _PROGRESS, _CANCELLED = "done", "failed", "progress", "cancelled"


# How often the GUI thread looks whether a garbage collection is due.
COLLECT_INTERVAL_MS = 500


class GuiThreadCollector(QObject):
    """Cyclic garbage collection on the GUI thread only, until `stop` (see the module docstring)."""

    def __init__(self, parent: QObject | None, interval_ms: int = COLLECT_INTERVAL_MS) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        self.was_enabled = gc.isenabled()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.collect)
        self.timer.start(interval_ms)

    def collect(self) -> None:
        """Collect the oldest generation whose count passed its threshold (and the younger ones
        with it), as the interpreter itself would."""
        counts = gc.get_count()
        due = [g for g in range(3) if counts[g] > self.thresholds[g]]
        if due:
            gc.collect(due[-1])

    def stop(self) -> None:
        """Automatic collection back as it was before this collector; the timer stops."""
        if self.was_enabled:
            gc.enable()
        with contextlib.suppress(RuntimeError):  # the timer went with the application
            self.timer.stop()


class _Relay(QObject):
    """Lives on the GUI thread for the application's life; carries events from pool threads.

    A signal emitted from a pool thread reaches `_dispatch` queued, on the GUI thread, which hands
    it to the worker that asked (if that worker still exists). It also keeps the collector while
    a Worker exists (`users`) or a job has not returned (`running`), and not past the quit.
    """

    relayed = Signal(int, int, str, object)  # worker id, generation, kind, payload

    def __init__(self, parent: QObject | None) -> None:
        super().__init__(parent)
        self.workers: weakref.WeakValueDictionary[int, Worker] = weakref.WeakValueDictionary()
        self.relayed.connect(self._dispatch)
        self.users: set[int] = set()
        self.running = 0
        self.quitting = False
        self.collector: GuiThreadCollector | None = None
        if isinstance(parent, QCoreApplication):
            parent.aboutToQuit.connect(self._quit)

    @Slot(int, int, str, object)
    def _dispatch(self, worker_id: int, generation: int, kind: str, payload: object) -> None:
        if kind != _PROGRESS:  # the job has returned
            self.running -= 1
            self.collect_while_needed()
        worker = self.workers.get(worker_id)
        # The Python side can outlive the Qt side: a Worker whose parent widget was deleted.
        if worker is not None and shiboken6.isValid(worker):
            worker._deliver(generation, kind, payload)

    def hold(self, worker_id: int) -> None:
        self.users.add(worker_id)
        self.collect_while_needed()

    def release(self, worker_id: int) -> None:
        self.users.discard(worker_id)
        self.collect_while_needed()

    def collect_while_needed(self) -> None:
        """Start the collector while a worker or a job needs it; stop it once none does."""
        needed = (bool(self.users) or self.running > 0) and not self.quitting
        if needed and self.collector is None:
            self.collector = GuiThreadCollector(self)
        elif not needed and self.collector is not None:
            collector, self.collector = self.collector, None
            collector.stop()

    def _quit(self) -> None:
        self.quitting = True
        self.collect_while_needed()


_relay: _Relay | None = None
_worker_ids = itertools.count(1)


def _the_relay() -> _Relay:
    global _relay
    app = QCoreApplication.instance()
    try:
        current = _relay is not None and _relay.parent() is app
    except RuntimeError:  # the application that owned it is gone
        current = False
    if not current or _relay is None:
        _relay = _Relay(app)
    return _relay


def _release(relay: _Relay, worker_id: int, _destroyed: object = None) -> None:
    """A worker is gone: the collector stops once no worker or job needs it."""
    relay.release(worker_id)


def _send(relay: _Relay, *event: object) -> bool:
    """Hand `event` to the GUI thread; False where the relay is gone (the application ended
    while the job ran: nobody is left to tell)."""
    try:
        relay.relayed.emit(*event)
    except RuntimeError:  # "Signal source has been deleted"
        return False
    return True


def _run(fn: Callable[..., Any], args: tuple[Any, ...], job: Job, relay: _Relay, worker_id: int,
         generation: int) -> None:
    """The pool thread's side: call `fn`, turn every outcome into one event."""
    try:
        result = fn(*args, job=job)
    except Cancelled:
        _send(relay, worker_id, generation, _CANCELLED, None)
    except BaseException as exc:
        _send(relay, worker_id, generation, _FAILED, one_line(exc))
    else:
        _send(relay, worker_id, generation, _DONE, result)


class Worker(QObject):
    """One stream of jobs whose newest result wins.

    Signals (all on the GUI thread): `started(generation)`, `done(result)`, `failed(message)`,
    `progress(fraction, message)`, `cancelled()`, `busy_changed(busy)`. Results of a superseded
    generation are dropped; `dropped` counts them.
    """

    started = Signal(int)
    done = Signal(object)
    failed = Signal(str)
    progress = Signal(float, str)
    cancelled = Signal()
    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None, max_threads: int = 2) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(max(1, max_threads))
        self._relay = _the_relay()
        self._id = next(_worker_ids)
        self._relay.workers[self._id] = self
        self._relay.hold(self._id)
        self.destroyed.connect(functools.partial(_release, self._relay, self._id))
        self._generation = 0
        self._job: Job | None = None
        self.dropped = 0

    @property
    def generation(self) -> int:
        return self._generation

    @property
    def busy(self) -> bool:
        """Whether the newest job is still running."""
        return self._job is not None

    def submit(self, fn: Callable[..., Any], *args: Any) -> int:
        """Run `fn(*args, job=job)` on the pool, superseding any job still running."""
        if self._job is not None:
            self._job.cancel()
        self._generation += 1
        generation = self._generation
        relay, worker_id = self._relay, self._id

        def on_progress(fraction: float, message: str) -> None:
            if not _send(relay, worker_id, generation, _PROGRESS, (fraction, message)):
                raise Cancelled  # the application has ended: stop the work

        was_busy = self.busy
        self._job = Job(on_progress)
        job = self._job
        relay.running += 1
        self._pool.start(lambda: _run(fn, args, job, relay, worker_id, generation))
        self.started.emit(generation)
        if not was_busy:
            self.busy_changed.emit(True)
        return generation

    def cancel(self) -> None:
        """Ask the newest job to stop; `cancelled` follows when it does (its result is dropped)."""
        if self._job is None:
            return
        self._job.cancel()
        self._generation += 1
        self._job = None
        self.cancelled.emit()
        self.busy_changed.emit(False)

    def wait(self, msecs: int = 30_000) -> bool:
        """Block until every job of this worker has returned (for shutdown and scripts)."""
        return self._pool.waitForDone(QDeadlineTimer(msecs))

    def shutdown(self, msecs: int = 30_000) -> bool:
        """Cancel the newest job and wait for the pool to drain."""
        self.cancel()
        return self.wait(msecs)

    def _deliver(self, generation: int, kind: str, payload: object) -> None:
        if generation != self._generation:
            if kind != _PROGRESS:
                self.dropped += 1
            return
        if kind == _PROGRESS:
            assert isinstance(payload, tuple)  # (fraction, message), as _run's job reports it
            self.progress.emit(*payload)
            return
        self._job = None
        if kind == _DONE:
            self.done.emit(payload)
        elif kind == _FAILED:
            self.failed.emit(payload)
        else:
            self.cancelled.emit()
        self.busy_changed.emit(False)
