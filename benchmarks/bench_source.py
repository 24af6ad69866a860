"""Reading one kernel's source counters from the shipped pair against a bare ncu_report walk of
the same instructions (load the report, walk sass_by_pc from the function's start, source_info
and the same per-instruction metrics), each in a fresh process, as the reader's child is.

    .venv/bin/python benchmarks/bench_source.py [--repeat 5]

Prints a table per report: the median seconds of each and the ratio (target: within 1.3x).
Then the Source view's first picture after being shown (offscreen, each in a fresh process, the
report's first read done before): the frame saying it reads, the table with the read included,
and the table when the session already holds the counters (target: within 0.5 s).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from viewer.readers import ncu_rep  # noqa: E402
from viewer.readers.source import read_source  # noqa: E402

TARGET = 1.3
BARE = r"""
import sys, ncu_report
from viewer.readers.source_child import COUNTERS, STALL_PREFIX, per_pc, stall_names
a = ncu_report.load_report(sys.argv[1]).range_by_idx(0).action_by_idx(0)
values = [per_pc(a, n) for n in COUNTERS.values()]
values += [per_pc(a, STALL_PREFIX + r) for r in stall_names(a)]
pc = int(a.metric_by_name("launch__function_pcs").as_uint64(0))
rows = []
while text := a.sass_by_pc(pc):
    info = a.source_info(pc)
    rows.append((pc, text, info and (info.file_name(), info.line()),
                 [v.get(pc, 0.0) for v in values if v is not None]))
    pc += 16
a.source_files()
print(len(rows))
"""


def bare(path: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-S", "-c", BARE, str(path)], check=True, cwd=ROOT,
                   env=ncu_rep._env(), capture_output=True)
    return time.perf_counter() - start


def ours(path: Path) -> float:
    start = time.perf_counter()
    read_source(path, positions=[0])
    return time.perf_counter() - start


VIEW_TARGET = 0.5
VIEW = r"""
import os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtWidgets import QApplication
app = QApplication([])
from viewer.qt.kit.session_reads import SessionReads
from viewer.qt.kit.style import Style
from viewer.qt.views.source.source_view import SourceView
from viewer.readers import read_report
reports = [read_report(p) for p in sys.argv[1:]]
kernels, names = [r.kernels[0] for r in reports], [p.rsplit('/', 1)[-1] for p in sys.argv[1:]]
reads = SessionReads()
def picture():
    view = SourceView(Style(), reads=reads)
    view.resize(1600, 900)
    view.set_kernels(kernels, names, reports)
    start = time.perf_counter()
    view.show()
    view.grab()
    first = time.perf_counter() - start
    while not view.ready:
        app.processEvents()
        time.sleep(0.002)
    view.grab()
    return first, time.perf_counter() - start
cold = picture()
warm = picture()
print(cold[0], cold[1], warm[1])
"""


def view_times(paths: list[Path]) -> tuple[float, float, float]:
    """(the first frame, the table with the read, the table already read), in seconds."""
    done = subprocess.run([sys.executable, "-c", VIEW, *map(str, paths)], check=True, cwd=ROOT,
                          capture_output=True, text=True)
    first, cold, warm = (float(v) for v in done.stdout.split()[-3:])
    return first, cold, warm


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'report':20} {'reader s':>9} {'bare s':>9} {'ratio':>6}")
    worst = 0.0
    for name in ("naive", "tiled"):
        path = ROOT / "profiles" / f"{name}.ncu-rep"
        times: dict[str, list[float]] = {"ours": [], "bare": []}
        for _ in range(args.repeat):  # interleaved, so drift hits both alike
            times["ours"].append(ours(path))
            times["bare"].append(bare(path))
        a, b = statistics.median(times["ours"]), statistics.median(times["bare"])
        worst = max(worst, a / b)
        print(f"{path.name:20} {a:9.3f} {b:9.3f} {a / b:6.2f}")
    print(f"worst ratio {worst:.2f} (target {TARGET})")
    print()
    print(f"{'Source view shown':20} {'frame s':>9} {'+read s':>9} {'read s':>9}")
    slowest = 0.0
    for label, names in (("naive", ("naive",)), ("naive vs tiled", ("naive", "tiled"))):
        paths = [ROOT / "profiles" / f"{n}.ncu-rep" for n in names]
        runs = [view_times(paths) for _ in range(args.repeat)]
        first, cold, warm = (statistics.median(r[i] for r in runs) for i in range(3))
        slowest = max(slowest, first, warm)
        print(f"{label:20} {first:9.3f} {cold:9.3f} {warm:9.3f}")
    print(f"frame: the view's first picture (it says it reads); +read: the table, the read"
          f" included; read: the table, the counters already read (target {VIEW_TARGET} s"
          f" for frame and read)")
    return 0 if worst <= TARGET and slowest <= VIEW_TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
