"""The "Every metric" view's table: its MetricModel's rows, sorting by any column, names cut in
the middle, and column widths made again at each width it takes (viewer.analysis.metric_words):
every value inside the table, the names in what the values leave."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from viewer.analysis.metric_words import PROJECTOR_HIDDEN, column_widths
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

    def set_style(self, style: Style) -> None:
        """Rows a line of the table's type high, and a little more; the projector's columns."""
        self.projector = style.projector
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

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit()
