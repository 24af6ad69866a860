"""How long grouping kernels by name takes (viewer/analysis/time_by_kernel.py): the kernel list
regroups on the GUI thread, so 10,000 kernels must group in well under the 100 ms stall target of
bench_kernel_list.py.

The kernels are 10,000 launches with the real metrics of the naive and tiled H200 captures in
tests/data/corpus/h200/, named from 1 to 10,000 distinct names; `--report PATH` adds a real
report (e.g. benchmarks/data/many-10000.ncu-rep), read once, then grouped. Each grouping runs
`--repeat` times; the table gives the median and the fastest, beside a plain Python loop doing the
same sums, for scale. Prints a table; asserts nothing.

    python benchmarks/bench_time_by_kernel.py [--kernels N] [--repeat R] [--report PATH ...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The read itself is what is timed: never an answer kept by the cache of what was read (the
# variable reaches the subprocesses too).
os.environ["NCU_READER_NO_CACHE"] = "1"

from viewer.analysis.time_by_kernel import DURATION, group_by_name  # noqa: E402
from viewer.core.model import Kernel  # noqa: E402
from viewer.readers import read_report  # noqa: E402

H200 = ROOT / "tests" / "data" / "corpus" / "h200"
KERNELS = 10_000
NAME_COUNTS = (1, 25, 1_000, 10_000)


def synthetic(real: Sequence[Kernel], count: int, names: int) -> list[Kernel]:
    """`count` launches alternating the metrics of the `real` kernels, `names` distinct names."""
    return [Kernel(i, f"kernel_{i % names}", f"void kernel_{i % names}<float>(float *)",
                   metrics=real[i % len(real)].metrics) for i in range(count)]


def loop_grouping(kernels: Sequence[Kernel]) -> dict[str, list[float]]:
    """The same sums by a plain loop (no sort, no shares), for scale."""
    groups: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for k in kernels:
        group = groups[k.name]
        group[0] += 1
        group[1] += k.metric(DURATION) or 0.0
    return groups


def timed(work: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median and fastest wall time of `work`, in ms."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times), min(times)


def row(label: str, kernels: Sequence[Kernel], repeat: int) -> str:
    groups = len(group_by_name(kernels))
    median, fastest = timed(lambda: group_by_name(kernels), repeat)
    full_median, _ = timed(lambda: group_by_name(kernels, by="display_name"), repeat)
    loop_median, _ = timed(lambda: loop_grouping(kernels), repeat)
    return (f"| {label} | {len(kernels):,} | {groups:,} | {median:.1f} | {fastest:.1f} | "
            f"{full_median:.1f} | {loop_median:.1f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", type=int, default=KERNELS)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--report", type=Path, action="append", default=[],
                        help="a real report to read once and group")
    args = parser.parse_args(argv)
    print("| input | kernels | groups | group by name, median ms | fastest ms "
          "| by whole name, median ms | plain loop, median ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    real = [read_report(H200 / f"numba-{k}.ncu-rep").kernels[0] for k in ("naive", "tiled")]
    for names in NAME_COUNTS:
        kernels = synthetic(real, args.kernels, min(names, args.kernels))
        print(row(f"real metrics, {names:,} names", kernels, args.repeat), flush=True)
    for path in args.report:
        start = time.perf_counter()
        report = read_report(path)
        read_s = time.perf_counter() - start
        print(row(f"{path.name} (read in {read_s:.1f} s)", report.kernels, args.repeat),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
