"""The name column of the kernel list and the group view, painted elided to the width the
column has now, no two different names alike (viewer.core.elide.distinct_elisions over every
name the table holds), where Qt's own middle elision of a long cuBLAS name shows the `tn` and
the `nn` kernel as one text."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QModelIndex, QPersistentModelIndex
from PySide6.QtWidgets import (
    QApplication,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from viewer.core.elide import distinct_elisions


def text_width(option: QStyleOptionViewItem, widget: QWidget | None) -> int:
    """The width the default delegate draws an item's text in: the cell less the style's
    text margin on each side."""
    style = widget.style() if widget is not None else QApplication.style()
    margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1
    return option.rect.width() - 2 * margin


class NameDelegate(QStyledItemDelegate):
    """Paints the column's whole names (`names()`: every name the table holds) elided to the
    cell, each kept apart from the others; made again where the width or the names change."""

    def __init__(self, names: Callable[[], Sequence[str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._names = names
        self._shown: dict[tuple[int, str, tuple[str, ...]], dict[str, str]] = {}

    def shown(self, names: Sequence[str], width: int, option: QStyleOptionViewItem) -> dict[
            str, str]:
        """Each of `names` as it fits `width` in `option`'s font."""
        unique = tuple(dict.fromkeys(names))
        key = (width, option.font.key(), unique)
        if key not in self._shown:
            measure = option.fontMetrics.horizontalAdvance
            self._shown = {key: dict(zip(unique, distinct_elisions(unique, width, measure),
                                         strict=True))}
        return self._shown[key]

    def initStyleOption(self, option: QStyleOptionViewItem,
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        whole = option.text
        shown = self.shown(self._names(), text_width(option, option.widget), option)
        option.text = shown.get(whole, whole)
