"""The compare line: 'A matmul_naive (naive.ncu-rep) against B matmul_tiled (tiled.ncu-rep)'.

At the desk it sits above the tabs, wrapped, with the files, the S key and a capture's
provenance; in projector mode it drops the files and sits beside the tabs, on one line, where the
window is wide enough for both.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QBoxLayout, QLabel, QTabWidget, QWidget

from viewer.qt.capture_run import provenance_html
from viewer.qt.kernel_list import KernelEntry
from viewer.qt.style import Style

GAP = "&nbsp;&nbsp;"


def compare_html(picks: Sequence[KernelEntry], names: Sequence[str], style: Style) -> str:
    """The line's rich text for one kernel or two (A, B); without files in projector mode."""
    if not picks:
        return ""
    projector = style.projector
    compare = len(picks) == 2
    grey = style.colors.secondary
    files = [e.file_name for e in picks]
    one_file = len(set(files)) == 1
    parts = []
    for letter, file_name, name in zip("AB", files, names, strict=False):
        part = (f"<b>{letter}</b> " if compare else "") + f"<b>{html.escape(name, False)}</b>"
        if not projector and not one_file:
            part += f" <span style='color:{grey}'>{html.escape(file_name, False)}</span>"
        parts.append(part)
    text = f"{GAP}against{GAP}".join(parts)
    if projector:
        return text
    if one_file:
        text += f"{GAP}<span style='color:{grey}'>{html.escape(files[0], False)}</span>"
    if compare:
        swaps = "(S&nbsp;swaps&nbsp;A&nbsp;and&nbsp;B)"
        text += f"{GAP}&nbsp;<span style='color:{grey}'>{swaps}</span>"
    # a capture's GPU, driver, ncu, set, clocks, size and time
    return text + provenance_html([e.source for e in picks], "AB" if compare else " ", grey)


class CompareLine(QLabel):
    """What is read, A against B; hidden while nothing is."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compare_line")
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

    def show_picks(self, picks: Sequence[KernelEntry], names: Sequence[str],
                   style: Style) -> None:
        self.setText(compare_html(picks, names, style))
        self.setVisible(bool(picks))

    def set_style(self, style: Style) -> None:
        c = style.colors
        self.setFont(style.font("body"))
        self.setStyleSheet(f"#compare_line {{ background: {c.background}; color: {c.text}; "
                           f"padding: {style.px(4)}px {style.px(10)}px; }}")

    def place(self, tabs: QTabWidget, column: QBoxLayout, style: Style, width: int) -> None:
        """Beside the tabs in projector mode when `width` holds both, else above them (the
        second place in `column`, under the banner)."""
        beside = tabs.cornerWidget(Qt.Corner.TopRightCorner) is self
        want_beside = style.projector and self.width_beside(tabs, style) <= width
        if want_beside and not beside:
            self.setWordWrap(False)
            tabs.setCornerWidget(self, Qt.Corner.TopRightCorner)
        elif not want_beside and beside:
            tabs.setCornerWidget(None, Qt.Corner.TopRightCorner)
            column.insertWidget(1, self)
            self.setWordWrap(True)
        self.setVisible(bool(self.text()))

    def width_beside(self, tabs: QTabWidget, style: Style) -> int:
        """The width the tabs and this line need side by side, on one line."""
        bar = tabs.tabBar()
        needed = sum(bar.tabSizeHint(i).width() for i in range(bar.count()))
        plain = html.unescape(re.sub(r"<[^>]+>", "", self.text()))
        needed += QFontMetrics(style.font("body", bold=True)).horizontalAdvance(plain)
        return needed + style.px(24)
