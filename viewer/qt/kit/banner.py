"""Errors shown over what is open: one line each (a file refused, an export that failed)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from viewer.qt.kit.style import Style

# A pale red behind the message, bordered in the style's warning colour.
BACKGROUND = "#fdecea"


class Banner(QFrame):
    """Errors over the page, one line each (plain text: a file name is never markup), with a
    button to dismiss them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        self.text = QLabel(self)
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        close = QToolButton(self)
        close.setText("Dismiss")
        close.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self.text, 1)
        layout.addWidget(close)
        self.hide()

    def show_message(self, message: str, style: Style) -> None:
        c = style.colors
        self.setStyleSheet(f"#banner {{ background: {BACKGROUND}; border: {style.px(2)}px solid "
                           f"{c.warning}; }} #banner QLabel {{ color: {c.text}; }}")
        self.text.setFont(style.font("body", bold=True))
        self.text.setText(message)
        self.show()
