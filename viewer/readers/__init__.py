"""Readers: every Nsight Compute format into the one Report.

`read_report(path)` sniffs the format from the file's content (never its name), hands the file to
that format's reader, and guarantees the caller one kind of failure: a ReportError whose one-line
message names the file. A file with no kernel is a ReportError too, quoting ncu when the file is
ncu's own error text. Cancelling the job raises viewer.core.jobs.Cancelled.

A .ncu-rep is read for the metrics the views use (viewer.core.metrics.KNOWN_METRICS): its Report is
`partial`, and `read_metrics(report, ...)` reads more of it when a view asks (off the GUI thread;
`Report.add_metrics` takes the answer in on it). Exports are read whole.

A file is opened once (viewer.readers._opened), and every pass reads that one file, whatever is
put at its path meanwhile. A gzip-compressed file of any format is read transparently
(viewer.readers._gzip): decompressed once into a private copy, its Report naming the compressed
file. A report that
looks cut short says why in `Report.cut_short` (and in `Report.notes`); an export rewritten while
it was read is refused, as a .ncu-rep is.

The reader modules are imported only when their format is met, so reading a CSV never loads the
.ncu-rep machinery and the package imports no pandas until a CSV is read. The package itself
imports nothing at first: the .ncu-rep reader's child, a module of this package, starts in a
fresh Python for every slice and needs none of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from viewer.core.jobs import Job
    from viewer.core.model import Report
    from viewer.readers._opened import Opened as _Opened

__all__ = ["read_metrics", "read_report"]


def _export_reader(fmt: str) -> Callable[[Path], Report]:
    """The `read(path) -> Report` of the text or CSV export format `fmt` (one of sniff's
    FORMATS), its module imported only now."""
    from viewer.readers import sniff

    match fmt:
        case sniff.DETAILS_TEXT:
            from viewer.readers import details_text
            return details_text.read
        case sniff.DETAILS_CSV:
            from viewer.readers import details_csv
            return details_csv.read
        case sniff.RAW_CSV:
            from viewer.readers import raw_csv
            return raw_csv.read
        case sniff.RAW_TEXT:
            from viewer.readers import raw_text
            return raw_text.read
        case sniff.REFERENCE:
            from viewer.readers import reference_toml
            return reference_toml.read
    raise ValueError(f"{fmt!r} is not an export format")


def read_report(path: str | Path, job: Job | None = None) -> Report:
    """Read the report or export at `path`; ReportError (one line, naming the file) on failure.

    The file is opened once (viewer.readers._opened) and every pass reads that one file: its
    format judged, its kernels and its session read, a gzip-compressed one decompressed once."""
    return _read(Path(path), job, None)


def read_report_whole(path: str | Path, extras: Mapping[str, Any]
                      ) -> tuple[Report, dict[int, dict[str, Any]] | None]:
    """The report at `path` as `read_report` reads it, except that a .ncu-rep the read cache
    does not hold is read with every metric of each kernel and the `extras` asked for (as
    viewer.readers.extras.read_extras asks for them: {"about": True}...) in the same pass of the
    reader's child: (the report, the child's extras records by kernel index). None for the
    records where the report was read otherwise (an export, a report the cache held): ask
    viewer.readers.extras.read_extras_and_metrics then. What is read so is not kept in the
    cache."""
    found: dict[int, dict[str, Any]] = {}
    report = _read(Path(path), None, (extras, found))
    return report, found if found else None


Whole = tuple[Mapping[str, Any], dict[int, dict[str, Any]]]
"""A read of every metric with extras (read_report_whole): what to ask for, where to put it."""


def _read(path: Path, job: Job | None, whole: Whole | None) -> Report:
    from viewer.core.model import ReportError
    from viewer.readers import _opened

    try:
        with _opened.opened(path) as source:
            return _read_or_recall(source, job, whole)
    except ReportError as exc:
        if exc.source != str(path):  # it named a private copy, or the descriptor's name
            raise ReportError(path, exc.reason) from None
        raise


def _read_or_recall(source: _Opened, job: Job | None, whole: Whole | None = None) -> Report:
    """The report the cache holds for this very file (viewer.readers.read_cache), else the file
    read, and kept there when it was read whole and did not change meanwhile (and not `whole`:
    with every metric, see read_report_whole)."""
    from viewer.readers import read_cache

    if not read_cache.is_on():
        return _read_opened(source, job, whole)
    key = read_cache.key_of(source)
    report = read_cache.load(key, str(source.path))
    if report is not None:
        if job is not None:
            job.progress(1.0, f"read {len(report.kernels)} kernel(s) from {source.path.name}"
                              " (kept from an earlier read)")
        return report
    from viewer.core.model import Kernel

    report = _read_opened(source, job, whole)
    if whole is not None and whole[1]:
        return report
    # a reader's own kind of kernel (a published reference's) carries more than the cache keeps
    plain = all(type(k) is Kernel for k in report.kernels)
    if plain and read_cache.key_of(source) == key:
        read_cache.store(key, report)
    return report


def _read_opened(source: _Opened, job: Job | None, whole: Whole | None = None) -> Report:
    from viewer.core.jobs import Cancelled
    from viewer.core.model import ReportError
    from viewer.readers import _text_lines, sniff

    path = source.path
    fmt = "report"
    try:
        fmt = sniff.sniff_opened(source)
        if job is not None:
            job.progress(0.0, f"reading {path.name} ({fmt})")
        if fmt == sniff.NCU_REP:
            from viewer.readers import ncu_rep

            if whole is None:
                report = ncu_rep.read(path, job, source=source)
            else:
                report = ncu_rep.read(path, job, source=source, names=None, extras=whole[0],
                                      found=whole[1])
            _text_lines.settle_cut_short(report)
        else:
            report = _read_export(fmt, source)
    except (ReportError, Cancelled):
        raise
    except MemoryError:
        raise ReportError(path, f"not enough memory to read this {fmt} file") from None
    except Exception as exc:
        raise ReportError(path, f"cannot be read as {fmt} ({type(exc).__name__}: {exc})") from exc
    if job is not None:
        job.progress(1.0, f"read {len(report.kernels)} kernel(s) from {path.name}")
    return report


def _read_export(fmt: str, source: _Opened) -> Report:
    """A text or CSV export, compressed or not (decompressed once), and its session; its errors
    and its Report name the file. One rewritten while it was read is refused."""
    from viewer.core.model import ReportError
    from viewer.readers import _gzip, _opened, _text_lines, ncu_session, sniff

    path = source.path
    with _gzip.readable(source, sniff.MAX_BYTES[fmt]) as (plain, ended), \
            _opened.named(plain) as here:
        try:
            report = _read_text(fmt, here)
        except ReportError as exc:
            source.check()
            raise ReportError(path, exc.reason) from None
        report.source = str(path)
        if not ended and not report.cut_short:
            _text_lines.mark_cut_short(report, _gzip.CUT_SHORT_GZIP)
        try:
            session = ncu_session.read(here, fmt)
        except (OSError, ReportError):
            session = None  # a session is optional: a file that cannot give it has none
        # a reader's own session (a published table's provenance) stands where ncu's is absent
        report.session = session or report.session
    source.check()
    _text_lines.settle_cut_short(report)
    return report


def _read_text(fmt: str, path: Path) -> Report:
    """A text or CSV export; when it holds no kernel and ncu's error text, ncu is quoted."""
    from viewer.core.model import ReportError
    from viewer.readers import ncu_error

    read = _export_reader(fmt)
    try:
        report = read(path)
    except ReportError:
        quoted = ncu_error.file_reason(path)
        if quoted:
            raise ReportError(path, quoted) from None
        raise
    if not report.kernels:
        raise ReportError(path, ncu_error.file_reason(path) or "no kernel found")
    return report


def read_metrics(report: Report, kernel_indices: Iterable[int], names: Iterable[str] | None = None,
                 job: Job | None = None) -> dict[int, Mapping[str, float]]:
    """Metric `names` (None: every numeric metric) of the report's kernels `kernel_indices`
    (`Kernel.index`) that were not read yet, keyed by kernel index, for `Report.add_metrics`.

    Off the GUI thread: a .ncu-rep is read again in the reader's child, with progress and cancel
    through `job`. A kernel read whole (every export) has nothing more to read, and is left out.
    ReportError (one line, naming the file) when the file was rewritten or cannot be read.
    """
    from viewer.core.model import ReportError
    from viewer.readers import ncu_rep, sniff

    names = None if names is None else frozenset(names)
    wanted = [report.kernels[i] for i in sorted(set(kernel_indices))]
    wanted = [k for k in wanted if k.read_names is not None and k.position is not None
              and (names is None or k.unread(names))]
    if not wanted:
        return {}
    if report.format != sniff.NCU_REP:
        raise ReportError(report.source, f"a {report.format} file cannot be read in part")
    by_position = {k.position: k.index for k in wanted if k.position is not None}
    with ncu_rep.read_again_errors(report.source):
        found = ncu_rep.read_metrics(
            Path(report.source), list(by_position), names, job, stamp=report.stamp)
    return {by_position[p]: values for p, values in found.items()}
