"""The status line: what is open in words, the current tab's thresholds, loading progress with
Cancel, and the Capture button."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QProgressBar, QSizePolicy, QStatusBar, QToolButton, QWidget

from viewer.core.model import Report
from viewer.core.names import distinct_paths
from viewer.qt.kernel_list.kernel_list import KernelEntry, compare_names, look_alikes
from viewer.qt.kit.plain_text import plain_label, plain_tip
from viewer.qt.kit.reading_tab import ReadingTab


def open_text(reports: Sequence[Report], picks: Sequence[KernelEntry],
              names: Sequence[str], repeated: Sequence[str] = ()) -> str:
    """'a.ncu-rep + b.ncu-rep: 2 kernels, comparing A naive with B tiled' (two files of one
    name with their folders: 'new/a.ncu-rep + old/a.ncu-rep'), then the `repeated` lines
    ('a.ncu-rep named twice: read once')."""
    if not reports:
        return "No report open. Ctrl+O opens one; so does dropping files here."
    files = (" + ".join(distinct_paths([r.source for r in reports])) if len(reports) <= 2
             else f"{len(reports)} files")
    total = sum(len(r.kernels) for r in reports)
    noun = "kernel" if total == 1 else "kernels"
    if len(picks) == 2:
        what = f"comparing A {names[0]} with B {names[1]}"
    elif picks:
        what = f"reading {picks[0].kernel.label}"
    else:
        what = "no kernel picked"
    return "; ".join([f"{files}: {total:,} {noun}, {what}", *repeated])


# The most characters of each picked kernel's name the line says, widest first: the widest
# whose line fits the status bar is shown, the two names kept apart at each.
NAME_WIDTHS = (40, 32, 24, 16, 10)


def open_texts(reports: Sequence[Report], picks: Sequence[KernelEntry],
               repeated: Sequence[str] = ()) -> list[str]:
    """`open_text` with the picks' names at each of NAME_WIDTHS, widest first; then, for a
    narrower line, what is compared before the files ('comparing A x with B y; a + b')."""
    among = look_alikes(reports, picks)
    whole = [open_text(reports, picks, compare_names(picks, chars, among), repeated)
             for chars in NAME_WIDTHS]
    first = []
    for text in whole:
        files, _, rest = text.partition(": ")
        _count, _, said = rest.partition(", ")
        first.append("; ".join([said, files]) if said else text)
    if len(picks) == 2:  # narrower still: the two names alone, then the rest
        for chars in (10, 6):
            a, b = compare_names(picks, chars)
            first.append(f"A {a}, B {b}; " + "; ".join(whole[-1].split(": ", 1)[:1]))
    return list(dict.fromkeys(whole + first))


def whole_parts(text: str, width: int, advance: Callable[[str], int]) -> str:
    """`text` less its last '; ' parts, whole ones, until it fits `width` (its first part
    whatever its width): a clipped line ends at a part's end, never inside a number."""
    parts = text.split("; ")
    while len(parts) > 1 and advance("; ".join(parts)) > width:
        parts.pop()
    return "; ".join(parts)


class FittedLine(QLabel):
    """A one-line label that shows the widest of its `variants` that fits its width (the last
    where none does), so that a long name never hides the other name after it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self._variants: list[str] = []

    def set_variants(self, variants: Sequence[str]) -> None:
        self._variants = list(variants)
        self._fit()

    def setText(self, text: str) -> None:
        self._variants = [text]
        super().setText(text)

    def _fit(self) -> None:
        if not self._variants:
            return
        width = self.contentsRect().width()
        advance = self.fontMetrics().horizontalAdvance
        fits = [v for v in self._variants if advance(v) <= width]
        super().setText(fits[0] if fits else whole_parts(self._variants[-1], width, advance))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit()


def threshold_text(page: QWidget | None) -> str:
    """The thresholds `page` judges by, in its own words ('' if it has none: a reading tab
    says them through `thresholds()`)."""
    return page.thresholds() if isinstance(page, ReadingTab) else ""


PROGRESS_WIDTH = 220
"""The loading bar's width at most, unless its words need more."""


class StatusLine:
    """The status bar's parts, added to `bar`; progress and Cancel show only while loading."""

    def __init__(self, bar: QStatusBar, parent: QWidget) -> None:
        self.text = FittedLine(parent)
        self.text.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.thresholds = plain_label("", parent)
        self.progress = QProgressBar(parent)
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(PROGRESS_WIDTH)
        self.progress.setTextVisible(True)
        self.cancel_button = QToolButton(parent)
        self.cancel_button.setText("Cancel")
        self.capture_button = QToolButton(parent)
        self.capture_button.setText("Capture...")
        # no Tab stop between the tabs and a page built after it (its key: Ctrl+Shift+C)
        self.capture_button.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        bar.addWidget(self.text, 1)
        for part in (self.thresholds, self.progress, self.cancel_button, self.capture_button):
            bar.addPermanentWidget(part)
        self.show_busy(False)

    def show_busy(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)
        if busy:
            self.progress.setValue(0)
            self.progress.setMinimumWidth(0)

    def show_progress(self, fraction: float, message: str) -> None:
        """The bar at `fraction`, saying `message` ('kernel 104 of 400'), wide enough for it in
        the type it has (projector type too)."""
        self.progress.setValue(round(fraction * 1000))
        self.progress.setFormat(message or "%p%")
        metrics = self.progress.fontMetrics()
        need = metrics.horizontalAdvance(message or "100%") + 4 * metrics.averageCharWidth()
        self.progress.setMaximumWidth(max(PROGRESS_WIDTH, need))
        self.progress.setMinimumWidth(need)

    def show_thresholds(self, text: str) -> None:
        """The first sentence on the line, all of it in the tooltip."""
        self.thresholds.setText(text.split(". ")[0].rstrip(".") if text else "")
        self.thresholds.setToolTip(plain_tip(text))
