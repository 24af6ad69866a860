"""The timing panel's controls: the size or a list of sizes (kit's SizesEdit), Run (Ctrl+R, also
an action of the panel's), Cancel, the run's progress, and the button between this machine's run
and the record."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from viewer.analysis.timing import SHOW_RECORD, SHOW_RUN
from viewer.qt.kit.plain_text import plain_tip
from viewer.qt.kit.sizes_edit import SizesEdit
from viewer.qt.kit.style import Style

RUN_SHORTCUT = "Ctrl+R"


class TimingControls(QHBoxLayout):
    """The controls' row; its widgets (and the Run action) belong to `owner`, the panel. The
    record button is laid out by the panel, beside its status line."""

    def __init__(self, style: Style, owner: QWidget) -> None:
        super().__init__()
        self.size_label = style.label("Sizes (N)", "body", name="size_label", parent=owner)
        self.size_box = SizesEdit(owner)
        self.size_box.setObjectName("size")
        self.size_box.setToolTip(plain_tip("One size, or a list timed one after another: "
                                           "256,512,1024 (at most 8, each 16 to 8192 in "
                                           "steps of 16)"))
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
        self.size_box.setMinimumWidth(style.px(170))
