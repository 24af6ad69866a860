"""The Source view's comparison over its tables: naive against tiled's load rows (LoadRows) in
a scroll area that never scrolls sideways, made anew for each pair shown."""

from __future__ import annotations

from collections.abc import Sequence, Set

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget

from viewer.analysis.source import Comparison
from viewer.qt.kit.style import Style
from viewer.qt.views.source.load_rows import LoadRows


class LoadsArea(QScrollArea):
    """The load rows of the pair shown; hidden where no pair is."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: LoadRows | None = None
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def show_comparison(self, style: Style, comparison: Comparison | None,
                        names: Sequence[str], marked: Set[str | None]) -> None:
        """The rows of `comparison` (None: none), `marked` rows highlighted."""
        old = self.takeWidget()
        if old is not None:
            old.deleteLater()
        self.rows = None
        if comparison is not None:
            self.rows = LoadRows(style, comparison, names, marked)
            self.rows.setObjectName("loads")
            self.setWidget(self.rows)
        self.setVisible(self.rows is not None)
