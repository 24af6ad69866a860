"""The scrolled content of a tab whose text wraps: its height follows its width."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QWidget


class WrappedColumn(QWidget):
    """The scrolled content: with wrapped text its height follows its width, not its minimum.

    QScrollArea takes the larger of a widget's minimum height and its height for the viewport's
    width; a layout's minimum height is the one at its narrowest, where every wrapped line is at
    its tallest, which would scroll a page that fits.
    """

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        layout = self.layout()
        if layout is not None and layout.hasHeightForWidth():
            return QSize(hint.width(), 0)
        return hint
