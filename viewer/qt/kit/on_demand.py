"""A reading tab that needs more of its reports than their first read, read once it is shown.

The first read of a report leaves out what only some views need (ncu's rules, every stall
metric). Such a view says what it needs of each kernel (`NEED`, a viewer.session.Need); its
`wanted` (viewer.qt.kit.view_reads) asks the application's session for what is missing once the
tab is shown, with the read's progress in the tab's status line, and draws the tab again when
it arrives.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import ClassVar

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from viewer.core.model import Kernel, Report
from viewer.qt.kit.reading_tab import ReadingTab
from viewer.qt.kit.session_reads import SessionReads
from viewer.qt.kit.style import Style
from viewer.qt.kit.view_reads import ViewReads
from viewer.session import Need
from viewer.session.shown import State


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    STATUS = "status"



class OnDemandTab(ReadingTab):
    """Subclasses set READING (the status line while reading) and NEED (what each kernel needs),
    and draw what was read in `_build_read`; until then the tab shows the reading's progress, or
    the one line that stopped it. `ready` says whether all of it is read, `error` what stopped
    it."""

    READING: ClassVar[str] = "Reading the report…"
    NEED: ClassVar[Need]

    def __init__(self, style: Style | None = None, parent: QWidget | None = None,
                 reads: SessionReads | None = None) -> None:
        super().__init__(style, parent)
        self.wanted = ViewReads(self.NEED, self, reads)
        self.wanted.changed.connect(self._reads_changed)

    @property
    def reads(self) -> SessionReads:
        return self.wanted.reads

    def set_kernels(self, kernels: Sequence[Kernel], names: Sequence[str] | None = None,
                    reports: Sequence[Report] = ()) -> None:
        self.wanted.show(reports, kernels)
        super().set_kernels(kernels, names, reports)

    def clear(self) -> None:
        self.wanted.show((), ())
        super().clear()

    def _pairs(self) -> list[tuple[Report, Kernel]]:
        return self.wanted.pairs

    @property
    def loading(self) -> bool:
        """Whether what the kernels shown need is being read."""
        return self.wanted.reading

    @property
    def ready(self) -> bool:
        """Whether every kernel shown has what it needs read (or its file holds no more)."""
        return self.wanted.state is State.READY

    @property
    def error(self) -> str | None:
        """The one line that stopped a read of a report shown, if one did."""
        return self.wanted.error or None

    def _build(self, layout: QVBoxLayout) -> None:
        state = self.wanted.state
        if state is State.ERROR:
            layout.addWidget(self.label(self.wanted.error, color="warning", wrap=True,
                                        name=Names.STATUS))
        elif state is not State.READY:
            layout.addWidget(self.label(self._progress(), color="secondary", wrap=True,
                                        name=Names.STATUS))
        else:
            self._build_read(layout)

    def _build_read(self, layout: QVBoxLayout) -> None:
        """Draw what every kernel shown needed, read (on the GUI thread)."""
        raise NotImplementedError

    def _progress(self) -> str:
        message = self.wanted.message
        return f"{self.READING} {message}" if message else self.READING

    def _reads_changed(self, whole: bool) -> None:
        """A read of the kernels shown moved on (`whole`: arrived or failed)."""
        status = self.findChild(QLabel, Names.STATUS)
        if whole or status is None:
            self._render()
        else:
            status.setText(self._progress())
