"""Question 2's counts said with the question, question 3's block limits read from the report, and
the exercise's fixed text true of the T4 as of the H200 (read from this checkout's TOML)."""

from __future__ import annotations

from pathlib import Path

import pytest

from viewer.core import shipped
from viewer.lesson import exercise, exercise_report
from viewer.lesson.lesson_pair import LessonPair, lesson_pair
from viewer.readers import read_report

TOML = Path(__file__).resolve().parents[2] / "resources" / "exercises" / "day42.toml"


@pytest.fixture(scope="module")
def shipped_pair() -> LessonPair:
    kernels = [read_report(path).kernels[0] for path in shipped.comparison()]
    found = lesson_pair(kernels, [k.name for k in kernels])
    assert found is not None
    return found


def question(qid: str) -> exercise.Question:
    return next(q for q in exercise.load_exercise(TOML).questions if q.id == qid)


def test_question_2_says_both_counts_before_any_answer(shipped_pair) -> None:
    lead = exercise_report.lead_words(question("2").report, shipped_pair)
    assert ("The lesson counts loads in the kernels' source: at N = 512 the naive kernel issues "
            "1,024 global loads per thread and the tiled kernel 1,088, 64 global and 1,024 "
            "shared: more.") in lead
    assert ("matmul_naive issues 1,024 SASS load instructions per thread and matmul_tiled 704 "
            "(64 global, 640 shared): fewer.") in lead


def test_question_2_without_a_report_says_the_lessons_count_alone() -> None:
    lead = exercise_report.lead_words("loads", None)
    assert lead.startswith("The lesson counts loads") and "SASS" not in lead


def test_question_3_says_fewer_fit_by_shared_memory_but_that_limit_does_not_bind(
        shipped_pair) -> None:
    words = exercise_report.report_words(question("3").report, shipped_pair)
    assert ("Block Limit Shared Mem is 21 blocks for matmul_tiled against 32 for matmul_naive: "
            "fewer blocks do fit by shared memory.") in words
    assert ("matmul_tiled's lowest limit is 8 blocks (Block Limit Registers and Block Limit "
            "Warps).") in words
    assert "So Block Limit Shared Mem does not bind" in words


def test_question_3s_wrong_answer_does_not_say_the_rows_refute_fewer_fitting() -> None:
    wrong = next(o for o in question("3").options if o.text.startswith("The tiled kernel uses"))
    assert "refute" not in wrong.explanation
    assert "Fewer may fit by shared memory alone" in wrong.explanation


def test_question_4_attributes_the_nsys_rep_to_the_lessons_page() -> None:
    q = question("4")
    assert q.solution.startswith('The lesson\'s answer: "The .nsys-rep, not the .ncu-rep files."')
    assert "This app ships two .ncu-rep files" in q.solution
    assert not any(p.name.endswith(".nsys-rep") for p in shipped.profiles_dir().iterdir())


def test_each_questions_first_hint_points_at_its_own_rows() -> None:
    hints = {q.id: q.hints for q in exercise.load_exercise(TOML).questions}
    assert "Memory Throughput beside DRAM Throughput" in hints["1"][0]
    assert "Sectors moved (global loads)" in hints["2"][0]
    assert "Block Limit rows" in hints["3"][0]
    assert "Run it yourself" in hints["4"][0]
    assert len({h[0] for h in hints.values()}) == 4  # no two questions share their first hint
    assert hints["2"][1].startswith("The lesson's Hint 2:")
