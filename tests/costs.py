"""What one run of the app's terminal command costs: its exit status, its output, its CPU time
and its peak memory, measured by the kernel for that process and what it waited for (wait4),
so that a bound on a refusal holds on a loaded machine (CPU time, not wall time, is bounded).
A run past `timeout_s` of wall time is killed and fails the test that asked for it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
    proc = subprocess.Popen([sys.executable, "-m", "viewer", *args], cwd=ROOT, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
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
        proc.kill()

    timer = threading.Timer(timeout_s, kill)
    timer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        timer.cancel()
        for reader in readers:
            reader.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if killed.is_set():
        raise AssertionError(f"python -m viewer {' '.join(args)} ran past {timeout_s} s")
    return Cost(status=proc.returncode,
                stdout=out["stdout"].decode("utf-8", "replace"),
                stderr=out["stderr"].decode("utf-8", "replace"),
                cpu_s=usage.ru_utime + usage.ru_stime, peak_mib=usage.ru_maxrss / 1024)
