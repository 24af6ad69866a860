"""The frame every reading-order tab shares: its question on top, its answer in a scroll area.

A tab shows one kernel, or two side by side (compare mode). Subclasses fill `_build` from
`self.kernels` and `self.names`; the frame rebuilds the answer whenever the kernels or the style
change, and `clear()` leaves only the question and a line saying nothing is selected.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from viewer.model import Kernel
from viewer.names import kernel_names
from viewer.qt.style import Role, Style
from viewer.qt.value_bar import ValueBar

NOTHING_SELECTED = "No kernel selected."


def launch_text(kernel: Kernel) -> str:
    """'grid 32x32x1, block 16x16x1, NVIDIA H200 (CC 9.0)', leaving out what the report lacks."""
    parts = []
    if kernel.grid is not None:
        parts.append("grid " + "x".join(str(d) for d in kernel.grid))
    if kernel.block is not None:
        parts.append("block " + "x".join(str(d) for d in kernel.block))
    device = kernel.device_label
    if device or kernel.cc:
        parts.append(" ".join(p for p in (device, f"(CC {kernel.cc})" if kernel.cc else "") if p))
    return ", ".join(parts)


class WrappedColumn(QWidget):
    """The scrolled content: with wrapped text its height follows its width, not its minimum.

    QScrollArea takes the larger of a widget's minimum height and its height for the viewport's
    width; a layout's minimum height is the one at its narrowest, where every wrapped line is at
    its tallest, which would scroll a page that fits.
    """

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        layout = self.layout()
        if layout is not None and layout.hasHeightForWidth():
            return QSize(hint.width(), 0)
        return hint


class ReadingTab(QWidget):
    """One step of the reading order: `STEP` (its key in viewer.reading.READING_ORDER),
    `TITLE`, `QUESTION`, `set_kernels`, `set_style`, `clear`."""

    STEP: ClassVar[str] = ""
    TITLE: ClassVar[str] = ""
    QUESTION: ClassVar[str] = ""

    def __init__(self, style: Style | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._style = style or Style()
        self._kernels: list[Kernel] = []
        self._names: list[str] = []
        self.setAutoFillBackground(True)
        layout = QVBoxLayout(self)
        self._question = QLabel(self.QUESTION)
        self._question.setObjectName("question")
        self._question.setWordWrap(True)
        self._question.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._scroll = QScrollArea()
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        layout.addWidget(self._question)
        layout.addWidget(self._scroll, 1)
        self._render()

    @property
    def kernels(self) -> list[Kernel]:
        return list(self._kernels)

    @property
    def names(self) -> list[str]:
        return list(self._names)

    @property
    def style_(self) -> Style:
        """The style in use (named so as not to shadow QWidget.style())."""
        return self._style

    @property
    def compare_mode(self) -> bool:
        return len(self._kernels) == 2

    def set_kernels(self, kernels: Sequence[Kernel], names: Sequence[str] | None = None) -> None:
        """Show one kernel, or two side by side; `names` label them (default: function names)."""
        kernels = list(kernels)
        if not kernels:
            self.clear()
            return
        if len(kernels) > 2:
            raise ValueError(f"a tab shows one or two kernels, not {len(kernels)}")
        chosen = list(names) if names else kernel_names(kernels)
        if len(chosen) != len(kernels):
            raise ValueError("one name per kernel")
        self._kernels, self._names = kernels, chosen
        self._render()

    def set_style(self, style: Style) -> None:
        self._style = style
        self._render()

    def clear(self) -> None:
        self._kernels, self._names = [], []
        self._render()

    def _build(self, layout: QVBoxLayout) -> None:
        """Add the answer for `self.kernels` to `layout`."""
        raise NotImplementedError

    def _render(self) -> None:
        style = self._style
        style.apply_palette(self)
        self._question.setFont(style.font("heading", bold=True))
        margin = style.px(10)
        self.layout().setContentsMargins(margin, margin, margin, margin)
        self.layout().setSpacing(style.px(8))
        content = WrappedColumn()
        content.setObjectName("answer")
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, style.px(6), 0)
        layout.setSpacing(style.px(8))
        if self._kernels:
            self._build(layout)
        else:
            layout.addWidget(self.label(NOTHING_SELECTED, "body", color="secondary",
                                        name="placeholder"))
        layout.addStretch(1)
        old = self._scroll.takeWidget()
        if old is not None:
            old.deleteLater()
        self._scroll.setWidget(content)

    # ------------------------------------------------------------ helpers for subclasses

    def label(self, text: str, role: Role = "body", *, bold: bool = False, color: str = "text",
              name: str = "", wrap: bool = False, highlight: bool = False) -> QLabel:
        """A label in this tab's style; `name` becomes its objectName for tests and styling."""
        widget = self._style.label(text, role, bold=bold, color=color, name=name, wrap=wrap,
                                   highlight=highlight)
        if wrap:
            widget.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        return widget

    def bar(self, name: str, value: float | None, full: float, text: str,
            **options: Any) -> ValueBar:
        """A ValueBar in this tab's style, named `name` for tests (options as ValueBar's)."""
        widget = ValueBar(self._style, value, full, text, **options)
        widget.setObjectName(name)
        return widget

    def explanations(self, layout: QVBoxLayout, texts: Sequence[str]) -> None:
        """Each kernel's reading in words, side by side; in compare mode led by its name."""
        row = QHBoxLayout()
        row.setSpacing(self._style.px(14))
        for column, (text, name) in enumerate(zip(texts, self._names, strict=True), 1):
            prefix = f"{name}: " if self.compare_mode else ""
            row.addWidget(self.label(prefix + text, name=f"explanation_{column}", wrap=True), 1)
        layout.addLayout(row)

    def grid(self) -> QGridLayout:
        """A grid of rows: a label column, then one column per kernel, sharing the width."""
        grid = QGridLayout()
        grid.setHorizontalSpacing(self._style.px(14))
        grid.setVerticalSpacing(self._style.px(5))
        for column in range(1, len(self._kernels) + 1):
            grid.setColumnStretch(column, 1)
        return grid

    def header_row(self, grid: QGridLayout, row: int) -> int:
        """Kernel names and launch shapes over the kernel columns; returns the next row."""
        for column, (kernel, name) in enumerate(zip(self._kernels, self._names, strict=True), 1):
            grid.addWidget(self.label(name, "heading", bold=True, name=f"kernel_name_{column}"),
                           row, column)
            grid.addWidget(self.label(launch_text(kernel), "small", color="secondary",
                                      wrap=True), row + 1, column)
        return row + 2
