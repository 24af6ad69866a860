"""The lesson's exercise: questions answered by naming the report row that settles them.

The text lives in TOML under resources/exercises/ (day42.toml ships; an instructor adds a day by
adding a file with the same schema, no code). Each option of a question is the answer a click on
one row gives: `answer(question, key)` finds the option whose target is that row and explains it;
an answer that names no row is not accepted. A question may ask for several rows, one per part
([[question.part]], each option naming its `part`: "which row explains that, and which row
cannot?"); `answer(question, key, part)` checks the row given for one part, and the question is
right once every part is. A question no row settles offers its options as choices instead (target
step "none"; `choose(question, option)`). A question names the view it is
about (`view`, shown with it) and may name a reading of the open report (`report`, worded by
viewer.lesson.exercise_report). A question may be answerable from this machine's own driver
setting ([question.machine]); `machine_answer` says it in a sentence.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from viewer.analysis.reading import READING_ORDER
from viewer.capture import probe
from viewer.core import metrics
from viewer.lesson.exercise_report import READINGS

# The reading steps a target sits in, and "none" for an answer no row gives.
STEPS = (*READING_ORDER, "none")
MARK = "ncu-reader exercise 1"
RESOURCES_PACKAGE = "viewer.resources"
EXERCISES = "exercises"
DEFAULT = "day42.toml"
# The lesson: "An answer that names no row and no counter is not finished."
NO_ROW = ("An answer that names no row and no counter is not finished: click the row or the "
          "counter that settles it.")

NO_ROW_SETTLES = "No row of a report settles this question: choose one of its answers."

_Source = Path | Traversable  # an exercise file, on disk or shipped


class ExerciseError(ValueError):
    """An exercise file that does not follow the schema; str() is one line naming the file."""

    def __init__(self, source: str | Path | Traversable, reason: str) -> None:
        super().__init__(f"{source}: {' '.join(reason.split())}")


@dataclass(frozen=True)
class Target:
    """The row an answer names: its reading step, its key (a summary key or an ncu metric name)
    and its label for people."""

    step: str
    key: str
    label: str

    @property
    def metric(self) -> str:
        """The ncu metric name of the row (a derived row keeps its summary key)."""
        return metric_of(self.key)


@dataclass(frozen=True)
class Option:
    text: str
    correct: bool
    explanation: str
    target: Target
    part: str = ""  # the id of the part it answers ('' in a question of one part)


@dataclass(frozen=True)
class Part:
    """One of the rows a question asks for: its id and what it asks ('The row that cannot')."""

    id: str
    text: str


@dataclass(frozen=True)
class Machine:
    """A question this machine's driver answers: the setting and a sentence for each value."""

    setting: str
    when_on: str
    when_off: str


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    hints: list[str]
    options: list[Option]
    solution: str
    machine: Machine | None = None
    view: str = ""  # the view the question is about ('' for none)
    report: str = ""  # a reading of the open report (viewer.lesson.exercise_report.READINGS)
    reread: str = ""  # the part of the lesson to read again, for the end summary
    parts: list[Part] = field(default_factory=list)  # [] for a question of one answer

    @property
    def correct_options(self) -> list[Option]:
        return [o for o in self.options if o.correct]

    def options_of(self, part: str = "") -> list[Option]:
        """The options that answer `part` (every option in a question of one part)."""
        return [o for o in self.options if o.part == part] if self.parts else self.options

    def part(self, part: str = "") -> Part | None:
        """The part with id `part` ('' for the first); None in a question of one part."""
        if not self.parts:
            return None
        found = next((p for p in self.parts if p.id == part), None) if part else self.parts[0]
        if found is None:
            raise ValueError(f"question {self.id} has no part {part!r}")
        return found

    @property
    def choices(self) -> list[Option]:
        """The options answered by choosing them, not by a row (target step "none")."""
        return [o for o in self.options if o.target.step == "none"]


@dataclass(frozen=True)
class Exercise:
    title: str
    questions: list[Question]
    intro: str = ""
    time: str = ""
    submit: str = ""
    rule: str = ""
    closing: str = ""
    source: str = ""
    day: int | None = None
    path: str = field(default="", compare=False)


@dataclass(frozen=True)
class Verdict:
    correct: bool
    option: Option | None
    explanation: str
    part: str = ""  # the part answered ('' in a question of one part)


def metric_of(key: str) -> str:
    """A summary key's ncu metric name; a metric name (or a derived key) as it is."""
    return metrics.SUMMARY_METRICS.get(key, key)


def label_of(key: str) -> str | None:
    """The label the app shows for a row key, None when no table names it."""
    return metrics.row_words(key)


def exercise_files() -> list[Traversable]:
    """Every exercise the app carries, by name."""
    folder = resources.files(RESOURCES_PACKAGE).joinpath(EXERCISES)
    return sorted((f for f in folder.iterdir() if f.name.endswith(".toml")),
                  key=lambda f: f.name)


def load_exercise(path: str | Path | Traversable | None = None) -> Exercise:
    """The exercise in `path` (default: the shipped day 42); ExerciseError naming the file."""
    source = path if path is not None else resources.files(RESOURCES_PACKAGE).joinpath(
        EXERCISES, DEFAULT)
    if isinstance(source, str):
        source = Path(source)
    try:
        data = tomllib.loads(source.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ExerciseError(source, f"cannot be read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ExerciseError(source, f"is not valid TOML ({exc})") from None
    return _exercise(source, data)


def _text(where: dict[str, object], key: str, what: str, source: _Source,
          required: bool = True) -> str:
    value = where.get(key, None if required else "")
    if not isinstance(value, str) or (required and not value.strip()):
        raise ExerciseError(source, f"{what}: {key} must be text")
    return value.strip()


def _exercise(source: _Source, data: dict[str, object]) -> Exercise:
    if data.get("format") != MARK:
        raise ExerciseError(source, f'format must be "{MARK}", not {data.get("format")!r}')
    raw = data.get("question")
    if not isinstance(raw, list) or not raw:
        raise ExerciseError(source, "it holds no [[question]]")
    questions = [_question(source, i, q) for i, q in enumerate(raw, 1)]
    ids = [q.id for q in questions]
    if len(set(ids)) != len(ids):
        raise ExerciseError(source, f"question ids repeat: {ids}")
    day = data.get("day")
    if day is not None and (isinstance(day, bool) or not isinstance(day, int)):
        raise ExerciseError(source, "day must be a whole number")
    extra = {k: _text(data, k, "the exercise", source, required=False)
             for k in ("intro", "time", "submit", "rule", "closing", "source")}
    return Exercise(_text(data, "title", "the exercise", source), questions, **extra, day=day,
                    path=str(source))


def _question(source: _Source, number: int, q: object) -> Question:
    if not isinstance(q, dict):
        raise ExerciseError(source, f"question {number} is not a table")
    where = f"question {number}"
    qid = q.get("id", str(number))
    if not isinstance(qid, str) or not qid.strip():
        raise ExerciseError(source, f"{where}: id must be text")
    hints = q.get("hints", [])
    if not isinstance(hints, list) or not all(isinstance(h, str) and h.strip() for h in hints):
        raise ExerciseError(source, f"{where}: hints must be a list of text")
    raw_options = q.get("option")
    if not isinstance(raw_options, list) or len(raw_options) < 2:
        raise ExerciseError(source, f"{where}: needs two or more [[question.option]]")
    options = [_option(source, f"{where}, option {i}", o) for i, o in enumerate(raw_options, 1)]
    parts = _parts(source, where, q, options)
    for part in [p.id for p in parts] or [""]:
        mine = [o for o in options if o.part == part]
        named = f"{where}, part {part}" if part else where
        if not any(o.correct for o in mine):
            raise ExerciseError(source, f"{named}: no option is correct")
        rows = [o.target.metric for o in mine if o.target.step != "none"]
        if len(set(rows)) != len(rows):
            raise ExerciseError(source, f"{named}: two options name the same row, so a click on "
                                        "it could not tell them apart")
    view = _text(q, "view", where, source, required=False)
    if view and view not in READING_ORDER:
        raise ExerciseError(source, f"{where}: view must be one of {', '.join(READING_ORDER)}")
    report = _text(q, "report", where, source, required=False)
    if report and report not in READINGS:
        raise ExerciseError(source, f"{where}: report must be one of {', '.join(READINGS)}")
    return Question(qid.strip(), _text(q, "text", where, source), [h.strip() for h in hints],
                    options, _text(q, "solution", where, source), _machine(source, where, q),
                    view, report, _text(q, "reread", where, source, required=False), parts)


def _parts(source: _Source, where: str, q: dict[str, object], options: list[Option]
           ) -> list[Part]:
    """The question's [[question.part]] tables; every option names one of them, or none at all
    where the question has none."""
    raw = q.get("part", [])
    if not isinstance(raw, list) or not all(isinstance(p, dict) for p in raw):
        raise ExerciseError(source, f"{where}: part must be [[question.part]] tables")
    parts = [Part(_text(p, "id", f"{where}, part {i}", source),
                  _text(p, "text", f"{where}, part {i}", source)) for i, p in enumerate(raw, 1)]
    ids = [p.id for p in parts]
    if len(set(ids)) != len(ids):
        raise ExerciseError(source, f"{where}: part ids repeat: {ids}")
    if len(parts) == 1:
        raise ExerciseError(source, f"{where}: one part is the question itself: give two or more "
                                    "[[question.part]], or none")
    if parts and any(o.target.step == "none" for o in options):
        raise ExerciseError(source, f"{where}: a question in parts is answered by rows: no "
                                    'option of it may have target step "none"')
    for option in options:
        if option.part not in (ids or [""]):
            wanted = f"one of {', '.join(ids)}" if ids else "absent: the question has no parts"
            raise ExerciseError(source, f"{where}: option {option.text!r} names part "
                                        f"{option.part!r}; part must be {wanted}")
    return parts


def _option(source: _Source, where: str, o: object) -> Option:
    if not isinstance(o, dict):
        raise ExerciseError(source, f"{where} is not a table")
    correct = o.get("correct")
    if not isinstance(correct, bool):
        raise ExerciseError(source, f"{where}: correct must be true or false")
    t = o.get("target")
    if not isinstance(t, dict):
        raise ExerciseError(source, f"{where}: target = {{ step, key }} is missing")
    step = t.get("step")
    if step not in STEPS:
        raise ExerciseError(source, f"{where}: target step must be one of {', '.join(STEPS)}")
    key = t.get("key", "")
    if not isinstance(key, str) or (step != "none" and not (
            key in metrics.SUMMARY_KEYS or metrics.is_metric_name(key))):
        raise ExerciseError(source, f"{where}: target key {key!r} is neither a summary key of "
                                    "viewer/core/metrics.py nor an ncu metric name")
    label = t.get("label") or label_of(key) or ("" if step == "none" else None)
    if not isinstance(label, str):
        raise ExerciseError(source, f"{where}: no table labels {key!r}: give the target a label")
    part = o.get("part", "")
    if not isinstance(part, str):
        raise ExerciseError(source, f"{where}: part must be text (a part's id)")
    return Option(_text(o, "text", where, source), correct,
                  _text(o, "explanation", where, source), Target(step, key, label), part.strip())


def _machine(source: _Source, where: str, q: dict[str, object]) -> Machine | None:
    m = q.get("machine")
    if m is None:
        return None
    if not isinstance(m, dict) or m.get("setting") != "RmProfilingAdminOnly":
        raise ExerciseError(source, f"{where}: machine.setting must be RmProfilingAdminOnly "
                                    "(the one driver setting the app reads)")
    return Machine(m["setting"], _text(m, "when_1", f"{where} machine", source),
                   _text(m, "when_0", f"{where} machine", source))


def answer(question: Question, target_key: str | None, part: str = "") -> Verdict:
    """The verdict on answering `question` (its part `part`: '' for the first) by naming the row
    `target_key` (a summary key or an ncu metric name); naming no row is not an answer."""
    asked = question.part(part)
    part = asked.id if asked is not None else ""
    if not target_key:
        return Verdict(False, None, NO_ROW, part)
    if not any(o.target.step != "none" for o in question.options):
        return Verdict(False, None, NO_ROW_SETTLES, part)
    wanted = metric_of(target_key)
    for option in question.options_of(part):
        if option.target.step != "none" and option.target.metric == wanted:
            return Verdict(option.correct, option, option.explanation, part)
    named = label_of(target_key) or target_key
    what = (f"this part ({asked.text[:1].lower()}{asked.text[1:]})" if asked is not None
            else "this question")
    return Verdict(False, None, f"{named} does not settle {what}: pick the row whose value "
                                "answers it (the hints say where to look).", part)


def choose(question: Question, option: Option) -> Verdict:
    """The verdict on answering `question` with its choice `option` (a step "none" option)."""
    if option not in question.choices:
        raise ValueError(f"{option.text!r} is not a choice of question {question.id}")
    return Verdict(option.correct, option, option.explanation)


def machine_answer(question: Question, params: Path = probe.PARAMS) -> str | None:
    """This machine's answer to a question its driver setting settles, None where the question
    has none or there is no NVIDIA driver to read."""
    if question.machine is None:
        return None
    admin_only = probe.admin_only(params)
    if admin_only is None:
        return None
    return question.machine.when_on if admin_only else question.machine.when_off
