"""The exercise's score: per question, right on the first try, right after tries, or the
solution shown first; and the total. Plain data, kept per question across moves between them. A
question in parts counts once: right when its last part is, on the first try when no part had a
wrong one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

FIRST_TRY, AFTER_TRIES, SOLUTION, OPEN = "first try", "after tries", "solution shown", "open"


@dataclass
class Tally:
    """One question's answers so far: wrong tries, the parts answered right (of `parts`), and
    how it was settled (once settled, it stays: a pick after the answer is known counts for
    nothing; so does one for a part already right)."""

    wrong: int = 0
    outcome: str = OPEN
    parts: int = 1
    right: set[int] = field(default_factory=set)  # the parts answered right, by index

    @property
    def settled(self) -> bool:
        return self.outcome != OPEN

    def answered(self, correct: bool, part: int = 0) -> None:
        """A row or choice given as the answer to `part` (a refused answer, naming nothing, is
        not one)."""
        if self.settled or part in self.right:
            return
        if not correct:
            self.wrong += 1
            return
        self.right.add(part)
        if len(self.right) >= self.parts:
            self.outcome = FIRST_TRY if self.wrong == 0 else AFTER_TRIES

    def solution_shown(self) -> None:
        if not self.settled:
            self.outcome = SOLUTION

    def words(self) -> str:
        """'right on the first try', 'right after 2 wrong tries', 'solution shown', 'open',
        'open, 1 of 2 parts right, 1 wrong so far'."""
        if self.outcome == FIRST_TRY:
            return "right on the first try"
        if self.outcome == AFTER_TRIES:
            return f"right after {self.wrong} wrong {'try' if self.wrong == 1 else 'tries'}"
        if self.outcome == SOLUTION:
            return "solution shown"
        said = [f"{len(self.right)} of {self.parts} parts right"] if self.right else []
        said += [f"{self.wrong} wrong so far"] if self.wrong else []
        return ", ".join(["open", *said])


def total_line(tallies: Sequence[Tally]) -> str:
    """'Score: 1 of 4 right on the first try, 1 after tries, 1 solution shown, 1 open.'"""
    count = {o: sum(t.outcome == o for t in tallies) for o in (FIRST_TRY, AFTER_TRIES,
                                                               SOLUTION, OPEN)}
    return (f"Score: {count[FIRST_TRY]} of {len(tallies)} right on the first try, "
            f"{count[AFTER_TRIES]} after tries, {count[SOLUTION]} solution shown, "
            f"{count[OPEN]} open.")


def per_question_line(ids: Sequence[str], tallies: Sequence[Tally]) -> str:
    """'Q1 right on the first try; Q2 open; ...'"""
    return "; ".join(f"Q{qid} {t.words()}" for qid, t in zip(ids, tallies, strict=True)) + "."


def end_summary(ids: Sequence[str], tallies: Sequence[Tally],
                rereads: Sequence[str]) -> list[str]:
    """Once every question is settled: the total, each question's outcome, and what to read again
    for each question not right on the first try; [] while one is open."""
    if not tallies or any(not t.settled for t in tallies):
        return []
    lines = [f"Exercise done. {total_line(tallies)}"]
    for qid, tally, reread in zip(ids, tallies, rereads, strict=True):
        again = f" Read again: {reread}" if reread and tally.outcome != FIRST_TRY else ""
        lines.append(f"Q{qid}: {tally.words()}.{again}")
    return lines
