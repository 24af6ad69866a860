"""Reader for binary Nsight Compute reports (.ncu-rep), through NVIDIA's ncu_report package.

ncu_report runs in a child process (viewer.readers.ncu_rep_child) under an address-space limit,
and this side kills it when it runs past its wall-time limit or the job is cancelled, so a corrupt
or hostile report can never take the app down (viewer.readers._child bounds what it may send).
ncu_report accepts garbage silently: a random file loads as zero kernels and a report cut in half
as a kernel with no name and no metrics. So the magic is checked first and what comes back is
judged: no kernel, a nameless kernel or a kernel without metrics means the report looks truncated
or corrupt. A report cut short reads as fewer kernels, so its container is walked here too
(viewer.readers.ncu_container): what ncu_report made of a cut last block is left out, and the cut
is said in `Report.notes`.

The child opens the report through a safe path: a gzip-compressed report is decompressed into a
private temporary copy (viewer.readers._gzip), and a file whose name is not UTF-8 (which
ncu_report refuses) is opened through a private link to it; each is removed after the read.

ncu_report keeps every result it decodes in memory until its process ends, so a child reads one
slice of the results and exits; the next child reads on. Each child opens the file anew: one that
was rewritten meanwhile (its stamp changed) is refused, never spliced.

`read` reads the metrics the app's views use (viewer.core.metrics.KNOWN_METRICS) unless told
otherwise; the kernels then say so (`Kernel.read_names`), and `read_metrics` reads more of them
later, in the same kind of child. Results that are not kernels (ranges, graphs, command lists) are
passed over and counted in `Report.skipped`.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from viewer.core.jobs import Cancelled, Job
from viewer.core.metrics import KNOWN_METRICS
from viewer.core.model import FileStamp, Kernel, Metrics, Report, ReportError, function_name
from viewer.readers import _opened, _workloads, ncu_container, ncu_rep_file, ncu_session
from viewer.readers._child import Child
from viewer.readers._text_lines import cut_short
from viewer.readers.sniff import NCU_REP

FORMAT = NCU_REP
CHILD_MODULE = "viewer.readers.ncu_rep_child"
# How the child is started: `python -S -m viewer.readers.ncu_rep_child PATH OPTIONS...`. Without
# site's start-up (the .pth files of every installed package) it starts in half the time; its
# path is this package's root and the folder that holds ncu_report.
CHILD: tuple[str, ...] = ("-S", "-m", CHILD_MODULE)
PACKAGE_ROOT = Path(__file__).resolve().parents[2]
WHAT = "the .ncu-rep reader"

_MIB = 1 << 20
# One child reads the results this much of the file holds (ncu_report keeps what it decoded until
# its process ends: about 7 bytes of memory per byte of report in a `--set full` capture).
SLICE_BYTES = 256 * _MIB
# The limits grow with the report: a base, plus so much per MiB of file (the time, for the whole
# read) or per byte of the slice one child reads (the memory, for each child).
BASE_TIMEOUT_S = 60.0
TIMEOUT_S_PER_MIB = 0.25
BASE_MEMORY_LIMIT = 2048 * _MIB
MEMORY_LIMIT_PER_BYTE = 10


def default_timeout_s(size: int) -> float:
    """The wall-time limit for reading a report of `size` bytes."""
    return BASE_TIMEOUT_S + TIMEOUT_S_PER_MIB * size / _MIB


def default_memory_limit(size: int, slice_bytes: int = SLICE_BYTES) -> int:
    """A child's address-space limit for a report of `size` bytes read in `slice_bytes` slices."""
    share = size if slice_bytes <= 0 else min(size, slice_bytes)
    return BASE_MEMORY_LIMIT + MEMORY_LIMIT_PER_BYTE * share


class _Limits:
    """One read's limits: its deadline, each child's memory, the slice size."""

    def __init__(self, size: int, timeout_s: float | None, memory_limit: int | None,
                 slice_bytes: int) -> None:
        self.timeout_s = default_timeout_s(size) if timeout_s is None else timeout_s
        self.memory = default_memory_limit(size, slice_bytes) if memory_limit is None \
            else memory_limit
        self.slice_bytes = slice_bytes
        self.deadline = time.monotonic() + self.timeout_s


def read(path: Path, job: Job | None = None, *,
         names: Iterable[str] | None = KNOWN_METRICS, timeout_s: float | None = None,
         memory_limit: int | None = None, slice_bytes: int = SLICE_BYTES,
         source: _opened.Opened | None = None, extras: Mapping[str, Any] | None = None,
         found: dict[int, dict[str, Any]] | None = None) -> Report:
    """Read a .ncu-rep: kernels in launch order, metric `names` (None: every numeric metric) in
    base units, and its session (viewer.readers.ncu_session).

    One child reads the results `slice_bytes` of the file hold, then exits, freeing what
    ncu_report decoded; the next child reads on. `timeout_s` bounds the whole read, and
    `memory_limit` each child. `job` gets progress per result; cancelling it kills the child and
    raises Cancelled. Every other failure is a ReportError naming the file. `source`: the file
    already opened (viewer.readers._opened), else it is opened here; every pass reads it.
    `extras` (as `read_extras` asks for them) are read in the same pass, into `found` by kernel
    index.
    """
    path = Path(path)
    asked = None if names is None else frozenset(names)
    with contextlib.ExitStack() as stack:
        if source is None:
            source = stack.enter_context(_opened.opened(path))
        plain = stack.enter_context(ncu_rep_file.plain(source))
        limits = _Limits(plain.file.size, timeout_s, memory_limit, slice_bytes)
        if job is not None:
            job.progress(0.0, f"opening {path.name}")
        records, skipped = _run(path, plain.file, source, limits, job, asked, None,
                                dict(extras) if extras else None)
        notes = plain.damage_note() + _cut_short(records, skipped, plain.container)
        session = ncu_session.read(plain.file.here, NCU_REP)
    if not records:
        if skipped:
            raise ReportError(path, _workloads.no_kernel(skipped))
        raise ReportError(path, "no kernel found: the report looks truncated or corrupt")
    kernels = _kernels(path, records, asked)
    if extras and found is not None:
        for kernel, record in zip(kernels, records, strict=True):
            found[kernel.index] = {k: record[k] for k in EXTRAS if k in record}
    return Report(source=str(path), format=FORMAT, kernels=kernels, skipped=skipped,
                  stamp=source.stamp, notes=notes, session=session)


def _cut_short(records: list[dict[str, Any]], skipped: dict[str, int],
               container: ncu_container.Container) -> list[str]:
    """The note on a report whose container is cut short (viewer.readers.ncu_container). What
    ncu_report made of the results of a last block cut short (kernels without a name or metrics)
    is dropped from `records` where whole kernels come before it."""
    if container.end == ncu_container.CUT:
        cut = 0
        while cut < min(container.cut_results, len(records) - 1) \
                and _broken(records[-1 - cut]):
            cut += 1
        del records[len(records) - cut:]
    reasons = container.cut_reasons(len(records) + sum(skipped.values()))
    return [cut_short("; ".join(reasons))] if reasons else []


def _broken(record: dict[str, Any]) -> bool:
    """Whether the kernel record has no name or no metrics (ncu_report's make of a cut result)."""
    return not (str(record.get("demangled") or record.get("name") or "").strip()
                and record.get("held") and isinstance(record.get("metrics"), dict))


def read_metrics(path: Path, positions: Iterable[int], names: Iterable[str] | None = None,
                 job: Job | None = None, *, stamp: FileStamp | None = None,
                 timeout_s: float | None = None, memory_limit: int | None = None,
                 slice_bytes: int = SLICE_BYTES) -> dict[int, Metrics]:
    """Metric `names` (None: every numeric metric) of the kernels at `positions` (their
    `Kernel.position`), in base units, keyed by position; in children, as `read` reads.

    `stamp` (the Report's) refuses a file rewritten since it was opened. Run it off the GUI
    thread, and hand the answer to `Report.add_metrics` on it.
    """
    path = Path(path)
    wanted = sorted(set(positions))
    if not wanted:
        return {}
    asked = None if names is None else frozenset(names)
    records = _read_again(path, wanted, asked, None, job, stamp,
                          (timeout_s, memory_limit, slice_bytes))
    values = Metrics.table(_metrics_of(path, r) for r in records)
    return {int(r["position"]): m for r, m in zip(records, values, strict=True)}


EXTRAS = ("rules", "instances", "about")
"""The keys of a kernel record `read_extras` answers with (viewer.readers.ncu_rep_extras)."""


def read_extras(path: Path, positions: Iterable[int], *, rules: bool = False,
                instances: Iterable[str] = (), about: bool = False, job: Job | None = None,
                stamp: FileStamp | None = None, timeout_s: float | None = None,
                memory_limit: int | None = None, slice_bytes: int = SLICE_BYTES,
                names: Iterable[str] | None = ()) -> dict[int, dict[str, Any]]:
    """What the kernels at `positions` hold beyond metric values, keyed by position: ncu's rule
    results (`rules`), the instance values of the metrics `instances`, each metric's unit, label
    and description (`about`); as plain JSON (viewer.readers.ncu_rep_extras), read in children
    as `read_metrics` reads. Metric `names` too (None: every numeric metric), in the same
    children, as "metrics" (what `read_metrics` answers) where any are asked for. Off the GUI
    thread."""
    path = Path(path)
    wanted = sorted(set(positions))
    if not wanted:
        return {}
    asked = {"rules": rules, "instances": sorted(set(instances)), "about": about}
    metrics = None if names is None else frozenset(names)
    records = _read_again(path, wanted, metrics, asked, job, stamp,
                          (timeout_s, memory_limit, slice_bytes))
    found = {int(r["position"]): {k: r[k] for k in EXTRAS if k in r} for r in records}
    if metrics != frozenset():
        for record in records:
            found[int(record["position"])]["metrics"] = _metrics_of(path, record)
    return found


@contextlib.contextmanager
def read_again_errors(source: str) -> Iterator[None]:
    """What reading more of `source` (read_metrics, read_extras) raises beyond ReportError and
    Cancelled, as one ReportError naming the file."""
    try:
        yield
    except (ReportError, Cancelled):
        raise
    except MemoryError:
        raise ReportError(source, "not enough memory to read more of it") from None
    except Exception as exc:
        raise ReportError(source, f"cannot be read ({type(exc).__name__}: {exc})") from exc


def _read_again(path: Path, wanted: list[int], names: frozenset[str] | None,
                extras: dict[str, Any] | None, job: Job | None, stamp: FileStamp | None,
                limits: tuple[float | None, int | None, int]) -> list[dict[str, Any]]:
    """The records of the kernels at `wanted`, read again in children within `limits`
    (timeout_s, memory_limit, slice_bytes); ReportError where the file changed since `stamp` or
    one is not a kernel."""
    with _opened.opened(path) as source, ncu_rep_file.plain(source) as plain:
        source.check(stamp, since="since it was opened")
        limited = _Limits(plain.file.size, *limits)
        if job is not None:
            job.progress(0.0, f"reading more of {path.name}")
        records, skipped = _run(path, plain.file, source, limited, job, names, wanted, extras)
    if skipped:
        raise ReportError(path, "a result asked for is not a kernel: the report changed")
    return records


def _run(path: Path, plain: _opened.Opened, source: _opened.Opened, limits: _Limits,
         job: Job | None, names: frozenset[str] | None, positions: Sequence[int] | None,
         extras: dict[str, Any] | None = None) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Kernel records and the count of skipped results, read child after child (each opens
    `plain`, see `ncu_rep_file.plain`; `source`, the file as opened, must not change meanwhile)."""
    records: list[dict[str, Any]] = []
    skipped: dict[str, int] = {}
    done, wanted = 0, None if positions is None else len(positions)
    with contextlib.ExitStack() as stack:
        options = _options(lambda: Path(stack.enter_context(
            tempfile.TemporaryDirectory(prefix="ncu-reader-"))), names, positions, extras)
        opened = stack.enter_context(ncu_rep_file.child_name(plain))
        while wanted is None or done < wanted:
            source.check()
            command = [sys.executable, *CHILD, opened,
                       "--parent-pid", str(os.getpid()), "--memory-limit", str(limits.memory),
                       "--first", str(done), "--slice-bytes", str(limits.slice_bytes), *options]
            with Child(command, path, what=WHAT, timeout_s=limits.timeout_s,
                       deadline=limits.deadline, job=job, env=_env(), cwd=PACKAGE_ROOT,
                       pass_fds=(plain.fd,)) as child:
                total, got = _read_slice(child, limits, done, records, skipped, job, wanted)
            source.check()
            wanted = total if wanted is None else wanted
            done += got
    return records, skipped


def _options(folder: Callable[[], Path], names: frozenset[str] | None,
             positions: Sequence[int] | None, extras: dict[str, Any] | None = None
             ) -> list[str]:
    """The child's options that say what to read (a request file in `folder()` when needed)."""
    if positions is None and names == KNOWN_METRICS and not extras:
        return ["--known-only"]
    if positions is None and names is None and not extras:
        return []
    request = folder() / "request.json"
    request.write_text(json.dumps({
        "positions": None if positions is None else list(positions),
        "names": None if names is None else sorted(names),
        **({"extras": extras} if extras else {})}), encoding="utf-8")
    return ["--request", str(request)]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(PACKAGE_ROOT), _ncu_report_folder(), env.get("PYTHONPATH", "")) if p)
    return env


@functools.cache
def _ncu_report_folder() -> str:
    """The folder that holds the ncu_report package ('' when it is not installed: the child
    then says so)."""
    try:
        spec = importlib.util.find_spec("ncu_report")
    except (ImportError, ValueError):
        return ""
    origin = spec.origin if spec is not None else None
    return str(Path(origin).parent.parent) if origin else ""


def _read_slice(child: Child, limits: _Limits, done: int, records: list[dict[str, Any]],
                skipped: dict[str, int], job: Job | None, wanted: int | None) -> tuple[int, int]:
    """Take in one child's results; (results wanted in all, results this child read)."""
    total = count = None
    got = 0
    for message in child.messages():
        if "error" in message:
            raise child.refuse(str(message["error"]))
        if "done" in message:
            child.check_peak(message.get("peak_bytes"), limits.memory)
            continue
        if "results" in message:
            total, count = int(message["results"]), int(message["count"])
            total = total if wanted is None else wanted
            if int(message["first"]) != done or (count < 1 and total > done):
                raise child.refuse(f"{WHAT} lost its place in the report")
            continue
        if total is None:
            raise child.refuse(f"{WHAT} answered out of order")
        if "kernel" in message and isinstance(message["kernel"], dict):
            records.append(message["kernel"])
        elif "skipped" in message and isinstance(message["skipped"], dict):
            kind = str(message["skipped"].get("kind") or "result")
            skipped[kind] = skipped.get(kind, 0) + 1
        else:
            continue
        got += 1
        if job is not None:
            job.progress((done + got) / max(total, 1), f"kernel {done + got} of {total}")
    status = child.wait()
    if status != 0:
        raise ReportError(child.path, child.crash_reason(status, limits.memory))
    if total is None or count is None or got != count:
        raise ReportError(child.path, f"{WHAT} stopped before it read every kernel")
    return total, got


def _metrics_of(path: Path, record: dict[str, Any]) -> dict[str, float]:
    found = record.get("metrics")
    if not isinstance(found, dict):
        raise ReportError(path, f"{WHAT} answered with something unreadable")
    return found


def _kernels(path: Path, records: list[dict[str, Any]], asked: frozenset[str] | None
             ) -> list[Kernel]:
    """Kernels from the child's records, refusing the signs of a truncated or corrupt report."""
    kernels = []
    bare_names: dict[str, str] = {}
    for index, record in enumerate(records):
        shown = str(record.get("demangled") or record.get("name") or "").strip()
        if not shown:
            raise ReportError(
                path, f"kernel #{index} has no name: the report looks truncated or corrupt")
        if not record.get("held") or not isinstance(record.get("metrics"), dict):
            raise ReportError(
                path, f"kernel #{index} holds no metrics: the report looks truncated or corrupt")
        device_id = record.get("device_id")
        name = str(record.get("name") or shown)
        if name not in bare_names:
            bare_names[name] = function_name(name)
        kernels.append(Kernel(
            index=index,
            name=bare_names[name],
            display_name=shown,
            grid=_dim3(record.get("grid")),
            block=_dim3(record.get("block")),
            device_id=device_id if isinstance(device_id, int) else None,
            device_name=str(record.get("device_name") or "").strip() or None,
            cc=record.get("cc") or None,
            read_names=asked,
            position=int(record["position"]),
        ))
    for kernel, metrics in zip(kernels, Metrics.table(_metrics_of(path, r) for r in records),
                               strict=True):
        kernel.metrics = metrics
    return kernels


def _dim3(value: Any) -> tuple[int, int, int] | None:
    if isinstance(value, list) and len(value) == 3 and all(isinstance(v, int) for v in value):
        return (value[0], value[1], value[2])
    return None
