"""A command under a pseudo-terminal of its own, as a user's terminal runs it: what
tests/capture/pty_ctrl_c.py (Ctrl-C) and tests/system/pty_quit.py (Ctrl-\\) share before each
types its character at it.

The scripts import it by this name, with tests/ put first on their import path: make
test-system runs pty_quit.py as the test user from a copy of tests/system, beside which
tests/system/pkexec_end_to_end.sh copies this file. Standard library only.
"""

from __future__ import annotations

import os
import pty
import select
import termios
import time


def start(command: list[str], out_path: str, err_path: str, key: int,
          char: bytes) -> tuple[int, int]:
    """(the command's pid, the pty's master side). The command gets a new session whose
    controlling terminal and stdin are the pty, its stdout and stderr in the files named; the
    terminal's control character `key` (termios.VINTR, termios.VQUIT) is `char`, with ISIG on:
    `char` written to the master side signals the terminal's foreground process group, which is
    the command's."""
    pid, master = pty.fork()
    if pid == 0:
        try:
            attrs = termios.tcgetattr(0)
            attrs[3] |= termios.ISIG  # lflag: a typed character signals, as on a user's terminal
            attrs[6][key] = char
            termios.tcsetattr(0, termios.TCSANOW, attrs)
            flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
            os.dup2(os.open(out_path, flags, 0o644), 1)
            os.dup2(os.open(err_path, flags, 0o644), 2)
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    return pid, master


def drain(master: int, seconds: float, seen: bytearray | None = None) -> None:
    """Read what the terminal echoes for `seconds` (kept in `seen`, where given)."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        ready, _, _ = select.select([master], [], [], left)
        if not ready:
            continue
        try:
            data = os.read(master, 4096)
        except OSError:  # the slave side is closed: nothing more to read
            time.sleep(max(0.0, end - time.monotonic()))
            return
        if seen is not None:
            seen.extend(data)


def ended(pid: int) -> int | None:
    """The command's wait status once it has ended, else None."""
    done, status = os.waitpid(pid, os.WNOHANG)
    return status if done else None


def exit_or_signal(status: int) -> dict[str, int]:
    """{"exit": code} or {"signal": number}, as the wait `status` says it ended."""
    code = os.waitstatus_to_exitcode(status)
    return {"exit" if code >= 0 else "signal": abs(code)}
