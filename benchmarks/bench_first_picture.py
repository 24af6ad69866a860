"""How long the window takes to its first picture of a report, against `python -m viewer summary`.

Both are timed from the moment their process is started, as a user feels them: `summary` until it
exits, the window until its reading tab has painted the report's first kernel (the child prints a
line then, and the clock stops when the line arrives). The window is the one `python -m viewer
FILE` opens (reading while it is built), at 1280x800, on Qt's offscreen platform unless
QT_QPA_PLATFORM says otherwise. Each is run --runs times, the two alternating; the table gives
medians, their ratio and the peak memory of the largest process of each (its own or a reader
child's). The target: the window within 1.3x of `summary` on the 400-kernel capture.

Inputs: the files named, else those of benchmarks/data/ present (the 400-kernel capture
many-kernels.ncu-rep, the synthetic report `make_big_csv.py --ncu-rep` builds), else the H200
naive report of the test corpus.

A second table sets the window's first picture of the shipped pair (profiles/naive.ncu-rep and
tiled.ncu-rep, compare mode) beside a bare window: PySide6 and pyqtgraph imported, a 1280x800
main window holding one plot of 512 points, timed to its first picture the same way (target:
1.2x). The window reads the pair from the read cache when it holds them (a pair opened again,
as in a class), else from the files.

    python benchmarks/bench_first_picture.py [FILE...] [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
DEFAULT_INPUTS = (DATA / "many-kernels.ncu-rep", DATA / "synthetic-400.ncu-rep")
FALLBACK = ROOT / "tests" / "data" / "corpus" / "h200" / "numba-naive.ncu-rep"
TARGET = 1.3
PAIR = (ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep")
BARE_TARGET = 1.2
PICTURE = "first picture"  # the child's line: 'first picture <kernels>'
TIMEOUT_S = 600

# The read itself is what is timed: never an answer kept by the cache of what was read (the
# variable reaches the subprocesses too).
os.environ["NCU_READER_NO_CACHE"] = "1"


@dataclass(frozen=True)
class Run:
    seconds: float
    peak_mb: float
    kernels: int | None = None


def bare() -> int:
    """A bare PySide6 + pyqtgraph window that draws one plot: once painted, say so and leave."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import pyqtgraph
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow

    app = QApplication.instance() or QApplication([])
    window = QMainWindow()
    plot = pyqtgraph.PlotWidget()
    plot.plot([float(i * i % 97) for i in range(512)])
    window.setCentralWidget(plot)
    window.resize(1280, 800)
    window.show()

    def painted() -> None:
        window.repaint()
        print(f"{PICTURE} 0", flush=True)
        app.quit()

    QTimer.singleShot(0, painted)
    return app.exec()


def child(paths: list[Path]) -> int:
    """The window's side, as `python -m viewer FILE...` opens it: once the tab has painted the
    reports, say so and leave."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(ROOT))
    from viewer.qt.shell.app import application, open_window

    args = argparse.Namespace(files=paths, tab="sol", projector=False, screenshot=Path("unused"))
    window = open_window(args)  # a screenshot's window: 1280x800, remembering nothing
    app = application()

    def painted() -> None:
        window.repaint()  # paints now, what the next turn of the event loop would have
        kernels = sum(len(r.kernels) for r in window.reports)
        print(f"{PICTURE} {kernels}", flush=True)
        app.quit()

    def failed(message: str) -> None:
        print(message, file=sys.stderr)
        app.exit(1)

    window.loaded.connect(painted)
    window.load_failed.connect(failed)
    status = app.exec()
    window.worker.shutdown()
    return status


def timed(argv: list[str], until_line: str | None = None,
          env: dict[str, str] | None = None) -> Run:
    """Start `argv`; the seconds until it prints a line starting `until_line` (or exits), and the
    largest process's peak memory (wait4's ru_maxrss, which covers the reaped children)."""
    with tempfile.TemporaryFile("w+") as errors:
        start = time.perf_counter()
        process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=errors,
                                   text=True, env=env)
        kernels, seconds = None, None
        assert process.stdout is not None
        for line in process.stdout:
            if until_line is not None and line.startswith(until_line):
                seconds = time.perf_counter() - start
                kernels = int(line.split()[-1])
        _, status, usage = os.wait4(process.pid, 0)
        if seconds is None:
            seconds = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        process.returncode = code
        if code != 0 or (until_line is not None and kernels is None):
            errors.seek(0)
            raise SystemExit(f"{' '.join(argv)} failed ({code}): {errors.read().strip()}")
    return Run(seconds, usage.ru_maxrss / 1024, kernels)


def median_run(runs: list[Run]) -> Run:
    return Run(statistics.median(r.seconds for r in runs),
               statistics.median(r.peak_mb for r in runs), runs[0].kernels)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=3, help="runs of each (default: %(default)s)")
    parser.add_argument("--child", type=Path, nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--bare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.bare:
        return bare()
    if args.child is not None:
        return child(args.child)

    files = args.files or [p for p in DEFAULT_INPUTS if p.is_file()] or [FALLBACK]
    python = sys.executable
    env_note = os.environ.get("QT_QPA_PLATFORM", "offscreen")
    rows = []
    for path in files:
        summaries, pictures = [], []
        for _ in range(max(1, args.runs)):  # alternate, so drift in the machine's load is shared
            summaries.append(timed([python, "-m", "viewer", "summary", str(path)]))
            pictures.append(timed([python, str(Path(__file__).resolve()), "--child", str(path)],
                                  until_line=PICTURE))
        rows.append((path, median_run(summaries), median_run(pictures)))

    print(f"Start to first picture (window, QT_QPA_PLATFORM={env_note}) against `python -m "
          f"viewer summary`, median of {args.runs} run(s) each; target: ratio within {TARGET}x\n")
    header = ("file", "MB", "kernels", "summary s", "picture s", "ratio", "ok",
              "summary peak MB", "window peak MB")
    table = [header]
    for path, summary, picture in rows:
        ratio = picture.seconds / summary.seconds
        table.append((path.name, f"{path.stat().st_size / 1e6:,.0f}", f"{picture.kernels:,}",
                      f"{summary.seconds:.2f}", f"{picture.seconds:.2f}", f"{ratio:.2f}x",
                      "yes" if ratio <= TARGET else "NO", f"{summary.peak_mb:,.0f}",
                      f"{picture.peak_mb:,.0f}"))
    print_table(table)
    print()
    pair_against_bare(args.runs)
    return 0


def print_table(table: list[tuple[str, ...]]) -> None:
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        print("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                        for i, (cell, w) in enumerate(zip(row, widths, strict=True))))


def pair_against_bare(runs: int) -> None:
    """The shipped pair's first picture against the bare window's, alternating, each read
    from the files and opened again from the read cache (a private one)."""
    me = str(Path(__file__).resolve())
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="first-picture-") as cache:
        env = {**os.environ, "XDG_CACHE_HOME": cache}
        env.pop("NCU_READER_NO_CACHE")
        window = [python, me, "--child", *map(str, PAIR)]
        timed(window, until_line=PICTURE, env=env)  # fills the cache
        bares, cold, again = [], [], []
        for _ in range(max(1, runs)):
            bares.append(timed([python, me, "--bare"], until_line=PICTURE))
            cold.append(timed(window, until_line=PICTURE))
            again.append(timed(window, until_line=PICTURE, env=env))
    base = median_run(bares)
    print(f"The shipped pair's first picture against a bare PySide6 + pyqtgraph window of one "
          f"plot, median of {runs} run(s) each; target: within {BARE_TARGET}x\n")
    table = [("window", "picture s", "ratio", "ok", "peak MB")]
    for name, found in (("bare window, one plot", base), ("pair, read", median_run(cold)),
                        ("pair, opened again (cache)", median_run(again))):
        ratio = found.seconds / base.seconds
        table.append((name, f"{found.seconds:.2f}", f"{ratio:.2f}x",
                      "" if found is base else "yes" if ratio <= BARE_TARGET else "NO",
                      f"{found.peak_mb:,.0f}"))
    print_table(table)


if __name__ == "__main__":
    sys.exit(main())
