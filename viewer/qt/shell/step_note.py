"""The note above the tabs that says why a report opened on a later reading step ('Opened on 2
Memory chart: this report holds none of 1 Speed Of Light's values, ...',
viewer.analysis.reading_steps). At the desk the status bar says it; projector mode hides the
status bar, so there the note says it to the room, in the projector's type, until Esc (or the
next report) puts it away."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from viewer.qt.kit.style import Style

HIDE_WORDS = "(Esc hides this)"


class StepNote(QLabel):
    """`reason` (the words said, '' for none) shown in projector mode until `dismiss`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("step_note")
        self.setTextFormat(Qt.TextFormat.RichText)  # the reason escaped
        self.setWordWrap(True)
        # its words wrap to the width the page gives: a long reason never widens the window
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.reason = ""
        self._style = Style()
        self._dismissed = False
        self.hide()

    def say(self, reason: str) -> None:
        """Say `reason` (a new report's; '' takes the last one away)."""
        self.reason, self._dismissed = reason, False
        self._render()

    def dismiss(self) -> bool:
        """Put the note away (Esc); whether it was shown."""
        shown = self.isVisible()
        self._dismissed = True
        self.hide()
        return shown

    def set_style(self, style: Style) -> None:
        """The projector's type and colours in a room; at the desk the note is not shown."""
        self._style = style
        c = style.colors
        self.setFont(style.font("body", bold=True))
        self.setStyleSheet(f"#step_note {{ background: {c.highlight}; color: {c.text}; "
                           f"font-size: {style.points('body')}pt; "
                           f"padding: {style.px(4)}px {style.px(10)}px; }}")
        self._render()

    def _render(self) -> None:
        grey = self._style.colors.secondary
        self.setText(f"{html.escape(self.reason, False)}&nbsp;&nbsp;"
                     f"<span style='color:{grey}; font-weight:normal'>{HIDE_WORDS}</span>")
        self.setVisible(bool(self.reason) and self._style.projector and not self._dismissed)
