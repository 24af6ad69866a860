"""Results that are not kernels (ranges, graphs, command lists): passed over and counted.

A .ncu-rep says what each result is (ncu_report's workload type). An export does not: there ncu
names a range result "range" and a graph result "graph" (with no stream in a text export's header,
tests/data/corpus/h200/workloads-*), while a kernel's name carries its argument list.
"""

from __future__ import annotations

from collections.abc import Mapping

# What exports call results that are not kernels, and the kind each is counted as.
EXPORT_NAMES: dict[str, str] = {"range": "range", "graph": "graph"}


def export_kind(name: str) -> str | None:
    """The kind of an export's result named `name`, None for a kernel."""
    return EXPORT_NAMES.get(name.strip())


def counted(skipped: Mapping[str, int]) -> str:
    """'2 ranges and 1 graph'."""
    parts = [f"{n} {kind}{'' if n == 1 else 's'}" for kind, n in sorted(skipped.items())]
    return " and ".join(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + " and " + parts[-1]


def no_kernel(skipped: Mapping[str, int]) -> str:
    """The reason for a file whose results are none of them kernels."""
    return f"no kernel found: it holds {counted(skipped)}, which are not kernels"
