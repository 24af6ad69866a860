"""The reports that are open, and what has been read of them since their first read.

A .ncu-rep is first read for the metrics the reading order uses; the views beyond it need more
(ncu's rules, the stall metrics, every metric, the occupancy curves). A view says what it needs
of each kernel it shows (a `Need`); `ReportSession.plan` answers what is still missing and not
already being read, merged per report; `read` reads it (a plain function, for a worker thread:
asks of one report read together, one child process per report and kind); `take` takes
the answer in on the thread that shows the reports, and every view then sees it. Exports were
read whole: they lack nothing, and their extras are what the export printed (a details text's
rule blocks and units; no curves). A view that needs the source counters (`Need.source`) gets
each kernel's functions as viewer.readers.source reads them (`source`), kept with its extras;
a report they cannot be read from keeps that one line (`source_error`) and stops no other read.

No Qt here: viewer.qt.kit.session_reads drives it from the GUI.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace

from viewer.core.jobs import Job, one_line
from viewer.core.model import Kernel, Report, ReportError
from viewer.readers import read_metrics, sniff
from viewer.readers.extras import Extras, export_extras, read_extras
from viewer.readers.source import KernelSource, read_source

KEEP_REPORTS = 16
"""Reports whose later reads are kept at most; the oldest not open is forgotten first."""


@dataclass(frozen=True)
class Need:
    """What a view needs of one kernel beyond the first read: metric `metrics` (None: every
    metric the file holds), ncu's `rules`, the instance values of metrics `instances`,
    `about` each metric (its unit, label and description), and its `source` counters (each
    SASS instruction's, viewer.readers.source)."""

    metrics: frozenset[str] | None = frozenset()
    rules: bool = False
    instances: frozenset[str] = frozenset()
    about: bool = False
    source: bool = False

    @classmethod
    def of(cls, metrics: Iterable[str] | None = (), *, rules: bool = False,
           instances: Iterable[str] = (), about: bool = False, source: bool = False) -> Need:
        return cls(None if metrics is None else frozenset(metrics), rules,
                   frozenset(instances), about, source)

    @property
    def empty(self) -> bool:
        return self.metrics == frozenset() and not (self.extras or self.source)

    def __or__(self, other: Need) -> Need:
        metrics = None if self.metrics is None or other.metrics is None \
            else self.metrics | other.metrics
        return Need(metrics, self.rules or other.rules, self.instances | other.instances,
                    self.about or other.about, self.source or other.source)

    def __sub__(self, other: Need) -> Need:
        """What of this is not in `other`."""
        if other.metrics is None:
            metrics: frozenset[str] | None = frozenset()
        elif self.metrics is None:
            metrics = None
        else:
            metrics = self.metrics - other.metrics
        return Need(metrics, self.rules and not other.rules, self.instances - other.instances,
                    self.about and not other.about, self.source and not other.source)

    @property
    def extras(self) -> bool:
        """Whether it asks for ncu's rules, instances or words (`source` apart)."""
        return self.rules or bool(self.instances) or self.about


NOTHING = Need()


@dataclass(frozen=True)
class Ask:
    """One report's kernels (by `Kernel.index`) and what is read of them."""

    report: Report
    indices: tuple[int, ...]
    need: Need


@dataclass(frozen=True)
class Answer:
    """What `read` found for an `Ask`: metric values, extras and source functions by kernel
    index, or the one-line `error` that stopped it (`source_error`: what stopped the source
    counters' read alone)."""

    metrics: Mapping[int, Mapping[str, float]] = field(default_factory=dict)
    extras: Mapping[int, Extras] = field(default_factory=dict)
    error: str | None = None
    source: Mapping[int, tuple[KernelSource, ...]] = field(default_factory=dict)
    source_error: str | None = None


@dataclass
class _Held:
    """What a kernel holds beyond its metrics: its extras, its source functions (None: not
    read) and which of them were asked."""

    kernel: Kernel
    asked: Need = NOTHING
    extras: Extras = field(default_factory=Extras)
    source: tuple[KernelSource, ...] | None = None


def _merged(before: Extras, after: Extras, need: Need) -> Extras:
    return Extras(rules=after.rules if need.rules else before.rules,
                  instances={**before.instances, **after.instances},
                  about={**before.about, **after.about})


class ReportSession:
    """The open reports and every later read of them (see the module docstring)."""

    def __init__(self) -> None:
        self._open: list[Report] = []
        self._known: dict[int, tuple[Report, dict[int, _Held]]] = {}
        self._errors: dict[int, str] = {}
        self._source_errors: dict[int, str] = {}
        self._reading: dict[tuple[int, int], list[Need]] = {}

    # ------------------------------------------------------------ the open reports

    @property
    def reports(self) -> list[Report]:
        return list(self._open)

    def open(self, reports: Sequence[Report]) -> None:
        """The reports now open (those before them are forgotten, with what was read)."""
        self._open = list(reports)
        keep = {id(r) for r in self._open}
        for key in [k for k in self._known if k not in keep]:
            del self._known[key]
            self._errors.pop(key, None)
            self._source_errors.pop(key, None)

    def _held(self, report: Report, index: int) -> _Held:
        entry = self._known.get(id(report))
        if entry is None or entry[0] is not report:
            if len(self._known) >= KEEP_REPORTS:
                open_ids = {id(r) for r in self._open}
                old = next((k for k in self._known if k not in open_ids), None)
                if old is not None:
                    del self._known[old]
                    self._errors.pop(old, None)
                    self._source_errors.pop(old, None)
            entry = self._known[id(report)] = (report, {})
        kernel = report.kernels[index]
        held = entry[1].get(index)
        if held is None or held.kernel is not kernel:
            held = entry[1][index] = _Held(kernel)
        return held

    # ------------------------------------------------------------ what is read

    def lacks(self, report: Report, kernel: Kernel, need: Need) -> Need:
        """What of `need` the file still holds unread for `kernel` (NOTHING: all read, or an
        export, read whole)."""
        if report.format != sniff.NCU_REP or self._errors.get(id(report)) is not None:
            return NOTHING
        if kernel.read_names is None or kernel.position is None:
            metrics: frozenset[str] | None = frozenset()
        elif need.metrics is None:
            metrics = None
        else:
            metrics = frozenset(kernel.unread(need.metrics))
        if not (need.extras or need.source):
            return replace(NOTHING, metrics=metrics)
        asked = self._held(report, kernel.index).asked
        return replace(need - asked, metrics=metrics)

    def reading(self, report: Report, kernel: Kernel) -> bool:
        """Whether something of `kernel` is being read now."""
        return (id(report), kernel.index) in self._reading

    def extras(self, report: Report, kernel: Kernel) -> Extras:
        """The kernel's extras read so far; an export's, as its reader took them in."""
        if report.format != sniff.NCU_REP:
            return export_extras(kernel)
        entry = self._known.get(id(report))
        held = entry[1].get(kernel.index) if entry is not None and entry[0] is report else None
        return held.extras if held is not None and held.kernel is kernel else Extras()

    def source(self, report: Report, kernel: Kernel) -> tuple[KernelSource, ...] | None:
        """The kernel's functions with their source counters, as read (a kernel launches one;
        a graph or a range one per node); None where not read (an export is never read)."""
        entry = self._known.get(id(report))
        held = entry[1].get(kernel.index) if entry is not None and entry[0] is report else None
        return held.source if held is not None and held.kernel is kernel else None

    def source_error(self, report: Report) -> str | None:
        """The one line that stopped reading the source counters of `report`, if one did."""
        entry = self._known.get(id(report))
        return self._source_errors.get(id(report)) if entry and entry[0] is report else None

    def error(self, report: Report) -> str | None:
        """The one line that stopped a later read of `report`, if one did."""
        entry = self._known.get(id(report))
        if entry is None or entry[0] is not report:
            return None
        return self._errors.get(id(report))

    def plan(self, wants: Iterable[tuple[Report, Kernel, Need]]) -> list[Ask]:
        """What of `wants` is missing and not being read already, one Ask per report (its
        kernels' needs merged); marked as being read until `take` or `drop`."""
        by_report: dict[int, tuple[Report, dict[int, Need]]] = {}
        for report, kernel, need in wants:
            missing = self.lacks(report, kernel, need)
            missing = missing - self._being_read(report, kernel.index)
            if missing.empty:
                continue
            kernels = by_report.setdefault(id(report), (report, {}))[1]
            kernels[kernel.index] = kernels.get(kernel.index, NOTHING) | missing
        asks = []
        for report, kernels in by_report.values():
            need = NOTHING
            for wanted in kernels.values():
                need = need | wanted
            for index in kernels:
                self._reading.setdefault((id(report), index), []).append(need)
                self._held(report, index)
            asks.append(Ask(report, tuple(sorted(kernels)), need))
        return asks

    def take(self, asks: Sequence[Ask], answers: Sequence[Answer]) -> None:
        """Take `read`'s answers in (on the thread that shows the reports): the kernels'
        metrics and extras change in place."""
        for ask, answer in zip(asks, answers, strict=True):
            self._done(ask)
            if answer.error is not None:
                self._errors[id(ask.report)] = answer.error
                continue
            if ask.need.metrics != frozenset():
                ask.report.add_metrics({i: answer.metrics.get(i, {}) for i in ask.indices},
                                       ask.need.metrics)
            if answer.source_error is not None:
                self._source_errors[id(ask.report)] = answer.source_error
            if ask.need.extras or ask.need.source:
                for index in ask.indices:
                    held = self._held(ask.report, index)
                    if ask.need.extras:
                        held.extras = _merged(held.extras, answer.extras.get(index, Extras()),
                                              ask.need)
                    if ask.need.source:
                        held.source = tuple(answer.source.get(index, ()))
                    held.asked = held.asked | replace(ask.need, metrics=frozenset())

    def drop(self, asks: Sequence[Ask]) -> None:
        """`asks` will not be answered (cancelled): they may be planned again."""
        for ask in asks:
            self._done(ask)

    def _being_read(self, report: Report, index: int) -> Need:
        need = NOTHING
        for part in self._reading.get((id(report), index), ()):
            need = need | part
        return need

    def _done(self, ask: Ask) -> None:
        for index in ask.indices:
            key = (id(ask.report), index)
            parts = self._reading.get(key, [])
            if ask.need in parts:
                parts.remove(ask.need)
            if not parts:
                self._reading.pop(key, None)


def merged(asks: Sequence[Ask]) -> list[Ask]:
    """One Ask per report: its asks' kernels and needs together."""
    by_report: dict[int, Ask] = {}
    for ask in asks:
        had = by_report.get(id(ask.report))
        by_report[id(ask.report)] = ask if had is None else Ask(
            ask.report, tuple(sorted({*had.indices, *ask.indices})), had.need | ask.need)
    return list(by_report.values())


READ_AT_ONCE = 2
"""Reports read at the same time (each in child processes of its own): the pair on screen."""


def read(asks: Sequence[Ask], job: Job | None = None) -> list[Answer]:
    """Off the GUI thread: read `asks` from their files, those of one report together (one
    child process per report and kind; READ_AT_ONCE reports at a time), one Answer per Ask. A
    file that cannot be read answers its one-line error; Cancelled (through `job`) stops it
    all."""
    reads = merged(asks)
    parts: list[Job | None] = list(job.shares(len(reads))) if job else [None] * len(reads)
    if len(reads) == 1:
        answers = [_read_one(reads[0], parts[0])]
    else:
        with ThreadPoolExecutor(max_workers=min(READ_AT_ONCE, len(reads))) as pool:
            answers = list(pool.map(_read_one, reads, parts))
    found = {id(ask.report): answer for ask, answer in zip(reads, answers, strict=True)}
    return [found[id(ask.report)] for ask in asks]


def _read_one(ask: Ask, job: Job | None) -> Answer:
    try:
        metrics = {} if ask.need.metrics == frozenset() else read_metrics(
            ask.report, ask.indices, ask.need.metrics, job)
        extras = read_extras(ask.report, ask.indices, rules=ask.need.rules,
                             instances=ask.need.instances, about=ask.need.about,
                             job=job) if ask.need.extras else {}
    except ReportError as exc:
        return Answer(error=one_line(exc))
    if not ask.need.source:
        return Answer(metrics, extras)
    try:
        source = _read_source(ask, job)
    except ReportError as exc:
        return Answer(metrics, extras, source_error=one_line(exc))
    return Answer(metrics, extras, source=source)


def _read_source(ask: Ask, job: Job | None) -> dict[int, tuple[KernelSource, ...]]:
    """The source functions of the ask's kernels, by kernel index (matched by position)."""
    kernels = [ask.report.kernels[i] for i in ask.indices]
    positions = [k.position for k in kernels if k.position is not None]
    found = read_source(ask.report.source, job, positions=positions) if positions else []
    by_position: dict[int, list[KernelSource]] = {}
    for function in found:
        if function.position is not None:
            by_position.setdefault(function.position, []).append(function)
    return {k.index: tuple(sorted(by_position.get(k.position, []), key=lambda f: f.part))
            for k in kernels if k.position is not None}
