"""Errors shown over what is open: one line each (a file refused, an export that failed)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from viewer.qt.kit.style import Style

# A pale red behind the message, bordered in the style's warning colour.
BACKGROUND = "#fdecea"


class Banner(QFrame):
    """Errors over the page, one line each (plain text: a file name is never markup), with a
    button to dismiss them; in the window's style, and restyled with it (`set_style`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        self.text = QLabel(self)
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.dismiss = QToolButton(self)
        self.dismiss.setText("Dismiss")
        self.dismiss.clicked.connect(self.hide)
        self._layout = QHBoxLayout(self)
        self._layout.addWidget(self.text, 1)
        self._layout.addWidget(self.dismiss)
        self.set_style(Style())
        self.hide()

    def show_message(self, message: str, style: Style) -> None:
        self.set_style(style)
        self.text.setText(message)
        self.show()

    def set_style(self, style: Style) -> None:
        """The message and its button in `style`'s body type (the projector's in a room): the
        type goes in the sheet, which a label's own font would not survive."""
        c = style.colors
        points = style.points("body")
        self.setStyleSheet(f"#banner {{ background: {BACKGROUND}; border: {style.px(2)}px solid "
                           f"{c.warning}; }} #banner QLabel {{ color: {c.text};"
                           f" font-size: {points}pt; font-weight: bold; }}"
                           f" #banner QToolButton {{ font-size: {points}pt; }}")
        self.text.setFont(style.font("body", bold=True))
        self.dismiss.setFont(style.font("body"))
        self._layout.setContentsMargins(style.px(10), style.px(6), style.px(6), style.px(6))
