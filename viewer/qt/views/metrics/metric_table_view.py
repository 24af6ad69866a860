"""The "Every metric" view's table: its MetricModel's rows, sorting by any column, names cut in
the middle, and column widths made again at each width it takes (viewer.analysis.metric_words):
every value inside the table, the names in what the values leave, at least a readable share of
it; where the values leave less, the columns scroll and `scroll_words` under the table says so."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QStyleOptionHeader,
    QTableView,
    QWidget,
)

from viewer.analysis.metric_words import PROJECTOR_HIDDEN, column_widths, scroll_note
from viewer.core.elide import distinct_elisions
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.style import Style
from viewer.qt.views.metrics.metric_model import MetricModel


class MetricTable(QTableView):
    """Rows selected whole, never edited, unsorted until a header is clicked."""

    def __init__(self, model: MetricModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.metric_model = model
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = self.horizontalHeader()
        header.setSortIndicatorShown(True)
        header.setTextElideMode(Qt.TextElideMode.ElideRight)  # 'A sm80_xmm...' keeps its letter
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.setSortingEnabled(True)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header.setStretchLastSection(True)
        self.projector = False  # set_style takes the style's
        self.scroll_words = plain_label("", parent)  # where the columns scroll: that they do
        self.scroll_words.setWordWrap(True)
        self.scroll_words.hide()

    def set_style(self, style: Style) -> None:
        """Rows a line of the table's type high, and a little more; the projector's columns."""
        self.projector = style.projector
        style.paint_label(self.scroll_words, "small", color="secondary")
        rows = self.fontMetrics().height() + style.px(6)
        self.verticalHeader().setDefaultSectionSize(rows)
        self.verticalHeader().setMinimumSectionSize(rows)

    def fit(self) -> None:
        """Each column's width for the table's lines, within the table's width (in projector
        mode without PROJECTOR_HIDDEN)."""
        model = self.metric_model
        metrics = self.fontMetrics()
        titles = [model.title(c) for c in range(len(model.columns))]
        values = [model.texts(c) if c > 0 else [] for c in range(len(titles))]
        hidden = PROJECTOR_HIDDEN if self.projector else ()
        widths = column_widths(titles, model.texts(0), values, metrics.horizontalAdvance,
                               metrics.averageCharWidth(), self.viewport().width(), hidden)
        for column, width in enumerate(widths):
            self.setColumnHidden(column, titles[column] in hidden)
            if titles[column] not in hidden:
                self.horizontalHeader().resizeSection(column, width)
        said = scroll_note(widths, self.viewport().width()) if model.rowCount() else ""
        self.scroll_words.setText(said)
        self.scroll_words.setVisible(bool(said))
        self._name_titles()

    def _name_titles(self) -> None:
        """A diff's 'A name' and 'B name' headers as their sections can show them: where the
        two names would elide alike, each keeps the part where they differ."""
        model, header = self.metric_model, self.horizontalHeader()
        if not model.is_diff:
            return
        metrics = header.fontMetrics()
        room = min(label_room(header, c) for c in (1, 2))
        names = distinct_elisions([model.columns[1], model.columns[2]],
                                  room - metrics.horizontalAdvance("A "),
                                  metrics.horizontalAdvance)
        model.shown_titles = {c: f"{'AB'[c - 1]} {name}" for c, name in zip((1, 2), names,
                                                                            strict=True)}
        model.headerDataChanged.emit(Qt.Orientation.Horizontal, 1, 2)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit()


def label_room(header: QHeaderView, section: int) -> int:
    """The width section `section`'s title is painted in (its label's rect, as the style
    lays it out), a sort arrow beside it whether it shows now or not."""
    option = QStyleOptionHeader()
    option.initFrom(header)
    option.rect = QRect(0, 0, header.sectionSize(section), header.height())
    option.section = section
    option.orientation = Qt.Orientation.Horizontal
    option.state |= QStyle.StateFlag.State_Horizontal
    option.sortIndicator = QStyleOptionHeader.SortIndicator.SortDown
    return header.style().subElementRect(QStyle.SubElement.SE_HeaderLabel, option,
                                         header).width()
