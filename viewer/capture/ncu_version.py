"""Whether a program is Nsight Compute, by what its `--version` says, for the check-up.

The program is run as this user, never as root: where the check-up runs as root it runs it as
nobody. No shell, stdin /dev/null, a minimal environment, a few seconds at most, its own process
group (killed whole at the end), and only the first READ_LIMIT bytes of what it writes read.
Nothing it says is trusted but the two lines Nsight Compute prints; anything else is said in one
line, its control characters escaped (viewer.core.terminal_text.visible). No Qt.
"""

from __future__ import annotations

import contextlib
import os
import re
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass

from viewer.capture.helper import protocol as h
from viewer.core.terminal_text import visible

TIMEOUT_S = 5.0
READ_LIMIT = 4096
NOBODY = 65534
BANNER = "NVIDIA (R) Nsight Compute Command Line Profiler"
VERSION_LINE = re.compile(r"Version (\d+(?:\.\d+)+) \(build [^()\n]*\)")
QUOTE_LIMIT = 120
"""How much of an unexpected answer is quoted."""


@dataclass(frozen=True)
class NcuVersion:
    """`ok`: the program said it is Nsight Compute; `said`: one line for a person either way."""

    ok: bool
    said: str


@dataclass(frozen=True)
class _Answer:
    data: bytes
    status: int | None  # None: it was stopped (timeout or too much output)
    why: str = ""


def ncu_version(program: str, timeout: float = TIMEOUT_S) -> NcuVersion:
    """Run `program --version` (see the module's docstring) and say what it is."""
    if not (os.path.isfile(program) and os.access(program, os.X_OK)):
        return NcuVersion(False, f"{visible(program)} is not an executable file")
    answer = _run([program, "--version"], timeout)
    as_whom = " (run as nobody, since you are root)" if os.geteuid() == 0 else ""
    if answer.why:
        return NcuVersion(False, f"`--version` {answer.why}: not taken for Nsight Compute"
                          f"{as_whom}")
    text = answer.data.decode("utf-8", "replace")
    lines = [line.strip() for line in text.splitlines()]
    found = next((m for line in lines if (m := VERSION_LINE.match(line))), None)
    if answer.status == 0 and BANNER in lines and found is not None:
        return NcuVersion(True, f"Nsight Compute, {visible(found.group(0))}")
    quote = " / ".join(line for line in lines if line)[:QUOTE_LIMIT]
    quoted = f"'{visible(quote)}'" if quote else "nothing"
    return NcuVersion(False, f"`--version` exited {answer.status} and said {quoted}: not Nsight "
                      f"Compute's answer{as_whom}")


def _run(argv: list[str], timeout: float) -> _Answer:
    nobody = NOBODY if os.geteuid() == 0 else None
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, env={"PATH": h.SAFE_PATH,
                                                               "LC_ALL": "C"},
                                start_new_session=True, close_fds=True, user=nobody,
                                group=nobody, extra_groups=None if nobody is None else [])
    except (OSError, subprocess.SubprocessError) as exc:
        return _Answer(b"", None, f"could not run ({visible(str(exc))})")
    try:
        data, why = _read(proc, timeout)
    finally:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        if proc.stdout:
            proc.stdout.close()
    return _Answer(data, None if why else proc.returncode, why)


def _read(proc: subprocess.Popen[bytes], timeout: float) -> tuple[bytes, str]:
    """What the program wrote up to its end, or why it was stopped first."""
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    data = b""
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return data, f"gave no answer within {timeout:g} s"
            if not sel.select(left):
                continue
            chunk = os.read(proc.stdout.fileno(), READ_LIMIT + 1 - len(data))
            if not chunk:
                break
            data += chunk
            if len(data) > READ_LIMIT:
                return data, f"wrote more than {READ_LIMIT} bytes"
    try:
        proc.wait(max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        return data, f"gave no answer within {timeout:g} s"
    return data, ""
