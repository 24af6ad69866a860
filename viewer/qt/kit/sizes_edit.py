"""A size field, the Capture dialog's and the timing tab's: one N for an N x N matmul, or a list
of them (`256,512,1024`) captured or timed in one run. The capture helper's own grammar
(protocol.parse_dims) says what is acceptable; text that could still become a list (digits and
commas) is intermediate, anything else is refused as it is typed. Enter, or leaving the field,
corrects each size to the nearest multiple of the tile within DIM_MIN..DIM_MAX and drops
repeats."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QLineEdit, QWidget

from viewer.capture.helper.protocol import (
    DIM_MAX,
    DIM_MIN,
    MAX_DIMS,
    TILE,
    Refusal,
    parse_dims,
)

DEFAULT_DIM = 512


def fixed_sizes(text: str) -> str:
    """`text` corrected: each size to the nearest multiple of the tile in range, repeats and
    empty items dropped, at most MAX_DIMS; the default where nothing is left."""
    dims: list[int] = []
    for word in text.split(","):
        digits = "".join(c for c in word if c.isascii() and c.isdigit())[:5]
        if not digits:
            continue
        dim = min(DIM_MAX, max(DIM_MIN, round(int(digits) / TILE) * TILE))
        if dim not in dims:
            dims.append(dim)
    return ",".join(map(str, dims[:MAX_DIMS] or [DEFAULT_DIM]))


class SizesValidator(QValidator):
    """Acceptable: a list the helper accepts; intermediate: digits and commas, not too long."""

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        try:
            parse_dims(text)
        except Refusal:
            possible = (len(text) <= MAX_DIMS * 5 and all(c in "0123456789," for c in text))
            state = QValidator.State.Intermediate if possible else QValidator.State.Invalid
            return state, text, pos
        return QValidator.State.Acceptable, text, pos

    def fixup(self, text: str) -> str:
        return fixed_sizes(text)


class SizesEdit(QLineEdit):
    """The sizes: `value()` the list as the helper reads it once corrected."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(str(DEFAULT_DIM), parent)
        self.setValidator(SizesValidator(self))
        self.setPlaceholderText("512, or a list: 256,512,1024")
        self.editingFinished.connect(self.interpretText)

    def interpretText(self) -> None:
        """Correct what was typed (as Enter does), unless it is acceptable already."""
        if not self.hasAcceptableInput():
            self.setText(fixed_sizes(self.text()))

    def fixup(self, text: str) -> str:
        return fixed_sizes(text)

    def value(self) -> tuple[int, ...]:
        """The sizes, corrected as interpretText would."""
        text = self.text() if self.hasAcceptableInput() else fixed_sizes(self.text())
        return parse_dims(text)

    def setValue(self, dims: int | Sequence[int]) -> None:
        self.setText(str(dims) if isinstance(dims, int) else ",".join(map(str, dims)))
