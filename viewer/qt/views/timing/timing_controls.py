"""The timing panel's controls: the size, Run (Ctrl+R, also an action of the panel's), Cancel,
the run's progress, and the button between this machine's run and the record."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from viewer.analysis.timing import DEFAULT_SIZE, SHOW_RECORD, SHOW_RUN, size_text, timing_sizes
from viewer.qt.kit.style import Style

RUN_SHORTCUT = "Ctrl+R"


class TimingControls(QHBoxLayout):
    """The controls' row; its widgets (and the Run action) belong to `owner`, the panel. The
    record button is laid out by the panel, beside its status line."""

    def __init__(self, style: Style, owner: QWidget) -> None:
        super().__init__()
        self.size_label = style.label("Size", "body", name="size_label", parent=owner)
        self.size_box = QComboBox(owner)
        self.size_box.setObjectName("size")
        for dim in timing_sizes():
            self.size_box.addItem(size_text(dim), dim)
        self.size_box.setCurrentIndex(max(0, self.size_box.findData(DEFAULT_SIZE)))
        self.size_label.setBuddy(self.size_box)
        self.run_button = QPushButton(f"Run ({RUN_SHORTCUT})", owner)
        self.run_button.setObjectName("run")
        self.cancel_button = QPushButton("Cancel", owner)
        self.cancel_button.setObjectName("cancel")
        self.progress = QProgressBar(owner)
        self.progress.setObjectName("progress")
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(True)
        self.progress.setFormat("%p%")
        self.record_button = QPushButton(SHOW_RECORD, owner)
        self.record_button.setObjectName("record_toggle")
        self.progress.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.run_action = QAction("Run kernel timing", owner)
        self.run_action.setShortcut(QKeySequence(RUN_SHORTCUT))
        owner.addAction(self.run_action)
        for widget in (self.size_label, self.size_box, self.run_button, self.cancel_button):
            self.addWidget(widget)
        self.addWidget(self.progress, 3)
        self.addStretch(1)

    def show_for(self, busy: bool, can_run: bool, toggles: bool, showing_record: bool) -> None:
        """Run where it can, Cancel and the progress while a run is busy; the record button
        where there is a run and a record (`toggles`), named for the page it goes to."""
        self.run_button.setEnabled(can_run)
        self.size_box.setEnabled(not busy)
        self.cancel_button.setEnabled(busy)
        self.progress.setVisible(busy)
        self.record_button.setVisible(toggles)
        self.record_button.setText(SHOW_RUN if showing_record else SHOW_RECORD)

    def set_style(self, style: Style) -> None:
        style.paint_label(self.size_label, "body", bold=False, color="text")
        for widget in (self.size_box, self.run_button, self.cancel_button, self.progress,
                       self.record_button):
            widget.setFont(style.font("body"))
        button = f"padding: {style.px(4)}px {style.px(12)}px;"
        for widget in (self.run_button, self.cancel_button, self.record_button):
            widget.setStyleSheet(button)
        self.setSpacing(style.px(8))
        self.progress.setMaximumWidth(style.px(320))
