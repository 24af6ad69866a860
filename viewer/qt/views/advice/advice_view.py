"""ncu's own advice: the report's rule results, the largest estimated speedup first (A).

The rule results are read when the view is shown, off the GUI thread (viewer.readers.extras
.read_extras with rules=True), each kernel's once. ncu's link markup is rendered from
viewer.analysis.advice's parts, never raw: a link to one of our views switches to its tab, a web
link opens in the browser. With two kernels: which advice appeared, went away or changed its
estimate from A to B. Where ncu's advice and the lesson disagree (uncoalesced loads on a kernel
whose counters say coalesced), the lesson's reading and the report's numbers stand in the card.
An export holds no rule results: said plainly.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from enum import StrEnum

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout

from viewer.analysis import advice
from viewer.analysis.advice import Advice, AdviceChange, Part, Text, UrlLink, ViewLink
from viewer.core import formatting as fmt
from viewer.core.elide import breakable
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.on_demand import OnDemandTab
from viewer.session import Need


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    ADVICE = "advice"
    ESTIMATE = "estimate"
    FOCUS = "focus"
    HEADING = "heading"
    LESSON = "lesson"
    MESSAGE = "message"
    MISSING = "missing"
    NONE = "none"
    STATUS = "status"
    SUMMARY = "summary"


VIEW_LINK = "view:"
READING = "Reading ncu's advice from the report…"
NO_ADVICE = "ncu's rules found nothing to say about this kernel."
STATUS_WORDS = {
    advice.APPEARED: "Appeared in B (not in A)",
    advice.WENT_AWAY: "Went away in B (was in A)",
    advice.CHANGED: "Changed its estimate from A to B",
    advice.SAME: "The same in A and B",
}


def parts_html(parts: Sequence[Part]) -> str:
    """The parts as rich text: our views as 'view:<name>' links, web links as themselves."""
    out = []
    for part in parts:
        text = html.escape(part.text)
        if isinstance(part, ViewLink):
            out.append(f'<a href="{VIEW_LINK}{part.view}">{text}</a>')
        elif isinstance(part, UrlLink):
            out.append(f'<a href="{html.escape(part.url, quote=True)}">{text}</a>')
        else:
            assert isinstance(part, Text)
            out.append(text)
    return "".join(out)


def estimate_text(item: Advice | None) -> str:
    """'est. speedup 34.38 % (of the run time)', or what there is instead."""
    if item is None:
        return "not given"
    if item.speedup_pct is None:
        return f"{item.kind}, no estimate"
    scope = {"global": " of the run time", "local": " of the unit's use"}.get(
        item.speedup_scope or "", "")
    return f"est. speedup {fmt.percent(item.speedup_pct)}{scope}"


class AdviceView(OnDemandTab):
    """ncu's rule results for one kernel, or what changed between two."""

    VIEW = "advice"
    TITLE = "ncu's advice"
    KEY = "A"
    QUESTION = ("What does ncu itself advise, and how much might each change gain? (Its "
                "estimates are upper bounds, worked out from the counters.)")

    READING = READING
    NEED = Need.of(rules=True)

    # ------------------------------------------------------------ what is shown

    def advice_of(self, column: int) -> tuple[Advice, ...] | None:
        """Kernel `column`'s (0: A) advice, ranked; None when not read or the file holds none."""
        pairs = self._pairs()
        rules = self.reads.session.extras(*pairs[column]).rules if column < len(pairs) else None
        return None if rules is None else advice.ranked(rules)

    def _build_read(self, layout: QVBoxLayout) -> None:
        held = [self.advice_of(c) for c in range(len(self.kernels))]
        missing = [self.names[c] for c, a in enumerate(held) if a is None]
        if missing:
            who = f" ({', '.join(missing)})" if len(missing) < len(held) else ""
            layout.addWidget(self.label(advice.RULES_MISSING + who + ".", "heading", wrap=True,
                                        name=Names.MISSING))
        found = [a for a in held if a is not None]
        if len(found) == 2:
            self._compare(layout, advice.compare(found[0], found[1]))
        elif found:
            if self.compare_mode:
                name = self.names[held.index(found[0])]
                layout.addWidget(self.label(f"{name} alone:", "heading", bold=True))
            if not found[0]:
                layout.addWidget(self.label(NO_ADVICE, wrap=True, name=Names.NONE))
            kernel = self.kernels[held.index(found[0])]
            for number, item in enumerate(found[0]):
                layout.addWidget(self._card(item, estimate_text(item), one_of(Names.ADVICE, number),
                                            advice.lesson_reading(item, kernel)))

    def _compare(self, layout: QVBoxLayout, changes: Sequence[AdviceChange]) -> None:
        a, b = self.names
        counts = [(sum(c.status == s for c in changes), words)
                  for s, words in ((advice.APPEARED, "appeared"), (advice.WENT_AWAY, "went away"),
                                   (advice.CHANGED, "changed its estimate"),
                                   (advice.SAME, "the same"))]
        layout.addWidget(self.label(f"From A ({a}) to B ({b}): "
                                    + ", ".join(f"{n} {words}" for n, words in counts) + ".",
                                    bold=True, wrap=True, name=Names.SUMMARY))
        status = None
        for number, change in enumerate(changes):
            if change.status != status:
                status = change.status
                layout.addWidget(self.label(STATUS_WORDS[status], "heading", bold=True,
                                            name=one_of(Names.STATUS, status)))
            if change.status == advice.SAME:
                estimate = f"A and B: {estimate_text(change.second)}"
            elif change.status == advice.CHANGED:
                moved = change.speedup_change
                delta = "" if moved is None else f" ({fmt.fixed(moved, sign=True)} points)"
                estimate = (f"A: {estimate_text(change.first)}  →  "
                            f"B: {estimate_text(change.second)}{delta}")
            else:
                side = "B" if change.status == advice.APPEARED else "A"
                estimate = f"{side}: {estimate_text(change.advice)}"
            kernel = self.kernels[1 if change.second is not None else 0]
            card = self._card(change.advice, estimate, one_of(Names.ADVICE, number),
                              advice.lesson_reading(change.advice, kernel))
            card.setProperty("status", change.status)
            layout.addWidget(card)

    def _card(self, item: Advice, estimate: str, name: str, lesson: str | None = None) -> QFrame:
        """One piece of advice: its heading and estimate, ncu's message with its links, and
        where the lesson reads the report otherwise, that reading beside it."""
        style = self.style_
        card = QFrame()
        card.setObjectName(name)
        card.setFrameShape(QFrame.Shape.StyledPanel)
        column = QVBoxLayout(card)
        column.setContentsMargins(style.px(8), style.px(6), style.px(8), style.px(6))
        column.setSpacing(style.px(3))
        strong = item.speedup_pct is not None and item.kind in ("optimization", "warning")
        column.addWidget(self.label(item.heading, "heading", bold=True, wrap=True,
                                    name=Names.HEADING))
        column.addWidget(self.label(estimate, bold=strong, highlight=strong,
                                    color="text" if item.speedup_pct is not None
                                    else "secondary", wrap=True, name=Names.ESTIMATE))
        message = QLabel(parts_html(item.parts))
        message.setObjectName(Names.MESSAGE)
        style.paint_label(message, "body")
        message.setTextFormat(Qt.TextFormat.RichText)
        message.setWordWrap(True)
        message.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        message.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        message.setOpenExternalLinks(False)
        message.linkActivated.connect(self.follow)
        column.addWidget(message)
        if lesson:
            column.addWidget(self.label(lesson, "body", bold=True, color="warning", wrap=True,
                                        name=Names.LESSON))
        if item.focus:
            focus = "; ".join(f"{breakable(f.metric)} = {fmt.count(f.value)}"
                              for f in item.focus)
            column.addWidget(self.label(f"ncu looked at: {focus}", "small", color="secondary",
                                        wrap=True, name=Names.FOCUS))
        return card

    def follow(self, link: str) -> None:
        """A link in a message: one of our views (switch to its tab), else the browser."""
        if link.startswith(VIEW_LINK):
            self.navigate.emit(link[len(VIEW_LINK):], "")
        else:
            QDesktopServices.openUrl(QUrl(link))
