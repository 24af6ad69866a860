"""Reader for ncu `--page details` text exports (what ncu prints, or `ncu --import X > file.txt`).

Every generation seen is read: the 2019 fixed-width tables (`SOL FB`, `SM [%]`), the 2022+
content-sized tables with a title row, `--print-units base`, `--print-details all`,
`--print-metric-name name` / `label-name`, `--metrics` output ("Command line profiler metrics")
and `--print-summary per-kernel` (its Average column). Program output, `==PROF==` lines (even with
program output run into them), warnings and rule text between the tables are passed over.

A file that starts directly at its first `Section:` line, with no kernel header, holds one kernel
whose name is unknown: it is named after the file's stem.

Every row with a number is read, with its unit as printed (`Kernel.printed`): a row whose label
viewer.core.metrics resolves is keyed by its ncu metric name, any other by its section and label
("Scheduler Statistics: No Eligible"), the only name the file gives it. Values are read in base
units; one in a unit not understood is kept as printed, not used (viewer.readers._as_printed).
`(!) nan`, `(!) n/a` and any other value ncu flags with `(!)` are missing. Whether numbers use a
decimal comma is decided once per file, separately for detail tables and summary tables, since
the summary prints plain floats.

ncu's rule results between the tables (`OPT   Est. Speedup: 35.37%` and the message under it) are
read into `Kernel.rules` as ncu_report-style dicts (viewer.readers._text_rules). A file whose last
table has no closing rule, or whose last line has no newline, looks cut short (`Report.cut_short`),
as does one whose last kernel's sections stop early (viewer.readers._cut, which says what cannot
be told). A section met twice under one kernel means a kernel header line is missing: the file
is refused, its kernels' metrics being impossible to tell apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from viewer.core import metrics, units
from viewer.core.model import Kernel, Metrics, Printed, Report, ReportError, function_name
from viewer.readers import _as_printed
from viewer.readers._cut import last_kernel_cut
from viewer.readers._text_header import KernelHeader, might_be_header, parse_header
from viewer.readers._text_lines import LONGEST_LINE, UNENDED, Lines, mark_cut_short, open_text
from viewer.readers._text_rules import RuleBlock
from viewer.readers._text_table import DETAILS, Row, Table, is_rule, is_title, rule_spans
from viewer.readers._workloads import no_kernel

FORMAT = "details-text"

_CSV_HEADER = '"ID","Process ID"'
_PROCESS = re.compile(r"\[\d+\] \S.*@\S+$")
_EVIDENCE_CAP = 20_000
_ERRORS_KEPT = 3


def looks_like(head: str) -> bool:
    """Whether the first part of a file (decoded text) is an ncu details text export."""
    if _CSV_HEADER in head:
        return False
    section = ruled = False
    for raw in head.splitlines():
        s = raw.strip()
        if s.startswith("Section: "):
            section = True
        elif is_rule(s) and len(rule_spans(s)) >= 3:
            ruled = True
        elif _announces_kernels(s):
            return True
        if section and ruled:
            return True
    return False


def _announces_kernels(stripped: str) -> bool:
    """ncu's own progress or error lines, or a kernel header."""
    if stripped.startswith(("==PROF==", "==ERROR==")):
        return True
    return might_be_header(stripped) and parse_header(stripped) is not None


def read(path: Path) -> Report:
    """Read a details text export: kernels in file order, metrics in base units."""
    path = Path(path)
    try:
        return _read(path)
    except ReportError:
        raise
    except OSError as exc:
        raise ReportError(path, f"cannot read the file: {exc.strerror or exc}") from exc
    except Exception as exc:
        reason = f"{type(exc).__name__}: {exc}"
        raise ReportError(path, f"not a readable details text export ({reason})") from exc


@dataclass
class _Found:
    """One kernel while the file is walked: its header and, per metric, the first available value
    as printed (unit, value text, table kind)."""

    header: KernelHeader | None
    values: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    printed: dict[str, Printed] = field(default_factory=dict)
    rules: list[dict[str, Any]] = field(default_factory=list)
    sections: dict[str, int] = field(default_factory=dict)
    """section -> the rows with a value read in it, in file order (viewer.readers._cut)"""


@dataclass
class Walk:
    """The walk over a file's lines: the kernel, section and table each line belongs to."""

    kernels: list[_Found] = field(default_factory=list)
    section: str | None = None
    table: Table | None = None
    title: str | None = None
    errors: list[str] = field(default_factory=list)
    lines: int = 0
    evidence: dict[str, list[str]] = field(default_factory=dict)
    block: RuleBlock | None = None
    printed: dict[tuple[str, str, str], Printed] = field(default_factory=dict)
    repeated: str | None = None
    """The first section met twice under one kernel: a kernel header line is missing there."""

    def close(self) -> None:
        self.table = None
        self.title = None

    def end_block(self) -> None:
        if self.block is not None and self.kernels:
            rule = self.block.rule()
            if rule is not None:
                self.kernels[-1].rules.append(rule)
        self.block = None

    def line(self, raw: str) -> None:
        self.lines += 1
        s = raw.strip()
        if self.block is not None:
            if s and not is_rule(s) and self.block.takes(raw):
                return
            self.end_block()
            if s and is_rule(s):
                return
        if (self.section is not None and self.table is None
                and (block := RuleBlock.start(raw, self.section)) is not None):
            self.table, self.title, self.block = None, None, block
            return
        if not s:
            self.close()
        elif s.startswith("=="):
            if s.startswith("==ERROR==") and len(self.errors) < _ERRORS_KEPT:
                self.errors.append(s[len("==ERROR==") :].strip())
        elif is_rule(s):
            self._rule(raw)
        elif s.startswith("Section:"):
            self._section(s[len("Section:") :].strip())
        elif s.startswith("```") or (s[0] == "[" and _PROCESS.match(s)):
            self.section = None
            self.close()
        elif might_be_header(s) and (header := parse_header(s)) is not None:
            self.kernels.append(_Found(header))
            self.section = None
            self.close()
        elif is_title(s):
            if self.table is not None and not self.table.rows_seen:
                self.table.title = raw
            else:
                self.table, self.title = None, raw
        elif self.table is not None and self.section is not None:
            row = self.table.row(raw)
            if row is not None:
                self._row(row, self.table.kind or DETAILS)

    def _section(self, name: str) -> None:
        if not self.kernels:
            self.kernels.append(_Found(None))
        sections = self.kernels[-1].sections
        if name in sections and self.repeated is None:
            self.repeated = name
        sections.setdefault(name, 0)
        self.section = name
        self.close()

    def _rule(self, raw: str) -> None:
        if self.section is None:
            return
        table = self.table
        if table is not None:
            if table.rows_seen or table.title is None:
                self.close()
            else:
                table.spans = rule_spans(raw)
            return
        self.table, self.title = Table(rule_spans(raw), title=self.title), None

    def _row(self, row: Row, kind: str) -> None:
        if not row.label or not row.value:
            return
        text = row.value
        if "," in text or "." in text:
            seen = self.evidence.setdefault(kind, [])
            if len(seen) < _EVIDENCE_CAP:
                seen.append(text)
        section = self.section or ""
        metric = _metric(section, row.label) or f"{section}: {row.label}"
        found = self.kernels[-1]
        found.sections[section] = found.sections.get(section, 0) + 1
        if metric in found.values or not _available(text):
            return
        found.values[metric] = (row.unit, text, kind)
        key = (row.unit, row.label, section)
        found.printed[metric] = self.printed.setdefault(key, Printed(*key))


def _metric(section: str, label: str) -> str | None:
    """The metric of a row: its label resolved in its section, or the name in 'Label (name)'."""
    if label.endswith(")") and " (" in label:
        inner = label[label.rindex(" (") + 2 : -1]
        if metrics.is_metric_name(inner):
            return inner
    return metrics.resolve(section, label)


def _available(text: str) -> bool:
    """Whether a value cell holds a number (in either decimal convention), not a flagged value."""
    if text.startswith("(!)"):
        return False
    for comma in (False, True):
        try:
            if units.parse_number(text, comma) is not None:
                return True
        except ValueError:
            continue
    return False


def _read(path: Path) -> Report:
    walk = Walk()
    with open_text(path, "a details text export") as f:
        lines = Lines(f)
        for line in lines:
            walk.line("" if line is None else line)  # a table ends at an overlong line
    open_at_end = walk.table is not None and walk.table.rows_seen
    walk.end_block()
    overlong = lines.overlong
    if walk.lines == 0:
        raise ReportError(path, "the file is empty")
    if walk.repeated is not None:
        raise ReportError(path, f"its section {walk.repeated} appears twice under one kernel: a"
                          " kernel header line is missing, so its kernels cannot be told apart")
    comma = {kind: units.guess_decimal_comma(vals) for kind, vals in walk.evidence.items()}
    kernels: list[Kernel] = []
    skipped: dict[str, int] = {}
    as_printed = _as_printed.AsPrinted()
    for found in walk.kernels:
        if found.header is not None and found.header.kind is not None:
            skipped[found.header.kind] = skipped.get(found.header.kind, 0) + 1
            continue
        values, printed = _values(found, comma, as_printed)
        if found.header is None and not printed:
            continue
        kernel = _kernel(len(kernels), found.header, path.stem, values)
        kernel.printed = printed
        kernel.rules = found.rules
        kernels.append(kernel)
    for kernel, table in zip(kernels, Metrics.table(k.metrics for k in kernels), strict=True):
        kernel.metrics = table
    if not kernels:
        raise _no_kernel_found(path, skipped, walk.errors, overlong)
    if not any(found.rules for found in walk.kernels):
        for kernel in kernels:
            kernel.rules = None  # no rule printed: the file holds none, not "nothing to say"
    report = Report(source=str(path), format=FORMAT, kernels=kernels, skipped=skipped)
    results = [list(found.sections.items()) for found in walk.kernels
               if found.header is not None or found.values]
    cut = last_kernel_cut(results[0], results[-2] if len(results) > 1 else None, results[-1])
    if lines.unended:
        mark_cut_short(report, UNENDED)
    elif open_at_end:
        mark_cut_short(report, "its last table has no closing rule")
    elif cut is not None:
        mark_cut_short(report, cut)
    if (unread := as_printed.note()) is not None:
        report.notes.append(unread)
    return report


def _values(found: _Found, comma: dict[str, bool], as_printed: _as_printed.AsPrinted
            ) -> tuple[dict[str, float], dict[str, Printed]]:
    """One kernel's values in base units, and each as printed (a unit not understood: as
    printed alone, when as_printed takes it)."""
    values: dict[str, float] = {}
    printed: dict[str, Printed] = {}
    for metric, (unit, text, kind) in found.values.items():
        value = _number(text, comma.get(kind, False))
        scale = _as_printed.factor(unit, metric)
        if value is None:
            continue
        if scale is not None:
            values[metric] = value * scale
            printed[metric] = found.printed[metric]
        elif (kept := as_printed.take(metric, text, found.printed[metric])) is not None:
            printed[metric] = kept
    return values, printed


def _no_kernel_found(path: Path, skipped: dict[str, int], errors: list[str],
                     overlong: int) -> ReportError:
    """Why a file gave no kernel: workloads skipped, ncu's error, overlong lines, or none."""
    if skipped:
        return ReportError(path, no_kernel(skipped))
    if errors:
        return ReportError(path, "ncu reported an error: " + " ".join(errors))
    if overlong:
        return ReportError(path, "no kernel found: not an ncu details text export (it holds"
                           f" {_lines_longer(overlong)} than {LONGEST_LINE >> 20} MiB,"
                           " which no ncu export prints)")
    return ReportError(path, "no kernel found: not an ncu details text export")


def _lines_longer(count: int) -> str:
    return "a line longer" if count == 1 else f"{count:,} lines longer"


def _number(text: str, comma: bool) -> float | None:
    try:
        return units.parse_number(text, comma)
    except ValueError:
        return None


def _kernel(
    index: int, header: KernelHeader | None, stem: str, values: dict[str, float]
) -> Kernel:
    if header is None:
        return Kernel(index, stem, stem, metrics=values)
    return Kernel(
        index,
        function_name(header.display_name),
        header.display_name,
        grid=header.grid,
        block=header.block,
        device_id=header.device_id,
        cc=header.cc,
        metrics=values,
    )
