"""Text from a file shown as the text it is, never as markup: the one home for that in Qt.

Qt guesses whether a string is rich text (Qt.mightBeRichText: a tag it knows before the first
line break) for a QLabel left at the default Qt.AutoText, for every tooltip and for a message
box's text. A kernel named `f<b>x</b>` would then show in bold, `<a href=...>` as a live link,
and `<img src='file:///...'>` as a picture read from the local disk. So:

- a label that shows text from a file is a `plain_label` (or a `Style.label`, plain too), or has
  Qt.PlainText set: it shows its text exactly;
- a tooltip or a message box has no format of its own, so its text goes through `plain_tip`:
  where Qt would guess rich text, the text is escaped (html.escape) inside an explicit
  rich-text paragraph that keeps its line breaks, so it reads exactly as the text; elsewhere
  Qt shows it plain already, and it is left as it is. Every setToolTip, setTabToolTip,
  ToolTipRole and QMessageBox in viewer/qt goes through it;
- a menu item's or a button's text treats '&' as a shortcut mark: `plain_mnemonic` doubles it;
  a window title treats '[*]' as the unsaved mark: `plain_title` doubles that.

The labels that mean markup (a link to another view, coloured parts) build it with every piece
from a file passed through html.escape, and set Qt.RichText themselves.
"""

from __future__ import annotations

import html

from PySide6.QtGui import Qt  # QtGui's Qt: QtCore's and Qt.mightBeRichText
from PySide6.QtWidgets import QLabel, QWidget

TIP_OPEN = "<p style='white-space:pre-wrap'>"
"""How an escaped tooltip starts: rich text for sure, its line breaks and spaces kept."""


def plain_tip(text: str) -> str:
    """`text` for a tooltip or a message box, which Qt then shows exactly as `text` (its markup
    as characters, its line breaks as breaks)."""
    if not Qt.mightBeRichText(text):
        return text
    return f"{TIP_OPEN}{html.escape(text, quote=False)}</p>"


def plain_label(text: str = "", parent: QWidget | None = None) -> QLabel:
    """A QLabel that shows `text`, and whatever is set on it later, as plain text."""
    label = QLabel(text, parent)
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def plain_mnemonic(text: str) -> str:
    """`text` for a menu item or a button, whose '&' would mark a shortcut key: shown as is."""
    return text.replace("&", "&&")


def plain_title(text: str) -> str:
    """`text` for a window title, whose '[*]' would stand for the unsaved mark: shown as is."""
    return text.replace("[*]", "[*][*]")
