"""The words over the "Every metric" table: its heading, the warnings (why A and B may differ
beyond their code that the compare line does not say, hit rates above 100 %) and the note (what
an export lacks, a read or a write that failed)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QWidget

from viewer.analysis.metric_words import READING
from viewer.core.elide import wrappable_names
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.style import Style


class MetricNotes:
    """The heading, warnings and note labels; they belong to `owner`, the view."""

    def __init__(self, owner: QWidget) -> None:
        self.heading = plain_label("", owner)
        self.heading.setWordWrap(True)
        self.warnings = plain_label("", owner)
        self.warnings.setObjectName("warnings")
        self.warnings.setWordWrap(True)
        self.note = plain_label("", owner)
        self.note.setWordWrap(True)

    def warn(self, texts: Sequence[str]) -> None:
        """Each warning on its line, behind a warning sign; hidden where there is none."""
        self.warnings.setText("\n".join(f"\u26a0 {wrappable_names(t)}" for t in texts))
        self.warnings.setVisible(bool(texts))

    def reading(self) -> None:
        """While every metric is read: the heading says so, nothing else shows."""
        self.heading.setText(READING)
        self.warnings.hide()
        self.note.hide()

    def say(self, text: str) -> None:
        """`text` in the note, shown."""
        self.note.setText(text)
        self.note.show()

    def set_style(self, style: Style) -> None:
        style.paint_label(self.heading, "body" if style.projector else "heading", bold=True)
        style.paint_label(self.warnings, "body", bold=True, color="warning")
        style.paint_label(self.note, "small", color="secondary")
