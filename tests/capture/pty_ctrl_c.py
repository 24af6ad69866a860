"""A stream of Ctrl-C typed at a command under a pseudo-terminal of its own, as a user's terminal
runs it (tests/capture/test_capture_helper_attacks.py runs this in a process of its own, so that
pty.fork forks a process with one thread; tests/pty_command.py starts the command).

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
import random
import signal
import sys
import termios
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for pty_command

from pty_command import drain, ended, exit_or_signal, start

INTR = b"\x03"
GAP_S = (0.010, 0.050)
MARKER_WAIT_S = 60.0


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
    pid, master = start(argv[7:], out_path, err_path, termios.VINTR, INTR)
    status = None
    sent = 0
    give_up = time.monotonic() + MARKER_WAIT_S
    while status is None and not os.path.exists(marker) and time.monotonic() < give_up:
        drain(master, 0.05)
        status = ended(pid)
    stop_at = time.monotonic() + limit
    while status is None and os.path.exists(marker) and time.monotonic() < stop_at:
        os.write(master, INTR)
        sent += 1
        write_count(count_path, sent)
        drain(master, gaps.uniform(*GAP_S))
        status = ended(pid)
    result: dict[str, object] = {"exit": None, "signal": None, "sent": sent}
    if status is not None:
        result.update(exit_or_signal(status))
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
