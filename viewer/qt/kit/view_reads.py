"""A view's reads in the window: viewer.session.shown.ShownReads, told when its widget is shown
or hidden and what the application's session (viewer.qt.kit.session_reads) brings.

`changed(whole)` is its one signal, emitted for what the view did not do itself: `whole` when
the state or its error changed (draw again), else only the progress moved (say it: `steps`, of
STEPS, for a progress bar, busy while no fraction is known: `paint`; `message`). What the view
calls itself (`show`) emits nothing: it draws after it anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtWidgets import QProgressBar, QWidget

from viewer.core.model import Kernel, Report
from viewer.qt.kit.session_reads import SessionReads
from viewer.session import Need
from viewer.session.shown import ShownReads, State, Status

STEPS = 1000
"""A progress bar's range, every view's: 0 to STEPS."""


class ViewReads(QObject):
    """What `need` asks of the kernels a view shows, read while `shown_in` is shown (without a
    widget: whenever asked)."""

    changed = Signal(bool)

    def __init__(self, need: Need, shown_in: QWidget | None = None,
                 reads: SessionReads | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent if parent is not None else shown_in)
        self.reads = reads or SessionReads.of_app()
        self.shown = ShownReads(self.reads.session, need, self.reads.ask)
        self._drawn = self._look()
        self.reads.arrived.connect(self._arrived)
        self.reads.progress.connect(self._moved)
        self._widget = shown_in
        if shown_in is None:
            self.shown.set_visible(True)
        else:
            shown_in.installEventFilter(self)
            self.shown.set_visible(shown_in.isVisible())

    # ------------------------------------------------------------ what the view asks

    def show(self, reports: Sequence[Report], kernels: Sequence[Kernel]) -> bool:
        """The kernels the view shows now, one report each; whether they changed."""
        changed = self.shown.show(reports, kernels)
        self._drawn = self._look()
        return changed

    @property
    def status(self) -> Status:
        return self.shown.status

    @property
    def state(self) -> State:
        return self.shown.state

    @property
    def reading(self) -> bool:
        """Whether the kernels shown are being read (or wait to be)."""
        return self.shown.reading

    @property
    def error(self) -> str:
        return self.shown.error

    @property
    def pairs(self) -> list[tuple[Report, Kernel]]:
        return self.shown.pairs

    @property
    def steps(self) -> int:
        """The progress of the read of the kernels shown, in STEPS."""
        return round(STEPS * self.shown.status.fraction)

    @property
    def message(self) -> str:
        return self.shown.status.message

    def progress_bar(self, parent: QWidget | None = None) -> QProgressBar:
        """A progress bar on the one scale (0 to STEPS)."""
        bar = QProgressBar(parent)
        bar.setRange(0, STEPS)
        return bar

    def paint(self, bar: QProgressBar) -> None:
        """The read's progress on `bar`: how far it is, or busy (no range) while the read has
        said no fraction yet: a read of a few kernels of a report knows none until it ends, and
        a bar at 0 % for all of it would say it is stuck."""
        steps = self.steps
        bar.setRange(0, STEPS if steps else 0)
        bar.setValue(steps)

    # ------------------------------------------------------------ what the window tells it

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        # getattr: a widget being torn down may outlive this object's Python half
        if kind in (QEvent.Type.Show, QEvent.Type.Hide) and \
                watched is getattr(self, "_widget", None):
            self._after(lambda: self.shown.set_visible(kind == QEvent.Type.Show))
        return False

    def _arrived(self) -> None:
        self._after(self.shown.arrived)

    def _moved(self, fraction: float, message: str) -> None:
        if self.shown.moved(fraction, message):
            self._after(lambda: None)

    def _look(self) -> tuple[Status, int]:
        status = self.shown.status
        return status, round(STEPS * status.fraction)

    def _after(self, event: Callable[[], None]) -> None:
        """Take `event` in; say what changed."""
        before = self._drawn
        event()
        self._drawn = now = self._look()
        if (now[0].state, now[0].error) != (before[0].state, before[0].error):
            self.changed.emit(True)
        elif now != before:
            self.changed.emit(False)
