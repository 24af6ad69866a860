"""ncu-reader's capture helper: Nsight Compute captures of the app's matmul kernels, one report
for each target at each size of the request's list, in one run (protocol.py has its grammar and
what it says).

pkexec runs it as root, installed as one root-owned zipapp whose first line is
`#!.../venv/bin/python3 -IS` (no site, no .pth file runs before the checks; the zipapp imports
its own modules from sys.path[0]), and ncu runs the kernel program as root, so it is written like
a setuid program (docs/capture.md has the facts behind each rule):

- a fixed grammar, allow-list only: anything else exits 2 and runs nothing (protocol.py);
- ncu's argv is built here, never by a shell: ncu by absolute path, `--config-file off`,
  `--target-processes application-only`, no `-f`, the report into a directory made here
  (command.py);
- root runs only root-owned code: everything it would run, import or load must be root's alone,
  as named and with links resolved, else exit 4 naming the path (trust.py, layout.py,
  interpreter.py, loader.py);
- the environment is built from an allow-list; as root, ncu's path comes only from the install's
  capture.json beside this helper, never from PATH or the environment; TMPDIR, TMP and TEMP name
  a root-owned 0700 directory made here, so nothing ncu writes lands in a directory a user shares;
- root writes nothing the user controls: the report is streamed on stdout (report.py);
- resource limits, niceness and CPU affinity passed through pkexec are reset before ncu runs;
- a wall-clock limit that holds whatever the client does (progress lines are dropped, never
  waited for; a watchdog thread ends everything if the main thread is stuck); the client's cancel
  (it closes stdin), SIGTERM, SIGHUP, SIGINT and SIGQUIT end ncu and every process below it (the
  helper is their child subreaper), and only the main thread takes them, so that any number of
  them never cut that ending short; SIGTSTP and the terminal's other stop signals are ignored
  (supervision.py);
- after `--clock base`, `ncu --clock-control reset` runs on every exit;
- ncu's exit status counts: a non-zero exit or a signal is a failure, and nothing is streamed;
  nor is a report that is not whole (its container walked: cut short, or not one result).

Standard library only, and nothing from viewer outside this package: root must not import the
user's code. Nothing here is module state: main() makes the one Lines writer and the one Stops,
and hands them to what needs them.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

from .command import (
    REPORT_STEM,
    child_env,
    driver_version,
    dry_run_argv,
    failure,
    ncu_argv,
    ncu_version,
    requesting_uid,
    reset_clocks,
    run_ncu,
)
from .layout import Layout, check_layout, load_layout, program_path
from .lines import Lines
from .protocol import (
    CHECK_INSTALL,
    CONFIG_NAME,
    EXIT_BAD_REQUEST,
    EXIT_CANCELLED,
    EXIT_FAILED,
    EXIT_NCU_MISSING,
    EXIT_NO_REPORT,
    EXIT_NOT_INSTALLED,
    EXIT_OK,
    EXIT_TIMEOUT,
    HELPER_NAME,
    KILL_GRACE_S,
    KINDS,
    TIMEOUT_S,
    Refusal,
    Request,
    cut,
    parse_check,
    parse_request,
)
from .report import no_report_reason, open_report, send_report
from .supervision import (
    STOP_SIGNALS,
    Stop,
    Stops,
    become_subreaper,
    end_descendants,
    open_standard_fds,
    reset_limits,
    start_thread,
    unwritable_standard_fds,
)

WATCHDOG_GRACE_S = 30.0
"""Past the time limit by this much, the watchdog thread ends everything without the main thread."""


class Run:
    """One run's private directory (root-owned 0700: `tmp` for ncu's TMPDIR, and one folder for
    each report in turn, `report-0`, `report-1`...) and its ending: every process below the
    helper ended, the clocks reset after `--clock base`, the directory removed, whatever signals
    come meanwhile. `end` runs once, from the main thread or from the watchdog, whichever comes
    first; the watchdog then exits the process itself."""

    def __init__(self, euid: int, layout: Layout, request: Request, out: Lines) -> None:
        self.layout = layout
        self.out = out
        self.request = request
        self.work = tempfile.mkdtemp(prefix="ncu-reader-capture-",
                                     dir="/tmp" if euid == 0 else None)
        self.tmp = os.path.join(self.work, "tmp")
        os.mkdir(self.tmp, 0o700)
        self.report = ""
        self.env: dict[str, str] = {}
        self.ncu_started = False
        self._lock = threading.Lock()
        self._ended = False
        self._done = threading.Event()

    def report_dir(self, index: int) -> str:
        """A fresh folder for report `index`; the one before it (its report sent) is removed."""
        if self.report:
            shutil.rmtree(self.report, ignore_errors=True)
        self.report = os.path.join(self.work, f"report-{index}")
        os.mkdir(self.report, 0o700)
        return self.report

    def watch(self, deadline: float) -> None:
        """From now on, the time limit holds even if the main thread never comes back."""
        start_thread(self._watchdog, "watchdog", deadline + WATCHDOG_GRACE_S)

    def _watchdog(self, at: float) -> None:
        if not self._done.wait(max(0.0, at - time.monotonic())):
            self.end(exit_code=EXIT_TIMEOUT)

    def end(self, exit_code: int | None = None) -> None:
        """End everything this run started, once: a later call returns at once. Never
        interrupted: it runs outside `interruptible`, so a stop signal meanwhile is only
        recorded, and each step runs whatever the one before it raised. With `exit_code` (the
        watchdog), say so and leave the process from here, still holding the lock, so the main
        thread can say nothing after it."""
        with self._lock:
            if self._ended:
                return
            self._ended = True
            self._done.set()
            try:
                self._end_processes()
            finally:
                shutil.rmtree(self.work, ignore_errors=True)
                if exit_code is not None:
                    failed(self.out, exit_code, f"the capture ran past its limit of "
                           f"{self.request.limit_s:.0f} s and was stopped")
                    self.out.flush(KILL_GRACE_S)
                    os._exit(exit_code)

    def _end_processes(self) -> None:
        """Every process below the helper ended; after `--clock base` the clocks reset, whether
        ncu ended well or was killed holding them, and whatever the reset left ended too."""
        try:
            end_descendants()
        finally:
            if self.ncu_started and self.request.clock == "base":
                try:
                    reset_clocks(self.layout, self.env, self.work)
                finally:
                    end_descendants()


def capture(request: Request, environ: dict[str, str], out: Lines, stops: Stops) -> int:
    """Every report of one run, in order. A stop signal ends the checks, ncu's runs and the
    reports' sending at once; from the private directory's making on, it waits for `Run.end`;
    one that came during the ending is a cancel too (the run is never said done)."""
    with stops.interruptible():  # nothing to end yet
        euid = os.geteuid()
        uid = requesting_uid(euid, environ)
        if request.dry_run:
            for argv in dry_run_argv(request, euid, environ):
                _write(1, json.dumps({"argv": argv}) + "\n")
            return EXIT_OK
        layout = load_layout(euid, environ)
        if not os.access(layout.ncu, os.X_OK):
            raise Refusal(EXIT_NCU_MISSING, f"ncu is not at {layout.ncu}")
        check_layout(layout, euid)
        if os.isatty(1):
            raise Refusal(EXIT_BAD_REQUEST, "stdout is a terminal: redirect it to a file")
        deadline = time.monotonic() + request.limit_s
    run = Run(euid, layout, request, out)
    try:
        with stops.interruptible():
            run.env = child_env(layout, euid, environ, run.tmp)
            run.watch(deadline)
            sizes = [_capture_one(run, index, uid, deadline)
                     for index in range(len(request.shots))]
            version = ncu_version(layout, run.env, run.work)
    finally:
        run.end()
    if stops.signum is not None:
        raise Stop(stops.signum)
    reports = [{"target": shot.target, "dim": shot.dim, "bytes": size}
               for shot, size in zip(request.shots, sizes, strict=True)]
    out.emit(final=True, done={"bytes": sum(sizes), "reports": reports, "ncu_version": version,
                               "driver": driver_version()})
    return EXIT_OK


def _capture_one(run: Run, index: int, uid: int, run_deadline: float) -> int:
    """Report `index` of the run: ncu run into a fresh folder within this report's limit and
    the run's, its report checked whole and sent on stdout, then said `sent`."""
    request, shot = run.request, run.request.shots[index]
    report = run.report_dir(index)
    deadline = min(time.monotonic() + TIMEOUT_S, run_deadline)
    run.out.emit(started={"target": shot.target, "dim": shot.dim, "set": request.set,
                          "clock": request.clock, "uid": uid, "index": index,
                          "count": len(request.shots)})
    run.ncu_started = True
    ended = run_ncu(ncu_argv(request, shot, run.layout, report), run.env, report, deadline,
                    run.out)
    refusal = failure(ended)
    if refusal is not None:
        raise refusal
    if not os.path.lexists(os.path.join(report, REPORT_STEM + ".ncu-rep")):
        raise Refusal(EXIT_NO_REPORT, no_report_reason(ended.lines))
    fd, size = open_report(report)
    try:
        sent = send_report(fd, size)
    finally:
        os.close(fd)
    run.out.emit(sent={"target": shot.target, "dim": shot.dim, "bytes": sent})
    return sent


def check_install(args: list[str], environ: dict[str, str]) -> int:
    """`--check-install`: the install this helper is part of, checked as a capture as root
    checks it (protocol.CheckRequest). Plain lines for a person: the ncu it would run on
    stdout, or what it refuses on stderr, with the refusal's exit code. Runs nothing; refused
    under pkexec, which only ever serves a capture."""
    try:
        if "PKEXEC_UID" in environ:
            raise Refusal(EXIT_BAD_REQUEST, f"{CHECK_INSTALL} is not served through pkexec")
        check = parse_check(args)
        layout = load_layout(check.owner, environ)
        if layout.config is None:
            raise Refusal(EXIT_NOT_INSTALLED, f"{program_path()} has no {CONFIG_NAME} beside "
                          "it: there is no install to check")
        if not os.access(layout.ncu, os.X_OK):
            raise Refusal(EXIT_NCU_MISSING, f"ncu is not at {layout.ncu}")
        home = check.home
        if home is None:
            try:
                home = Path(pwd.getpwuid(check.owner).pw_dir)
            except KeyError:
                raise Refusal(EXIT_BAD_REQUEST, f"--owner {check.owner} names no user: give "
                              "--home too") from None
        check_layout(layout, check.owner, home, before_venv=check.before_venv)
    except Refusal as refusal:
        return _say(2, refusal.code, refusal.message)
    except KeyboardInterrupt:
        return _say(2, EXIT_CANCELLED, "interrupted: nothing was checked to the end")
    except Exception as exc:  # a person reads this: one line, never a traceback
        return _say(2, EXIT_FAILED, f"{type(exc).__name__}: {exc}")
    return _say(1, EXIT_OK, str(layout.ncu))


def _say(fd: int, code: int, text: str) -> int:
    with contextlib.suppress(OSError):
        _write(fd, f"{HELPER_NAME}: {text}\n" if code else f"{text}\n")
    return code


def _write(fd: int, text: str) -> None:
    data = text.encode("utf-8", "replace")
    while data:
        data = data[os.write(fd, data):]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == [CHECK_INSTALL]:
        return check_install(args, dict(os.environ))
    stops = Stops()
    stops.take()  # before any thread starts: see start_thread
    os.umask(0o077)
    unwritable = unwritable_standard_fds()  # before a closed one becomes a writable /dev/null
    open_standard_fds()
    out = Lines()
    if unwritable:
        verb = "is" if len(unwritable) == 1 else "are"
        code = failed(out, EXIT_BAD_REQUEST, f"{' and '.join(unwritable)} {verb} not open for "
                      "writing (closed, pkexec hands it on as a read-only /dev/null): the "
                      "report or its messages would be lost, so nothing was run")
        out.flush(KILL_GRACE_S)
        return code
    for sig in (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU):
        signal.signal(sig, signal.SIG_IGN)  # Ctrl-Z must not stop the time limit
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # a closed stdout is a BrokenPipeError
    reset_limits()
    become_subreaper()
    code = _capture(args, out, stops)
    out.flush(KILL_GRACE_S)
    return code


def _capture(args: list[str], out: Lines, stops: Stops) -> int:
    try:
        return capture(parse_request(args), dict(os.environ), out, stops)
    except Refusal as refusal:
        return failed(out, refusal.code, refusal.message)
    except (Stop, BrokenPipeError):
        return failed(out, EXIT_CANCELLED, "cancelled")
    except Exception as exc:  # the client needs a JSON line, never a traceback
        return failed(out, EXIT_FAILED, f"{type(exc).__name__}: {exc}")


def failed(out: Lines, code: int, message: str) -> int:
    """Say `error` (a final line, always queued) and return its exit code."""
    out.emit(final=True, error=cut(message), kind=KINDS[code], exit=code)
    return code


def entry() -> None:
    """Run as a program: main(), then leave by its exit code."""
    status = main()
    # Leaving: a stop signal now (Python restores the default handlers as it finalizes) would
    # end the process by that signal instead of its exit code.
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    # stdout may be a closed pipe: leave without a flush that would print "Exception ignored".
    with contextlib.suppress(OSError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    sys.exit(status)
