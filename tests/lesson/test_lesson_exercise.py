"""The exercise: data, not code; every option explained and pointing at a row the shipped reports
hold; answers checked by the row they name; question 4 answered by this machine's driver."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from viewer.analysis import memory_traffic, reading
from viewer.analysis.chart_layout import DRAM_SUM
from viewer.core import shipped
from viewer.core.model import Kernel
from viewer.lesson import exercise
from viewer.lesson.exercise import ExerciseError, answer, load_exercise, machine_answer
from viewer.lesson.exercise_report import report_words
from viewer.lesson.lesson_kernels import find_pair
from viewer.lesson.lesson_pair import LessonPair, lesson_pair
from viewer.readers import read_report

DAY42 = Path(__file__).resolve().parents[2] / "resources" / "exercises" / "day42.toml"
H200 = Path(__file__).resolve().parents[2] / "tests" / "data" / "corpus" / "h200"


@pytest.fixture(scope="module")
def ex() -> exercise.Exercise:
    return load_exercise()


def question(ex: exercise.Exercise, qid: str) -> exercise.Question:
    return next(q for q in ex.questions if q.id == qid)


def test_the_shipped_exercise_is_the_lessons_four_questions(ex) -> None:
    assert ex.title == "Reading an Nsight Compute report" and ex.day == 42
    assert [q.id for q in ex.questions] == ["1", "2", "3", "4"]
    assert ex.questions[0].text.startswith("Read the naive kernel's Memory Throughput row")
    assert ex.questions[3].text.startswith("You are an ordinary user on a system where "
                                           "RmProfilingAdminOnly is 1.")
    # each question's own hint first, then the lesson's Hint 1 (questions 1 and 3) or Hint 2
    # (question 2); question 4's one hint points at the lesson's pages, no row settling it
    assert [len(q.hints) for q in ex.questions] == [2, 2, 2, 1]
    assert [q.hints[1].startswith("The lesson's Hint") for q in ex.questions[:3]] == [True] * 3
    assert ex.rule == "An answer that names no row and no counter is not finished."
    assert exercise.exercise_files()[0].name == "day42.toml"


def test_every_option_is_explained_and_names_a_row_the_shipped_reports_hold(ex) -> None:
    kernels = [read_report(path).kernels[0] for path in shipped.comparison()]
    for q in ex.questions:
        assert q.solution and q.correct_options, q.id
        for option in q.options:
            assert option.explanation.strip() and option.text.strip()
            target = option.target
            if option in q.choices:  # answered by choosing it, not by a row
                assert target.step == "none" and not target.key, option.text
                continue
            assert target.step in ("sol", "memory", "occupancy") and target.label, option.text
            for kernel in kernels:
                assert row_value(kernel, target.key) is not None, (q.id, target.key, kernel.name)


def row_value(kernel: Kernel, key: str) -> float | None:
    """A row's value as the tabs show it: the DRAM box is the bytes read + written."""
    if key == DRAM_SUM:
        return kernel.metric(DRAM_SUM) or memory_traffic.memory_chart(kernel).dram_bytes
    if key == "sectors_per_request":
        return reading.value(kernel, key)
    return kernel.metric(exercise.metric_of(key))


def test_the_lessons_obvious_wrong_answers_are_wrong_options(ex) -> None:
    obvious = {q.id: [o for o in q.options if "obvious wrong answer" in o.explanation]
               for q in ex.questions}
    assert {qid: len(found) for qid, found in obvious.items()} == {"1": 1, "2": 1, "3": 1, "4": 0}
    assert not any(o.correct for found in obvious.values() for o in found)
    assert '"it issues sixteen times fewer loads"' in obvious["2"][0].explanation


def test_an_answer_is_checked_by_the_row_it_names(ex) -> None:
    q2 = question(ex, "2")
    right = answer(q2, "global_load_sectors")
    assert right.correct and right.option is not None
    assert right.explanation.startswith("The sector count explains it; the request count cannot.")
    # The same row named by its metric name.
    assert answer(q2, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == right
    wrong = answer(q2, "global_load_requests")
    assert not wrong.correct and wrong.option is not None
    assert "sixteen times fewer loads" in wrong.explanation
    elsewhere = answer(question(ex, "1"), "l2_hit_rate_pct")
    assert not elsewhere.correct and elsewhere.option is None
    assert elsewhere.explanation.startswith("L2 Hit Rate does not settle this question")


def test_question_2_takes_the_row_that_explains_it_and_the_row_that_cannot(ex) -> None:
    """The lesson's Solution: "The sector count explains it; the request count cannot." The
    request count is the obvious wrong row that explains and the lesson's row that cannot; the
    DRAM rows, the same in both kernels, cannot either, and the sector count is no row that
    cannot."""
    q2 = question(ex, "2")
    assert [p.id for p in q2.parts] == ["explains", "cannot"]
    right = {p.id: {o.target.key for o in q2.options_of(p.id) if o.correct} for p in q2.parts}
    assert right == {"explains": {"global_load_sectors"},
                     "cannot": {"global_load_requests", "shared_load_instructions",
                                "sectors_per_request", DRAM_SUM, "dram_bytes_read",
                                "dram_bytes_write"}}
    assert answer(q2, "global_load_requests", "cannot").correct
    assert not answer(q2, "global_load_requests", "explains").correct
    dram = answer(q2, DRAM_SUM, "cannot")
    assert dram.correct and dram.option is not None
    assert dram.option.target.label == "DRAM bytes moved"
    assert "the same in both cannot explain a difference in time" in dram.explanation
    assert "That makes it a row that cannot." in answer(q2, DRAM_SUM, "explains").explanation
    assert not answer(q2, "global_load_sectors", "cannot").correct
    for part in q2.parts:  # every row offered in one part is explained in the other too
        assert ({o.target.key for o in q2.options_of(part.id)}
                == {o.target.key for o in q2.options})


PAIRS = [shipped.comparison(), [shipped.reference()],
         [H200 / "numba-naive.ncu-rep", H200 / "numba-tiled.ncu-rep"]]


@pytest.mark.parametrize("paths", PAIRS, ids=["profiles", "t4-table", "corpus-h200"])
def test_question_2s_rows_move_as_their_answers_say(ex, paths: list[Path]) -> None:
    """On every shipped pair, the tiled kernel the faster: the row that explains moves with the
    time; every other row that cannot is the same in both kernels (within 5 %) or moves against
    the time (more in the faster kernel). The request count, the lesson's, moves with the time:
    it cannot because it counts the global loads alone."""
    naive, tiled = find_pair([k for path in paths for k in read_report(path).kernels])
    assert row_value(tiled, "duration_ns") < row_value(naive, "duration_ns")
    q2 = question(ex, "2")
    for option in q2.options_of("explains"):
        if option.correct:
            assert row_value(tiled, option.target.key) < row_value(naive, option.target.key)
    checked = 0
    for option in q2.options_of("cannot"):
        key = option.target.key
        fast, slow = row_value(tiled, key), row_value(naive, key)
        if not option.correct or key == "global_load_requests" or None in (fast, slow):
            continue
        assert fast > slow or abs(fast - slow) <= 0.05 * max(fast, slow), (key, slow, fast)
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("key", [None, ""])
def test_an_answer_that_names_no_row_is_not_accepted(ex, key: str | None) -> None:
    verdict = answer(question(ex, "1"), key)
    assert not verdict.correct and verdict.option is None
    assert verdict.explanation == exercise.NO_ROW


@pytest.mark.parametrize(("params", "expected"), [
    ("RmProfilingAdminOnly: 1\nRmGpuId: 0\n", "set to 1"),
    ("RmProfilingAdminOnly: 0\n", "set to 0"),
    (None, None),  # no NVIDIA driver
])
def test_question_4_is_answered_from_this_machines_driver(
        ex, tmp_path: Path, params: str | None, expected: str | None) -> None:
    path = tmp_path / "params"
    if params is not None:
        path.write_text(params)
    said = machine_answer(question(ex, "4"), path)
    if expected is None:
        assert said is None
    else:
        assert said is not None and expected in said and "ordinary user here" in said
    assert machine_answer(question(ex, "1"), path) is None  # no driver setting answers it


OPTION = """
[[question.option]]
text = "{text}"
correct = {correct}
explanation = "Because."
target = {{ step = "{step}", key = "{key}" }}
"""


def write_exercise(folder: Path, options: str, head: str = 'format = "ncu-reader exercise 1"\n'
                   'title = "Day 43"\n') -> Path:
    path = folder / "day43.toml"
    path.write_text(head + '[[question]]\nid = "1"\ntext = "Which row?"\nsolution = "This one."\n'
                    + options, encoding="utf-8")
    return path


def test_an_instructor_adds_a_day_with_no_code(tmp_path: Path) -> None:
    path = write_exercise(tmp_path, OPTION.format(text="L2", correct="true", step="memory",
                                                  key="l2_hit_rate_pct")
                          + OPTION.format(text="L1", correct="false", step="memory",
                                          key="l1tex__t_sector_hit_rate.pct"))
    ex = load_exercise(path)
    assert ex.title == "Day 43" and ex.questions[0].options[1].target.label == "L1/TEX Hit Rate"
    assert answer(ex.questions[0], "lts__t_sector_hit_rate.pct").correct


GOOD = OPTION.format(text="a", correct="true", step="sol", key="duration_ns")


@pytest.mark.parametrize(("options", "reason"), [
    (GOOD + "[[question.option", "is not valid TOML"),
    (GOOD, "needs two or more [[question.option]]"),
    (GOOD + OPTION.format(text="b", correct="true", step="roofline", key="duration_ns"),
     "target step must be one of"),
    (GOOD + OPTION.format(text="b", correct="false", step="sol", key="Duration"),
     "target key 'Duration' is neither a summary key"),
    (GOOD + OPTION.format(text="b", correct="false", step="sol", key="gpu__time_duration.sum"),
     "two options name the same row"),
    (GOOD + OPTION.format(text="b", correct="false", step="sol", key="smsp__made_up.sum"),
     "no table labels 'smsp__made_up.sum': give the target a label"),
    (GOOD.replace("true", "false") + OPTION.format(text="b", correct="false", step="sol",
                                                   key="dram_throughput_pct"),
     "no option is correct"),
    (GOOD.replace('explanation = "Because."', 'explanation = ""')
     + OPTION.format(text="b", correct="false", step="sol", key="dram_throughput_pct"),
     "explanation must be text"),
])
def test_a_malformed_exercise_is_refused_in_one_line_naming_the_file(
        tmp_path: Path, options: str, reason: str) -> None:
    path = write_exercise(tmp_path, options)
    with pytest.raises(ExerciseError) as caught:
        load_exercise(path)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(str(path)) and reason in message


PARTS = """
[[question.part]]
id = "explains"
text = "The row that explains it"

[[question.part]]
id = "cannot"
text = "The row that cannot"
"""


def in_part(part: str, text: str, correct: str, key: str) -> str:
    return OPTION.format(text=text, correct=correct, step="memory", key=key).replace(
        "[[question.option]]\n", f'[[question.option]]\npart = "{part}"\n')


TWO_PARTS = PARTS + "".join((
    in_part("explains", "sectors", "true", "global_load_sectors"),
    in_part("explains", "requests", "false", "global_load_requests"),
    in_part("cannot", "requests", "true", "global_load_requests"),
    in_part("cannot", "sectors", "false", "global_load_sectors"),
))


def test_a_question_in_parts_takes_a_row_for_each(tmp_path: Path) -> None:
    """One row may answer two parts differently: the request count is the wrong row that
    explains and the right row that cannot."""
    q = load_exercise(write_exercise(tmp_path, TWO_PARTS)).questions[0]
    assert [(p.id, p.text) for p in q.parts] == [("explains", "The row that explains it"),
                                                 ("cannot", "The row that cannot")]
    assert [o.text for o in q.options_of("cannot")] == ["requests", "sectors"]
    assert answer(q, "global_load_requests", "cannot").correct
    wrong = answer(q, "global_load_requests", "explains")
    assert not wrong.correct and wrong.part == "explains" and wrong.option is not None
    assert answer(q, "global_load_requests") == wrong  # no part named: the first
    elsewhere = answer(q, "lts__t_sector_hit_rate.pct", "cannot")
    assert elsewhere.option is None and elsewhere.explanation.startswith(
        "L2 Hit Rate does not settle this part (the row that cannot)")
    with pytest.raises(ValueError, match="no part 'why'"):
        answer(q, "global_load_sectors", "why")


@pytest.mark.parametrize(("options", "reason"), [
    (TWO_PARTS.replace('part = "cannot"', 'part = "could not"', 1),
     "names part 'could not'; part must be one of explains, cannot"),
    (GOOD + OPTION.format(text="b", correct="false", step="sol", key="dram_throughput_pct")
     .replace("[[question.option]]\n", '[[question.option]]\npart = "explains"\n'),
     "names part 'explains'; part must be absent: the question has no parts"),
    (TWO_PARTS.replace('id = "cannot"', 'id = "explains"'), "part ids repeat"),
    (PARTS.split("[[question.part]]\nid = \"cannot\"")[0]
     + in_part("explains", "a", "true", "global_load_sectors")
     + in_part("explains", "b", "false", "global_load_requests"),
     "one part is the question itself"),
    (TWO_PARTS.replace('"requests"\ncorrect = true', '"requests"\ncorrect = false'),
     "part cannot: no option is correct"),
    (TWO_PARTS + in_part("cannot", "again", "false",
                         "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
     "part cannot: two options name the same row"),
    (TWO_PARTS + OPTION.format(text="c", correct="false", step="none", key="")
     .replace("[[question.option]]\n", '[[question.option]]\npart = "cannot"\n'),
     "a question in parts is answered by rows"),
])
def test_a_malformed_question_in_parts_is_refused(tmp_path: Path, options: str,
                                                  reason: str) -> None:
    with pytest.raises(ExerciseError, match=re.escape(reason)):
        load_exercise(write_exercise(tmp_path, options))


def test_the_shipped_file_is_the_one_found_through_the_package() -> None:
    assert load_exercise(DAY42) == load_exercise()


def shipped_pair() -> LessonPair:
    kernels = [read_report(path).kernels[0] for path in shipped.comparison()]
    found = lesson_pair(kernels, [k.name for k in kernels])
    assert found is not None
    return found


def test_question_2_counts_the_open_reports_loads_beside_the_lessons(ex) -> None:
    """The shipped tiled kernel's SASS issues 640 shared loads per thread, not the source's
    1,024: the exercise's own words give the lesson's count as the lesson's, and the reading of
    the report says what this report holds."""
    q2 = question(ex, "2")
    assert q2.report == "loads" and q2.view == "memory"
    for option in q2.options:  # no report-bound count said as if it were the report's
        assert "1,088" not in option.explanation and "1,024" not in option.explanation
    assert "The lesson counts the loads in the kernels' source" in q2.solution
    words = report_words(q2.report, shipped_pair())
    assert ("matmul_naive issues 1,024 global loads per thread and matmul_tiled 64 global and "
            "640 shared, 704 load instructions in all, fewer than matmul_naive's 1,024") in words
    assert ("The lesson counts 1,024 shared loads per thread in the source; this report's "
            "compiled kernel issues 640") in words
    assert "matmul_tiled pulls 2,097,152 sectors through L1TEX against matmul_naive's " \
           "16,777,216, 8.00x fewer, and the sector row is the one that explains the time" in words
    assert report_words(q2.report, None) == ""  # no report open: the lesson's words alone


def test_question_2_on_the_t4_table_says_the_lessons_shared_count_as_the_lessons() -> None:
    t4 = read_report(shipped.reference()).kernels
    words = report_words("loads", lesson_pair(t4, ["naive", "tiled"]))
    assert ("it does not hold the shared load count, which the lesson counts as 1,024 per thread "
            "in the source") in words
    assert "2,083,878 sectors through L1TEX against naive's 16,777,077, 8.05x fewer" in words


def test_each_question_names_the_view_it_is_about(ex) -> None:
    assert [q.view for q in ex.questions] == ["sol", "memory", "occupancy", ""]


def test_question_4_is_answered_by_its_own_choices_not_by_a_row(ex) -> None:
    q4 = question(ex, "4")
    assert len(q4.choices) == len(q4.options) >= 3
    right = [o for o in q4.choices if o.correct]
    assert len(right) == 1 and right[0].text.startswith("The .nsys-rep can be made")
    assert exercise.choose(q4, right[0]).correct
    wrong = next(o for o in q4.choices if not o.correct)
    verdict = exercise.choose(q4, wrong)
    assert not verdict.correct and verdict.explanation == wrong.explanation
    refused = answer(q4, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
    assert refused.option is None and refused.explanation == exercise.NO_ROW_SETTLES
    with pytest.raises(ValueError):
        exercise.choose(question(ex, "1"), q4.choices[0])


def test_an_unknown_view_or_report_is_refused(tmp_path) -> None:
    text = DAY42.read_text(encoding="utf-8")
    for bad, said in (('view = "memory"', 'view = "roofline"'),
                      ('report = "loads"', 'report = "stalls"')):
        path = tmp_path / "bad.toml"
        path.write_text(text.replace(bad, said, 1), encoding="utf-8")
        with pytest.raises(ExerciseError, match="must be one of"):
            load_exercise(path)
