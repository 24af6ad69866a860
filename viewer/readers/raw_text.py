"""Reader for `ncu --page raw` text exports (what `ncu --import R --page raw` prints).

Per result: a header line (as in a details text export, viewer.readers._text_header), then one
table `Metric Name / Metric Unit / Metric Value` of every metric by its ncu name, ended by a blank
line. Values are read in base units through their unit (one in a unit not understood is kept as
printed, not used: viewer.readers._as_printed); `no data`, `(!) nan`, empty cells and
text values (`PolicySpread`, `NVIDIA H200`) are missing, never zero; the device's name is read
from its text row. Prefixed names (`SM_A.TriageCompute.l1tex__...`) are kept whole, as the raw
CSV reader keeps them (viewer.readers.raw_csv says why).

ncu cuts a value wider than its column: one cut after its decimal mark
(`131,198,966,864,910.`) loses only its fraction and is read; one that fills the column with no
decimal mark may have lost digits of its whole part, and is missing.

A last line with no newline, or a last table with no blank line after it, looks cut short
(`Report.cut_short`). A file cut at a line boundary after the blank line ending a result's table
cannot be told from one that holds fewer results: every result prints one table of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from viewer.core import units
from viewer.core.model import Kernel, Metrics, Printed, Report, ReportError, function_name
from viewer.readers import _as_printed
from viewer.readers._text_header import KernelHeader, might_be_header, parse_header
from viewer.readers._text_lines import UNENDED, Lines, mark_cut_short, open_text
from viewer.readers._text_table import Table, is_rule, is_title, rule_spans
from viewer.readers._workloads import no_kernel

FORMAT = "raw-text"
DEVICE_NAME = "device__attribute_display_name"
"""The raw page's row (and CSV column) that holds the device's name as text."""

_EVIDENCE_CAP = 20_000


def looks_like(head: str) -> bool:
    """Whether the first part of a file (decoded text) is an ncu raw page text export: a result
    header line and, on the next line, the table's title row."""
    after_header = False
    for raw in head.splitlines():
        s = raw.strip()
        if not s:
            continue
        if after_header and is_title(s) and "Metric Value" in s:
            return True
        after_header = might_be_header(s) and parse_header(s) is not None
    return False


@dataclass
class _Found:
    """One result while the file is walked: its header and its rows as printed."""

    header: KernelHeader
    rows: dict[str, tuple[str, str, bool]] = field(default_factory=dict)
    """metric name -> (unit, value text, whether the value fills its column)"""
    device_name: str | None = None


@dataclass
class _Walk:
    found: list[_Found] = field(default_factory=list)
    title: str | None = None
    table: Table | None = None
    evidence: list[str] = field(default_factory=list)

    def line(self, raw: str) -> None:
        s = raw.strip()
        if not s:
            self.table = self.title = None
        elif is_title(s):
            self.title, self.table = raw, None
        elif is_rule(s):
            if self.found and self.title is not None and self.table is None:
                self.table = Table(rule_spans(raw), title=self.title)
            else:
                self.table = None
            self.title = None
        elif self.table is not None:
            self._row(raw, self.table)
        elif might_be_header(s) and (header := parse_header(s)) is not None:
            self.found.append(_Found(header))

    def _row(self, raw: str, table: Table) -> None:
        row = table.row(raw)
        if row is None or not row.label:
            return
        found = self.found[-1]
        if row.label == DEVICE_NAME:
            found.device_name = row.value or None
        if row.label in found.rows or not row.value:
            return
        width = table.spans[-1][1] - table.spans[-1][0]
        found.rows[row.label] = (row.unit, row.value, len(row.value) >= width)
        if len(self.evidence) < _EVIDENCE_CAP and ("," in row.value or "." in row.value):
            self.evidence.append(row.value)


def _cut_value(text: str, comma: bool) -> str:
    """A value as wide as its column: kept when only its fraction was cut, else '' (missing)."""
    mark = "," if comma else "."
    if text.endswith(mark):
        return text[:-1]
    return text if mark in text else ""


def read(path: Path) -> Report:
    """Read a raw page text export: kernels in file order, every numeric metric in base units."""
    path = Path(path)
    try:
        return _read(path)
    except ReportError:
        raise
    except OSError as exc:
        raise ReportError(path, f"cannot read the file: {exc.strerror or exc}") from exc


def _read(path: Path) -> Report:
    walk = _Walk()
    with open_text(path, "a raw page text export") as f:
        lines = Lines(f)
        for line in lines:
            walk.line("" if line is None else line)
    open_at_end = walk.table is not None and walk.table.rows_seen
    comma = units.guess_decimal_comma(walk.evidence)
    kernels: list[Kernel] = []
    skipped: dict[str, int] = {}
    shared: dict[str, Printed] = {}
    as_printed = _as_printed.AsPrinted()
    for found in walk.found:
        if found.header.kind is not None:
            skipped[found.header.kind] = skipped.get(found.header.kind, 0) + 1
            continue
        values: dict[str, float] = {}
        printed: dict[str, Printed] = {}
        for name, (unit, text, full) in found.rows.items():
            value = _number(_cut_value(text, comma) if full else text, comma)
            scale = _as_printed.factor(unit, name)
            if value is None:
                continue
            if scale is not None:
                values[name] = value * scale
                printed[name] = shared.setdefault(unit, Printed(unit))
            elif (kept := as_printed.take(name, text, Printed(unit))) is not None:
                printed[name] = kept
        kernels.append(_kernel(len(kernels), found, values, printed))
    if not kernels:
        raise ReportError(path, no_kernel(skipped) if skipped else
                          "no kernel found: not an ncu raw page text export")
    for kernel, table in zip(kernels, Metrics.table(k.metrics for k in kernels), strict=True):
        kernel.metrics = table
    report = Report(source=str(path), format=FORMAT, kernels=kernels, skipped=skipped)
    if lines.unended:
        mark_cut_short(report, UNENDED)
    elif open_at_end:
        mark_cut_short(report, "its last table has no blank line after it")
    if (unread := as_printed.note()) is not None:
        report.notes.append(unread)
    return report


def _number(text: str, comma: bool) -> float | None:
    if not text or text.startswith("(!)"):
        return None
    try:
        return units.parse_number(text, comma)
    except ValueError:
        return None


def _kernel(index: int, found: _Found, values: dict[str, float],
            printed: dict[str, Printed]) -> Kernel:
    header = found.header
    return Kernel(index, function_name(header.display_name), header.display_name,
                  grid=header.grid, block=header.block, device_id=header.device_id,
                  device_name=found.device_name, cc=header.cc, metrics=values, printed=printed)
