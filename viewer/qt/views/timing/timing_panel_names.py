"""The object names timing_panel gives its widgets: its test interface (kit.object_names)."""

from __future__ import annotations

from enum import StrEnum


class Names(StrEnum):
    """The object names of timing_panel's widgets."""

    PLAIN_RUN_NOTE = "plain_run_note"
    STATUS = "status"
    TITLE = "title"
