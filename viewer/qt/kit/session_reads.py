"""The application's one ReportSession, read on one Worker: what views ask of their reports.

A view asks for what it needs (`ask`); what is missing is read off the GUI thread, one read at a
time: asks made in one turn of the event loop (the views a selection reaches), or while a read
runs, are read together, those of one report at once. When an answer is taken in,
`arrived` tells every view to look again, so a view never misses what another one asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from viewer.core.elide import short_words
from viewer.core.model import Kernel, Report
from viewer.qt.kit.workers import Worker
from viewer.session import Answer, Ask, Need, ReportSession, read

_shared: SessionReads | None = None


class SessionReads(QObject):
    """Signals (on the GUI thread): `arrived()` after a read is taken in or failed;
    `progress(fraction, message)` while one runs."""

    arrived = Signal()
    progress = Signal(float, str)

    def __init__(self, session: ReportSession | None = None, parent: QObject | None = None
                 ) -> None:
        super().__init__(parent)
        self.session = session or ReportSession()
        self.worker = Worker(self, max_threads=1)
        self.worker.done.connect(self._done)
        self.worker.failed.connect(self._failed)
        self.worker.cancelled.connect(self._cancelled)
        self.worker.progress.connect(
            lambda fraction, message: self.progress.emit(fraction, short_words(message)))
        self._waiting: list[Ask] = []
        self._running: list[Ask] = []
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(0)
        self._soon.timeout.connect(self._next)

    @classmethod
    def of_app(cls) -> SessionReads:
        """The application's one instance (made on first use)."""
        global _shared
        app = QCoreApplication.instance()
        try:
            current = _shared is not None and _shared.parent() is app
        except RuntimeError:  # the application that owned it is gone
            current = False
        if not current:
            _shared = cls(parent=app)
        assert _shared is not None
        return _shared

    @property
    def busy(self) -> bool:
        return bool(self._running or self._waiting)

    def ask(self, wants: Iterable[tuple[Report, Kernel, Need]]) -> bool:
        """Read what `wants` lack and nobody asked for yet; whether anything was asked."""
        asks = self.session.plan(wants)
        self._waiting += asks
        if asks and not self._running:
            self._soon.start()
        return bool(asks)

    def reading(self, reports: Sequence[Report], kernels: Sequence[Kernel]) -> bool:
        """Whether any of the kernels (each with its report) is being read or waits to be."""
        return any(self.session.reading(r, k) for r, k in zip(reports, kernels, strict=False))

    def shutdown(self, msecs: int = 30_000) -> bool:
        """Stop reading (for the application's end): what waits is dropped."""
        self._soon.stop()
        self.session.drop(self._waiting)
        self._waiting = []
        return self.worker.shutdown(msecs)

    def _next(self) -> None:
        if self._running or not self._waiting:
            return
        self._running, self._waiting = self._waiting, []
        self.worker.submit(read, self._running)

    def _finish(self, answers: Sequence[Answer] | None) -> None:
        running, self._running = self._running, []
        if answers is None:
            self.session.drop(running)
        else:
            self.session.take(running, answers)
        self._next()
        if answers is not None:
            self.arrived.emit()

    def _done(self, answers: list[Answer]) -> None:
        self._finish(answers)

    def _failed(self, message: str) -> None:
        self._finish([Answer(error=message)] * len(self._running))

    def _cancelled(self) -> None:
        self._finish(None)
