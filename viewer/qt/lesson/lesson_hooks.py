"""What the lesson adds to the reading window's tabs: a jump to a row (the exercise's answers),
and the note beside Duration that it is a profiled run's once the timing tab can time bare runs
here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from viewer.lesson.misreads import profiled_duration_note

if TYPE_CHECKING:
    from viewer.qt.shell.main_window import MainWindow


def jump_to_row(window: MainWindow, step: str, key: str) -> bool:
    """Show the tab of reading step `step` and frame row `key` in it (other tabs unmarked; no
    step: every frame taken away); False when that tab does not show the row."""
    found = False
    for page in window.tab_pages:
        mark = getattr(page, "mark_row", None)
        if mark is None:
            continue
        if getattr(page, "STEP", "") == step:
            window.tabs.setCurrentWidget(page)
            found = mark(key)
        else:
            mark(None)
    return found


def connect_misreads(window: MainWindow) -> None:
    """Note beside Duration that it is a profiled run's once the timing tab has a GPU to time
    bare runs on."""
    pages = [p for p in window.tab_pages if hasattr(p, "set_notes")]

    def timing_checked(check: object) -> None:
        note = profiled_duration_note(getattr(check, "device", None) is not None)
        for page in pages:
            page.set_notes([note] if note is not None else [])

    window.timing_panel.probe.done.connect(timing_checked)
