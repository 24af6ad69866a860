"""A reading tab that needs more of its reports than their first read, read once it is shown.

The first read of a report leaves out what only some views need (ncu's rules, every stall
metric). Such a view says what it needs of each kernel (`NEED`, a viewer.session.Need); once it
is shown, the application's session (viewer.qt.kit.session_reads) reads what is missing off the
GUI thread, with its progress in the view's status line, and every view looks again when it
arrives.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from viewer.core.model import Kernel, Report
from viewer.qt.kit.reading_tab import ReadingTab
from viewer.qt.kit.session_reads import SessionReads
from viewer.qt.kit.style import Style
from viewer.session import Need


class OnDemandTab(ReadingTab):
    """Subclasses set READING (the status line while reading) and NEED (what each kernel needs),
    and draw what was read in `_build_read`; until then the tab shows the reading's progress, or
    the one line that stopped it. `ready` says whether all of it is read, `error` what stopped
    it."""

    READING: ClassVar[str] = "Reading the report…"
    NEED: ClassVar[Need]

    def __init__(self, style: Style | None = None, parent: QWidget | None = None,
                 reads: SessionReads | None = None) -> None:
        self._progress = self.READING
        self.reads = reads or SessionReads.of_app()
        super().__init__(style, parent)
        self.reads.arrived.connect(self._arrived)
        self.reads.progress.connect(self._on_progress)

    def set_kernels(self, kernels: Sequence[Kernel], names: Sequence[str] | None = None,
                    reports: Sequence[Report] = ()) -> None:
        super().set_kernels(kernels, names, reports)
        self._load()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._load()

    def _pairs(self) -> list[tuple[Report, Kernel]]:
        if len(self._reports) != len(self.kernels):
            return []
        return list(zip(self._reports, self.kernels, strict=True))

    @property
    def loading(self) -> bool:
        """Whether what the kernels shown need is being read."""
        return self.reads.reading(self._reports, self.kernels)

    @property
    def ready(self) -> bool:
        """Whether every kernel shown has what it needs read (or its file holds no more)."""
        pairs = self._pairs()
        session = self.reads.session
        return bool(pairs) and not self.loading and all(
            session.lacks(r, k, self.NEED).empty for r, k in pairs)

    @property
    def error(self) -> str | None:
        """The one line that stopped a read of a report shown, if one did."""
        return next((e for r in self._reports if (e := self.reads.session.error(r))), None)

    def _build(self, layout: QVBoxLayout) -> None:
        if self.error:
            layout.addWidget(self.label(self.error, color="warning", wrap=True, name="status"))
            return
        if not self.ready:
            layout.addWidget(self.label(self._progress, color="secondary", wrap=True,
                                        name="status"))
            return
        self._build_read(layout)

    def _build_read(self, layout: QVBoxLayout) -> None:
        """Draw what every kernel shown needed, read (on the GUI thread)."""
        raise NotImplementedError

    def _load(self) -> None:
        """Ask for what is still unread, once the view is shown."""
        pairs = self._pairs()
        if not self.isVisible() or not pairs:
            return
        if self.reads.ask((r, k, self.NEED) for r, k in pairs):
            self._progress = self.READING
            self._render()

    def _arrived(self) -> None:
        """A read finished (this view's or another's): look again."""
        if self._pairs():
            self._load()
            self._render()

    def _on_progress(self, fraction: float, message: str) -> None:
        if not self.loading:
            return
        self._progress = f"{self.READING} {message}" if message else self.READING
        status = self.findChild(QLabel, "status")
        if status is not None:
            status.setText(self._progress)
