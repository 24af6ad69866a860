"""What a view shown needs read of its kernels: asked for while it is shown, and only then.

A view shows kernels, each with its report, and needs something of each beyond their first
read (a `Need`). `ShownReads` holds what it shows (`show`) and whether it is shown
(`set_visible`), and asks for what the kernels lack while it is shown: kernels given while it is
hidden are asked for once it is shown. Its `state`: NONE (no kernels, or no report for each),
READING (something is still unread: being read, or to be asked once shown), then ERROR (a read
of a report shown failed: `error`, its one line naming the file) or READY (all of it read, or
the file holds no more). While its kernels are read, `fraction` (0 to 1) and `message` are the
read's progress; the progress of a read of other kernels is dropped, and what arrives for
kernels no longer shown changes nothing, since the state is always that of the kernels shown.

No Qt: viewer.qt.kit.view_reads drives it from a widget's show and hide and the session's reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from viewer.core.model import Kernel, Report
from viewer.session import Need, ReportSession

Want = tuple[Report, Kernel, Need]
Ask = Callable[[Iterable[Want]], bool]
"""Reads what the wants lack and nobody asked for yet; whether anything was asked
(viewer.qt.kit.session_reads.SessionReads.ask)."""


class State(Enum):
    NONE = "none"
    READING = "reading"
    READY = "ready"
    ERROR = "error"


@dataclass(frozen=True)
class Status:
    """What a view draws from: the state, the one line that stopped a read ('' for none), and
    while reading the read's progress."""

    state: State
    error: str = ""
    fraction: float = 0.0
    message: str = ""


class ShownReads:
    """What one view shows and needs read of it (see the module docstring)."""

    def __init__(self, session: ReportSession, need: Need, ask: Ask) -> None:
        self.session = session
        self.need = need
        self._ask_for = ask
        self._pairs: list[tuple[Report, Kernel]] = []
        self._visible = False
        self._fraction = 0.0
        self._message = ""

    @property
    def pairs(self) -> list[tuple[Report, Kernel]]:
        """Each kernel shown with its report."""
        return list(self._pairs)

    @property
    def visible(self) -> bool:
        return self._visible

    def show(self, reports: Sequence[Report], kernels: Sequence[Kernel]) -> bool:
        """The kernels shown now, one report each (where the two do not pair up, nothing is
        read); asked for if the view is shown. Whether they differ from those before."""
        pairs = list(zip(reports, kernels, strict=True)) if len(reports) == len(kernels) \
            else []
        changed = [(id(r), id(k)) for r, k in pairs] != [(id(r), id(k)) for r, k in self._pairs]
        if changed:
            self._pairs = pairs
            self._fraction, self._message = 0.0, ""
        self._ask()
        return changed

    def set_visible(self, visible: bool) -> None:
        """The view was shown (what its kernels lack is asked for now) or hidden."""
        self._visible = visible
        self._ask()

    def arrived(self) -> None:
        """A read was taken in (this view's or another's): ask for what is still missing."""
        self._ask()

    def moved(self, fraction: float, message: str) -> bool:
        """A read's progress; kept, and True, only while the kernels shown are being read."""
        if not self.reading:
            return False
        self._fraction, self._message = min(1.0, max(0.0, fraction)), message
        return True

    @property
    def reading(self) -> bool:
        """Whether something of the kernels shown is being read, or waits to be."""
        return any(self.session.reading(r, k) for r, k in self._pairs)

    @property
    def unread(self) -> bool:
        """Whether a kernel shown still lacks what its file holds of the need."""
        return any(not self.session.lacks(r, k, self.need).empty for r, k in self._pairs)

    @property
    def error(self) -> str:
        """The one line that stopped a read of a report shown, or ''."""
        return next((e for r, _ in self._pairs if (e := self.session.error(r))), "")

    @property
    def state(self) -> State:
        if not self._pairs:
            return State.NONE
        if self.reading or self.unread:
            return State.READING
        return State.ERROR if self.error else State.READY

    @property
    def status(self) -> Status:
        state = self.state
        if state is not State.READING:
            return Status(state, self.error)
        return Status(state, "", self._fraction, self._message)

    def _ask(self) -> None:
        if self._visible and self._pairs and self._ask_for(
                (r, k, self.need) for r, k in self._pairs):
            self._fraction, self._message = 0.0, ""
