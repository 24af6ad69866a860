"""The object names exercise_panel gives its widgets: its test interface (kit.object_names)."""

from __future__ import annotations

from enum import StrEnum


class Names(StrEnum):
    """The object names of exercise_panel's widgets."""

    CHECK_BUTTON = "check_button"
    END_SUMMARY = "end_summary"
    EXERCISE_PANEL = "exercise_panel"
    EXERCISE_TITLE = "exercise_title"
    HINT = "hint"
    HINT_BUTTON = "hint_button"
    HOW = "how"
    MACHINE_ANSWER = "machine_answer"
    NEXT_BUTTON = "next_button"
    PREVIOUS_BUTTON = "previous_button"
    QUESTION_LEAD = "question_lead"
    QUESTION_NUMBER = "question_number"
    QUESTION_TEXT = "question_text"
    REPORT_WORDS = "report_words"
    SCORE = "score"
    SOLUTION = "solution"
    SOLUTION_BUTTON = "solution_button"
    SOURCE_LINES = "source_lines"
    VERDICT = "verdict"
