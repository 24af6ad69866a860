"""The Source view's two tables side by side (SourcePane each): one kernel's, or naive's and
tiled's; each marks its row and shows its kernel's notes, unless the comparison says them."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QWidget

from viewer.qt.kit.style import Style
from viewer.qt.views.source.source_pane import SourcePane
from viewer.readers.source import KernelSource

Shown = tuple[str, KernelSource | None, str]
"""A kernel's name, its function (None: none to show) and what is said of it."""


class SourcePanes(QSplitter):
    """Side 1 and side 2; a side with nothing to show hides, and so does the splitter."""

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.panes = [SourcePane(style, 1, parent), SourcePane(style, 2, parent)]
        for pane in self.panes:
            self.addWidget(pane)

    def show_functions(self, shown: Sequence[Shown]) -> None:
        """Each side's function; with two that have counters, the notes are left to the
        comparison's sentences."""
        pair = [f for _, f, _ in shown if f is not None and f.has_counters]
        for number, pane in enumerate(self.panes):
            pane.quiet = len(pair) == 2
            if number < len(shown):
                pane.show_function(*shown[number])
            pane.setVisible(number < len(shown))
        self.setVisible(bool(shown))  # a splitter hides itself when its panes are hidden

    def mark(self, keys: Sequence[str | None], within: QWidget) -> bool:
        """Mark each side's row of `keys` where the side shows in `within`; whether one did."""
        found = False
        for pane, key in zip(self.panes, keys, strict=True):
            found = (pane.mark(key) if pane.isVisibleTo(within) else False) or found
        return found

    def set_style(self, style: Style) -> None:
        for pane in self.panes:
            pane.set_style(style)
