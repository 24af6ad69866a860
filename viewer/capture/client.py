"""The app's side of a capture (no Qt): which route it takes, the request, and a headless run.

Routes: "direct" runs the helper as this user (the driver lets everyone read counters, or this is
root running the installed helper); "pkexec" asks polkit for an administrator and runs the
installed helper as root; "none" carries the sentence that says what is missing. Every outside fact
`choose_route` looks at is a parameter, so tests steer it with files they write.
`run_sweep` is the terminal form: it drives one viewer.capture.run.HelperRun with blocking reads
(one run, one password, every report of its request); viewer/qt drives the same run from a
QProcess's signals. Both end in viewer.capture.settle: `settle_all` (each report kept under a
name of its own, or the sink aborted) and `record_provenance` (what each report was, beside it).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from viewer.capture import probe
from viewer.capture.events import StderrLines, explain, progress, stage
from viewer.capture.helper import protocol as h
from viewer.capture.probe import (
    PARAMS,
    PKEXEC,
    POLICY_DIR,
    PROC_STATUS,
    PROC_VERSION,
    admin_only,
    find_ncu,
    installed_helper,
)
from viewer.capture.request import Request, RequestError
from viewer.capture.run import (
    CANCEL_GRACE_S,
    CANCELLED,
    Action,
    CaptureCancelled,
    CaptureError,
    CloseStdin,
    HelperRun,
    Kill,
    Progress,
    Step,
    Write,
)
from viewer.capture.settle import (
    Kept,
    PartlyKept,
    cancelled,
    record_provenance,
    settle,
    settle_all,
)
from viewer.capture.store import ReportSink, SinkError
from viewer.core.jobs import Cancelled, Job

__all__ = [
    "CANCELLED",
    "CANCEL_GRACE_S",
    "CaptureCancelled",
    "CaptureError",
    "Kept",
    "PartlyKept",
    "Request",
    "RequestError",
    "Route",
    "StderrLines",
    "Step",
    "admin_only",
    "cancelled",
    "choose_route",
    "explain",
    "progress",
    "record_provenance",
    "run_capture",
    "run_sweep",
    "settle",
    "settle_all",
    "stage",
]

SOURCE_ROOT = Path(__file__).resolve().parents[2]
"""The folder that holds this checkout's (or this install's) viewer package."""
SOURCE_HELPER = ("-I", "-c", "import sys; sys.path.insert(0, sys.argv.pop(1)); "
                 "from viewer.capture.helper.main import entry; entry()")
"""The words that run the helper from SOURCE_ROOT (followed by it) as this user: isolated, its
package imported from there whatever this interpreter's own import path holds."""

SHIPPED = "The shipped reports need none of this: they open and read as they are."
ADMIN_ONLY = "Only administrators may read this GPU's counters (RmProfilingAdminOnly: 1)"


@dataclass(frozen=True)
class Route:
    """How a capture runs: argv is `[program, *prefix, *request.args()]`."""

    kind: str  # "direct", "pkexec" or "none"
    program: str = ""
    prefix: tuple[str, ...] = ()
    env: dict[str, str] | None = None
    reason: str = ""
    missing: str = ""
    """For "none": the first part missing, in a few words (the check-up's route line)."""

    def argv(self, request: Request) -> list[str]:
        if self.kind == "none":
            raise CaptureError(self.reason)
        return [self.program, *self.prefix, *request.args()]


def _none(missing: str, *sentences: str) -> Route:
    return Route("none", reason=" ".join((*sentences, SHIPPED)), missing=missing)


def choose_route(
    *,
    params: Path = PARAMS,
    pkexec: Path = PKEXEC,
    policy_dir: Path = POLICY_DIR,
    proc_version: Path = PROC_VERSION,
    proc_status: Path = PROC_STATUS,
    euid: int | None = None,
    which_ncu: Callable[[], str | None] = find_ncu,
    python: str = sys.executable,
    source_root: Path = SOURCE_ROOT,
) -> Route:
    """The route a capture takes here, or "none" with the sentence that says why not."""
    euid = os.geteuid() if euid is None else euid
    if probe.is_wsl(proc_version):
        return _none("WSL, which gives Nsight Compute no counters",
                     "This is WSL: WSL2 does not give Nsight Compute the GPU's performance "
                     "counters this way, so capturing needs a native Linux machine.")
    admin = admin_only(params)
    if admin is None:
        return _none("no NVIDIA driver loaded",
                     f"No NVIDIA driver is loaded here ({params} cannot be read), so there is no "
                     "GPU to capture from: an administrator installs the NVIDIA driver on a "
                     "machine with an NVIDIA GPU.")
    helper = installed_helper(policy_dir)
    if euid == 0:
        if admin and not probe.has_counter_cap(proc_status, "CapEff"):
            return _container()
        if helper is None:
            return _none("no capture helper installed, and root captures only through it",
                         "You are root, and root captures only through the installed helper "
                         "(it never runs code from a checkout): run `sudo make install-capture`"
                         + (", or start ncu-reader as an ordinary user, since this driver lets "
                            "everyone read the counters." if not admin else "."))
        return Route("direct", str(helper), reason="You are root: captures run the installed "
                     "helper directly, with no password.")
    if not admin:
        ncu = which_ncu()
        if ncu is None:
            return _none("no ncu found",
                         "Nsight Compute (ncu) is not installed here: an administrator installs "
                         "it (it comes with the CUDA toolkit), or you set "
                         f"{h.ENV_NCU} to its absolute path.")
        return Route("direct", python, (*SOURCE_HELPER, str(source_root)), {h.ENV_NCU: ncu},
                     "This driver lets every user read the counters (RmProfilingAdminOnly: 0): "
                     "captures run ncu as you, with no password.")
    if not probe.has_counter_cap(proc_status, "CapBnd"):
        return _container()
    if not (pkexec.is_file() and os.access(pkexec, os.X_OK)):
        then = "" if helper else ", then `sudo make install-capture` in ncu-reader's folder"
        return _none("no pkexec",
                     f"{ADMIN_ONLY}, and pkexec, which asks for an administrator's password, is "
                     f"not installed: an administrator runs `sudo apt install pkexec`{then}.")
    if helper is None:
        return _none("no capture helper installed",
                     f"{ADMIN_ONLY}, and the capture helper is not installed: an administrator "
                     "runs `sudo make install-capture` in ncu-reader's folder (or sets "
                     "NVreg_RestrictProfilingToAdminUsers=0 so every user may capture).")
    return Route("pkexec", str(pkexec), (str(helper),), None,
                 f"{ADMIN_ONLY}: each capture asks for an administrator's password (pkexec).")


def _container() -> Route:
    return _none("no capability to read counters (a container)",
                 "This looks like a container without the capability to read GPU counters "
                 "(neither CAP_SYS_ADMIN nor CAP_PERFMON): whoever starts it adds "
                 "--cap-add=SYS_ADMIN (docker or podman run).")


def _say(job: Job, said: Progress) -> None:
    with contextlib.suppress(Cancelled):  # the loop notices and closes stdin
        job.progress(job.fraction if said.fraction is None else said.fraction, said.words)


def _pump(proc: subprocess.Popen[bytes], sink: ReportSink, run: HelperRun, job: Job,
          on_step: Callable[[Step], None] | None = None) -> None:
    """Drive `run` with blocking reads until it has finished: stdout into the sink, stderr into
    progress (and each report's start into `on_step`), `job`'s cancel (or a report the sink
    refuses) as its stop, the clock as its ticks."""
    stdin, stdout, stderr = proc.stdin, proc.stdout, proc.stderr
    assert stdin and stdout and stderr

    def act(actions: list[Action]) -> None:
        for action in actions:
            match action:
                case Write(data):
                    try:
                        sink.write(data)
                    except SinkError as exc:
                        act(run.stop(str(exc), time.monotonic()))
                case CloseStdin():
                    with contextlib.suppress(OSError):
                        stdin.close()
                case Kill():
                    with contextlib.suppress(OSError):  # a helper run as root cannot be killed
                        proc.kill()
                case Progress():
                    _say(job, action)
                case Step() if on_step is not None:
                    on_step(action)

    with selectors.DefaultSelector() as sel:
        sel.register(stdout, selectors.EVENT_READ, "out")
        sel.register(stderr, selectors.EVENT_READ, "err")
        while sel.get_map():
            if job.cancelled:
                act(run.stop(CANCELLED, time.monotonic()))
            act(run.tick(time.monotonic()))
            for key, _ in sel.select(timeout=0.1):
                data = os.read(key.fd, 1 << 16)
                if key.data == "out":
                    act(run.out(data) if data else run.out_closed())
                else:
                    act(run.err(data) if data else run.err_closed())
                if not data:
                    sel.unregister(key.fileobj)
    status = proc.wait()
    act(run.exited(signal=-status) if status < 0 else run.exited(status))


def run_capture(route: Route, request: Request, sink: ReportSink, job: Job | None = None) -> Path:
    """run_sweep for a request of one report: that report's path."""
    (path,) = run_sweep(route, request, sink, job)
    return path


def run_sweep(route: Route, request: Request, sink: ReportSink, job: Job | None = None,
              on_step: Callable[[Step], None] | None = None) -> list[Path]:
    """Run the helper once for every report of `request` (no shell), stream the reports into
    `sink`, keep each under its own name (settle_all) with its provenance beside it; returns
    their paths, in the helper's order. `on_step` hears each report start. CaptureError with one
    message on failure, CaptureCancelled when `job` was cancelled; the sink is aborted on every
    failure, but for PartlyKept: a run of several that failed after some reports arrived whole
    keeps those, with their provenance (`kept`)."""
    job = job or Job()
    try:
        argv = route.argv(request)
    except (CaptureError, RequestError) as exc:
        sink.abort()
        raise CaptureError(str(exc)) from None
    if job.cancelled:
        sink.abort()
        raise CaptureCancelled(explain(h.EXIT_CANCELLED, []))
    env = {**os.environ, **route.env} if route.env else None
    run = HelperRun(route.kind)
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env)
    except OSError as exc:
        run.failed_to_start(argv[0], exc.strerror or str(exc))
    else:
        _drive(proc, sink, run, job, on_step)
    try:
        kept = settle_all(run.finished, sink, request)
    except PartlyKept as exc:
        for item in exc.kept:
            record_provenance(item.path, item.request, route.kind, item.done, item.claim)
        raise
    for item in kept:
        record_provenance(item.path, item.request, route.kind, item.done, item.claim)
    return [item.path for item in kept]


def _drive(proc: subprocess.Popen[bytes], sink: ReportSink, run: HelperRun, job: Job,
           on_step: Callable[[Step], None] | None) -> None:
    """_pump, and on an interrupt (Ctrl-C) the sink aborted and the helper stopped and reaped
    before it passes on; the pipes are closed either way."""
    try:
        _pump(proc, sink, run, job, on_step)
    except BaseException:
        sink.abort()
        with contextlib.suppress(OSError):
            if proc.stdin:
                proc.stdin.close()
        with contextlib.suppress(OSError):
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(CANCEL_GRACE_S)
        raise
    finally:
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream:
                with contextlib.suppress(OSError):
                    stream.close()
