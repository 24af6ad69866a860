"""The exercise in the window: its dock on the right, toggled with E, answered by the rows of
the tabs it is given; its jumps go through the window's `navigate(view, row)`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from PySide6.QtCore import Qt, SignalInstance
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QMainWindow,
    QMenu,
)

from viewer.core.model import Kernel
from viewer.lesson.exercise import (
    load_exercise,
)
from viewer.qt.kit.style import Style
from viewer.qt.kit.view import RowTarget
from viewer.qt.lesson.exercise_panel import KEY, ExercisePanel


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    EXERCISE_DOCK = "exercise_dock"


@dataclass(frozen=True)
class ExerciseDock:
    """The exercise in a window: its dock, its panel, and the action (E) that shows it."""

    dock: QDockWidget
    panel: ExercisePanel
    action: QAction


def install(window: QMainWindow, targets: Sequence[RowTarget],
            navigate: Callable[[str, str], None], style_of: Callable[[], Style],
            restyled: SignalInstance, menu: QMenu | None = None) -> ExerciseDock:
    """Dock the exercise on the right of `window`, hidden; E (in `menu`, listed by F1) shows it.
    Rows picked in `targets` answer the question shown while the panel is visible; its jumps
    go to `navigate(view, row)`; it takes `style_of()` whenever `restyled` is emitted."""
    panel = ExercisePanel(load_exercise(), style_of())
    dock = QDockWidget("Exercise", window)
    dock.setObjectName(Names.EXERCISE_DOCK)
    dock.setWidget(panel)
    dock.setAllowedAreas(Qt.DockWidgetArea.RightDockWidgetArea
                         | Qt.DockWidgetArea.LeftDockWidgetArea)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    dock.hide()
    action = dock.toggleViewAction()
    action.setText("&Exercise")
    action.setShortcut(QKeySequence(KEY))
    window.addAction(action)
    if menu is not None:
        menu.addAction(action)
    for target in targets:
        target.row_picked.connect(lambda key: panel.pick(key) if dock.isVisible() else None)
    panel.jump_requested.connect(navigate)
    panel.set_kernels(*_on_screen(targets))

    def restyle(_on: bool = False) -> None:
        style = style_of()
        dock.setFont(style.font("body"))  # its title bar
        panel.set_style(style)
        if dock.isVisible():
            _size(window, dock, style)

    restyle()
    restyled.connect(restyle)

    def shown(on: bool) -> None:
        for target in targets:  # the rows answer while the exercise is open
            target.set_picking(on)
        if on:  # the window gives the panel every selection, shown or not
            _size(window, dock, style_of())
            panel.show_view()

    action.toggled.connect(shown)
    return ExerciseDock(dock, panel, action)


def _on_screen(targets: Sequence[RowTarget]) -> tuple[list[Kernel], list[str]]:
    """The kernels the reading tabs show now and their names (none: [], [])."""
    for target in targets[:1]:  # every reading tab shows the same kernels
        return list(target.kernels), list(target.names)
    return [], []


def _size(window: QMainWindow, dock: QDockWidget, style: Style) -> None:
    """A third of the window at the desk and in projector mode, where the reading tabs beside
    it need 1,169 px at 1920 (Speed Of Light's two columns in large type)."""
    share = 0.34 if style.projector else 0.32
    window.resizeDocks([dock], [round(window.width() * share)], Qt.Orientation.Horizontal)
