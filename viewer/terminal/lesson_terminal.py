"""`python -m viewer lesson [FILES...] [--json]`: the lesson's page for a naive and tiled pair.

For the reports named (default: the shipped pair) it prints the predictions against the counters
(derived, measured, difference, match) with the published T4 value beside each, the speed
reading, the T4 reference set against the pair (what moved across GPUs and what did not), and the
exercise's questions with the rows their answers name (in a question in parts, each part's).
Course builds check pages with it. Files that cannot be read, or that do not hold the lesson's
two kernels, are one line on stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any, TextIO, TypedDict

from viewer.analysis.predict import DerivationError
from viewer.core import formatting as fmt
from viewer.core import shipped
from viewer.core.model import Kernel, Report, ReportError
from viewer.core.terminal_text import visible, visible_lines
from viewer.lesson import exercise, exercise_report, lesson_kernels, misreads, reveal, t4_reference
from viewer.lesson.lesson_pair import lesson_pair

DESCRIPTION = ("The lesson's predictions against the counters of a naive and tiled matmul pair, "
               "the published T4 reference beside them, and the exercise.")
_WIDTH = 100

Row = dict[str, Any]  # a dataclass's asdict(), with the fields the page adds: JSON values
SCHEMA = 2
"""--json's layout; 2: `reveal`'s `sources` (was `files`), and its `kernels` each the `source`,
`index` and `name` of the kernel as summary --json names them (was the name alone);
`exercise`'s `provenance`, where the exercise comes from (was `source`, which names a file)."""


class KernelPlace(TypedDict):
    """Which kernel of which file, in summary --json's words."""

    source: str
    index: int
    name: str


class RevealPage(TypedDict):
    sources: list[str]  # the files named
    kernels: dict[str, KernelPlace]  # "naive", "tiled"
    devices: dict[str, str | None]
    dim: int | None
    tile: int | None
    rows: list[Row]
    warnings: list[Row]


class ReferencePage(TypedDict):
    source: str
    provenance: str
    speed: Row
    rows: list[Row]
    summary: list[str]
    warnings: list[Row]


class QuestionPage(TypedDict):
    id: str
    text: str
    hints: list[str]
    solution: str
    view: str  # the view the question is about ('' for none)
    with_the_question: str  # counts said before any answer ('' for none)
    in_this_report: str  # what the open pair shows of it ('' for nothing)
    machine_answer: str | None
    parts: list[Row]  # the rows a question in parts asks for: id, text ([] for one answer)
    options: list[Row]  # each with the `part` it answers ('' for one answer)


class ExercisePage(TypedDict):
    title: str
    day: int | None
    provenance: str  # where the exercise comes from (the lesson's day)
    intro: str
    rule: str
    questions: list[QuestionPage]


class LessonPage(TypedDict):
    """lesson_page: the page as plain data, the --json form."""

    schema: int
    reveal: RevealPage
    speed: Row
    reference: ReferencePage
    exercise: ExercisePage


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """lesson's options, for viewer/cli.py's command tree."""
    parser.add_argument("files", nargs="*", type=Path,
                        help="reports or exports holding the lesson's naive and tiled matmuls "
                             "(default: the shipped pair)")
    parser.add_argument("--json", action="store_true", help="one JSON object: reveal, speed, "
                                                            "reference, exercise")


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Print the lesson's page for parsed options; returns the exit status."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        page = lesson_page(args.files or shipped.comparison())
    except (ReportError, lesson_kernels.NotTheLesson, DerivationError,
            exercise.ExerciseError) as exc:
        print(visible(f"lesson: {exc}"), file=err)
        return 1
    print(json.dumps(page, indent=1) if args.json else visible_lines(page_text(page)), file=out)
    return 0


def _read(paths: Sequence[str | Path]) -> list[tuple[Kernel, Report]]:
    from viewer.readers import read_report

    found = []
    for path in paths:
        report = read_report(path)
        found += [(k, report) for k in report.kernels]
    return found


def _report_of(kernel: Kernel, found: list[tuple[Kernel, Report]]) -> Report:
    return next(r for k, r in found if k is kernel)


def _place(kernel: Kernel, report: Report) -> KernelPlace:
    return {"source": report.source, "index": kernel.index, "name": kernel.name}


def lesson_page(paths: Sequence[str | Path]) -> LessonPage:
    """Everything the page shows, as plain data (the --json form)."""
    found = _read(paths)
    try:
        naive, tiled = lesson_kernels.find_pair([k for k, _ in found])
    except lesson_kernels.NotTheLesson as exc:
        names = ", ".join(str(p) for p in paths)
        raise lesson_kernels.NotTheLesson(f"{names}: {exc}") from None
    reports = _report_of(naive, found), _report_of(tiled, found)
    rows = reveal.reveal(naive, tiled)
    t4_report = t4_reference.reference_report()
    t4 = lesson_kernels.find_pair(t4_report.kernels)
    t4_rows = {(r.kernel, r.quantity): r for r in reveal.reveal(*t4)}
    cross = t4_reference.cross_gpu(t4, (naive, tiled))
    ex = exercise.load_exercise()
    here = lesson_pair([naive, tiled], [naive.name, tiled.name])
    dim = lesson_kernels.lesson_dim(naive)
    return {
        "schema": SCHEMA,
        "reveal": {
            "sources": [str(p) for p in paths],
            "kernels": {"naive": _place(naive, reports[0]), "tiled": _place(tiled, reports[1])},
            "devices": {"naive": naive.device_label, "tiled": tiled.device_label},
            "dim": dim,
            "tile": lesson_kernels.lesson_tile(naive),
            "rows": [{**asdict(r), "match": r.match,
                      "t4": t4_rows[(r.kernel, r.quantity)].measured} for r in rows],
            "warnings": [asdict(m) for m in misreads.compare_misreads(naive, tiled, *reports)],
        },
        "speed": asdict(reveal.speed(naive, tiled)),
        "reference": {
            "source": t4_report.source,
            "provenance": t4_reference.provenance_text(t4_report),
            "speed": asdict(reveal.speed(*t4)),
            "rows": [{**asdict(r), "unit": r.unit} for r in cross],
            "summary": t4_reference.summary_words(cross),
            "warnings": [asdict(m) for m in misreads.compare_misreads(
                t4[0], naive, t4_report, reports[0])],
        },
        "exercise": {
            "title": ex.title, "day": ex.day, "provenance": ex.source, "intro": ex.intro,
            "rule": ex.rule,
            "questions": [{"id": q.id, "text": q.text, "hints": q.hints, "solution": q.solution,
                           "view": q.view,
                           "with_the_question": exercise_report.lead_words(q.report, here),
                           "in_this_report": exercise_report.report_words(q.report, here),
                           "machine_answer": exercise.machine_answer(q),
                           "parts": [asdict(p) for p in q.parts],
                           "options": [asdict(o) for o in q.options]} for q in ex.questions],
        },
    }


def _wrap(text: str, indent: str, first: str | None = None) -> str:
    return textwrap.fill(" ".join(text.split()), width=_WIDTH,
                         initial_indent=indent if first is None else first,
                         subsequent_indent=indent, break_on_hyphens=False)


def _figure(quantity: str, value: float | None) -> str:
    if quantity == "sectors_per_request":
        return fmt.sectors_per_request(value)
    if quantity == "dram_bytes" and value is not None:
        return f"{value:,.0f} B"
    return fmt.count(value)


def _difference(row: Row) -> str:
    d, m = row["derived"], row["measured"]
    if d is None or m is None or d == 0:
        return fmt.MISSING
    pct = 100 * (m - d) / d
    return "0 %" if pct == 0 else f"{pct:+.2g} %" if abs(pct) < 10 else f"{pct:+.1f} %"


def _match(row: Row) -> str:
    if row["quantity"] == "dram_bytes":
        return "floor"
    return {True: "yes", False: "no", None: fmt.MISSING}[row["match"]]


def page_text(page: LessonPage) -> str:
    """The page for people, in the lesson's order."""
    rv, ref = page["reveal"], page["reference"]
    t4_n, here_n = ref["rows"][0]["sizes"] if ref["rows"] else (None, None)
    sizes = (t4_n, here_n)  # the T4's N and this pair's
    lines = _reveal_lines(rv, sizes)
    lines += ["", _wrap(f"Speed: {page['speed']['reading']}", ""), ""]
    if rv["warnings"]:
        lines.append("Read with care:")
        lines += [_wrap(w["text"], "    ", "  - ") for w in rv["warnings"]]
        lines.append("")
    lines += _reference_lines(ref, sizes)
    lines += _exercise_lines(page["exercise"])
    return "\n".join(lines)


def _reveal_lines(rv: RevealPage, sizes: tuple[int | None, int | None]) -> list[str]:
    """The pair, then each prediction derived against its counter (and the T4's)."""
    devices = ", ".join(dict.fromkeys(visible(d or "unknown GPU")
                                      for d in rv["devices"].values()))
    files = ", ".join(visible(f) for f in rv["sources"])
    naive, tiled = (visible(rv["kernels"][role]["name"]) for role in ("naive", "tiled"))
    t4_n, here_n = sizes
    t4_head = "T4 (published)"
    if t4_n is not None and here_n is not None and t4_n != here_n:
        t4_head = f"T4 at N={t4_n}"
    lines = [f"The lesson's predictions, against the counters: {files}",
             f"{naive} and {tiled}, {rv['dim']} x {rv['dim']} x "
             f"{rv['dim']} on {rv['tile']} x {rv['tile']} tiles; {devices}", "",
             f"{'kernel':<7} {'prediction':<29} {'derived':>12} {'measured':>12} "
             f"{'difference':>10} {'match':>6} {t4_head:>16}"]
    for row in rv["rows"]:
        lines.append(f"{row['kernel']:<7} {row['label']:<29} "
                     f"{_figure(row['quantity'], row['derived']):>12} "
                     f"{_figure(row['quantity'], row['measured']):>12} "
                     f"{_difference(row):>10} {_match(row):>6} "
                     f"{_figure(row['quantity'], row['t4']):>16}")
        lines.append(_wrap(row["reading"], " " * 8))
    if t4_head != "T4 (published)":
        lines.append(_wrap(f"The T4 column is the lesson's table at N = {t4_n}, not "
                           f"this pair's N = {rv['dim']}: its counts are not this size's "
                           "derivation (see the T4 reference below).", ""))
    return lines


def _reference_lines(ref: ReferencePage, sizes: tuple[int | None, int | None]) -> list[str]:
    """The published T4 table beside this pair's values, and what moved."""
    t4_n, here_n = sizes
    lines = [_wrap(f"The published T4 reference ({Path(ref['source']).name}): "
                   f"{ref['provenance']}", ""), _wrap(f"On the T4: {ref['speed']['reading']}",
                                                      "  "), ""]
    if t4_n is not None and here_n is not None and t4_n != here_n:
        lines.append(_wrap(f"T4 at N = {t4_n}, here at N = {here_n}: each report's own "
                           "values; 'moved' compares the counts with the T4's scaled to "
                           f"N = {here_n}.", "  "))
    lines.append(f"  {'row':<48} {'T4 naive':>12} {'T4 tiled':>12} {'here naive':>12} "
                 f"{'here tiled':>12}  moved")
    for row in ref["rows"]:
        decimals = t4_reference.LESSON_DECIMALS.get(row["metric"])
        cells = [fmt.by_unit(v, row["unit"]) if decimals is None or v is None
                 else f"{v:.{decimals}f}" for v in row["t4"]]
        cells += [fmt.by_unit(v, row["unit"]) for v in row["here"]]
        moved = {True: "yes", False: "no", None: fmt.MISSING}[row["moved"]]
        lines.append(f"  {row['label']:<48} " + " ".join(f"{c:>12}" for c in cells)
                     + f"  {moved}")
    lines += [""] + [_wrap(w, "  ") for w in ref["summary"]]
    if ref["warnings"]:
        lines.append("  The T4 beside this pair, read with care:")
        lines += [_wrap(w["text"], "    ", "  - ") for w in ref["warnings"]]
    return lines


def _exercise_lines(ex: ExercisePage) -> list[str]:
    """The exercise's questions, each with the rows, choices and counts that answer it."""
    lines = ["", f"Exercise: {ex['title']} (day {ex['day']}), {len(ex['questions'])} questions",
             _wrap(ex["rule"], "  ")]
    for q in ex["questions"]:
        lines.append(_wrap(q["text"], "     ", f"  {q['id'] + '.':<3}"))
        if q["with_the_question"]:
            lines.append(_wrap(f"counts: {q['with_the_question']}", "       "))
        for number, part in enumerate(q["parts"] or [{"id": "", "text": ""}], 1):
            rows = [f"{o['target']['label']} ({o['target']['step']})" for o in q["options"]
                    if o["correct"] and o["target"]["step"] != "none" and o["part"] == part["id"]]
            said = (f"part {number}, {part['text'][:1].lower()}{part['text'][1:]}: "
                    if part["id"] else "answered by the row: ")
            if rows:
                lines.append(_wrap(said + "; ".join(rows), "       "))
        chosen = [o["text"] for o in q["options"] if o["correct"] and o["target"]["step"] == "none"]
        if chosen:
            lines.append(_wrap(f"answered by the choice: {'; '.join(chosen)}", "       "))
        if q["in_this_report"]:
            lines.append(_wrap(f"in this report: {q['in_this_report']}", "       "))
        if q["machine_answer"]:
            lines.append(_wrap(f"on this machine: {q['machine_answer']}", "       "))
    return lines
