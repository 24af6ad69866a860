"""A stream of Ctrl-C typed at a command under a pseudo-terminal of its own, as a user's terminal
runs it (tests/capture/test_capture_helper_attacks.py runs this in a process of its own, so that
pty.fork forks a process with one thread).

    python3 tests/capture/pty_ctrl_c.py MARKER COUNT STDOUT STDERR LIMIT_S SEED -- COMMAND...

The command gets a new session whose controlling terminal and stdin are the pty, its stdout and
stderr in the files named. Once MARKER exists, \\x03 (Ctrl-C) is written to the pty's master side
again and again, 10 to 50 ms apart (drawn from SEED), until the command ends or LIMIT_S pass: the
line discipline sends SIGINT to the terminal's foreground process group, which is the command's.
After each, the number sent so far is written to COUNT. Prints one JSON line: the command's
exit code or the signal that ended it (null when it outlived LIMIT_S), and the Ctrl-C sent.
"""

from __future__ import annotations

import json
import os
import pty
import random
import select
import signal
import sys
import termios
import time

INTR = b"\x03"
GAP_S = (0.010, 0.050)
MARKER_WAIT_S = 60.0


def child(out_path: str, err_path: str, command: list[str]) -> None:
    try:
        attrs = termios.tcgetattr(0)
        attrs[3] |= termios.ISIG  # lflag: a typed INTR raises SIGINT, as on a user's terminal
        attrs[6][termios.VINTR] = INTR
        termios.tcsetattr(0, termios.TCSANOW, attrs)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        os.dup2(os.open(out_path, flags, 0o644), 1)
        os.dup2(os.open(err_path, flags, 0o644), 2)
        os.execvp(command[0], command)
    finally:
        os._exit(127)


def write_count(path: str, count: int) -> None:
    with open(path + ".new", "w", encoding="ascii") as f:
        f.write(str(count))
    os.replace(path + ".new", path)


def main(argv: list[str]) -> int:
    marker, count_path, out_path, err_path = argv[:4]
    limit, seed = float(argv[4]), int(argv[5])
    if argv[6] != "--" or len(argv) < 8:
        sys.exit("usage: pty_ctrl_c.py MARKER COUNT STDOUT STDERR LIMIT_S SEED -- COMMAND...")
    gaps = random.Random(seed)
    pid, master = pty.fork()
    if pid == 0:
        child(out_path, err_path, argv[7:])

    def drain(seconds: float) -> None:
        """Read what the terminal echoes for `seconds`."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([master], [], [], left)
            if ready:
                try:
                    os.read(master, 4096)
                except OSError:  # the slave side is closed: nothing more to read
                    select.select([], [], [], max(0.0, end - time.monotonic()))

    def ended() -> int | None:
        done, status = os.waitpid(pid, os.WNOHANG)
        return status if done else None

    status = None
    sent = 0
    give_up = time.monotonic() + MARKER_WAIT_S
    while status is None and not os.path.exists(marker) and time.monotonic() < give_up:
        drain(0.05)
        status = ended()
    stop_at = time.monotonic() + limit
    while status is None and os.path.exists(marker) and time.monotonic() < stop_at:
        os.write(master, INTR)
        sent += 1
        write_count(count_path, sent)
        drain(gaps.uniform(*GAP_S))
        status = ended()
    result: dict[str, object] = {"exit": None, "signal": None, "sent": sent}
    if status is not None:
        code = os.waitstatus_to_exitcode(status)
        result["exit" if code >= 0 else "signal"] = abs(code)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
