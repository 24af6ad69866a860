"""The comparison as text for course pages: CSV (base units, full digits) and Markdown (readable).

The rows are viewer.analysis.comparison.COMPARED, in the order the lesson reads them. With two
kernels each row carries the ratio first / second and the plain-words direction from
comparison.compare; with one kernel only its values. CSV gives the ratio as a number for a
spreadsheet; Markdown says which kernel has more in the memory step's words ('naive 8.00x tiled',
Difference.more), never a bare ratio under 1 ('0.12x'). A value the report does not hold is an
empty CSV cell and MISSING in Markdown, never 0.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

from viewer.analysis import comparison, reading
from viewer.analysis.memory_words import WHICH_HAS_MORE
from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.core.metrics import SUMMARY_METRICS
from viewer.core.model import Kernel


def metric_of(key: str) -> str:
    """The ncu metric behind a row; the derived sectors-per-request row names its two counters."""
    if key == "sectors_per_request":
        return (f"{SUMMARY_METRICS['global_load_sectors']} / "
                f"{SUMMARY_METRICS['global_load_requests']}")
    return SUMMARY_METRICS[key]


@dataclass(frozen=True)
class ComparisonRow:
    key: str
    label: str
    unit: str
    values: tuple[float | None, ...]
    ratio: float | None  # first / second; None with one kernel or a missing value
    reading: str  # 'Duration: matmul_naive 1.59x matmul_tiled'; '' with one kernel
    more: str  # 'matmul_naive 1.59x matmul_tiled', the reading without its label


def comparison_rows(kernels: Sequence[Kernel], names: Sequence[str]) -> list[ComparisonRow]:
    """The compared rows for one kernel or two (`names` label them, in the same order)."""
    if len(kernels) not in (1, 2) or len(names) != len(kernels):
        raise ValueError("comparison_rows takes one or two kernels and a name for each")
    if len(kernels) == 1:
        return [ComparisonRow(key, label, metrics.unit(key), (reading.value(kernels[0], key),),
                              None, "", "") for key, label in comparison.COMPARED]
    return [ComparisonRow(d.key, d.label, metrics.unit(d.key), (d.first, d.second), d.ratio,
                          d.direction(names[0], names[1]), d.more(names[0], names[1]))
            for d in comparison.compare(kernels[0], kernels[1])]


def _number(value: float | None) -> str:
    if value is None:
        return ""
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))


def comparison_csv(kernels: Sequence[Kernel], names: Sequence[str]) -> str:
    """One header line, then one line per row: row, metric, unit, a value per kernel, ratio,
    reading. Values in base units with full digits."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["row", "metric", "unit", *names]
    if len(kernels) == 2:
        header += [f"ratio {names[0]} / {names[1]}", "reading"]
    writer.writerow(header)
    for row in comparison_rows(kernels, names):
        line = [row.label, metric_of(row.key), row.unit, *(_number(v) for v in row.values)]
        if len(kernels) == 2:
            line += [_number(row.ratio), row.reading]
        writer.writerow(line)
    return out.getvalue()


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def comparison_markdown(kernels: Sequence[Kernel], names: Sequence[str],
                        sources: Sequence[str] = ()) -> str:
    """A heading, the files, then a table of formatted values (and, for two kernels, which has
    more and by how much)."""
    rows = comparison_rows(kernels, names)
    title = " against ".join(names)
    lines = [f"## {_cell(title)}", ""]
    if sources:
        lines += ["Files: " + ", ".join(f"`{_cell(s)}`" for s in sources), ""]
    header = ["Row", *names]
    align = ["---", *("---:" for _ in names)]
    if len(kernels) == 2:
        header.append(WHICH_HAS_MORE)
        align.append("---")
    lines.append("| " + " | ".join(_cell(h) for h in header) + " |")
    lines.append("| " + " | ".join(align) + " |")
    for row in rows:
        cells = [row.label, *(fmt.by_unit(v, row.unit) for v in row.values)]
        if len(kernels) == 2:
            cells.append(row.more)
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"
