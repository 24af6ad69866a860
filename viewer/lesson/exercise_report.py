"""What a question of the exercise reads in the open report, in words computed from its counters.

The exercise's text is the lesson's (resources/exercises/); a question whose answer the open pair
can show in numbers names a reading here (`report = "loads"` in its TOML), and `report_words`
words it from the naive and tiled kernels on screen. Where the lesson and the report disagree
(the lesson counts loads in the source, the report counts the SASS's load instructions), both
are said, each attributed. With no pair open there is nothing to say here: the lesson's words
stand alone.
"""

from __future__ import annotations

from collections.abc import Callable

from viewer.analysis import reading
from viewer.analysis.chart_layout import per_thread
from viewer.analysis.predict import DerivationError, derive
from viewer.core import formatting as fmt
from viewer.lesson.lesson_pair import LessonPair


def _count(value: float) -> str:
    return fmt.count(round(value, 2))


def loads_words(pair: LessonPair) -> str:
    """Question 2 in this report: load instructions per thread, global and shared, against the
    lesson's count of the source, then the sector row that explains the time."""
    naive, tiled = reading.memory_chart(pair.naive), reading.memory_chart(pair.tiled)
    n_name, t_name = pair.naive_name, pair.tiled_name
    n_global = per_thread(naive.global_load_requests, pair.naive)
    t_global = per_thread(tiled.global_load_requests, pair.tiled)
    t_shared = per_thread(tiled.shared_load_instructions, pair.tiled)
    lesson_shared = _lesson_shared(pair)
    parts: list[str] = []
    if n_global is not None and t_global is not None:
        loads = (f"In this report, {n_name} issues {_count(n_global)} global loads per thread "
                 f"and {t_name} {_count(t_global)} global")
        if t_shared is not None:
            total = t_global + t_shared
            more = ("more than" if total > n_global else "fewer than" if total < n_global
                    else "as many as")
            loads += (f" and {_count(t_shared)} shared, {_count(total)} load instructions in "
                      f"all, {more} {n_name}'s {_count(n_global)}.")
        elif lesson_shared is not None:
            loads += (f"; it does not hold the shared load count, which the lesson counts as "
                      f"{_count(lesson_shared)} per thread in the source.")
        else:
            loads += "; it does not hold the shared load count."
        parts.append(loads)
    if t_shared is not None and lesson_shared is not None and t_shared != lesson_shared:
        why = (" (the compiler merged a thread's consecutive shared reads into wider load "
               "instructions)" if t_shared < lesson_shared else "")
        parts.append(f"The lesson counts {_count(lesson_shared)} shared loads per thread in the "
                     f"source; this report's compiled kernel issues {_count(t_shared)}{why}.")
    parts.append(_sectors(pair, naive.global_load_sectors, tiled.global_load_sectors))
    return " ".join(parts)


def _lesson_shared(pair: LessonPair) -> float | None:
    """Shared loads per thread by the lesson's derivation, where the pair's size is known."""
    if pair.dim is None:
        return None
    try:
        return float(derive(pair.dim, pair.tile).tiled.shared_loads_per_thread)
    except DerivationError:
        return None


def _sectors(pair: LessonPair, naive: float | None, tiled: float | None) -> str:
    lead = "Either way a shared load fetches no sector"
    if naive is None or tiled is None or tiled == 0:
        return (f"{lead}, and the sector row is the one that explains the time (this report "
                "does not hold both sector counts).")
    return (f"{lead}: {pair.tiled_name} pulls {fmt.count(tiled)} sectors through L1TEX against "
            f"{pair.naive_name}'s {fmt.count(naive)}, {fmt.ratio(naive / tiled)} fewer, and the "
            "sector row is the one that explains the time.")


READINGS: dict[str, Callable[[LessonPair], str]] = {"loads": loads_words}


def report_words(reading_name: str, pair: LessonPair | None) -> str:
    """The reading `reading_name` of the open `pair`; '' with no pair or no reading."""
    if pair is None or not reading_name:
        return ""
    return READINGS[reading_name](pair)
