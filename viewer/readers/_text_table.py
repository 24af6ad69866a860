"""The tables of an ncu details text export: dashed rules, an optional title row, rows by column.

ncu draws each table between dashed rules whose dash runs give the columns. Older generations use
fixed 70/15/30-wide columns with no title row; newer ones size the columns to their content and
print a `Metric Name / Metric Unit / Metric Value` title row between two rules. `--print-summary
per-kernel` prints `Minimum / Maximum / Average` instead of `Metric Value` (in some generations the
title comes before the first rule). `--print-details all` adds body tables, some with other
columns: a table whose columns cannot be told apart is skipped, never guessed at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_DASHES = re.compile(r"-+")
_RULE = re.compile(r"-+(?: +-+)*")

Span = tuple[int, int]

DETAILS = "details"
SUMMARY = "summary"


def is_rule(stripped: str) -> bool:
    """Whether a stripped line is a dashed rule ('---- ------- -----')."""
    return stripped.startswith("-") and _RULE.fullmatch(stripped) is not None


def rule_spans(line: str) -> list[Span]:
    """Column spans (start, end) of a dashed rule, in the line's own character positions."""
    return [m.span() for m in _DASHES.finditer(line)]


def is_title(stripped: str) -> bool:
    """Whether a stripped line is a table's column-title row."""
    return stripped.startswith("Metric Name") and "Metric Unit" in stripped


@dataclass(frozen=True)
class Row:
    """One table row split into its label, unit and value cells (stripped)."""

    label: str
    unit: str
    value: str


@dataclass
class Table:
    """One table being read: its columns, its title and whether rows were seen yet."""

    spans: list[Span]
    title: str | None = None
    rows_seen: bool = False
    _roles: tuple[int, int, int, str] | None = field(default=None, repr=False)
    _decided: bool = field(default=False, repr=False)

    @property
    def kind(self) -> str | None:
        """DETAILS or SUMMARY for a readable table, None for one whose columns are unknown."""
        roles = self._column_roles()
        return roles[3] if roles else None

    def _column_roles(self) -> tuple[int, int, int, str] | None:
        if not self._decided:
            self._decided = True
            self._roles = _roles(self.spans, self.title)
        return self._roles

    def row(self, line: str) -> Row | None:
        """The label, unit and value of a row, or None when the row does not fit the columns."""
        self.rows_seen = True
        roles = self._column_roles()
        if roles is None:
            return None
        cells = _cells(line, self.spans)
        if cells is None:
            return None
        label_at, unit_at, value_at, _ = roles
        return Row(cells[label_at], cells[unit_at], cells[value_at])


def _roles(spans: list[Span], title: str | None) -> tuple[int, int, int, str] | None:
    """Which columns hold the label, unit and value, and whether the table is a summary."""
    if title is None:
        return (0, 1, 2, DETAILS) if len(spans) == 3 else None
    names = _slice(title, spans)
    if names is None or names[0] != "Metric Name" or "Metric Unit" not in names:
        return None
    unit_at = names.index("Metric Unit")
    if "Metric Value" in names:
        return 0, unit_at, names.index("Metric Value"), DETAILS
    if "Average" in names:
        return 0, unit_at, names.index("Average"), SUMMARY
    return None


def _slice(line: str, spans: list[Span]) -> list[str] | None:
    """Cells of `line` cut at the rule's columns, or None when a cell spills over a gap."""
    cells = []
    last = len(spans) - 1
    for i, (start, end) in enumerate(spans):
        if i < last and line[end : spans[i + 1][0]].strip():
            return None
        cells.append(line[start:] if i == last else line[start:end])
    if line[: spans[0][0]].strip():
        return None
    return [cell.strip() for cell in cells]


def _cells(line: str, spans: list[Span]) -> list[str] | None:
    """Cells of a row; a label wider than its column shifts the other cells right."""
    cells = _slice(line, spans)
    if cells is not None:
        return cells
    overflow = len(line.rstrip()) - spans[-1][1]
    if overflow <= 0:
        return None
    first, rest = spans[0], spans[1:]
    shifted = [(first[0], first[1] + overflow)] + [(s + overflow, e + overflow) for s, e in rest]
    return _slice(line, shifted)
