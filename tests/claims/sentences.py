"""Every sentence the app says of a kernel, or of two, gathered from the plain code that words
them (the window shows these; the terminal's `summary` and `lesson` print them): each with where
it comes from and the kernels it is about."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.claims.corpus import Pick, t4
from viewer import __main__ as entry
from viewer.analysis import (
    chart_layout,
    memory_traffic,
    occupancy_reading,
    reading,
    roofline,
    roofline_words,
    stalls,
)
from viewer.core.model import Kernel, Report
from viewer.core.names import kernel_names
from viewer.lesson import exercise_report, misreads, predict_text, t4_reference
from viewer.lesson.lesson_pair import lesson_pair
from viewer.lesson.reveal import QUANTITIES
from viewer.terminal import summary_terminal
from viewer.terminal.roofline_terminal import roofline_text


@dataclass(frozen=True)
class Said:
    """One sentence (or line, or box of lines) and what it is about."""

    source: str  # the function that worded it
    text: str
    kernels: tuple[Kernel, ...]
    names: tuple[str, ...] = ()  # the kernels' names as the words call them


# The stalls and roofline of each kernel, made once: a kernel is set against many others, and
# its own values do not change while the tests read it. Keyed by identity (a Kernel is not
# hashable); the kernel is held with its value so that its id is not reused.
_STALLS: dict[int, tuple[Kernel, stalls.Stalls]] = {}
_ROOFLINES: dict[int, tuple[Kernel, roofline.Roofline]] = {}


def _stalls(kernel: Kernel) -> stalls.Stalls:
    if id(kernel) not in _STALLS:
        _STALLS[id(kernel)] = kernel, stalls.stalls(kernel)
    return _STALLS[id(kernel)][1]


def _roofline(kernel: Kernel) -> roofline.Roofline:
    if id(kernel) not in _ROOFLINES:
        _ROOFLINES[id(kernel)] = kernel, roofline.roofline(kernel)
    return _ROOFLINES[id(kernel)][1]


def _one(pick: Pick, source: str, *texts: str) -> Iterator[Said]:
    for text in texts:
        if text:
            yield Said(source, text.replace("\u00a0", " "), (pick.kernel,))


def kernel_sentences(pick: Pick) -> list[Said]:
    """What the readings, the memory chart, the roofline, the stalls and the misreads say of
    one kernel."""
    kernel = pick.kernel
    sol = reading.speed_of_light(kernel)
    chart = memory_traffic.memory_chart(kernel)
    band = chart_layout.chart_band(kernel, kernel.name)
    rf = _roofline(kernel)
    day = roofline.day_thirty(kernel)
    found = [
        *_one(pick, "reading.speed_of_light", sol.explanation),
        *_one(pick, "reading.busiest_words", reading.busiest_words(sol)),
        *_one(pick, "memory_traffic.floor_note", chart.floor_note),
        *_one(pick, "occupancy_reading.occupancy", occupancy_reading.occupancy(kernel).explanation),
        *_one(pick, "chart_layout.caption", band.caption),
        *_one(pick, "chart_layout.shared_note", band.shared_note),
        *_one(pick, "chart_layout.boxes", *(f"{b.title}: " + " ".join(b.lines)
                                             for b in band.boxes if b.lines)),
        *_one(pick, "chart_layout.arrows", *(f"{a.key}: " + " ".join((*a.above, *a.below))
                                              for a in band.arrows)),
        *_one(pick, "chart_layout.memory_values",
              *(f"{label}: {text}" for _, label, text in chart_layout.memory_values(kernel))),
        *_one(pick, "chart_layout.hit_rate_notes",
              *(note for _, note in chart_layout.hit_rate_notes(chart))),
        *_one(pick, "roofline_words.kernel_words", roofline_words.kernel_words(rf, kernel.name)),
        *_one(pick, "terminal.roofline_terminal.roofline_text",
              " ".join(roofline_text(kernel).split())),
        *_one(pick, "roofline_words.day_thirty_words",
              *(roofline_words.day_thirty_words(day, rf) if day is not None else ())),
        *_one(pick, "stalls", *(s.sentence for s in _stalls(kernel).stalls)),
        *_one(pick, "stalls.missing", stalls.MISSING_TEXT if _stalls(kernel).empty else ""),
        *_one(pick, "misreads", *(m.text for m in misreads.misreads(kernel, pick.report))),
    ]
    return found


def terminal(*argv: str) -> str:
    """`python -m viewer ARGV`, run in-process (viewer.__main__.main): what it printed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = entry.main(list(argv))
    assert status == 0, err.getvalue()
    return out.getvalue()


def summary_blocks(report: Report) -> list[Said]:
    """`python -m viewer summary FILE`: one block per kernel, and the comparison where the file
    holds two kernels; each on one line."""
    head, *blocks = terminal("summary", report.source).rstrip("\n").split("\n\n")
    kernels = report.kernels
    found = [Said("summary", " ".join(b.split()), (k,)) for k, b in zip(kernels, blocks,
                                                                          strict=False)]
    if len(kernels) == 2:
        assert len(blocks) == 3, head
        found.append(Said("summary.comparison", " ".join(blocks[2].split()), tuple(kernels),
                          tuple(kernel_names(list(kernels)))))
    return found


def _guesses() -> dict[str, str]:
    """A prediction in every row of Predict, some right and some not, and the size."""
    typed = {"requests": "8,388,608", "sectors": "2.1e6", "sectors_per_request": "2",
             "dram_bytes": "3.1 MB"}
    return {**{f"{role}.{q}": typed[q] for role in ("naive", "tiled") for q in QUANTITIES},
            "speed": "1.5", "size": "512"}


def pair_sentences(a: Pick, b: Pick) -> list[Said]:
    """What the comparisons say of two kernels: the summary's comparison, the memory chart's
    ratios, the roofline's changes, the stalls' advice, the compare line's misreads, the T4
    table beside them, the exercise's readings and Predict's feedback."""
    kernels = (a.kernel, b.kernel)
    names = (na, nb) = tuple(kernel_names(list(kernels)))

    def said(source: str, *texts: str, about: tuple[Kernel, ...] = kernels,
             called: tuple[str, ...] = names) -> list[Said]:
        return [Said(source, t.replace("\u00a0", " "), about, called) for t in texts if t]

    rf = _roofline(a.kernel), _roofline(b.kernel)
    found = [
        *said("summary_terminal.comparison_text",
              " ".join(summary_terminal.comparison_text(*kernels).split())),
        *said("chart_layout.memory_ratios", *(
            f"{r.label}: {r.first} ({na}), {r.second} ({nb}): {r.direction}"
            for r in chart_layout.memory_ratios(*kernels, na, nb))),
        *said("roofline_words.level_changes", *roofline_words.level_changes(*rf, names)),
        *said("roofline_words.hidden_words", roofline_words.hidden_words(*rf, names) or ""),
        *said("stalls.compare", *(c.advice for c in stalls.compare(
            _stalls(a.kernel), _stalls(b.kernel)))),
        *said("misreads.compare_misreads", *(m.text for m in misreads.compare_misreads(
            *kernels, a.report, b.report))),
    ]
    rows = t4_reference.cross_gpu(t4(), kernels)
    beside = (*t4(), *kernels), ("naive", "tiled", *names)
    found += said("t4_reference.cross_gpu", *(r.words for r in rows), about=beside[0],
                  called=beside[1])
    found += said("t4_reference.summary_words", *t4_reference.summary_words(rows), about=beside[0],
                  called=beside[1])
    pair = lesson_pair(list(kernels), list(names))
    assert pair is not None
    roles = (pair.naive, pair.tiled), (pair.naive_name, pair.tiled_name)
    found += said("exercise_report", exercise_report.lead_words("loads", pair),
                  *(exercise_report.report_words(r, pair) for r in exercise_report.READINGS),
                  about=roles[0], called=roles[1])
    state = predict_text.PredictState(texts=_guesses(), faster="tiled")
    shown = predict_text.results(pair, state, [*state.texts, "speed"])
    found += said("predict_text.results", *(
        f"{key}: typed {row.guess}: derived {row.cells[0]}, measured {row.cells[1]}, "
        f"verdict {row.cells[2]}; {row.cells[3]}" for key, row in shown.items()),
        about=roles[0], called=roles[1])
    return found


def lesson_pairs(paths: Sequence[Path]) -> list[tuple[Path, ...]]:
    """The files `python -m viewer lesson` takes: each naive report with its tiled twin of the
    same form, and the T4 table on its own."""
    found: list[tuple[Path, ...]] = []
    for path in paths:
        if path.name == "t4-reference.toml":
            found.append((path,))
        elif "naive" in path.name and (twin := path.with_name(
                path.name.replace("naive", "tiled"))) in paths:
            found.append((path, twin))
    return found


def lesson_page(files: Sequence[Path]) -> str:
    """`python -m viewer lesson FILES` as printed, on one line."""
    return " ".join(terminal("lesson", *map(str, files)).split())
