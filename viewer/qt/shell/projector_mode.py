"""Projector mode: large type, high contrast, no menu, status line or side panel, full screen;
and the window's own parts (tab bar, reading page, status bar, page before a report) in the
current style."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QMainWindow, QStatusBar

from viewer.qt.kit.style import Style
from viewer.qt.shell.empty_page import EmptyPage
from viewer.qt.shell.reading_page import ReadingPage


def tab_bar_sheet(style: Style) -> str:
    """The reading steps as words underlined by the accent when current (headings in a room)."""
    c = style.colors
    points = style.points("heading" if style.projector else "body")
    return (f"QTabBar {{ font-size: {points}pt; font-weight: bold; }}"
            f"QTabBar::tab {{ padding: {style.px(6)}px {style.px(16)}px; color: {c.secondary};"
            f" background: transparent; border: none;"
            f" border-bottom: {style.px(3)}px solid transparent; }}"
            f"QTabBar::tab:selected {{ color: {c.text}; border-bottom-color: {c.accent}; }}"
            f"QTabBar::tab:hover:!selected {{ color: {c.text}; }}"
            # the focus on the tabs (Tab, Esc from a box) shows on the current one
            f"QTabBar::tab:selected:focus {{ background: {c.highlight}; }}")


class ProjectorMode(QObject):
    """Whether the window is in projector mode (`on`) and the `style` that follows from it.
    `toggle` (F5, Ctrl+P) drives it, and Esc where nothing else is open (escape_key);
    `changed(on)` is emitted once the window has entered or left the mode, for the window to
    restyle its pages. The kernel list and a maximized window come back as they were."""

    changed = Signal(bool)

    def __init__(self, window: QMainWindow, kernel_dock: QDockWidget, toggle: QAction) -> None:
        super().__init__(window)
        self._window, self._dock = window, kernel_dock
        self._toggle = toggle
        self._on = False
        self._style = Style(projector=False)
        self._was_maximized = self._list_was_visible = False
        toggle.triggered.connect(lambda _checked=False: self.set(not self._on))

    @property
    def on(self) -> bool:
        return self._on

    @property
    def style(self) -> Style:
        return self._style

    def set(self, on: bool, full_screen: bool = True) -> None:
        """Enter or leave projector mode; full screen unless told otherwise."""
        if on == self._on:
            return
        w = self._window
        self._on = on
        self._style = Style(projector=on)
        self._toggle.setChecked(on)
        w.menuBar().setVisible(not on)
        if on:
            self._list_was_visible = self._dock.isVisible()
            self._dock.hide()
            if full_screen:
                self._was_maximized = w.isMaximized()
                w.showFullScreen()
        else:
            self._dock.setVisible(self._list_was_visible)
            if w.isFullScreen():
                if self._was_maximized:
                    w.showMaximized()
                else:
                    w.showNormal()
        self.changed.emit(on)


def restyle_views(reading: ReadingPage, style: Style) -> None:
    """Every view of the reading page in `style`, where its style differs."""
    for view in reading.views:
        if view.style_ != style:
            view.set_style(style)


def apply_style(style: Style, reading: ReadingPage, status_bar: QStatusBar,
                empty_page: EmptyPage) -> None:
    """The window's own parts in `style`: the tab bar, the reading page's background, the status
    bar (hidden in projector mode), the page before a report, the compare line's frame, the
    note of a later step opened on and the banners of a file refused."""
    reading.tabs.tabBar().setStyleSheet(tab_bar_sheet(style))
    reading.banner.set_style(style)
    style.apply_palette(reading)
    reading.setAutoFillBackground(True)
    status_bar.setVisible(not style.projector)
    status_bar.setFont(style.font("small"))
    empty_page.set_style(style)
    reading.compare_line.set_style(style)
    reading.step_note.set_style(style)
