"""The object names source_view gives its widgets: its test interface (kit.object_names)."""

from __future__ import annotations

from enum import StrEnum


class Names(StrEnum):
    """The object names of source_view's widgets."""

    QUESTION = "question"
    STATUS = "status"
