"""The "Every metric" view's controls: the search, the change's threshold (a diff's), the box
that adds what one kernel holds, and Export CSV; on one line at the desk, the search alone on its
line in projector mode."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QGridLayout,
    QLineEdit,
    QPushButton,
    QWidget,
)

from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.style import Style, check_sheet


class MetricControls(QGridLayout):
    """The controls' grid; its widgets belong to `owner`, the view it is laid out in."""

    def __init__(self, owner: QWidget) -> None:
        super().__init__()
        self.search = QLineEdit(owner)
        self.search.setPlaceholderText("Search metric names, labels and descriptions")
        self.search.setClearButtonEnabled(True)
        self.threshold_label = plain_label("Only what changed by more than", owner)
        self.threshold = QDoubleSpinBox(owner)
        self.threshold.setRange(0.0, 1e6)
        self.threshold.setDecimals(1)
        self.threshold.setSuffix(" %")
        self.one_sided = QCheckBox(owner)
        self.one_sided.setObjectName("one_sided")
        self.export_button = QPushButton("Export CSV...", owner)

    def show_for(self, compare: bool, any_kernel: bool) -> None:
        """The threshold for a diff alone; export where there is a table."""
        for widget in (self.threshold_label, self.threshold):
            widget.setVisible(compare)
        if not compare:
            self.one_sided.hide()
        self.export_button.setEnabled(any_kernel)

    def set_style(self, style: Style) -> None:
        style.paint_label(self.threshold_label, "body")
        for widget in (self.search, self.threshold, self.one_sided, self.export_button):
            widget.setFont(style.font("body"))
        self.one_sided.setStyleSheet(check_sheet(style))
        self.place(style.projector)

    def place(self, stacked: bool) -> None:
        """Search, threshold and export on one line; `stacked`, the search alone."""
        for widget in (self.search, self.threshold_label, self.threshold, self.export_button,
                       self.one_sided):
            self.removeWidget(widget)
        self.addWidget(self.search, 0, 0, 1, 1 if not stacked else 3)
        row, column = (1, 0) if stacked else (0, 1)
        self.addWidget(self.threshold_label, row, column)
        self.addWidget(self.threshold, row, column + 1)
        self.addWidget(self.export_button, row, column + 2)
        self.addWidget(self.one_sided, row + 1, 0, 1, 4)
        for c in range(4):
            self.setColumnStretch(c, 0)
        self.setColumnStretch(0, 1)
