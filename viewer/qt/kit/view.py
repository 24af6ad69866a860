"""What the window hands every view: one `Selection`, through one method, `show_selection`.

A view is a QWidget with `TITLE` and `QUESTION` (its tab's words), `show_selection(selection)`
(an empty selection clears it) and `set_style(style)`. The reading-order tabs get it from
viewer.qt.kit.reading_tab.ReadingTab; a view that reads more of its reports gets it from
`ShowsReports`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from viewer.core.model import Kernel, Report
from viewer.qt.kit.style import Style


@dataclass(frozen=True)
class Selection:
    """One kernel, or two to compare (A first), their names, and the reports they came from."""

    kernels: tuple[Kernel, ...] = ()
    names: tuple[str, ...] = ()
    reports: tuple[Report, ...] = ()

    @classmethod
    def of(cls, kernels: Sequence[Kernel], names: Sequence[str],
           reports: Sequence[Report] = ()) -> Selection:
        return cls(tuple(kernels), tuple(names), tuple(reports))


class _TakesReports(Protocol):
    def set_kernels(self, kernels: Sequence[Kernel], names: Sequence[str],
                    reports: Sequence[Report]) -> None: ...

    def clear(self) -> None: ...


class ShowsReports:
    """`show_selection` for a view whose `set_kernels(kernels, names, reports)` takes the reports
    too (it reads more of them when shown); put it before the widget class among the bases."""

    def show_selection(self: _TakesReports, selection: Selection) -> None:
        """The window's one call: the selection's kernels, or nothing."""
        if selection.kernels:
            self.set_kernels(selection.kernels, selection.names, selection.reports)
        else:
            self.clear()


class View(Protocol):
    TITLE: str
    QUESTION: str

    def show_selection(self, selection: Selection) -> None: ...

    def set_style(self, style: Style) -> None: ...
