"""Whether a details export's last kernel stops early, told from its sections.

A file cut at a line boundary ends with a newline like a whole one, so only what it holds can say
it was cut. ncu prints the same sections, in the same order, for every kernel of one capture, and
every section set (basic, detailed, full, of every generation) prints Occupancy after Launch
Statistics and after the analysis sections before it. So the last kernel looks cut short when:

- its sections are the first of those of the kernel before it (or of the file's first kernel) and
  stop early: before one of theirs, or inside one (fewer metric rows in it than theirs);
- it holds Launch Statistics, or three of the sections a set prints before Occupancy, and no
  Occupancy.

What cannot be told: a cut at a kernel boundary of a file whose kernels are all whole (the last
kernel read is whole: the file just holds fewer), and in a file of one kernel a cut inside or
after its Occupancy section (Occupancy, GPU and Memory Workload Distribution and Source Counters
print as many rows as the capture asked for, which the file does not record).
"""

from __future__ import annotations

from collections.abc import Sequence

Sections = Sequence[tuple[str, int]]
"""A kernel's sections in file order, each with the count of metric rows read from it."""

OCCUPANCY = "Occupancy"
LAUNCH = "Launch Statistics"
BEFORE_OCCUPANCY = frozenset({
    "GPU Speed Of Light", "GPU Speed Of Light Throughput", "Compute Workload Analysis",
    "Memory Workload Analysis", "Scheduler Statistics", "Warp State Statistics",
    "Instruction Statistics", LAUNCH,
})
"""The sections every ncu section set that holds them prints before Occupancy."""


def last_kernel_cut(first: Sections, before: Sections | None, last: Sections) -> str | None:
    """Why the last kernel (sections `last`) looks cut short, or None; `first` and `before` are
    the sections of the file's first kernel and of the kernel before the last (None when the file
    holds one kernel, `first` being `last` then)."""
    if before is not None:
        for whole, whom in ((before, "the kernel before it"), (first, "the file's first kernel")):
            why = _stops_early(whole, last, whom)
            if why is not None:
                return why
    held = [name for name, rows in last if rows]
    if OCCUPANCY not in held and (LAUNCH in held or len(BEFORE_OCCUPANCY.intersection(held)) >= 3):
        return (f"its last kernel's sections stop at {held[-1]}, before the Occupancy section"
                " that every ncu section set prints after them")
    return None


def _stops_early(whole: Sections, last: Sections, whom: str) -> str | None:
    names = [name for name, _ in last]
    if len(whole) < len(last) or [name for name, _ in whole[: len(last)]] != names:
        return None
    if not last:
        return f"its last kernel has no section ({whom} has {len(whole)})"
    (name, rows), (_, whole_rows) = last[-1], whole[len(last) - 1]
    if rows < whole_rows:
        return (f"its last kernel stops inside its {name} section ({rows} of the {whole_rows}"
                f" metric rows {whom} has there)")
    if len(whole) > len(last):
        return (f"its last kernel's sections stop at {name} ({whom} goes on to"
                f" {whole[len(last)][0]})")
    return None


class Kept:
    """The sections of a file's first, next-to-last and last results, taken in run by run (a run:
    consecutive metric rows of one result and section) while the file is read."""

    def __init__(self) -> None:
        self._results: dict[str, list[tuple[str, int]]] = {}

    def add(self, result: str, section: str, rows: int) -> None:
        results = self._results
        if result not in results:
            if len(results) == 3:  # keep the first and the one before the last
                del results[list(results)[1]]
            results[result] = []
        sections = results[result]
        if sections and sections[-1][0] == section:
            sections[-1] = (section, sections[-1][1] + rows)
        else:
            sections.append((section, rows))

    def cut(self) -> str | None:
        """last_kernel_cut of the results taken in; None when there were none."""
        kept = list(self._results.values())
        if not kept:
            return None
        return last_kernel_cut(kept[0], kept[-2] if len(kept) > 1 else None, kept[-1])
