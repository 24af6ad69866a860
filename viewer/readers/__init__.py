"""Readers: every Nsight Compute format into the one Report.

`read_report(path)` sniffs the format from the file's content (never its name), hands the file to
that format's reader, and guarantees the caller one kind of failure: a ReportError whose one-line
message names the file. A file with no kernel is a ReportError too, quoting ncu when the file is
ncu's own error text. Cancelling the job raises viewer.jobs.Cancelled.

The reader modules are imported only when their format is met, so reading a CSV never loads the
.ncu-rep machinery and the package imports no pandas until a CSV is read.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from viewer.jobs import Cancelled, Job
from viewer.model import Report, ReportError
from viewer.readers import ncu_error, sniff

__all__ = ["FORMATS", "read_report", "reader_module"]

FORMATS = sniff.FORMATS

_MODULES = {
    sniff.NCU_REP: "viewer.readers.ncu_rep",
    sniff.DETAILS_TEXT: "viewer.readers.details_text",
    sniff.DETAILS_CSV: "viewer.readers.details_csv",
    sniff.RAW_CSV: "viewer.readers.raw_csv",
}


def reader_module(fmt: str) -> ModuleType:
    """The module that reads format `fmt` (it has `read(path) -> Report`)."""
    return importlib.import_module(_MODULES[fmt])


def read_report(path: str | Path, job: Job | None = None) -> Report:
    """Read the report or export at `path`; ReportError (one line, naming the file) on failure."""
    path = Path(path)
    fmt = "report"
    try:
        fmt = sniff.sniff(path)
        if job is not None:
            job.progress(0.0, f"reading {path.name} ({fmt})")
        if fmt == sniff.NCU_REP:
            report = reader_module(fmt).read(path, job)
        else:
            report = _read_text(fmt, path)
    except (ReportError, Cancelled):
        raise
    except MemoryError:
        raise ReportError(path, f"not enough memory to read this {fmt} file") from None
    except Exception as exc:
        raise ReportError(path, f"cannot be read as {fmt} ({type(exc).__name__}: {exc})") from exc
    if not report.kernels:
        raise ReportError(path, ncu_error.file_reason(path) or "no kernel found")
    if job is not None:
        job.progress(1.0, f"read {len(report.kernels)} kernel(s) from {path.name}")
    return report


def _read_text(fmt: str, path: Path) -> Report:
    """A text or CSV export; when it holds no kernel and ncu's error text, ncu is quoted."""
    try:
        report = reader_module(fmt).read(path)
    except ReportError:
        quoted = ncu_error.file_reason(path)
        if quoted:
            raise ReportError(path, quoted) from None
        raise
    return report
