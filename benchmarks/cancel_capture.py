"""Cancel a real capture as the client does: close the helper's stdin once ncu has started.

    python3 benchmarks/cancel_capture.py HELPER

Prints the helper's lines, its exit status (9 is cancelled) and how long the cancel took.
"""

from __future__ import annotations

import subprocess
import sys
import time


def main(helper: str) -> int:
    proc = subprocess.Popen(
        [helper, "capture", "--target", "naive", "--dim", "4096", "--set", "full",
         "--clock", "none"],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stderr is not None
    for line in proc.stderr:
        print("helper:", line.decode(errors="replace").strip()[:200])
        if b"Connected" in line or b"Profiling" in line:
            break
    closed = time.monotonic()
    proc.stdin.close()
    proc.wait(60)
    print("helper:", proc.stderr.read().decode(errors="replace").strip()[-300:])
    print(f"cancel: exit {proc.returncode} {time.monotonic() - closed:.1f} s after stdin closed")
    return 0 if proc.returncode == 9 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
