"""The end of a capture run (no Qt): each report the helper sent kept under a name of its own,
or the sink aborted and the run's failure raised (`settle_all`, `settle`); a run of several
that failed part way keeps the reports sent whole (PartlyKept); and each kept report's
provenance written beside it (`record_provenance`). The terminal (viewer.capture.client's
run_sweep) and the window (viewer.qt.capture.capture_run) end their runs here alike."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from viewer.capture import provenance
from viewer.capture.request import Request
from viewer.capture.run import CaptureCancelled, CaptureError, Finished
from viewer.capture.store import ReportSink, SinkError, capture_stem
from viewer.core.jobs import Job
from viewer.core.model import Report, ReportError

__all__ = ["Kept", "PartlyKept", "cancelled", "record_provenance", "settle", "settle_all"]


@dataclass(frozen=True)
class Kept:
    """One report of a run, committed: its path, its one-report request, its own `done` (its
    bytes, the run's ncu version and driver) and its sidecar's claim."""

    path: Path
    request: Request
    done: dict[str, object]
    claim: provenance.Claim | None


def settle_all(finished: Finished | None, sink: ReportSink, request: Request) -> list[Kept]:
    """The end of one run of several reports or one: each report kept under its own name, with
    its own `done`; or the sink aborted and the run's failure raised. The `done` event of a run
    of several must list its reports, the ones asked for in order, their bytes adding up. A run
    of several that failed keeps the first reports the helper said it sent whole (its `sent`
    events, in the order asked for, covered by the bytes that arrived) and raises PartlyKept;
    a report cut by the failure is never kept."""
    parts = request.reports()
    if len(parts) == 1:
        path, done = settle(finished, sink)
        return [Kept(path, parts[0], done, sink.claim)]
    assert finished is not None, "a run is settled once it has finished"
    if finished.failure is not None:
        whole = _whole_sent(finished, parts, sink.size)
        if not whole:
            sink.abort()
            raise finished.failure
        try:
            kept = _commit(sink, parts[:len(whole)], whole, {}, first=True)
        except SinkError:
            raise finished.failure from None
        raise PartlyKept(finished.failure, kept)
    done = finished.done or {}
    sizes = _sizes_said(done, parts)
    if sizes is None:
        sink.abort()
        raise CaptureError(f"The helper did not say which of its {len(parts)} reports arrived "
                           "in which order; nothing was saved.", finished.code)
    try:
        return _commit(sink, parts, sizes, done)
    except SinkError as exc:
        raise CaptureError(str(exc), finished.code) from None


class PartlyKept(CaptureError):
    """A run of several reports that failed (`failure`: its words, and whether it was a
    cancel) after some arrived whole: those are kept (`kept`), in order."""

    def __init__(self, failure: CaptureError, kept: list[Kept]) -> None:
        super().__init__(str(failure), failure.exit_code)
        self.failure = failure
        self.kept = kept


def cancelled(exc: CaptureError) -> bool:
    """Whether the capture ended because it was cancelled (PartlyKept: its failure was)."""
    return isinstance(exc.failure if isinstance(exc, PartlyKept) else exc, CaptureCancelled)


def _whole_sent(finished: Finished, parts: list[Request], arrived: int) -> list[int]:
    """The bytes of each of the first reports of `parts` the helper said it sent whole, in
    order, as far as `arrived` bytes (what the sink holds) cover them."""
    sizes: list[int] = []
    for sent, part in zip(finished.sent, parts, strict=False):
        if (sent.target, sent.dim) != (part.target, part.dim) or \
                sum(sizes) + sent.bytes > arrived:
            break
        sizes.append(sent.bytes)
    return sizes


def _commit(sink: ReportSink, parts: list[Request], sizes: list[int],
            done: Mapping[str, object], first: bool = False) -> list[Kept]:
    """Each of `parts` kept under its own name (sink.commit_parts), with the run's `done` less
    its totals and each report's own bytes."""
    now = datetime.now(UTC)
    stems = [capture_stem(p.target, p.dim, p.set, now) for p in parts]
    kept = sink.commit_parts(list(zip(stems, sizes, strict=True)), first)
    common = {k: v for k, v in done.items() if k not in ("bytes", "reports")}
    return [Kept(path, part, {**common, "bytes": n}, claim)
            for (path, claim), part, n in zip(kept, parts, sizes, strict=True)]


def _sizes_said(done: Mapping[str, object], parts: list[Request]) -> list[int] | None:
    """Each report's bytes as the `done` event lists them, where it lists `parts` in order."""
    said = done.get("reports")
    if not isinstance(said, list) or len(said) != len(parts):
        return None
    sizes = []
    for item, part in zip(said, parts, strict=True):
        if not (isinstance(item, dict) and (item.get("target"), item.get("dim")) == (
                part.target, part.dim) and isinstance(item.get("bytes"), int)):
            return None
        sizes.append(int(item["bytes"]))
    return sizes


def settle(finished: Finished | None, sink: ReportSink) -> tuple[Path, dict[str, object]]:
    """The end of one run: the report committed, with the helper's `done` event; or the sink
    aborted and the run's failure (CaptureCancelled, CaptureError) raised."""
    assert finished is not None, "a run is settled once it has finished"
    if finished.failure is not None:
        sink.abort()
        raise finished.failure
    assert finished.done is not None  # a run that did not fail ends with the `done` event
    try:
        return sink.commit(), finished.done
    except SinkError as exc:
        raise CaptureError(str(exc), finished.code) from None


def record_provenance(path: Path, request: Request, route_kind: str, done: Mapping[str, object],
                      claim: provenance.Claim | None, job: Job | None = None) -> Report | None:
    """Read a new report for the GPU it names and write its provenance beside it, the same for the
    terminal and the window. Returns the Report read, so that opening it reads nothing again;
    None where it cannot be read (its provenance then names the driver's GPU)."""
    from viewer.readers import read_report

    try:
        report: Report | None = read_report(path, job)
    except ReportError:
        report = None
    gpu = next((k.device_name for k in report.kernels if k.device_name), None) if report else None
    record = provenance.from_capture(request.target, int(request.dim), request.set,
                                     request.clock, route_kind, done, gpu=gpu)
    with contextlib.suppress(OSError):  # the report is kept even if its note cannot be
        provenance.write_provenance(path, record, claim)
    return report

