"""Where a student stands on one question of the exercise, as plain data (the panel keeps one
per question)."""

from __future__ import annotations

from dataclasses import dataclass, field

from viewer.lesson import exercise_score
from viewer.lesson.exercise import Verdict


@dataclass
class Progress:
    """One question's state: the row picked (to check), the verdict and the row it is about,
    hints shown, the solution shown; in a question in parts, the part a pick answers and the row
    each part was answered right with."""

    pick: str | None = None
    verdict: Verdict | None = None
    given: str | None = None
    hints: int = 0
    solution: bool = False
    tally: exercise_score.Tally = field(default_factory=exercise_score.Tally)
    part: int = 0  # by index
    right: dict[int, str] = field(default_factory=dict)
