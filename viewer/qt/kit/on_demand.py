"""A reading tab that reads what its kernels lack once it is shown, off the GUI thread.

The first read of a report leaves out what only some views need (ncu's rules, every stall
metric). Such a view keeps the reports its kernels came from, and when it is shown asks for what
is still unread (`_wanted`), runs `READER` on a viewer.qt.kit.workers.Worker with its progress in
the view's status line, and takes the answer in on the GUI thread (`_take`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QLabel, QWidget

from viewer.core.model import Kernel, Report
from viewer.qt.kit.reading_tab import ReadingTab
from viewer.qt.kit.style import Style
from viewer.qt.kit.view import ShowsReports
from viewer.qt.kit.workers import Worker


class OnDemandTab(ShowsReports, ReadingTab):
    """Subclasses set READING (the status line while reading) and READER (a plain function
    `(wanted, *, job) -> answers`), and define `_wanted()` and `_take(wanted, answers)`."""

    READING: ClassVar[str] = "Reading the report…"
    READER: ClassVar[Callable[..., list[Any]]]

    def __init__(self, style: Style | None = None, parent: QWidget | None = None) -> None:
        self._reports: list[Report] = []
        self._error: str | None = None
        self._progress = self.READING
        self._worker: Worker | None = None
        self._pending: list[Any] = []
        super().__init__(style, parent)

    def set_kernels(self, kernels: Sequence[Kernel], names: Sequence[str] | None = None,
                    reports: Sequence[Report] | None = None) -> None:
        self._reports = list(reports or [])
        self._error = None
        super().set_kernels(kernels, names)
        self._load()

    def clear(self) -> None:
        self._reports = []
        super().clear()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._load()

    @property
    def loading(self) -> bool:
        return self._worker is not None and self._worker.busy

    def _wanted(self) -> list[Any]:
        """What the kernels shown still lack, in the form READER takes."""
        raise NotImplementedError

    def _take(self, wanted: list[Any], answers: list[Any]) -> None:
        """Take READER's `answers` to `wanted` in (on the GUI thread)."""
        raise NotImplementedError

    def _load(self) -> None:
        """Read what is still unread, once the view is shown."""
        if not self.isVisible() or self._error or len(self._reports) != len(self.kernels):
            return
        wanted = self._wanted()
        if not wanted:
            return
        if self._worker is None:
            self._worker = Worker(self)
            self._worker.done.connect(self._read)
            self._worker.failed.connect(self._failed)
            self._worker.progress.connect(self._on_progress)
        self._pending = wanted
        self._progress = self.READING
        self._worker.submit(type(self).READER, wanted)
        self._render()

    def _read(self, answers: list[Any]) -> None:
        self._take(self._pending, answers)
        self._render()

    def _failed(self, message: str) -> None:
        self._error = message
        self._render()

    def _on_progress(self, fraction: float, message: str) -> None:
        self._progress = f"{self.READING} {message}" if message else self.READING
        status = self.findChild(QLabel, "status")
        if status is not None:
            status.setText(self._progress)
