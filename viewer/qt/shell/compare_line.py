"""The compare line: 'A matmul_naive (naive.ncu-rep) against B matmul_tiled (tiled.ncu-rep)'.

At the desk it sits above the tabs, wrapped, with the files, the S key and a capture's
provenance; in projector mode it drops the files, names A and B in the heading's type, and sits
beside the tabs, on one line, where the window is wide enough for both. Two kernels that should
not be compared as they stand (different sizes; different GPUs, clock controls or ncu versions,
as each report's own session says, else its capture record; both captured with clocks not
locked; a request ratio without its sectors) get a warning line under it, in both modes
(viewer.lesson.misreads.compare_misreads).

Where height is short (projector mode, a window less than SHORT_HEIGHT high, as a 1366x768 laptop
gives, or where the warnings would take more than a fifth of the window's height) the warnings
fold to one line that names them ('Careful: requests against sectors; clocks not locked'); N, or
a click on that line, opens them whole and folds them again
(`notes_action`). A long name inside a warning may break at its parts, so none runs past the
right edge; on hover the line gives every warning whole.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QFontMetrics, QKeySequence, QResizeEvent, QTextDocument
from PySide6.QtWidgets import QBoxLayout, QLabel, QSizePolicy, QTabWidget, QWidget

from viewer.core.elide import distinct_elisions, wrappable_names
from viewer.core.model import Report
from viewer.core.names import distinct_paths
from viewer.lesson.misreads import Misread, compare_misreads
from viewer.qt.capture.capture_run import provenance_html
from viewer.qt.kernel_list.kernel_list import COMPARE_CHARS, KernelEntry
from viewer.qt.kit.pictures import Header
from viewer.qt.kit.plain_text import plain_tip
from viewer.qt.kit.style import Role, Style

GAP = "&nbsp;&nbsp;"
NOTES_KEY = "N"  # opens the folded warnings, and folds them again
NOTES_LINK = "notes"
# The most of the window's height the line takes with its warnings open, before they fold.
HEIGHT_SHARE = 0.2
# A window lower than this folds the warnings whatever they take: the views need the height.
SHORT_HEIGHT = 900
# What each warning is about, in a few words: the folded line names them.
NOTE_TITLES = {
    "different-size": "Different sizes",
    "request-ratio": "requests against sectors",
    "different-gpu": "Different GPUs",
    "different-clocks": "Different clock controls",
    "different-ncu": "Different ncu versions",
    "clocks-not-locked": "clocks not locked",
    "unknown-clocks": "a clock control unknown",
    "unknown-ncu": "an ncu version unknown",
}


def compare_html(picks: Sequence[KernelEntry], names: Sequence[str], style: Style,
                 repeated: Sequence[str] = (), keys: bool = True) -> str:
    """The line's rich text for one kernel or two (A, B); without files in projector mode; the
    `repeated` lines (a file named twice, read once) after it in both; the S key that swaps A
    and B named only with `keys` (a picture has no keys)."""
    if not picks:
        return ""
    said = "".join(f"{GAP}<span style='color:{style.colors.secondary}'>"
                   f"{html.escape(line, False)}</span>" for line in repeated)
    projector = style.projector
    compare = len(picks) == 2
    grey = style.colors.secondary
    files = distinct_paths([e.source for e in picks])  # two files of one name: their folders
    one_file = len({e.source for e in picks}) == 1
    parts = []
    for letter, file_name, name in zip("AB", files, names, strict=False):
        shown = html.escape(wrappable_names(name), False)  # a long name may break at its parts
        part = (f"<b>{letter}</b> " if compare else "") + f"<b>{shown}</b>"
        if not projector and not one_file:
            part += f" <span style='color:{grey}'>{html.escape(file_name, False)}</span>"
        parts.append(part)
    text = f"{GAP}against{GAP}".join(parts)
    if projector:
        return text + said
    if one_file:
        text += f"{GAP}<span style='color:{grey}'>{html.escape(files[0], False)}</span>"
    if compare and keys:
        swaps = "(S&nbsp;swaps&nbsp;A&nbsp;and&nbsp;B)"
        text += f"{GAP}&nbsp;<span style='color:{grey}'>{swaps}</span>"
    # a capture's GPU, driver, ncu, set, clocks, size and time
    return text + said + provenance_html([e.source for e in picks], "AB" if compare else " ",
                                         grey)


def plain_width(text: str, style: Style, role: Role) -> int:
    """How wide the rich `text` is on one line in `role`'s bold type."""
    plain = html.unescape(re.sub(r"<[^>]+>", "", text.replace("<br>", GAP)))
    return QFontMetrics(style.font(role, bold=True)).horizontalAdvance(plain)


def head_html(head: str, style: Style, width: int) -> str:
    """The names of A and B in projector mode in the heading's type, as large as the tabs', for
    the back row to read which kernel is A, where they fit on one line of `width`; else (long
    names, a narrow window) and at the desk in the line's body type."""
    if not style.projector or not head or plain_width(head, style, "heading") > width:
        return head
    return f"<span style='font-size:{style.points('heading')}pt'>{head}</span>"


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


def shown_names(text: str, picks: Sequence[KernelEntry]) -> str:
    """`text` with each picked kernel's whole name elided in the middle as the line elides
    names (two different names kept apart), and breaks allowed inside what is still long (a
    file name). Only the name is replaced, in one pass: what the text says beside it (its
    number, a letter, its file) is the text's own, and one name replaced never holds
    another's."""
    whole = list(dict.fromkeys(e.kernel.name for e in picks if e.kernel.name))
    short = {name: elided for name, elided in zip(
        whole, distinct_elisions(whole, COMPARE_CHARS), strict=True) if name != elided}
    if short:
        names = re.compile("|".join(map(re.escape, sorted(short, key=len, reverse=True))))
        text = names.sub(lambda m: short[m.group()], text)
    return wrappable_names(text)


def warning_html(found: Sequence[Misread], style: Style,
                 picks: Sequence[KernelEntry] = ()) -> str:
    """'<br>Careful: ...' in the warning colour, one line a misread; in projector mode only its
    first sentence (the room reads the fact, the desk the reason too). The `picks`' names in
    it are elided as the line elides names."""
    color = style.colors.warning
    texts = [first_sentence(m.text) if style.projector else m.text for m in found]
    return "".join(f"<br><span style='color:{color}'><b>Careful:</b> "
                   f"{html.escape(shown_names(text, picks), False)}</span>"
                   for text in texts)


def folded_html(found: Sequence[Misread], style: Style) -> str:
    """The warnings folded to one line: 'Careful: requests against sectors; clocks not locked
    (N: more)', a link that opens them."""
    color, grey = style.colors.warning, style.colors.secondary
    titles = "; ".join(dict.fromkeys(NOTE_TITLES.get(m.kind, "a note") for m in found))
    return (f"<br><a href='{NOTES_LINK}' style='text-decoration:none'>"
            f"<span style='color:{color}'><b>Careful:</b> {html.escape(titles, False)}</span>"
            f"{GAP}<span style='color:{grey}'>({NOTES_KEY}:&nbsp;more)</span></a>")


def fold_html(style: Style) -> str:
    """After the warnings opened where they fold: the link that folds them again."""
    grey = style.colors.secondary
    return (f"{GAP}<a href='{NOTES_LINK}' style='text-decoration:none'>"
            f"<span style='color:{grey}'>({NOTES_KEY}:&nbsp;fold)</span></a>")


class CompareLine(QLabel):
    """What is read, A against B, and what not to read into it; hidden while nothing is.
    `misreads` holds the warnings; `folded` says whether they are folded to one line now;
    `notes_action` (N) opens or folds them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compare_line")
        self.setTextFormat(Qt.TextFormat.RichText)  # built with every name escaped
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                     | Qt.TextInteractionFlag.LinksAccessibleByMouse)
        # Its text wraps to the width it is given: a long name never widens the window.
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.misreads: list[Misread] = []
        self._head = ""
        self._picks: list[KernelEntry] = []
        self._names: list[str] = []
        self._repeated: list[str] = []
        self._style = Style()
        self._short = False  # the window's height is short: the warnings fold
        self._chosen: bool | None = None  # opened (True) or folded (False) by the reader
        self._chosen_for: tuple[str, ...] = ()  # the warnings that choice was made on
        self._beside = False
        self._placed: tuple[QTabWidget, QBoxLayout, Style, int, int] | None = None
        self.linkActivated.connect(lambda _link: self.toggle_notes())
        self.notes_action = QAction("Open or fold the compare line's warnings", self)
        self.notes_action.setShortcut(QKeySequence(NOTES_KEY))
        self.notes_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.notes_action.setEnabled(False)
        self.notes_action.triggered.connect(lambda _checked=False: self.toggle_notes())
        self.addAction(self.notes_action)

    @property
    def folded(self) -> bool:
        """Whether the warnings show as one line that names them (else whole)."""
        return bool(self.misreads) and (self._short if self._chosen is None
                                        else not self._chosen)

    def toggle_notes(self) -> None:
        """Open the folded warnings, or fold the open ones (open, the line leaves the tabs'
        side for its place above them)."""
        if self.misreads:
            self._chosen = self.folded
            self._render()
            if self._placed is not None:
                self.place(*self._placed)

    def fold_opened(self) -> bool:
        """Fold the warnings the reader opened (N) where they fold; whether there were any."""
        if not (self.misreads and self._chosen and not self.folded):
            return False
        self.toggle_notes()
        return True

    def show_picks(self, picks: Sequence[KernelEntry], names: Sequence[str],
                   style: Style, reports: Sequence[Report] = (),
                   repeated: Sequence[str] = ()) -> None:
        """Say what is read (and the `repeated` lines: a file named twice, read once); given
        the `reports` the picks come from, warn about a pair that should not be read as it
        stands. On hover: the warnings' whole text, else the kernels'
        whole names."""
        found = pair_misreads(picks, reports)
        texts = tuple(m.text for m in found)
        if texts and texts != self._chosen_for:  # other warnings: as the height says
            self._chosen, self._chosen_for = None, texts
        self.misreads = found
        self._picks, self._names, self._style = list(picks), list(names), style
        self._repeated = list(repeated)
        self._head = compare_html(picks, names, style, repeated)
        self.notes_action.setEnabled(bool(found))
        self._render()
        whole = [f"{letter} {e.kernel.display_name or e.kernel.name}"
                 for letter, e in zip("AB" if len(picks) == 2 else " ", picks, strict=False)]
        self.setToolTip(plain_tip("\n\n".join(m.text for m in self.misreads) if self.misreads
                                  else "\n".join(w.strip() for w in whole)))
        self.setVisible(bool(picks))

    def _notes_html(self, folded: bool) -> str:
        if not self.misreads:
            return ""
        if folded:
            return folded_html(self.misreads, self._style)
        opened = warning_html(self.misreads, self._style, self._picks)
        return opened + (fold_html(self._style) if self._short or self._chosen else "")

    def _render(self) -> None:
        notes = self._notes_html(self.folded)
        if self._beside:
            notes = notes.replace("<br>", GAP, 1)
        text = self._head_html() + notes
        if text != self.text():
            self.setText(text)

    def _head_html(self) -> str:
        """The names as shown at the line's width now (see head_html)."""
        width = self.width() if self.width() > 0 else self.sizeHint().width()
        return head_html(self._head, self._style, width - 2 * self._style.px(10))

    def picture_header(self) -> Header | None:
        """What the line says, for a picture of the tab under it: A and B and every warning
        whole, without its keys and links; None while nothing is read."""
        if not self._picks:
            return None
        style = self._style
        head = compare_html(self._picks, self._names, style, self._repeated, keys=False)
        return Header(head + warning_html(self.misreads, style, self._picks),
                      style.font("body"), style.colors.text, style.colors.background,
                      style.px(10))

    def set_style(self, style: Style) -> None:
        c = style.colors
        self.setFont(style.font("body"))
        self.setStyleSheet(f"#compare_line {{ background: {c.background}; color: {c.text}; "
                           f"padding: {style.px(4)}px {style.px(10)}px; }}")

    def open_height(self, width: int) -> float:
        """The line's height at `width` with its warnings open."""
        style = self._style
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setDefaultFont(self.font())
        doc.setHtml(self._head_html() + self._notes_html(False))
        doc.setTextWidth(max(width - 2 * style.px(10), 1))
        return doc.size().height() + 2 * style.px(4)

    def fit_height(self, height: int) -> None:
        """Fold the warnings where the window's `height` is short: projector mode, less than
        SHORT_HEIGHT, or where open they would take more than HEIGHT_SHARE of it."""
        width = self.width() if self.width() > 0 else self.sizeHint().width()
        short = bool(self.misreads) and (self._style.projector or 0 < height < SHORT_HEIGHT
                                         or self.open_height(width) > HEIGHT_SHARE * height)
        if short != self._short:
            self._short = short
            self._render()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._render()  # the names' type follows the width
        if event.size().width() != event.oldSize().width() and not self._beside:
            window = self.window()
            if window is not self:
                self.fit_height(window.height())

    def place(self, tabs: QTabWidget, column: QBoxLayout, style: Style, width: int,
              height: int = 0) -> None:
        """Beside the tabs in projector mode when `width` holds both, else above them (the
        second place in `column`, under the banner); the warnings folded where the window's
        `height` is short."""
        self._placed = (tabs, column, style, width, height)
        if height > 0:
            self.fit_height(height)
        beside = tabs.cornerWidget(Qt.Corner.TopRightCorner) is self
        want_beside = style.projector and self.width_beside(tabs, style) <= width
        if want_beside and not beside:
            self.setWordWrap(False)
            tabs.setCornerWidget(self, Qt.Corner.TopRightCorner)
        elif not want_beside and beside:
            tabs.setCornerWidget(None, Qt.Corner.TopRightCorner)  # type: ignore[arg-type]  # None clears it; the stub omits None
            column.insertWidget(1, self)
            self.setWordWrap(True)
        self._beside = want_beside
        self._render()
        self.setVisible(bool(self.text()))

    def width_beside(self, tabs: QTabWidget, style: Style) -> int:
        """The width the tabs and this line need side by side, on one line (the warnings on
        it folded; open, they never go beside)."""
        bar = tabs.tabBar()
        needed = sum(bar.tabSizeHint(i).width() for i in range(bar.count()))
        if self.misreads and not self.folded:
            return needed + 10 ** 6
        role: Role = "heading" if self._head_html() != self._head else "body"
        needed += plain_width(self._head, style, role)
        needed += plain_width(self._notes_html(True), style, "body")
        return needed + style.px(24)
