"""The ncu command: its argv and environment, every word chosen here, and its run, relayed line
by line, with what its exit says went wrong."""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import selectors
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .layout import Layout, load_layout, program_path
from .lines import Lines
from .protocol import (
    ERR_NVGPUCTRPERM,
    EXIT_BAD_REQUEST,
    EXIT_CANCELLED,
    EXIT_NCU_FAILED,
    EXIT_NOT_PERMITTED,
    EXIT_TIMEOUT,
    EXIT_UNTRUSTED,
    KILL_GRACE_S,
    LAUNCH_SKIP,
    MAX_RUN_S,
    MAX_TEXT_CHARS,
    SAFE_PATH,
    TIMEOUT_S,
    Refusal,
    Request,
    Shot,
    cut,
)
from .supervision import Stop, stop_signals_blocked, watch_stdin

# Copies of the app's own constants (root must not import the app);
# tests/capture/test_capture_helper.py checks them against viewer.kernels.
KERNEL_FUNCTIONS = {"naive": "matmul_naive", "tiled": "matmul_tiled"}
LESSON_METRICS = (
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
)
REPORT_STEM = "report"
APP_FAILED = "The application returned an error code"
"""ncu's words when the kernel program exits non-zero."""
PROGRAM_LINES = 3
"""The kernel program's own last lines shown when it fails under ncu (a traceback's header left
out)."""
TRACEBACK = "Traceback (most recent call last):"
DRIVER_VERSION = "/proc/driver/nvidia/version"
_ENV_VALUE = re.compile(r"[A-Za-z0-9_.,@:-]{1,64}", re.ASCII)


def ncu_argv(request: Request, shot: Shot, layout: Layout, report_dir: str) -> list[str]:
    """ncu's argv for one report of `request`, every word chosen here from the parsed request's
    values; the kernel program's words come last."""
    return [
        str(layout.ncu),
        "--config-file", "off",
        "--target-processes", "application-only",
        "--clock-control", request.clock,
        "--set", request.set,
        # the kernels' own source (the install's root-owned files, which line info names) is
        # kept in the report, for the Source view
        "--import-source", "yes",
        "--metrics", ",".join(LESSON_METRICS),
        "-k", f"regex:{KERNEL_FUNCTIONS[shot.target]}",
        "--launch-skip", str(LAUNCH_SKIP),
        "--launch-count", "1",
        "-o", os.path.join(report_dir, REPORT_STEM),
        # -B: the kernel program writes no bytecode into the install (-I ignores PYTHON* vars)
        str(layout.python), "-I", "-B", "-m", "viewer.kernels", "profile-target",
        "--kernel", shot.target,
        "--dim", str(shot.dim),
    ]


def child_env(layout: Layout, euid: int, environ: dict[str, str], tmp: str) -> dict[str, str]:
    """The environment ncu and the kernels get: an allow-list, every value checked; TMPDIR,
    TMP and TEMP are `tmp`, the helper's own private directory."""
    env = {"PATH": SAFE_PATH, "HOME": pwd.getpwuid(euid).pw_dir, "LANG": "C.UTF-8",
           "TMPDIR": tmp, "TMP": tmp, "TEMP": tmp}
    for name in ("LANG", "LC_ALL", "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER"):
        value = environ.get(name, "")
        if _ENV_VALUE.fullmatch(value):
            env[name] = value
    if layout.cuda_home is not None:
        env["CUDA_HOME"] = str(layout.cuda_home)
    if layout.library_path:
        env["LD_LIBRARY_PATH"] = ":".join(map(str, layout.library_path))
    return env


def requesting_uid(euid: int, environ: dict[str, str]) -> int:
    """Who asked: PKEXEC_UID when pkexec ran this (it must name a real user, and pkexec must
    have run this as root: `pkexec --user NAME` is refused), else euid."""
    text = environ.get("PKEXEC_UID")
    if text is None:
        return euid
    if euid != 0:
        raise Refusal(EXIT_UNTRUSTED, f"pkexec ran this as uid {euid}, not as root; the helper "
                      "runs under pkexec only as root (no --user)")
    if not (text.isascii() and text.isdigit() and len(text) <= 10):
        raise Refusal(EXIT_BAD_REQUEST, f"PKEXEC_UID is not a user id: {text[:20]!r}")
    try:
        pwd.getpwuid(int(text))
    except KeyError:
        raise Refusal(EXIT_BAD_REQUEST, f"PKEXEC_UID {text} names no user") from None
    return int(text)


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """ncu and everything in its group: TERM, then KILL after a grace period."""
    for sig, wait_s in ((signal.SIGTERM, KILL_GRACE_S), (signal.SIGKILL, KILL_GRACE_S)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(wait_s)
            return
        except subprocess.TimeoutExpired:
            continue


@dataclass(frozen=True)
class Ended:
    """How ncu ended: its exit status (negative: the signal that killed it) and its lines."""

    status: int
    lines: list[str]


def run_ncu(argv: list[str], env: dict[str, str], cwd: str, deadline: float,
            out: Lines) -> Ended:
    """Run ncu in its own process group, relaying its lines to `out`, until it exits or
    `deadline` passes (this report's limit or the run's, whichever comes first); called inside
    `Stops.interruptible`, where a stop signal ends it.

    Refusal on timeout or cancel (ncu's group is killed first)."""
    lines: list[str] = []
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, cwd=cwd, env=env, start_new_session=True)
    stop: Refusal | None = None
    selector = selectors.DefaultSelector()
    assert proc.stdout is not None
    selector.register(proc.stdout, selectors.EVENT_READ, "ncu")
    if watch_stdin():
        selector.register(0, selectors.EVENT_READ, "stdin")
    pending = b""
    try:
        while stop is None:
            left = deadline - time.monotonic()
            if left <= 0:
                stop = _timed_out()
                break
            for key, _ in selector.select(min(left, 1.0)):
                if key.data == "stdin":
                    if not os.read(0, 4096):
                        stop = Refusal(EXIT_CANCELLED, "cancelled: ncu was stopped")
                    continue
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    selector.unregister(proc.stdout)
                    _relay(pending, lines, out)
                    return Ended(_wait(proc, deadline), lines)
                pending = _relay_lines(pending + chunk, lines, out)
    except Stop:
        stop = Refusal(EXIT_CANCELLED, "cancelled by a signal: ncu was stopped")
    finally:
        selector.close()
        if proc.poll() is None:
            kill_group(proc)
        proc.stdout.close()
    raise stop


def _wait(proc: subprocess.Popen[bytes], deadline: float) -> int:
    """ncu closed its output; its exit status, killing its group if it lingers past the limit."""
    try:
        return proc.wait(max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        raise _timed_out() from None


def _timed_out() -> Refusal:
    return Refusal(EXIT_TIMEOUT, f"ncu ran past its time limit ({TIMEOUT_S:.0f} s a report, "
                   f"{MAX_RUN_S:.0f} s a run) and was stopped")


def _relay_lines(data: bytes, lines: list[str], out: Lines) -> bytes:
    *whole, rest = data.split(b"\n")
    for raw in whole:
        _relay(raw, lines, out)
    if len(rest) > 8 * MAX_TEXT_CHARS:  # a line without end: relay it cut
        _relay(rest, lines, out)
        return b""
    return rest


def _relay(raw: bytes, lines: list[str], out: Lines) -> None:
    text = raw.decode("utf-8", "replace").rstrip("\r")
    if text.strip():
        lines.append(cut(text))
        out.emit(ncu=lines[-1])


def failure(ended: Ended) -> Refusal | None:
    """What ncu's exit says went wrong, or None: no permission, a failed kernel program (with
    its own last lines), ncu killed by a signal or exiting non-zero."""
    lines = ended.lines
    if any(ERR_NVGPUCTRPERM in line for line in lines):
        return Refusal(EXIT_NOT_PERMITTED, "ncu may not read this GPU's performance "
                       f"counters ({ERR_NVGPUCTRPERM})")
    app = next((line for line in reversed(lines) if APP_FAILED in line), None)
    if app is not None:
        own = [line.strip() for line in lines
               if not line.startswith("==") and not line.startswith(TRACEBACK)][-PROGRAM_LINES:]
        said = " | ".join(own) if own else "it printed nothing"
        return Refusal(EXIT_NCU_FAILED, f"the kernel program failed under ncu "
                       f"({app.removeprefix('==ERROR==').strip().rstrip('.')}): {said}")
    if ended.status < 0:
        try:
            name = signal.Signals(-ended.status).name
        except ValueError:
            name = f"signal {-ended.status}"
        return Refusal(EXIT_NCU_FAILED, f"ncu was killed by {name}; its report, if any, "
                       "was dropped")
    if ended.status != 0:
        errors = [line for line in lines if "==ERROR==" in line]
        tail = f": {errors[-1]}" if errors else ""
        return Refusal(EXIT_NCU_FAILED, f"ncu exited with status {ended.status}{tail}; its "
                       "report, if any, was dropped")
    return None


def ncu_version(layout: Layout, env: dict[str, str], cwd: str) -> str | None:
    """`ncu --version`'s last line, or None."""
    try:
        out = subprocess.run([str(layout.ncu), "--version"], stdin=subprocess.DEVNULL,
                             capture_output=True, cwd=cwd, env=env, timeout=60,
                             check=False, start_new_session=True).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = out.decode("utf-8", "replace").strip().splitlines()
    return cut(lines[-1].strip()) if lines else None


def reset_clocks(layout: Layout, env: dict[str, str], cwd: str) -> None:
    """After `--clock-control base`: `--clock-control reset` gives the clocks back, whether
    ncu ended well or was killed holding them. Started with the stop signals blocked, which it
    keeps (nothing sends it one; a timeout kills it): from its fork to its setsid it is in the
    terminal's process group, where a Ctrl-C would kill it before it ran."""
    argv = [str(layout.ncu), "--config-file", "off", "--clock-control", "reset"]
    with contextlib.suppress(OSError, subprocess.TimeoutExpired), stop_signals_blocked():
        subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd=cwd, env=env, timeout=60, check=False,
                       start_new_session=True)


def driver_version() -> str | None:
    """The NVIDIA kernel module's version, from /proc."""
    try:
        with open(DRIVER_VERSION, encoding="utf-8", errors="replace") as f:
            match = re.search(r"Kernel Module\s+(?:for \S+\s+)?([0-9][0-9.]+)", f.read(4096))
    except OSError:
        return None
    return match.group(1) if match else None


def dry_run_argv(request: Request, euid: int, environ: dict[str, str]) -> list[list[str]]:
    """The argv each report of a run would run, in order, checking nothing: where the install
    is unreadable, ncu stands as the bare word `ncu`."""
    try:
        layout = load_layout(euid, environ)
    except Refusal:
        layout = Layout(Path("ncu"), Path(sys.executable), program_path().parent, None, None)
    return [ncu_argv(request, shot, layout, "<temporary directory>") for shot in request.shots]
