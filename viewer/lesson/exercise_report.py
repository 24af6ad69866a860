"""What a question of the exercise reads in the open report, in words computed from its counters.

The exercise's text is the lesson's (resources/exercises/); a question whose answer the open pair
can show in numbers names a reading here (`report = "loads"` in its TOML), and `report_words`
words it from the naive and tiled kernels on screen. Where the lesson and the report disagree
(the lesson counts loads in the source, the report counts the SASS's load instructions), both
are said, each attributed. With no pair open there is nothing to say here: the lesson's words
stand alone.

A reading may also have a lead (`lead_words`), said with the question before any answer: question
2's premise ("more load instructions per thread") is the lesson's count of the source, and the
report on screen may count otherwise, so both counts come with the question.
"""

from __future__ import annotations

from collections.abc import Callable

from viewer.analysis import memory_traffic, reading
from viewer.analysis.chart_layout import per_thread
from viewer.analysis.predict import DerivationError, derive
from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.lesson.lesson_pair import LessonPair


def _count(value: float) -> str:
    return fmt.count(round(value, 2))


def loads_words(pair: LessonPair) -> str:
    """Question 2 in this report: load instructions per thread, global and shared, against the
    lesson's count of the source, then the sector row that explains the time."""
    naive, tiled = memory_traffic.memory_chart(pair.naive), memory_traffic.memory_chart(pair.tiled)
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


LESSON_DIM = 512  # the lesson's size: "512 by 512 by 512 with a 16-wide tile"


def loads_lead(pair: LessonPair | None) -> str:
    """Question 2's premise in counts, before any answer: the lesson's count of the source
    (attributed), then this report's SASS load instructions where it holds them."""
    dim = pair.dim if pair is not None and pair.dim is not None else LESSON_DIM
    tile = pair.tile if pair is not None else 16
    lesson = derive(dim, tile)
    lg, tg, ts = (lesson.naive.global_loads_per_thread, lesson.tiled.global_loads_per_thread,
                  lesson.tiled.shared_loads_per_thread)
    words = (f"The lesson counts loads in the kernels' source: at N = {dim} the naive kernel "
             f"issues {_count(lg)} global loads per thread and the tiled kernel {_count(tg + ts)}, "
             f"{_count(tg)} global and {_count(ts)} shared: more.")
    if pair is None:
        return words
    naive, tiled = memory_traffic.memory_chart(pair.naive), memory_traffic.memory_chart(pair.tiled)
    n_global = per_thread(naive.global_load_requests, pair.naive)
    t_global = per_thread(tiled.global_load_requests, pair.tiled)
    t_shared = per_thread(tiled.shared_load_instructions, pair.tiled)
    if n_global is None or t_global is None or t_shared is None:
        return (f"{words} This report does not hold both kernels' global and shared load "
                "instructions, so it cannot say its own count.")
    total = t_global + t_shared
    more = "more" if total > n_global else "fewer" if total < n_global else "as many"
    return (f"{words} This report counts its compiled kernels' SASS instead: "
            f"{pair.naive_name} issues {_count(n_global)} SASS load instructions per thread and "
            f"{pair.tiled_name} {_count(total)} ({_count(t_global)} global, {_count(t_shared)} "
            f"shared): {more}.")


_LIMITS = ("block_limit_sm", "block_limit_registers", "block_limit_shared_mem",
           "block_limit_warps")


def block_limits_words(pair: LessonPair) -> str:
    """Question 3 in this report: how many blocks fit by shared memory in each kernel, and which
    limit binds (the lowest of the four sets theoretical occupancy)."""
    limits = {role: {key: reading.value(pair.kernel(role), key) for key in _LIMITS}
              for role in ("naive", "tiled")}
    shared = [limits[r]["block_limit_shared_mem"] for r in ("naive", "tiled")]
    if None in shared or any(None in v.values() for v in limits.values()):
        return ("This report does not hold all four block limits of both kernels, so it cannot "
                "say which limit binds.")
    n_shared, t_shared = shared
    assert n_shared is not None and t_shared is not None
    fewer = ("fewer blocks do fit by shared memory" if t_shared < n_shared else
             "no fewer blocks fit by shared memory")
    parts = [f"In this report, Block Limit Shared Mem is {fmt.count(t_shared)} blocks for "
             f"{pair.tiled_name} against {fmt.count(n_shared)} for {pair.naive_name}: {fewer}."]
    for role in ("naive", "tiled"):
        values = {k: v for k, v in limits[role].items() if v is not None}
        low = min(values.values())
        binding = [metrics.row_label(k) for k, v in values.items() if v == low]
        parts.append(f"{pair.name(role)}'s lowest limit is {fmt.count(low)} blocks "
                     f"({' and '.join(binding)}).")
    t_low = min(v for v in limits["tiled"].values() if v is not None)
    if t_shared > t_low:
        parts.append("So Block Limit Shared Mem does not bind: the lowest limit sets how many "
                     "blocks fit, and it is not shared memory's. That, not the count fitting by "
                     "shared memory, is what refutes \"fewer blocks fit\".")
    else:
        parts.append("Block Limit Shared Mem binds here, and it is priced into the theoretical "
                     "figure with the others.")
    return " ".join(parts)


READINGS: dict[str, Callable[[LessonPair], str]] = {"loads": loads_words,
                                                   "block_limits": block_limits_words}
LEADS: dict[str, Callable[[LessonPair | None], str]] = {"loads": loads_lead}


def lead_words(reading_name: str, pair: LessonPair | None) -> str:
    """What the reading `reading_name` says with its question, before any answer ('' for none)."""
    lead = LEADS.get(reading_name)
    return lead(pair) if lead is not None else ""


def report_words(reading_name: str, pair: LessonPair | None) -> str:
    """The reading `reading_name` of the open `pair`; '' with no pair or no reading."""
    if pair is None or not reading_name:
        return ""
    return READINGS[reading_name](pair)
