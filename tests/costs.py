"""What one run of the app's terminal command costs: its exit status, its output, its CPU time
and its peak memory, measured by the kernel for that process and what it waited for (wait4),
so that a bound on a refusal holds on a loaded machine (CPU time, not wall time, is bounded).
A run past `timeout_s` of wall time is killed and fails the test that asked for it.

Linux carries a process's peak memory across exec, so a command started straight from a test
run of 1 GiB would report 1 GiB whatever it used itself: it is started by a small Python that
forks it, waits for it and reports its usage (STARTER)."""

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
