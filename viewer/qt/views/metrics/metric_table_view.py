"""The "Every metric" view's table: its MetricModel's rows, sorting by any column, names cut in
the middle, and column widths made to fit the names shown (viewer.analysis.metric_words)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from viewer.analysis.metric_words import NAME_ROOM, column_widths
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
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.setSortingEnabled(True)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header.setStretchLastSection(True)

    def set_row_height(self, style: Style) -> None:
        """Rows a line of the table's type high, and a little more."""
        rows = self.fontMetrics().height() + style.px(6)
        self.verticalHeader().setDefaultSectionSize(rows)
        self.verticalHeader().setMinimumSectionSize(rows)

    def fit(self, projector: bool) -> None:
        """Each column's width for the rows shown now."""
        metrics = self.fontMetrics()
        names = [row.name for row in self.metric_model.shown()]
        widths = column_widths(self.metric_model.columns, names, metrics.horizontalAdvance,
                               metrics.averageCharWidth(),
                               int(self.viewport().width() * NAME_ROOM), projector)
        for column, width in enumerate(widths):
            self.horizontalHeader().resizeSection(column, width)
