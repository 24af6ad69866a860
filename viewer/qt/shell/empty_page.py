"""What the window shows before a report is open: how to open one, or capture one."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from viewer.qt.kit.banner import Banner
from viewer.qt.kit.style import Style

EMPTY_TEXT = (
    "<h2>No report open</h2>"
    "<p>Open an Nsight Compute report (<b>.ncu-rep</b>) or its text or CSV export:</p>"
    "<ul><li><b>File &gt; Open...</b> (Ctrl+O), pick one file or two to compare;</li>"
    "<li>drop files onto this window;</li>"
    "<li>or name them on the command line: "
    "<code>python -m viewer naive.ncu-rep tiled.ncu-rep</code></li></ul>"
    "<p>Two files, or one file with two kernels, open side by side.</p>"
    "<p>Or capture the lesson's kernels on this machine's GPU: <b>File &gt; Capture...</b>"
    " (Ctrl+Shift+C).</p>"
)


class EmptyPage(QWidget):
    """The ways to open a report, a banner for a file that failed, Open and Capture buttons."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = QLabel(EMPTY_TEXT, self)
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.banner = Banner(self)
        self.open_button = QPushButton("Open...", self)
        self.capture_button = QPushButton("Capture...", self)
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.capture_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(60, 40, 60, 40)
        layout.addWidget(self.banner)
        layout.addStretch(1)
        layout.addWidget(self.text)
        layout.addLayout(buttons)
        layout.addStretch(2)

    def set_style(self, style: Style) -> None:
        self.text.setFont(style.font("body"))
        self.banner.set_style(style)
