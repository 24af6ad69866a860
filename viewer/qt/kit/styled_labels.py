"""Labels made in one style and painted again in the next (a view's `set_style`): each keeps
the role, colour and weight it was made with."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from viewer.qt.kit.style import Role, Style


class StyledLabels:
    """`make` a label as Style.label does and remember how; `paint` them all in a new style."""

    def __init__(self) -> None:
        self._made: list[tuple[QLabel, Role, str, bool]] = []

    def make(self, style: Style, text: str, role: Role, *, bold: bool = False,
             color: str = "text", name: str = "", wrap: bool = False,
             parent: QWidget | None = None) -> QLabel:
        label = style.label(text, role, bold=bold, color=color, name=name, wrap=wrap,
                            parent=parent)
        self._made.append((label, role, color, bold))
        return label

    def paint(self, style: Style) -> None:
        for label, role, color, bold in self._made:
            style.paint_label(label, role, bold=bold, color=color)
