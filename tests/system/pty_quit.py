"""make test-system's Ctrl-\\ step: a command under a pseudo-terminal of its own, as a user's
terminal runs it, then the terminal's QUIT character typed at it.

    python3 tests/system/pty_quit.py MARKER STDOUT STDERR LIMIT_S -- COMMAND [ARGS...]

The command gets a new session whose controlling terminal and stdin are the pty, its stdout and
stderr in the files named. Once MARKER exists (the fake ncu writes it when it is running), \\x1c
(Ctrl-\\) is written to the pty's master side: the line discipline sends SIGQUIT to the terminal's
foreground process group, which is the command's. Prints one JSON line: the command's pid, whether
the QUIT was typed, its exit code or the signal that ended it, and the seconds from the QUIT to its
end (null when it outlived LIMIT_S). Standard library only: it runs as the test user, with
tests/pty_command.py (which starts the command) copied beside tests/system.
"""

from __future__ import annotations

import json
import os
import sys
import termios
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for pty_command

from pty_command import drain, ended, exit_or_signal, start

QUIT = b"\x1c"
MARKER_WAIT_S = 180.0


def main(argv: list[str]) -> int:
    marker, out_path, err_path, limit = argv[0], argv[1], argv[2], float(argv[3])
    if argv[4] != "--" or len(argv) < 6:
        sys.exit("usage: pty_quit.py MARKER STDOUT STDERR LIMIT_S -- COMMAND [ARGS...]")
    pid, master = start(argv[5:], out_path, err_path, termios.VQUIT, QUIT)
    result: dict[str, object] = {"pid": pid, "quit_sent": False, "exit": None, "signal": None,
                                 "seconds": None, "terminal": ""}
    seen = bytearray()
    status = None
    give_up = time.monotonic() + MARKER_WAIT_S
    while status is None and not os.path.exists(marker) and time.monotonic() < give_up:
        drain(master, 0.1, seen)
        status = ended(pid)
    if status is None and os.path.exists(marker):
        drain(master, 0.5, seen)  # the fake has just started; let the helper settle in its wait
        os.write(master, QUIT)
        result["quit_sent"] = True
        quit_at = time.monotonic()
        while status is None and time.monotonic() - quit_at < limit:
            drain(master, 0.1, seen)
            status = ended(pid)
        if status is not None:
            result["seconds"] = round(time.monotonic() - quit_at, 2)
    if status is not None:
        result.update(exit_or_signal(status))
    result["terminal"] = seen.decode("utf-8", "replace")[-1000:]
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
