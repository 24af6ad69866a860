"""The window's moves between its tabs: the reading steps and the arrows round Predict and the
reading order, a tab by its View menu action, a view by name (every view's `navigate`), and the
focus back on the tabs. Mixed into the window before QMainWindow; it reaches the reading page
alone."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from viewer.qt.shell.reading_page import ReadingPage


class WindowSteps:
    """The window's commands that move between tabs (viewer.qt.shell.window_menus calls them)."""

    reading: ReadingPage

    def focus_tabs(self) -> None:
        """The focus on the tabs again (Esc in a box), so that the letter keys work."""
        self.reading.tabs.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def set_tab(self, index: int) -> None:
        """Show reading step `index` (0: Speed Of Light)."""
        self.reading.set_tab(index)

    def next_tab(self) -> None:
        """The next step, Predict and the reading order round (from Timing or the T4: Predict)."""
        self._show_page(self.reading.step_after(+1))

    def previous_tab(self) -> None:
        self._show_page(self.reading.step_after(-1))

    def show_tab(self, index: int) -> None:
        """Show tab `index` (its action in the View menu)."""
        self._show_page(self.reading.widget_of(index))

    def _show_page(self, page: QWidget) -> None:
        # Every move between tabs passes here (the arrows, the keys, the menu).
        self.reading.tabs.setCurrentWidget(page)

    def reveal_next(self) -> None:
        self.reading.predict_tab.reveal_next()

    def navigate(self, view: str, row: str = "") -> None:
        """The one handler of every view's `navigate(view, row)` and the exercise's jumps: show
        view `view` with row `row` framed ('' for the reading tab that holds row `row`;
        viewer.qt.shell.reading_page.ReadingPage.go_to)."""
        self.reading.go_to(view, row)

    def show_metric(self, metric: str) -> None:
        """Show the reading tab that holds a counter's row, the row framed."""
        self.navigate("", metric)

    def current_tab(self) -> QWidget:
        return self.reading.tabs.currentWidget()
