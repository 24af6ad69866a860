"""The loading job: read the files off the GUI thread and list their kernels."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from viewer.jobs import Job
from viewer.model import Report
from viewer.qt.kernel_list import KernelEntry, kernel_entries


@dataclass(frozen=True)
class Loaded:
    """What a loading job hands back: the files, their reports and the kernel list's rows."""

    paths: tuple[Path, ...]
    reports: tuple[Report, ...]
    entries: tuple[KernelEntry, ...]


def read_reports(paths: Sequence[Path], job: Job) -> Loaded:
    """Read every file (a ReportError naming the first bad one stops it) and list the kernels."""
    from viewer.readers import read_report

    steps = len(paths) + 1
    reports = []
    for i, path in enumerate(paths):
        job.progress(i / steps, f"Reading {path.name}")
        reports.append(read_report(path, job.part(i / steps, (i + 1) / steps)))
    job.progress(len(paths) / steps, "Listing kernels")
    entries = tuple(kernel_entries(reports))
    job.progress(1.0, "Done")
    return Loaded(tuple(paths), tuple(reports), entries)


def first_picks(loaded: Loaded) -> list[KernelEntry]:
    """What opens first: two files compare their first kernels, one file with two kernels
    compares those, anything else shows the first kernel."""
    if len(loaded.reports) >= 2:
        firsts: dict[int, KernelEntry] = {}
        for entry in loaded.entries:
            firsts.setdefault(entry.report_index, entry)
        return [firsts[0], firsts[1]]
    return list(loaded.entries[:2] if len(loaded.entries) == 2 else loaded.entries[:1])
