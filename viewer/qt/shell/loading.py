"""The loading job: read the files off the GUI thread and list their kernels.

A file that cannot be read does not throw away the others: it is refused with one line naming it,
and what could be read opens. A file named twice is read once, and the status line says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from viewer.core.file_list import named_once
from viewer.core.jobs import Job, one_line
from viewer.core.model import Report, ReportError
from viewer.qt.kernel_list.kernel_list import KernelEntry, kernel_entries


@dataclass(frozen=True)
class Loaded:
    """What a loading job hands back: the files read, their reports, the kernel list's rows,
    one line for each file refused (naming it), and one for each named more than once (read
    once: viewer.core.file_list)."""

    paths: tuple[Path, ...]
    reports: tuple[Report, ...]
    entries: tuple[KernelEntry, ...]
    refused: tuple[str, ...] = ()
    repeated: tuple[str, ...] = ()

    @property
    def notes(self) -> tuple[str, ...]:
        """What the readers warn of the files they read (one looks cut short), a line each,
        naming the file."""
        return tuple(f"{r.source}: warning: {note}" for r in self.reports for note in r.notes)


def read_reports(paths: Sequence[Path], job: Job) -> Loaded:
    """Read every file that can be read, each once, and list their kernels; the others are
    refused."""
    from viewer.readers import read_report

    paths, repeated = named_once(paths)
    steps = len(paths) + 1
    read: list[Path] = []
    reports: list[Report] = []
    refused: list[str] = []
    for i, path in enumerate(paths):
        job.progress(i / steps, f"Reading {path.name}")
        try:
            reports.append(read_report(path, job.part(i / steps, (i + 1) / steps)))
        except ReportError as exc:  # Cancelled passes: a cancel stops the whole job
            refused.append(one_line(exc))
            continue
        read.append(path)
    job.progress(len(paths) / steps, "Listing kernels")
    entries = tuple(kernel_entries(reports))
    job.progress(1.0, "Done")
    return Loaded(tuple(read), tuple(reports), entries, tuple(refused), tuple(repeated))


def first_picks(loaded: Loaded) -> list[KernelEntry]:
    """What opens first: two files compare their first kernels, one file with two kernels
    compares those, anything else shows the first kernel."""
    if len(loaded.reports) >= 2:
        firsts: dict[int, KernelEntry] = {}
        for entry in loaded.entries:
            firsts.setdefault(entry.report_index, entry)
        return [firsts[0], firsts[1]]
    return list(loaded.entries[:2] if len(loaded.entries) == 2 else loaded.entries[:1])
