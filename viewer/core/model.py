"""The one model every reader returns: a report is kernels in launch order.

Metrics are keyed by ncu metric name and held in base units (ns, bytes, bytes/s, hz, percent,
counts). A metric the file does not show is absent; `Kernel.metric` answers None for it. Missing is
never zero.

A reader may read only some of a file's metrics (a .ncu-rep is read for the metrics the views use,
viewer.core.metrics.KNOWN_METRICS, and more when a view asks). `Kernel.read_names` says which names
were asked of the file, so "not read yet" (`Kernel.was_read` is False: ask the reader) is told apart
from "the report does not hold it" (read, and absent).

Large reports keep their values compactly: `Metrics` is a read-only mapping over one table of names
shared by every kernel of a report and one float array per kernel.
"""

from __future__ import annotations

import math
import re
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, overload

Dim3 = tuple[int, int, int]
# What a reader notes about the file it read, to tell later whether it was rewritten.
FileStamp = tuple[int, ...]


class ReportError(Exception):
    """A file that cannot be read as a report; `str()` is one line that names the file."""

    def __init__(self, source: str | Path, reason: str) -> None:
        self.source = str(source)
        self.reason = " ".join(reason.split())
        super().__init__(f"{self.source}: {self.reason}")


_T = TypeVar("_T")


class Metrics(Mapping[str, float]):
    """Metric values of one kernel: `slots` (name -> position, shared by many kernels) and
    `values` (a float per position, NaN where the kernel has no value). Read-only."""

    __slots__ = ("_slots", "_values")

    def __init__(self, slots: Mapping[str, int], values: Sequence[float]) -> None:
        self._slots = slots
        self._values = values

    def parts(self) -> tuple[Mapping[str, int], Sequence[float]]:
        """The table of names and the values as kept (viewer.readers.cache_format stores them)."""
        return self._slots, self._values

    def shares_names_with(self, other: Metrics) -> bool:
        """Whether `other` reads its values through this one's table of names."""
        return self._slots is other._slots

    @classmethod
    def table(cls, rows: Iterable[Mapping[str, float]]) -> list[Metrics]:
        """One Metrics per mapping in `rows`, all sharing one table of names."""
        rows = list(rows)
        slots: dict[str, int] = {}
        for row in rows:
            for name in row:
                slots.setdefault(name, len(slots))
        out = []
        for row in rows:
            values = array("d", [math.nan]) * len(slots)
            for name, value in row.items():
                values[slots[name]] = value
            out.append(cls(slots, values))
        return out

    @overload
    def get(self, name: str, default: None = None) -> float | None: ...
    @overload
    def get(self, name: str, default: float) -> float: ...
    @overload
    def get(self, name: str, default: _T) -> float | _T: ...

    def get(self, name: str, default: object = None) -> object:
        """The value of `name`, else `default` (also for a NaN: no value)."""
        slot = self._slots.get(name)
        if slot is None or slot >= len(self._values):
            return default
        value = float(self._values[slot])
        return default if value != value else value  # NaN: no value

    def __getitem__(self, name: str) -> float:
        value = self.get(name)
        if value is None:
            raise KeyError(name)
        return value

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __iter__(self) -> Iterator[str]:
        values = self._values
        for name, slot in self._slots.items():
            if slot < len(values) and values[slot] == values[slot]:
                yield name

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"Metrics({len(self)} values)"


def merged(metrics: Mapping[str, float], more: Mapping[str, float]) -> Mapping[str, float]:
    """`metrics` with the values of `more` added (a name in both takes `more`'s value)."""
    if not more:
        return metrics
    if isinstance(metrics, Metrics):
        return Metrics.table([{**metrics, **more}])[0]
    return {**metrics, **more}


@dataclass(frozen=True)
class Printed:
    """How an export printed one metric: its unit as printed ('Mbyte', '' for none), and the
    section and label of its row (None where the file printed the metric's name alone).

    `value` is the value as printed ('2.1') where its unit is not understood (viewer.core.units),
    for its metric: the kernel then holds no value for the metric, only this text to show; None
    for a value the kernel holds in base units."""

    unit: str
    label: str | None = None
    section: str | None = None
    value: str | None = None

    @property
    def as_printed(self) -> str | None:
        """'2.1 zorks': a value whose unit is not understood, as the file printed it."""
        return None if self.value is None else f"{self.value} {self.unit}".strip()


@dataclass
class Kernel:
    """One profiled kernel launch.

    `device_id` is the device's number as ncu counts them (exports print it as "Device 0"),
    `device_name` its marketing name ("NVIDIA H200"); each None when the file does not say.
    `read_names`: the metric names the reader asked of the file, None when it read every metric
    the file holds. `position`: where the reader finds this kernel again in its file (a .ncu-rep
    result's place, ranges and graphs counted), None when the file needs no second reading.
    `printed`: metric name -> how an export printed it (empty for a .ncu-rep: ncu_report says),
    also for a value in a unit not understood, which `metrics` lacks (`Printed.value`).
    `rules`: the rule results an export printed, as ncu_report-style dicts (see
    viewer.analysis.advice.advice_of); None when the file holds none a reader reads.
    """

    index: int
    name: str
    display_name: str
    grid: Dim3 | None = None
    block: Dim3 | None = None
    device_id: int | None = None
    device_name: str | None = None
    cc: str | None = None
    metrics: Mapping[str, float] = field(default_factory=dict)
    read_names: frozenset[str] | None = None
    position: int | None = None
    printed: Mapping[str, Printed] = field(default_factory=dict)
    rules: list[dict[str, Any]] | None = None

    def metric(self, name: str) -> float | None:
        """The value of metric `name` in base units, or None when there is none (the report does
        not hold it, or it was not read yet: `was_read` tells which)."""
        value = self.metrics.get(name)
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return None
        return value

    def was_read(self, name: str) -> bool:
        """Whether the reader asked the file for `name`: if so, a missing value is not in it."""
        return self.read_names is None or name in self.read_names

    def unread(self, names: Iterable[str]) -> list[str]:
        """Those of `names` not asked of the file yet, in order (a view reads them, then shows)."""
        return [n for n in names if not self.was_read(n)]

    def add_metrics(self, values: Mapping[str, float], names: Iterable[str] | None) -> None:
        """Take in what a later read of metric `names` (None: every metric) found: `values`."""
        self.metrics = merged(self.metrics, values)
        self.read_names = _asked(self.read_names, names)

    @property
    def device_label(self) -> str | None:
        """The device for people: its name, else 'device 0', else None."""
        if self.device_name:
            return self.device_name
        return None if self.device_id is None else f"device {self.device_id}"

    @property
    def label(self) -> str:
        """A short label for lists and titles: '#3 matmul_naive'."""
        return f"#{self.index} {self.name}"


@dataclass(frozen=True)
class Session:
    """How ncu captured a report, as the report itself records it; None where it does not.

    `clock_control` is ncu's --clock-control ("base", "none", ...) and `clock_source` says, for
    people, what in the file told it (the recorded command line, ncu's default where that line
    names none, ncu's own warning in a text export); `warning` is ncu's warning line itself where
    the file holds it. `ncu_version` is ncu's own ("2025.3.1.0 (build 36398880)
    (public-release)"), `created` ISO 8601 in UTC.
    """

    clock_control: str | None = None
    clock_source: str | None = None
    ncu_version: str | None = None
    cuda_version: str | None = None
    created: str | None = None
    command_line: str | None = None
    warning: str | None = None


@dataclass
class Report:
    """Kernels in launch order, read from one file.

    `skipped` counts the file's results that are not kernels and were passed over, by kind
    ({"range": 2, "graph": 1}); `stamp` is what the reader noted of the file, to refuse reading
    more of it once it was rewritten. `notes`: what the reader warns of the file though it read
    kernels from it (one sentence each: "the file looks cut short: ..."). `cut_short`: why the
    file looks cut short, one reason each ("its last line has no newline"), empty when nothing
    says so; each also has its sentence in `notes` (viewer.readers._text_lines.mark_cut_short).
    """

    source: str
    format: str
    kernels: list[Kernel] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)
    stamp: FileStamp | None = None
    session: Session | None = None  # how ncu captured it (viewer.readers.ncu_session)
    notes: list[str] = field(default_factory=list)
    cut_short: list[str] = field(default_factory=list)

    @property
    def file_name(self) -> str:
        return Path(self.source).name

    @property
    def partial(self) -> bool:
        """Whether some kernel's metrics were read only in part (more can be read on demand)."""
        return any(k.read_names is not None for k in self.kernels)

    @property
    def skipped_count(self) -> int:
        return sum(self.skipped.values())

    def add_metrics(self, found: Mapping[int, Mapping[str, float]],
                    names: Iterable[str] | None) -> None:
        """Take in a later read of metric `names` (None: every metric) of the kernels `found`
        keys by index (viewer.readers.read_metrics' answer). Call it where the report is shown
        (the GUI thread): the kernels change in place."""
        names = None if names is None else frozenset(names)
        chosen = [self.kernels[i] for i in found]
        tables = Metrics.table({**k.metrics, **found[k.index]} for k in chosen)
        for kernel, metrics in zip(chosen, tables, strict=True):
            kernel.metrics = metrics
            kernel.read_names = _asked(kernel.read_names, names)


def _asked(before: frozenset[str] | None, names: Iterable[str] | None) -> frozenset[str] | None:
    if before is None or names is None:
        return None
    return before | frozenset(names)


_TAGS = re.compile(r"\[[^\[\]]*\]")


def _arguments_at(text: str) -> int:
    """Where the argument list starts: a trailing '(...)' group matched from its end
    (parentheses alone, so an unmatched bracket before it cannot hide it), else the last '('
    at bracket depth 0; len(text) where there is none."""
    if text.endswith(")"):
        depth = 0
        for i in range(len(text) - 1, 0, -1):
            depth += {")": 1, "(": -1}.get(text[i], 0)
            if depth == 0:
                return i
    depth, last_group = 0, 0
    for i, ch in enumerate(text):
        if ch in "<[(":
            if ch == "(" and depth == 0:
                last_group = i
            depth += 1
        elif ch in ">])":
            depth = max(0, depth - 1)
    return last_group if last_group > 0 else len(text)


def function_name(display_name: str) -> str:
    """The bare function name of a demangled kernel name.

    'void ns::gemm<float, 4>(float *, int)' -> 'gemm';
    'matmul_naive[abi:v1,cw51...](Array<float, 2, C>)' -> 'matmul_naive'.
    """
    text = display_name.strip()
    text = text[:_arguments_at(text)]
    text = text.replace("(anonymous namespace)", "")
    while True:
        stripped = _TAGS.sub("", text)
        if stripped == text:
            break
        text = stripped
    out, depth = [], 0  # drop template arguments
    for ch in text:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    text = "".join(out).strip()
    text = text.split()[-1] if text.split() else text  # drop return type ('void ')
    text = text.rsplit("::", 1)[-1]
    return text or display_name.strip()
