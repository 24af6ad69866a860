"""The object names reading_tab gives its widgets: its test interface (kit.object_names)."""

from __future__ import annotations

from enum import StrEnum


class Names(StrEnum):
    """The object names of reading_tab's widgets."""

    ANSWER = "answer"
    EXPLANATION = "explanation"
    KERNEL_NAME = "kernel_name"
    MISREAD = "misread"
    NOTE = "note"
    PLACEHOLDER = "placeholder"
    QUESTION = "question"
