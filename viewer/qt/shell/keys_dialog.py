"""The window's keys, listed from its own actions and those of its parts (the kernel list's G,
the timing tab's Ctrl+R), so the list cannot drift from what works; the keys no action holds
(viewer.qt.shell.page_keys.KEY_ROWS) after them. The list fits the window it opens over
(viewer.qt.kit.dialog_room) and scrolls where it is longer, by the keys too."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QFrame, QGridLayout, QScrollArea, QVBoxLayout, QWidget

from viewer.qt.kit.dialog_room import fit_dialog
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.style import Style


def every_action(window: QWidget) -> list[QAction]:
    """The window's actions, then every action with a key on a widget inside it, each once."""
    seen: set[int] = set()
    found: list[QAction] = []
    for action in [*window.actions(), *(a for w in window.findChildren(QWidget)
                                        for a in w.actions() if not a.shortcut().isEmpty())]:
        if id(action) not in seen:
            seen.add(id(action))
            found.append(action)
    return found


def key_rows(actions: Iterable[QAction]) -> list[tuple[str, str]]:
    """(what it does, its keys) for every action that has a key, in the order given."""
    rows = []
    for action in actions:
        keys = [text for k in action.shortcuts()
                if (text := k.toString(QKeySequence.SequenceFormat.NativeText))]
        if keys:
            rows.append((action.text().replace("&", "").rstrip("."), " or ".join(keys)))
    return rows


class KeysDialog(QDialog):
    """A non-modal list of the keys; F1 (or Esc) closes it again. Its rows sit in `rows_area`,
    which has the focus: the arrows, Page Up and Page Down scroll a list longer than the
    window. A row wider than the window's room wraps its words."""

    def __init__(self, actions: Iterable[QAction], style: Style,
                 parent: QWidget | None = None,
                 more: Iterable[tuple[str, str]] = ()) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keys - ncu-reader")
        self.setModal(False)
        rows = QWidget()
        rows.setObjectName("key_rows")
        grid = QGridLayout(rows)
        grid.setHorizontalSpacing(style.px(24))
        self.rows = [*key_rows(actions), *more]
        widest = [0, 0]
        for row, (what, keys) in enumerate(self.rows):
            key = plain_label(keys, self)
            key.setFont(style.font("body", bold=True))
            key.setAlignment(Qt.AlignmentFlag.AlignRight)
            label = plain_label(what, self)
            label.setFont(style.font("body"))
            for place, cell in enumerate((key, label)):
                widest[place] = max(widest[place], cell.sizeHint().width())
                cell.setWordWrap(True)  # where the room is narrower than the line
                grid.addWidget(cell, row, place)
        self.rows_area = QScrollArea(self)
        self.rows_area.setObjectName("keys_scroll")
        self.rows_area.setWidgetResizable(True)
        self.rows_area.setFrameShape(QFrame.Shape.NoFrame)
        self.rows_area.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.rows_area.setWidget(rows)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.rows_area)
        margins = grid.contentsMargins()
        self._fit(QSize(sum(widest) + grid.horizontalSpacing() + margins.left() + margins.right(),
                        rows.sizeHint().height()))
        self.rows_area.setFocus()

    def _fit(self, rows: QSize) -> None:
        """As large as its rows (a scroll bar's width to spare), within the window's room."""
        bar = self.rows_area.verticalScrollBar().sizeHint().width()
        fit_dialog(self, QSize(rows.width() + bar, rows.height()), self.parentWidget())
