"""What the Source view says of a kernel before its table: the words while its counters are
read, where a file holds none, and which row it marks by default (the hottest global load)."""

from __future__ import annotations

from collections.abc import Sequence

from viewer.analysis import source as analysis
from viewer.analysis.source import GLOBAL_LOADS, row_key
from viewer.core.model import Kernel, Report
from viewer.readers import sniff
from viewer.readers.source import KernelSource
from viewer.session import ReportSession

READING = "Reading the source counters from the report…"
EXPORT = ("this file is an export ({format}), which holds no per-instruction counters: open "
          "the .ncu-rep, or its `--page source --csv --print-source sass` export")
NO_SASS = "the report holds no SASS for this kernel"
NO_SELECTION = "Open a report and pick a kernel to read its source lines."


def reading_text(message: str) -> str:
    """The status while the counters are read, with the read's own step where it says one."""
    return f"{READING} {message}" if message else READING


def function_shown(session: ReportSession, report: Report,
                   kernel: Kernel) -> tuple[KernelSource | None, str]:
    """The kernel's function as the session holds it now, and what is said where there is none
    (or more than one)."""
    error = session.source_error(report) or session.error(report)
    return function_text(report.format, session.source(report, kernel), error)


def function_text(file_format: str, found: Sequence[KernelSource] | None,
                  error: str | None) -> tuple[KernelSource | None, str]:
    """The function a kernel's table shows (its first: `found` is every function its result
    ran, None where none was read), and what is said where there is none (or more than one)."""
    if file_format not in sniff.SOURCE_FORMATS:
        return None, EXPORT.format(format=file_format)
    if found is None:
        return None, error or ""
    if not found:
        return None, error or NO_SASS
    more = f"function 1 of {len(found)} this result ran" if len(found) > 1 else ""
    return found[0], more


def compared(functions: Sequence[KernelSource | None]) -> analysis.Comparison | None:
    """Naive against tiled, where `functions` are two that both hold counters; else None."""
    pair = [f for f in functions if f is not None and f.has_counters]
    if len(functions) != 2 or len(pair) != 2:
        return None
    return analysis.compare(pair[0], pair[1])


def hottest_global_load(functions: Sequence[KernelSource | None]) -> str | None:
    """The key of the first function's hottest row that issues global loads (lines, else
    SASS); None where none does."""
    for function in functions:
        if function is None:
            continue
        table = analysis.table(function)
        rows = [r for r in (table.lines or table.sass) if r.value(GLOBAL_LOADS)]
        hot = analysis.hottest(rows, 1)
        if hot:
            return row_key(hot[0])
    return None


def marked_keys(chosen: str | None, by_choice: bool, defaults: Sequence[str | None],
                panes: int) -> list[str | None]:
    """The row each of `panes` tables marks: the one chosen (`by_choice`), else its own
    hottest global load where it has a default, else `chosen`."""
    return [chosen if by_choice or number >= len(defaults) else defaults[number]
            for number in range(panes)]
