"""Fonts, colours and sizes shared by every widget, at desk scale or projector scale.

`Style(projector=False)` fits a 1280x800 laptop screen. `Style(projector=True)` is for a room:
body text at 20 pt or more, headline numbers far larger, black on white, no pale greys for data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QLabel, QWidget

from viewer.qt.kit.plain_text import plain_label

Role = Literal["small", "body", "heading", "headline"]


@dataclass(frozen=True)
class Colors:
    """Palette colours as '#rrggbb' strings."""

    background: str
    text: str
    secondary: str  # labels and captions; still dark enough to read projected
    missing: str  # text and lines for a value the report does not hold
    track: str  # the empty part of a bar
    outline: str
    neutral: str  # a bar that is data but not the answer (a block limit that does not bind)
    compute: str
    memory: str
    shared: str
    latency: str
    highlight: str  # background of the row that carries the answer (busiest unit, binding limit)
    accent: str  # the bar or box that carries the answer
    warning: str


_DESK = Colors(
    background="#ffffff", text="#111111", secondary="#3a3a3a", missing="#5c5c5c",
    track="#e6e6e6", outline="#5c5c5c", neutral="#5c5c5c",
    compute="#b34700", memory="#1f4fa8", shared="#2a7a2a",
    latency="#6a3d9a", highlight="#fff1c2", accent="#c2185b", warning="#8a4b00",
)
_PROJECTOR = Colors(
    background="#ffffff", text="#000000", secondary="#000000", missing="#3d3d3d",
    track="#d9d9d9", outline="#000000", neutral="#4d4d4d",
    compute="#a33f00", memory="#0b3d91", shared="#1b5e20",
    latency="#4a148c", highlight="#ffe082", accent="#ad1457", warning="#7a3e00",
)

# Point sizes per role: (desk, projector).
_POINTS: dict[Role, tuple[float, float]] = {
    "small": (9.0, 20.0),
    "body": (10.5, 20.0),
    "heading": (12.0, 24.0),
    "headline": (17.0, 30.0),
}


class Style:
    """One scale of the app's look: `font(role)`, `colors`, `color(name)` and `px(n)`."""

    def __init__(self, projector: bool = False) -> None:
        self.projector = projector
        self.colors = _PROJECTOR if projector else _DESK
        self.scale = 2.0 if projector else 1.0

    def __repr__(self) -> str:
        return f"Style(projector={self.projector})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Style) and other.projector == self.projector

    def __hash__(self) -> int:
        return hash(self.projector)

    def points(self, role: Role = "body") -> float:
        """The point size of a text role."""
        desk, projector = _POINTS[role]
        return projector if self.projector else desk

    def font(self, role: Role = "body", *, bold: bool = False) -> QFont:
        font = QFont()
        font.setPointSizeF(self.points(role))
        font.setBold(bold)
        return font

    def color(self, name: str) -> QColor:
        """A palette colour by field name of `Colors`: style.color('text')."""
        return QColor(getattr(self.colors, name))

    def px(self, pixels: float) -> int:
        """A desk-scale length in pixels at this scale (line widths, paddings, bar heights)."""
        return round(pixels * self.scale)

    def apply_palette(self, widget: QWidget) -> None:
        """Give `widget` and what it holds this style's background and text, focused or not.

        Backgrounds and labels keep these colours when disabled too; text in a disabled input
        stays Qt's grey, so it still reads as disabled.
        """
        palette = widget.palette()
        every = (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive,
                 QPalette.ColorGroup.Disabled)
        for group in every:
            palette.setColor(group, QPalette.ColorRole.Window, self.color("background"))
            palette.setColor(group, QPalette.ColorRole.Base, self.color("background"))
            palette.setColor(group, QPalette.ColorRole.WindowText, self.color("text"))
        for group in every[:2]:
            palette.setColor(group, QPalette.ColorRole.Text, self.color("text"))
        widget.setPalette(palette)

    def paint_label(self, label: QLabel, role: Role = "body", *, bold: bool = False,
                    color: str = "text", highlight: bool = False) -> None:
        """Set a label's font and colour in this style; `highlight` puts the answer's
        background behind it (the busiest unit, the binding limit)."""
        label.setFont(self.font(role, bold=bold))
        sheet = f"color: {getattr(self.colors, color)};"
        if highlight:
            sheet += f" background: {self.colors.highlight}; padding: 0 {self.px(3)}px;"
        label.setStyleSheet(sheet)

    def label(self, text: str, role: Role = "body", *, bold: bool = False, color: str = "text",
              name: str = "", wrap: bool = False, highlight: bool = False, rich: bool = False,
              parent: QWidget | None = None) -> QLabel:
        """A selectable label painted in this style, showing `text` as plain text (never as
        markup: viewer.qt.kit.plain_text), or with `rich` as the rich text it is (every piece
        of it from a file escaped); `name` becomes its objectName (for tests and styling),
        `wrap` wraps its words."""
        label = plain_label(text, parent)
        if rich:
            label.setTextFormat(Qt.TextFormat.RichText)
        self.paint_label(label, role, bold=bold, color=color, highlight=highlight)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        if name:
            label.setObjectName(name)
        if wrap:
            label.setWordWrap(True)
        return label


def tab_scroller_sheet(style: Style) -> str:
    """The tab bar's scroll arrows at this scale (Qt's own are a few pixels wide, too small to
    hit or see in a room), added to the tab bar's own sheet."""
    width = style.px(22)
    return (f"QTabBar::scroller {{ width: {2 * width}px; }}"
            f"QTabBar QToolButton {{ width: {width}px; font-size: {style.points('heading')}pt; }}")


INDICATOR_PX = 14
"""A check box's box at the desk, in pixels (Fusion's own); the projector's is twice it."""


def check_sheet(style: Style) -> str:
    """A check box's box at this scale, beside words in this style's type (Qt's own stays
    desk-size whatever the words' type)."""
    side = style.px(INDICATOR_PX)
    return f"QCheckBox::indicator {{ width: {side}px; height: {side}px; }}"
