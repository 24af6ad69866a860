"""Reading one kernel's source counters from the shipped pair against a bare ncu_report walk of
the same instructions (load the report, walk sass_by_pc from the function's start, source_info
and the same per-instruction metrics), each in a fresh process, as the reader's child is.

    .venv/bin/python benchmarks/bench_source.py [--repeat 5]

Prints a table per report: the median seconds of each and the ratio (target: within 1.3x).
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
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
