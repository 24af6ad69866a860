"""The one model every reader returns: a report is kernels in launch order.

Metrics are keyed by ncu metric name and held in base units (ns, bytes, bytes/s, hz, percent,
counts). A metric the file does not show is absent from the dict; `Kernel.metric` answers None for
it. Missing is never zero.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

Dim3 = tuple[int, int, int]


class ReportError(Exception):
    """A file that cannot be read as a report; `str()` is one line that names the file."""

    def __init__(self, source: str | Path, reason: str) -> None:
        self.source = str(source)
        self.reason = " ".join(reason.split())
        super().__init__(f"{self.source}: {self.reason}")


@dataclass
class Kernel:
    """One profiled kernel launch."""

    index: int
    name: str
    display_name: str
    grid: Dim3 | None = None
    block: Dim3 | None = None
    device: str | None = None
    cc: str | None = None
    metrics: dict[str, float] = field(default_factory=dict)

    def metric(self, name: str) -> float | None:
        """The value of metric `name` in base units, or None when the report does not hold it."""
        value = self.metrics.get(name)
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return None
        return value

    @property
    def label(self) -> str:
        """A short label for lists and titles: '#3 matmul_naive'."""
        return f"#{self.index} {self.name}"


@dataclass
class Report:
    """Kernels in launch order, read from one file."""

    source: str
    format: str
    kernels: list[Kernel] = field(default_factory=list)

    @property
    def file_name(self) -> str:
        return Path(self.source).name


_TAGS = re.compile(r"\[[^\[\]]*\]")


def function_name(display_name: str) -> str:
    """The bare function name of a demangled kernel name.

    'void ns::gemm<float, 4>(float *, int)' -> 'gemm';
    'matmul_naive[abi:v1,cw51...](Array<float, 2, C>)' -> 'matmul_naive'.
    """
    text = display_name.strip()
    depth, last_group = 0, 0
    for i, ch in enumerate(text):  # the argument list is the last top-level '(...)' group
        if ch in "<[(":
            if ch == "(" and depth == 0:
                last_group = i
            depth += 1
        elif ch in ">])":
            depth = max(0, depth - 1)
    if last_group > 0:
        text = text[:last_group]
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
