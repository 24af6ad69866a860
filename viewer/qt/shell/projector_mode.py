"""Projector mode: large type, high contrast, no menu, status line or side panel, full screen;
and the window's own parts (tab bar, reading page, compare line) in the current style."""

from __future__ import annotations

from typing import TYPE_CHECKING

from viewer.qt.kit.style import Style

if TYPE_CHECKING:
    from viewer.qt.shell.main_window import MainWindow


def tab_bar_sheet(style: Style) -> str:
    """The reading steps as words underlined by the accent when current (headings in a room)."""
    c = style.colors
    points = style.points("heading" if style.projector else "body")
    return (f"QTabBar {{ font-size: {points}pt; font-weight: bold; }}"
            f"QTabBar::tab {{ padding: {style.px(6)}px {style.px(16)}px; color: {c.secondary};"
            f" background: transparent; border: none;"
            f" border-bottom: {style.px(3)}px solid transparent; }}"
            f"QTabBar::tab:selected {{ color: {c.text}; border-bottom-color: {c.accent}; }}"
            f"QTabBar::tab:hover:!selected {{ color: {c.text}; }}")


def set_projector(window: MainWindow, on: bool, full_screen: bool = True) -> None:
    """Enter or leave projector mode; the kernel list and a maximized window come back as they
    were."""
    w = window
    if on == w.projector:
        return
    w.projector = on
    w.tab_style = Style(projector=on)
    w.projector_action.setChecked(on)
    w.leave_projector_action.setEnabled(on)
    w.menuBar().setVisible(not on)
    if on:
        w.list_was_visible = w.kernel_dock.isVisible()
        w.kernel_dock.hide()
        if full_screen:
            w.was_maximized = w.isMaximized()
            w.showFullScreen()
    else:
        w.kernel_dock.setVisible(w.list_was_visible)
        if w.isFullScreen():
            if w.was_maximized:
                w.showMaximized()
            else:
                w.showNormal()
    for page in w.tab_pages:
        page.set_style(w.tab_style)
    w.timing_panel.set_style(w.tab_style)
    apply_style(w)


def apply_style(window: MainWindow) -> None:
    """The window's own parts in `window.tab_style`."""
    w = window
    style = w.tab_style
    w.tabs.tabBar().setStyleSheet(tab_bar_sheet(style))
    style.apply_palette(w.reading_page)
    w.reading_page.setAutoFillBackground(True)
    w.statusBar().setVisible(not style.projector)
    w.statusBar().setFont(style.font("small"))
    w.empty_page.set_style(style)
    w.compare_line.set_style(style)
    w.compare_line.show_picks(w.picks, w.names, style)
    w.place_compare_line()
    w.update_status()
