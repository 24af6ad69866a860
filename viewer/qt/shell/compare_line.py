"""The compare line: 'A matmul_naive (naive.ncu-rep) against B matmul_tiled (tiled.ncu-rep)'.

At the desk it sits above the tabs, wrapped, with the files, the S key and a capture's
provenance; in projector mode it drops the files and sits beside the tabs, on one line, where the
window is wide enough for both. Two kernels that should not be compared as they stand (different
GPUs, clock controls or ncu versions, as each report's own session says, else its capture record;
both captured with clocks not locked; a request ratio without its sectors) get a warning line
under it, in both modes (viewer.lesson.misreads.compare_misreads).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QBoxLayout, QLabel, QSizePolicy, QTabWidget, QWidget

from viewer.core.model import Report
from viewer.lesson.misreads import Misread, compare_misreads
from viewer.qt.capture.capture_run import provenance_html
from viewer.qt.kernel_list.kernel_list import KernelEntry
from viewer.qt.kit.style import Style

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


def pair_misreads(picks: Sequence[KernelEntry], reports: Sequence[Report]) -> list[Misread]:
    """What two compared kernels must not be read for, from their reports; [] for one kernel
    or when the reports are not at hand."""
    if len(picks) != 2 or not all(0 <= e.report_index < len(reports) for e in picks):
        return []
    a, b = picks
    a_report, b_report = reports[a.report_index], reports[b.report_index]
    if a_report.source != a.source or b_report.source != b.source:
        return []  # reports of another load: say nothing rather than something wrong
    return compare_misreads(a.kernel, b.kernel, a_report, b_report)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z-])")


def first_sentence(text: str) -> str:
    """'Different GPUs: a on X, b on Y.' of a longer warning."""
    return _SENTENCE_END.split(text.strip(), maxsplit=1)[0]


def warning_html(found: Sequence[Misread], style: Style) -> str:
    """'<br>Careful: ...' in the warning colour, one line a misread; in projector mode only its
    first sentence (the room reads the fact, the desk the reason too)."""
    color = style.colors.warning
    texts = [first_sentence(m.text) if style.projector else m.text for m in found]
    return "".join(f"<br><span style='color:{color}'><b>Careful:</b> "
                   f"{html.escape(text, False)}</span>" for text in texts)


class CompareLine(QLabel):
    """What is read, A against B, and what not to read into it; hidden while nothing is.
    `misreads` holds the warnings shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compare_line")
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Its text wraps to the width it is given: a long name never widens the window.
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.misreads: list[Misread] = []

    def show_picks(self, picks: Sequence[KernelEntry], names: Sequence[str],
                   style: Style, reports: Sequence[Report] = ()) -> None:
        """Say what is read; given the `reports` the picks come from, warn about a pair that
        should not be read as it stands. On hover: the warnings' whole text, else the kernels'
        whole names."""
        self.misreads = pair_misreads(picks, reports)
        self.setText(compare_html(picks, names, style) + warning_html(self.misreads, style))
        whole = [f"{letter} {e.kernel.display_name or e.kernel.name}"
                 for letter, e in zip("AB" if len(picks) == 2 else " ", picks, strict=False)]
        self.setToolTip("\n\n".join(m.text for m in self.misreads) if self.misreads
                        else "\n".join(w.strip() for w in whole))
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
            tabs.setCornerWidget(None, Qt.Corner.TopRightCorner)  # type: ignore[arg-type]  # None clears it; the stub omits None
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
