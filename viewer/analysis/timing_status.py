"""The timing panel's status line and layout as plain text and numbers: a status on one line,
the run's progress worded with its GPU, and the width at which a run's numbers sit beside its
plot."""

from __future__ import annotations

SIDE_BY_SIDE_PX = 1000
"""At or above this width in pixels, the numbers sit beside the plot rather than below it."""


def side_by_side(width: int) -> bool:
    return width >= SIDE_BY_SIDE_PX


def status_line(text: str) -> str:
    """`text` on one line, its runs of white space one space each."""
    return " ".join(text.split())


def progress_text(device: str | None, message: str) -> str | None:
    """The status while a run moves on: its step on `device`; None where either is missing."""
    return f"Timing on {device}: {message}" if message and device else None
