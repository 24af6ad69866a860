"""What a damaged or hostile file costs: `python -m viewer summary FILE` on each kind of damage,
beside the same command on the good file it was made from. Prints a table; asserts nothing.

Each row is the worst of REPEATS runs (CPU time of the process and what it waited for, wall
time, peak memory; from wait4). Made in a temporary folder from the shipped files; the large
ones are sparse where they can be (a hole reads as zeros and takes no disk).

    .venv/bin/python benchmarks/bench_refusals.py
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from viewer.readers import ncu_container  # noqa: E402

PROFILES = ROOT / "profiles"
REPEATS = 3
MIB = 1 << 20


def measure(path: Path) -> tuple[float, float, float, int, str]:
    """(CPU s, wall s, peak MiB, exit status, last stderr line) of `summary PATH`."""
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "viewer", "summary", str(path)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stderr is not None
    err: list[bytes] = []
    reader = threading.Thread(target=lambda: err.append(proc.stderr.read()))  # type: ignore
    reader.start()
    _, status, usage = os.wait4(proc.pid, 0)
    reader.join()
    wall = time.monotonic() - start
    line = (err[0].decode("utf-8", "replace").strip().splitlines() or [""])[-1]
    return (usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024,
            os.waitstatus_to_exitcode(status), line)


def blank_lines(folder: Path) -> Path:
    path = folder / "blank-lines.txt"
    path.write_bytes(b"\n" * 256_000)
    return path


def session_fields(folder: Path) -> Path:
    """A block of 5 Mi tiny unknown fields before the shipped report's last block."""
    data = (PROFILES / "naive.ncu-rep").read_bytes()
    starts = []
    with (PROFILES / "naive.ncu-rep").open("rb") as f:
        walk = ncu_container.Walk(f)
        for _ in walk:
            starts.append(walk.whole_to)  # where the block just met starts
    last = starts[-1]
    fields = b"\x78\x00" * (5 << 20)
    block = len(fields).to_bytes(4, "little") + fields
    path = folder / "session-fields.ncu-rep"
    path.write_bytes(data[:last] + block + data[last:])
    return path


def gzip_members(folder: Path) -> Path:
    path = folder / "members.csv.gz"
    path.write_bytes(gzip.compress(b"", mtime=0) * 1_000_000
                     + gzip.compress((PROFILES / "naive.details.csv").read_bytes()))
    return path


def gzip_bomb(folder: Path) -> Path:
    path = folder / "bomb.csv.gz"
    squeeze = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    with path.open("wb") as out:
        out.write(squeeze.compress((PROFILES / "naive.details.csv").read_bytes()[:4096]))
        blanks = b" " * MIB
        for _ in range(2047):
            out.write(squeeze.compress(blanks))
        out.write(squeeze.flush())
    return path


def huge_line(folder: Path) -> Path:
    header, first, _ = (PROFILES / "naive.details.csv").read_bytes().split(b"\n", 2)
    path = folder / "huge-line.csv"
    with path.open("wb") as f:
        f.write(header + b"\n" + first + b"7" * (2 * MIB))
        f.truncate(f.tell() + 1900 * MIB)
    with path.open("ab") as f:
        f.write(b"\n")
    return path


def huge_row(folder: Path) -> Path:
    lines = (PROFILES / "naive.details.csv").read_text(encoding="utf-8").split("\n")
    lines[1] += ',"x"' * 100_000
    path = folder / "huge-row.csv"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def zeros_after(folder: Path) -> Path:
    path = folder / "zeros-after.ncu-rep"
    path.write_bytes((PROFILES / "naive.ncu-rep").read_bytes())
    with path.open("r+b") as f:
        f.truncate(4 * 1024 * MIB - 1)
    return path


def fifo(folder: Path) -> Path:
    path = folder / "fifo.ncu-rep"
    os.mkfifo(path)
    return path


CASES: list[tuple[str, Callable[[Path], Path], Path]] = [
    ("blank lines (256,000)", blank_lines, PROFILES / "naive.details.txt"),
    ("session fields (10 MiB)", session_fields, PROFILES / "naive.ncu-rep"),
    ("gzip members (1,000,000 empty)", gzip_members, PROFILES / "naive.details.csv"),
    ("gzip bomb (2 GiB of blanks)", gzip_bomb, PROFILES / "naive.details.csv"),
    ("huge line (1.9 GB)", huge_line, PROFILES / "naive.details.csv"),
    ("huge row (100,000 fields)", huge_row, PROFILES / "naive.details.csv"),
    ("4 GiB of zeros after a report", zeros_after, PROFILES / "naive.ncu-rep"),
    ("a named pipe", fifo, PROFILES / "naive.ncu-rep"),
]


def main() -> None:
    print(f"worst of {REPEATS} runs of `python -m viewer summary FILE`; CPU and wall seconds,"
          " peak MiB")
    print(f"{'damage':34} {'size':>10} {'CPU':>6} {'wall':>6} {'MiB':>6} exit  "
          f"{'good file':22} {'CPU':>6} {'MiB':>6}  what it said")
    with tempfile.TemporaryDirectory() as tmp:
        for name, make, good in CASES:
            folder = Path(tmp) / str(abs(hash(name)))
            folder.mkdir()
            path = make(folder)
            size = path.stat().st_size if path.is_file() else 0
            bad = [measure(path) for _ in range(REPEATS)]
            fine = [measure(good) for _ in range(REPEATS)]
            cpu, wall, mib = (max(r[i] for r in bad) for i in range(3))
            gcpu, gmib = max(r[0] for r in fine), max(r[2] for r in fine)
            said = bad[-1][4].split(": ", 2)[-1][:60]
            print(f"{name:34} {size / MIB:>8.1f}Mi {cpu:6.2f} {wall:6.2f} {mib:6.0f} "
                  f"{bad[-1][3]:>4}  {good.name:22} {gcpu:6.2f} {gmib:6.0f}  {said}")


if __name__ == "__main__":
    main()
