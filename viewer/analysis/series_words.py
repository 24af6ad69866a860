"""The series' words beside its values (viewer.analysis.series), for the terminal and the view
alike: the line under a value that says what the derivation counts and whether the report
agrees, and the notes computed from the values where they disagree.

- `derived_words(line, row)`: '8,388,608 (exact)' only where the report's value equals the
  derivation's; where they differ, both ('1,024 derived loads; the report counts 640
  instructions'); 'floor 3.15 MB' under the DRAM traffic row.
- `floor_notes(series)`: the rows whose DRAM traffic (read + write) is under the compulsory
  floor, the two values and what the two counters say (memory_traffic.MemoryChart.
  floor_reasons, the bytes to three figures: writes of 0 B mean C was not written back while
  the kernel ran), one sentence for the rows of one N that read alike.
- `shared_notes(series)`: rows whose shared-load instructions per thread differ from the
  derivation's loads, grouped by the two values: the report counts instructions, and one
  instruction may load several floats (the Source view reads the SASS's widths, LDS.128 and
  the like, where a report holds source counters; a series holds none).
- `ratio_note(series)`: naive over tiled sectors and duration at each N where both kernels
  were read (series_points.ratio_points), at two N or more: each ratio at every N, or once where
  it is written the same at every N, and which of the two stays while the other moves (with
  the lesson's reading, the memory chart separates the kernels and the duration does not,
  only where the duration's ratio stays under the sectors' at every N).
- `notes(series)`: the series' own notes, the ratio note, then the floor and shared notes.
"""

from __future__ import annotations

from dataclasses import replace

from viewer.analysis import series, series_points
from viewer.analysis.memory_traffic import memory_chart
from viewer.core import formatting as fmt

FLOOR_WORDS = "3·N²·4 bytes: A, B and C once each"


def derived_words(line: series.Line, r: series.Row, lead: str = "") -> str:
    """The derivation's value of `line` for row `r` ('' where none), `lead` before it where it
    stands alone ('derived '): '(exact)' only where the report's value equals it."""
    wanted = r.derived.get(line.key)
    if wanted is None:
        return ""
    if line.key == series.DRAM_TOTAL:
        return f"floor {fmt.size(wanted)}"
    shown, value = fmt.by_unit(wanted, line.unit), r.values.get(line.key)
    if value is None:
        return f"{lead}{shown}"
    if value == wanted:
        return f"{lead}{shown} (exact)"
    measured = fmt.by_unit(value, line.unit)
    if line.key == series.SHARED_PER_THREAD:
        return f"{shown} derived loads; the report counts {measured} instructions"
    if measured == shown:
        return f"{shown} derived; the report's rounds to it"
    return f"{shown} derived; the report counts {measured}"


def floor_notes(s: series.Series) -> list[str]:
    """A sentence for the rows whose total DRAM traffic is under the lesson's floor, one for
    each N and wording: the bytes as an export prints them (three figures), so the rows of one
    size that say the same are one sentence."""
    said: dict[str, list[int]] = {}
    for i, r in enumerate(s.rows):
        total, floor = r.values.get(series.DRAM_TOTAL), r.derived.get(series.DRAM_TOTAL)
        if total is None or floor is None or total >= floor:
            continue
        chart = replace(memory_chart(r.kernel), dram_rounded=True)
        reasons = chart.floor_reasons
        words = (f"DRAM traffic (read + write) {fmt.size(total)} is under the lesson's floor "
                 f"of {fmt.size(floor)} ({FLOOR_WORDS})" + (f": {reasons}" if reasons else ""))
        said.setdefault(f"{r.dim}\n{words}", []).append(i)
    out = []
    for key, rows in said.items():
        words = key.split("\n", 1)[1]
        names = " and ".join(dict.fromkeys(s.rows[i].kernel.name for i in rows))
        dim = s.rows[rows[0]].dim
        out.append(f"{_rows_words(rows)} ({names}{'' if dim is None else f' at N = {dim}'}): "
                   + words)
    return out


def _rows_words(rows: list[int]) -> str:
    return (f"row {rows[0]}" if len(rows) == 1 else
            "rows " + ", ".join(map(str, rows[:-1])) + f" and {rows[-1]}")


def shared_notes(s: series.Series) -> list[str]:
    """A sentence for each pair of values (measured, derived) of the shared loads per thread
    that differ, naming the rows that hold it."""
    key, unit = series.SHARED_PER_THREAD, series.UNITS[series.SHARED_PER_THREAD]
    pairs: dict[tuple[float, float], list[int]] = {}
    for i, r in enumerate(s.rows):
        value, wanted = r.values.get(key), r.derived.get(key)
        if value is not None and wanted is not None and value != wanted:
            pairs.setdefault((value, wanted), []).append(i)
    out = []
    for (value, wanted), rows in pairs.items():
        names = ", ".join(dict.fromkeys(s.rows[i].name for i in rows))
        said = (f"{_rows_words(rows)} ({names}): the report counts "
                f"{fmt.by_unit(value, unit)} shared-load instructions per thread against the "
                f"derivation's {fmt.by_unit(wanted, unit)} one-float loads")
        if value < wanted:
            said += ("; one instruction may load several floats (a vector load), so fewer "
                     "instructions need not mean fewer floats: the Source view reads each "
                     "load's width from the SASS where a report holds source counters")
        else:
            said += ("; the kernel issues more shared-load instructions than the derivation "
                     "has loads")
        out.append(said)
    return out


def ratio_note(s: series.Series) -> list[str]:
    """'naive over tiled, the first pair at each N: Sectors ... 8.00x at every N (128 to
    2048); Duration 1.48x at 128, ...: the ratio of Sectors ... is the same at every N, that
    of Duration is not ...' (the module's docstring); none under two N. A ratio is the same
    where it is written the same at every N."""
    points = [p for p in series_points.ratio_points(s) if p.pair == 0]
    dims = sorted({p.dim for p in points})
    if len(dims) < 2:
        return []
    parts, steady, most = [], {}, {}
    for key in series_points.RATIOS:
        mine = sorted((p.dim, p.value) for p in points if p.key == key)
        if len(mine) < 2:
            continue
        steady[key] = len(mine) == len(dims) and len({fmt.ratio(v) for _, v in mine}) == 1
        most[key] = (min(v for _, v in mine), max(v for _, v in mine))
        label = series.LINE_LABELS[key]
        if steady[key]:
            parts.append(f"{label} {fmt.ratio(mine[0][1])} at every N ({dims[0]} to "
                         f"{dims[-1]})")
        else:
            parts.append(f"{label} " + ", ".join(f"{fmt.ratio(v)} at {d}" for d, v in mine))
    said = ("naive over tiled, the first pair at each N: " + "; ".join(parts))
    stays = [k for k, v in steady.items() if v]
    moves = [k for k, v in steady.items() if not v]
    if stays and moves:
        labels = series.LINE_LABELS
        said += (f": the ratio of {labels[stays[0]]} is the same at every N, that of "
                 f"{labels[moves[0]]} is not")
        if stays[0] == series.SECTORS and most[series.DURATION][1] < most[series.SECTORS][0]:
            said += (f" and stays under it ({fmt.ratio(most[series.DURATION][1])} at most), "
                     "as the lesson reads it: the memory chart separates the kernels and the "
                     "duration does not")
    elif moves:
        said += ": neither ratio is the same at every N"
    return [said] if parts else []


def notes(s: series.Series) -> list[str]:
    """What the series shows and cannot, then the naive-over-tiled ratios across N, then where
    its values and the derivation differ."""
    return [*s.notes, *ratio_note(s), *floor_notes(s), *shared_notes(s)]
