"""What one run of the app's terminal command costs: its exit status, its output, its CPU time
and its peak memory, measured by the kernel for that process and what it waited for (wait4),
so that a bound on a refusal holds on a loaded machine (CPU time, not wall time, is bounded).
A run past `timeout_s` of wall time is killed and fails the test that asked for it.

Linux carries a process's peak memory across exec, so a command started straight from a test
run of 1 GiB would report 1 GiB whatever it used itself: it is started by a small Python that
forks it, waits for it and reports its usage (STARTER). A test that runs the command hundreds of
times forks each run from one Python that has imported the app already (WarmViewer), measured
so that its cost is never less than a cold run's."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STARTER = """
import json, os, sys
pid = os.fork()
if pid == 0:
    os.close(int(sys.argv[1]))
    os.execv(sys.executable, [sys.executable, *sys.argv[2:]])
_, status, usage = os.wait4(pid, 0)
with os.fdopen(int(sys.argv[1]), "w") as out:
    json.dump([os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime,
               usage.ru_maxrss], out)
"""


@dataclass(frozen=True)
class Cost:
    status: int
    stdout: str
    stderr: str
    cpu_s: float
    peak_mib: float


def run_viewer(*args: str, timeout_s: float = 120.0) -> Cost:
    """`python -m viewer ARGS...` in a child process, measured."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("QT_QPA_PLATFORM", None)
    report_r, report_w = os.pipe()
    proc = subprocess.Popen([sys.executable, "-S", "-c", STARTER, str(report_w), "-m", "viewer",
                             *args], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, pass_fds=(report_w,),
                            start_new_session=True)
    os.close(report_w)
    out: dict[str, bytes] = {}

    def drain(name: str) -> None:
        stream = getattr(proc, name)
        out[name] = stream.read()
        stream.close()

    readers = [threading.Thread(target=drain, args=(n,)) for n in ("stdout", "stderr")]
    for reader in readers:
        reader.start()
    killed = threading.Event()

    def kill() -> None:
        killed.set()
        os.killpg(proc.pid, signal.SIGKILL)

    timer = threading.Timer(timeout_s, kill)
    timer.start()
    try:
        with os.fdopen(report_r, "rb") as report:
            found = report.read()
        proc.wait()
    finally:
        timer.cancel()
        for reader in readers:
            reader.join()
    if killed.is_set():
        raise AssertionError(f"python -m viewer {' '.join(args)} ran past {timeout_s} s")
    status, cpu_s, peak_kib = json.loads(found)
    return Cost(status=status, stdout=out["stdout"].decode("utf-8", "replace"),
                stderr=out["stderr"].decode("utf-8", "replace"), cpu_s=cpu_s,
                peak_mib=peak_kib / 1024)


# A Python that has imported what a refusal imports (REFUSAL_IMPORTS) and forks a child per run:
# each child is `python -m viewer ARGS...` as the interpreter would run it (sys.argv, the exit
# status, atexit and the interpreter's own shutdown), without paying the interpreter's start and
# those imports again. Its CPU time counts the server's start and imports (its usage when ready)
# plus the child's, as a cold run's would; its peak memory is the server's when ready plus the
# child's (which counts the inherited pages it touches): never less than a cold run's.
REFUSAL_IMPORTS = """
import json, runpy, sys
sys.argv = ["viewer", *sys.argv[1:]]
try:
    runpy.run_module("viewer", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""
WARM_SERVER = """
import gc, importlib, json, os, resource, sys
for _name in json.loads(sys.argv[2]):
    try:
        importlib.import_module(_name)
    except Exception:  # a module only a running program can import (its own __main__, say)
        pass
import viewer.__main__
gc.collect()
gc.freeze()
_ready = resource.getrusage(resource.RUSAGE_SELF)
_start_cpu = _ready.ru_utime + _ready.ru_stime
with open("/proc/self/status") as _status:  # ru_maxrss would hold the peak of what exec'd this
    (_start_kib,) = (int(_l.split()[1]) for _l in _status if _l.startswith("VmHWM:"))
_requests, _replies = os.fdopen(0, "r"), os.fdopen(int(sys.argv[1]), "w", buffering=1)
_replies.write("ready\\n")
for _line in _requests:
    _args, _out, _err = json.loads(_line)
    _pid = os.fork()
    if _pid == 0:
        os.setpgid(0, 0)
        _requests.close()
        _replies.close()
        _null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(_null, 0)
        os.dup2(os.open(_out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 1)
        os.dup2(os.open(_err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 2)
        gc.unfreeze()
        sys.argv = [viewer.__main__.__file__, *_args]
        sys.exit(viewer.__main__.main())
    _replies.write(json.dumps({"pid": _pid}) + "\\n")
    _, _status, _usage = os.wait4(_pid, 0)
    _replies.write(json.dumps([os.waitstatus_to_exitcode(_status),
                               _start_cpu + _usage.ru_utime + _usage.ru_stime,
                               _start_kib + _usage.ru_maxrss]) + "\\n")
"""


class WarmViewer:
    """Runs of `python -m viewer ARGS...` forked from one Python that imported the app once
    (WARM_SERVER): for a test that runs the command hundreds of times. Close it when done."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop("QT_QPA_PLATFORM", None)
        replies_r, replies_w = os.pipe()
        absent = folder / "absent-report"
        probe = subprocess.run([sys.executable, "-c", REFUSAL_IMPORTS, "summary", "--json",
                                str(absent)], cwd=ROOT, env=env, capture_output=True, text=True,
                               timeout=120, check=False)
        imports = probe.stdout.splitlines()[-1]
        errors = folder / "server.stderr"
        with errors.open("wb") as server_err:
            self.server = subprocess.Popen([sys.executable, "-c", WARM_SERVER, str(replies_w),
                                            imports],
                                           cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                           stdout=subprocess.DEVNULL, stderr=server_err,
                                           pass_fds=(replies_w,), text=True,
                                           start_new_session=True)
        os.close(replies_w)
        self.replies = os.fdopen(replies_r, "r")
        if self.replies.readline() != "ready\n":
            raise AssertionError(f"the warm viewer did not start: {errors.read_text()}")

    def run(self, *args: str, timeout_s: float = 120.0) -> Cost:
        """`python -m viewer ARGS...` in a forked child, measured; killed past `timeout_s`."""
        assert self.server.stdin is not None
        out, err = self.folder / "stdout", self.folder / "stderr"
        self.server.stdin.write(json.dumps([list(args), str(out), str(err)]) + "\n")
        self.server.stdin.flush()
        pid = json.loads(self.replies.readline())["pid"]
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            os.killpg(pid, signal.SIGKILL)

        timer = threading.Timer(timeout_s, kill)
        timer.start()
        try:
            status, cpu_s, peak_kib = json.loads(self.replies.readline())
        finally:
            timer.cancel()
        if killed.is_set():
            raise AssertionError(f"python -m viewer {' '.join(args)} ran past {timeout_s} s")
        return Cost(status=status, stdout=out.read_text("utf-8", "replace"),
                    stderr=err.read_text("utf-8", "replace"), cpu_s=cpu_s,
                    peak_mib=peak_kib / 1024)

    def close(self) -> None:
        assert self.server.stdin is not None
        self.server.stdin.close()
        self.server.wait(timeout=60)
        self.replies.close()
