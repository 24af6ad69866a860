"""What the lesson adds to the reading window's tabs: the note beside Duration that it is a
profiled run's once the timing tab can time bare runs here."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import SignalInstance

from viewer.analysis.timing import DeviceCheck
from viewer.lesson.misreads import profiled_duration_note
from viewer.qt.kit.reading_tab import ReadingTab


def note_profiled_durations(pages: Sequence[ReadingTab], probed: SignalInstance) -> None:
    """Note beside Duration on `pages` that it is a profiled run's once `probed` (the timing
    tab's look for a GPU: a DeviceCheck) finds a GPU to time bare runs on."""

    def timing_checked(check: DeviceCheck) -> None:
        note = profiled_duration_note(check.device is not None)
        for page in pages:
            page.set_notes([note] if note is not None else [])

    probed.connect(timing_checked)
