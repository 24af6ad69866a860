"""The exercise's score: each question's outcome is settled once, by its first right answer or
the solution, and the total counts each outcome."""

from __future__ import annotations

from viewer.lesson.exercise_score import (
    AFTER_TRIES,
    FIRST_TRY,
    OPEN,
    SOLUTION,
    Tally,
    per_question_line,
    total_line,
)


def test_right_first_right_after_tries_and_the_solution_are_told_apart() -> None:
    first, later, shown, untouched = Tally(), Tally(), Tally(), Tally()
    first.answered(True)
    later.answered(False)
    later.answered(False)
    later.answered(True)
    shown.answered(False)
    shown.solution_shown()
    assert [t.outcome for t in (first, later, shown, untouched)] == [FIRST_TRY, AFTER_TRIES,
                                                                     SOLUTION, OPEN]
    assert later.words() == "right after 2 wrong tries"
    assert total_line([first, later, shown, untouched]) == (
        "Score: 1 of 4 right on the first try, 1 after tries, 1 solution shown, 1 open.")
    assert per_question_line(["1", "2", "3", "4"], [first, later, shown, untouched]) == (
        "Q1 right on the first try; Q2 right after 2 wrong tries; Q3 solution shown; Q4 open.")


def test_an_answer_after_the_question_is_settled_changes_nothing() -> None:
    tally = Tally()
    tally.solution_shown()
    tally.answered(True)
    assert tally.outcome == SOLUTION
    right = Tally()
    right.answered(True)
    right.answered(False)
    right.solution_shown()
    assert right.outcome == FIRST_TRY and right.wrong == 0


def test_the_end_summary_comes_once_every_question_is_settled() -> None:
    from viewer.lesson.exercise_score import Tally, end_summary

    first, after, open_ = Tally(), Tally(), Tally()
    first.answered(True)
    after.answered(False)
    after.answered(True)
    assert end_summary(["1", "2", "3"], [first, after, open_], ["a", "b", "c"]) == []
    open_.solution_shown()
    assert end_summary(["1", "2", "3"], [first, after, open_], ["SOL", "Memory", "Three"]) == [
        "Exercise done. Score: 1 of 3 right on the first try, 1 after tries, 1 solution shown, "
        "0 open.",
        "Q1: right on the first try.",
        "Q2: right after 1 wrong try. Read again: Memory",
        "Q3: solution shown. Read again: Three"]


def test_a_question_in_parts_is_right_once_every_part_is_and_counts_once() -> None:
    first, later, shown = Tally(parts=2), Tally(parts=2), Tally(parts=2)
    first.answered(True, 0)
    assert first.outcome == OPEN and first.words() == "open, 1 of 2 parts right"
    first.answered(True, 0)  # the same part again: nothing more
    assert first.outcome == OPEN
    first.answered(True, 1)
    later.answered(True, 1)
    later.answered(False, 0)
    assert later.words() == "open, 1 of 2 parts right, 1 wrong so far"
    later.answered(False, 1)  # a part already right: counts for nothing
    later.answered(True, 0)
    shown.answered(True, 0)
    shown.solution_shown()
    assert [t.outcome for t in (first, later, shown)] == [FIRST_TRY, AFTER_TRIES, SOLUTION]
    assert later.words() == "right after 1 wrong try"
    assert total_line([first, later, shown]) == (
        "Score: 1 of 3 right on the first try, 1 after tries, 1 solution shown, 0 open.")
