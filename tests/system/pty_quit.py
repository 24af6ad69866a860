"""make test-system's Ctrl-\\ step: a command under a pseudo-terminal of its own, as a user's
terminal runs it, then the terminal's QUIT character typed at it.

    python3 tests/system/pty_quit.py MARKER STDOUT STDERR LIMIT_S -- COMMAND [ARGS...]

The command gets a new session whose controlling terminal and stdin are the pty, its stdout and
stderr in the files named. Once MARKER exists (the fake ncu writes it when it is running), \\x1c
(Ctrl-\\) is written to the pty's master side: the line discipline sends SIGQUIT to the terminal's
foreground process group, which is the command's. Prints one JSON line: the command's pid, whether
the QUIT was typed, its exit code or the signal that ended it, and the seconds from the QUIT to its
end (null when it outlived LIMIT_S). Standard library only: it runs as the test user.
"""

from __future__ import annotations

import json
import os
import pty
import select
import sys
import termios
import time

QUIT = b"\x1c"
MARKER_WAIT_S = 180.0


def child(out_path: str, err_path: str, command: list[str]) -> None:
    try:
        attrs = termios.tcgetattr(0)
        attrs[3] |= termios.ISIG  # lflag: typed QUIT raises SIGQUIT, as on a user's terminal
        attrs[6][termios.VQUIT] = QUIT
        termios.tcsetattr(0, termios.TCSANOW, attrs)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
        os.dup2(os.open(out_path, flags, 0o644), 1)
        os.dup2(os.open(err_path, flags, 0o644), 2)
        os.execvp(command[0], command)
    finally:
        os._exit(127)


def main(argv: list[str]) -> int:
    marker, out_path, err_path, limit = argv[0], argv[1], argv[2], float(argv[3])
    if argv[4] != "--" or len(argv) < 6:
        sys.exit("usage: pty_quit.py MARKER STDOUT STDERR LIMIT_S -- COMMAND [ARGS...]")
    pid, master = pty.fork()
    if pid == 0:
        child(out_path, err_path, argv[5:])
    result: dict[str, object] = {"pid": pid, "quit_sent": False, "exit": None, "signal": None,
                                 "seconds": None, "terminal": ""}
    seen = bytearray()

    def drain(timeout: float) -> None:
        ready, _, _ = select.select([master], [], [], timeout)
        if ready:
            try:
                seen.extend(os.read(master, 4096))
            except OSError:  # the slave side is closed
                time.sleep(timeout)

    def ended() -> int | None:
        done, status = os.waitpid(pid, os.WNOHANG)
        return status if done else None

    status = None
    give_up = time.monotonic() + MARKER_WAIT_S
    while status is None and not os.path.exists(marker) and time.monotonic() < give_up:
        drain(0.1)
        status = ended()
    if status is None and os.path.exists(marker):
        drain(0.5)  # the fake has just started; let the helper settle in its wait
        os.write(master, QUIT)
        result["quit_sent"] = True
        quit_at = time.monotonic()
        while status is None and time.monotonic() - quit_at < limit:
            drain(0.1)
            status = ended()
        if status is not None:
            result["seconds"] = round(time.monotonic() - quit_at, 2)
    if status is not None:
        code = os.waitstatus_to_exitcode(status)
        result["exit" if code >= 0 else "signal"] = abs(code)
    result["terminal"] = seen.decode("utf-8", "replace")[-1000:]
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
