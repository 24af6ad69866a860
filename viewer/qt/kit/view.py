"""What the window hands every view: one `Selection`, through one method, `show_selection`.

A view (`View`) is a QWidget with `VIEW`, `KEY`, `TITLE` and `QUESTION`,
`show_selection(selection)` (an empty selection clears it), `set_style(style)` and `style_`,
`mark_row(key)` and a `navigate(view, row)` signal. The
reading-order tabs get it from viewer.qt.kit.reading_tab.ReadingTab, which also makes them a
`RowTarget`; a view that takes `set_kernels(kernels, names, reports)` gets `show_selection`
from `ShowsReports`, and one that frames no row its `mark_row` from `FramesNoRow`. The window
makes each view from its class (`ViewClass`), as viewer.qt.shell.view_registry lists them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QWidget

from viewer.core.model import Kernel, Report
from viewer.qt.kit.style import Style


@dataclass(frozen=True)
class Selection:
    """One kernel, or two to compare (A first), their names, and the reports they came from;
    `series`, every report open, in the order opened (the Series view shows them all)."""

    kernels: tuple[Kernel, ...] = ()
    names: tuple[str, ...] = ()
    reports: tuple[Report, ...] = ()
    alike: tuple[str, ...] = ()  # other kernels' names a name shown must read apart from
    series: tuple[Report, ...] = ()

    @classmethod
    def of(cls, kernels: Sequence[Kernel], names: Sequence[str],
           reports: Sequence[Report] = (), alike: Sequence[str] = (),
           series: Sequence[Report] = ()) -> Selection:
        return cls(tuple(kernels), tuple(names), tuple(reports), tuple(alike), tuple(series))


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


class FramesNoRow:
    """`mark_row` for a view that frames no row; put it before the widget class among the
    bases."""

    def mark_row(self, key: str | None) -> bool:
        """Nothing to frame: False."""
        return False


class View(Protocol):
    """What the window knows of a view: `VIEW` (its name, as links and the exercise name it:
    viewer.analysis.advice.VIEWS), `KEY` (its shortcut, '' where the window numbers it), `TITLE`
    and `QUESTION` (its tab's words), `show_selection`, `set_style` and `style_` (the style it is
    shown in), `mark_row(key)` (frame row `key`, None: none; False where it shows no such row),
    and the signal `navigate(view, row)`: show view `view` ('' for whichever shows row `row`),
    row `row` framed ('' for none). Only the window handles it."""

    VIEW: ClassVar[str]
    KEY: ClassVar[str]
    TITLE: ClassVar[str]
    QUESTION: ClassVar[str]

    @property
    def navigate(self) -> SignalInstance: ...

    @property
    def style_(self) -> Style: ...

    def show_selection(self, selection: Selection) -> None: ...

    def set_style(self, style: Style) -> None: ...

    def mark_row(self, key: str | None) -> bool: ...


class ViewClass(Protocol):
    """A view's class, as the window makes it: its words, and a new view in `style`."""

    VIEW: str
    KEY: str
    TITLE: str
    QUESTION: str

    def __call__(self, style: Style | None = None) -> View: ...


class RowTarget(View, Protocol):
    """A view whose rows the exercise and Predict point at (viewer.qt.kit.reading_tab gives it):
    `row_picked(key)` while picking is on, `row_widgets(key)` are the widgets of row `key` ([]
    where it shows none), and `kernels` and `names` what it shows now ([] for none)."""

    @property
    def row_picked(self) -> SignalInstance: ...

    @property
    def kernels(self) -> list[Kernel]: ...

    @property
    def names(self) -> list[str]: ...

    def set_picking(self, on: bool) -> None: ...

    def row_widgets(self, key: str) -> list[QWidget]: ...
