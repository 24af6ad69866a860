"""The window's parts that the lesson (exercise_panel, lesson_hooks), the capture dialog and their
tests reach, under the names they use: each is a part of the reading page, the status line, the
actions or projector mode, which the window keeps to itself otherwise."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QScrollArea, QTabWidget, QToolButton, QWidget

from viewer.qt.kit.style import Style
from viewer.qt.kit.view import View
from viewer.qt.lesson.predict_tab import PredictTab
from viewer.qt.lesson.reference_tab import ReferenceTab
from viewer.qt.shell.compare_line import CompareLine
from viewer.qt.shell.projector_mode import ProjectorMode
from viewer.qt.shell.reading_page import ReadingPage
from viewer.qt.shell.status_line import StatusLine
from viewer.qt.shell.window_menus import WindowActions
from viewer.qt.views.timing.timing_panel import TimingPanel


class WindowParts:
    """Read-only accessors, mixed into the window before QMainWindow."""

    reading: ReadingPage
    status_line: StatusLine
    window_actions: WindowActions
    projector_mode: ProjectorMode

    @property
    def tab_style(self) -> Style:
        """The style the window is shown in (projector mode's or the desk's)."""
        return self.projector_mode.style

    @property
    def projector(self) -> bool:
        return self.projector_mode.on

    @property
    def projector_action(self) -> QAction:
        return self.window_actions.projector

    @property
    def capture_action(self) -> QAction:
        return self.window_actions.capture

    @property
    def analysis_actions(self) -> tuple[QAction, ...]:
        """The View menu's actions of the views beyond the reading order."""
        return tuple(a for a, e in zip(self.window_actions.views, self.reading.entries,
                                       strict=True) if e.kind == "beyond")

    @property
    def tabs(self) -> QTabWidget:
        return self.reading.tabs

    @property
    def tab_pages(self) -> Sequence[QWidget]:
        """The reading steps, in order."""
        return self.reading.tab_pages

    @property
    def analysis_pages(self) -> Sequence[View]:
        return self.reading.analysis_pages

    @property
    def predict_tab(self) -> PredictTab:
        return self.reading.predict_tab

    @property
    def reference_tab(self) -> ReferenceTab:
        return self.reading.reference_tab

    @property
    def timing_panel(self) -> TimingPanel:
        return self.reading.timing_panel

    @property
    def timing_scroll(self) -> QScrollArea:
        """The timing tab: the panel in its scroll area."""
        return self.reading.timing

    @property
    def compare_line(self) -> CompareLine:
        return self.reading.compare_line

    @property
    def status_text(self) -> QLabel:
        return self.status_line.text

    @property
    def capture_button(self) -> QToolButton:
        return self.status_line.capture_button

