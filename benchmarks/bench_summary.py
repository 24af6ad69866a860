"""Time `summary` and the readers against a bare read of the same file; print one table of ratios.

Each variant runs in a subprocess of its own, so its peak memory is its own:

- A 10,000-kernel details CSV (benchmarks/make_big_csv.py builds one from real rows when it is
  missing): `read_report` and the `python -m viewer summary FILE --json` document, against a bare
  `pandas.read_csv(FILE, dtype=str)` of every column.
- Each .ncu-rep (those given with --ncu-rep; by default the naive h200 capture, the real
  400-kernel PyTorch capture benchmarks/data/many-kernels.ncu-rep (benchmarks/README.md) and a
  10,000-kernel report that make_big_csv.py --ncu-rep builds from its kernels, or, when there is
  no such capture, a synthetic 400-kernel report that make_big_csv.py builds from the h200 pair):
  - `summary`: `read_report` (the metrics the views use, viewer.core.metrics.KNOWN_METRICS) and the
    summary document, against a bare in-process ncu_report load that reads the same metrics (a
    unit looked up once per metric name, as the reader does);
  - every metric: `ncu_rep.read(names=None)` against the bare read of every numeric metric
    (reports under EVERY_METRIC_MAX_BYTES only: the bare read of a larger one needs 10 GB).

Time is the work alone, imports excluded (the reader's child imports ncu_report inside it, the
bare read before it). Peak memory is the subprocess's maximum resident set (RUSAGE_SELF) plus that
of its children (RUSAGE_CHILDREN: the .ncu-rep reader's child, one at a time), a sum that bounds
what both held at once. Targets: `summary` of a .ncu-rep within 1.3x the bare read's
time and 1.2x its memory, for reports of MANY_KERNELS kernels and more (a report of a few kernels
pays the fixed cost of the reader's protective child, about 0.05 s); the details CSV within 2x
the bare read's memory.

    python benchmarks/bench_summary.py [--csv FILE] [--ncu-rep FILE ...] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

# The read itself is what is timed: never an answer kept by the cache of what was read (the
# variable reaches the subprocesses too).
os.environ["NCU_READER_NO_CACHE"] = "1"

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

H200 = ROOT / "tests" / "data" / "corpus" / "h200"
NAIVE = H200 / "numba-naive.ncu-rep"
DATA = ROOT / "benchmarks" / "data"
REAL_400 = DATA / "many-kernels.ncu-rep"
SYNTHETIC_10000 = DATA / "synthetic-10000.ncu-rep"
MANY_KERNELS = 100
EVERY_METRIC_MAX_BYTES = 256 << 20


@dataclass(frozen=True)
class Comparison:
    """A reader variant against a bare one, and the targets for their ratios (None: no target)."""

    label: str
    reader: str
    bare: str
    time_target: float | None
    memory_target: float | None


NCU_REP = (Comparison("summary", "summary", "ncu_report_known", 1.3, 1.2),
           Comparison("every metric", "every_metric", "ncu_report_all", None, None))
CSV = (Comparison("summary", "summary", "pandas_all_columns", None, 2.0),)


# ----------------------------------------------------------------- the variants (in a subprocess)


def _summary(path: Path) -> dict[str, float]:
    from viewer.readers import read_report, sniff
    from viewer.terminal import summary_terminal

    if sniff.sniff(path) in (sniff.DETAILS_CSV, sniff.RAW_CSV):
        import viewer.readers.details_csv  # noqa: F401  (pandas, as the bare read imports it)

    start = time.perf_counter()
    report = read_report(path)
    document = json.dumps(summary_terminal.report_json(report))
    return {"seconds": time.perf_counter() - start, "kernels": len(report.kernels),
            "values": sum(len(k.metrics) for k in report.kernels), "json_bytes": len(document)}


def _every_metric(path: Path) -> dict[str, float]:
    from viewer.readers import ncu_rep

    start = time.perf_counter()
    report = ncu_rep.read(path, names=None)
    return {"seconds": time.perf_counter() - start, "kernels": len(report.kernels),
            "values": sum(len(k.metrics) for k in report.kernels)}


def _pandas(path: Path) -> dict[str, float]:
    import pandas as pd

    from viewer.readers.sniff import find_csv_header

    header = find_csv_header(path)
    start = time.perf_counter()
    with path.open("rb") as f:
        f.seek(header.offset)
        frame = pd.read_csv(f, dtype=str)
    return {"seconds": time.perf_counter() - start, "kernels": frame["ID"].nunique(),
            "values": len(frame)}


def _ncu_report(path: Path, known_only: bool) -> dict[str, float]:
    import ncu_report

    from viewer.core.metrics import KNOWN_METRICS
    from viewer.core.units import unit_scale

    kinds = ncu_report.IMetric
    integer = {kinds.ValueKind_UINT32, kinds.ValueKind_UINT64}
    numeric = integer | {kinds.ValueKind_FLOAT, kinds.ValueKind_DOUBLE}
    known = sorted(KNOWN_METRICS)
    start = time.perf_counter()
    context = ncu_report.load_report(str(path))
    scales: dict[str, float] = {}
    kernels = []
    for r in range(context.num_ranges()):
        profiled = context.range_by_idx(r)
        for a in range(profiled.num_actions()):
            action = profiled.action_by_idx(a)
            values = {}
            for name in known if known_only else action.metric_names():
                m = action.metric_by_name(name)
                if m is None or not m.has_value() or m.kind() not in numeric:
                    continue
                raw = float(m.as_uint64()) if m.kind() in integer else m.as_double()
                if name not in scales:
                    scales[name] = unit_scale(m.unit())[0]
                value = raw * scales[name]
                if math.isfinite(value):
                    values[name] = value
            kernels.append((action.name(), values))
    return {"seconds": time.perf_counter() - start, "kernels": len(kernels),
            "values": sum(len(v) for _, v in kernels)}


VARIANTS = {
    "summary": _summary,
    "every_metric": _every_metric,
    "pandas_all_columns": _pandas,
    "ncu_report_known": lambda p: _ncu_report(p, known_only=True),
    "ncu_report_all": lambda p: _ncu_report(p, known_only=False),
}


def run_variant(name: str, path: Path) -> None:
    """Run one variant here and print its figures as JSON (the subprocess side).

    Each variant imports what it needs before its clock starts, and nothing else: the reader of a
    .ncu-rep never imports pandas, so neither does the bare ncu_report read.
    """
    figures = VARIANTS[name](path)
    figures["self_rss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    figures["children_rss_kib"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps(figures))


# ----------------------------------------------------------------- the table (the parent side)


def measure(name: str, path: Path, repeat: int) -> dict[str, float]:
    """The best time of `repeat` runs of a variant, each in a fresh subprocess, and the least
    peak memory among them."""
    runs = []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, __file__, "--variant", name, str(path)],
            check=True, capture_output=True, text=True, cwd=ROOT,
        )
        figures = json.loads(out.stdout.strip().splitlines()[-1])
        figures["peak_mib"] = (figures["self_rss_kib"] + figures["children_rss_kib"]) / 1024
        runs.append(figures)
    best = min(runs, key=lambda f: f["seconds"])
    best["peak_mib"] = min(f["peak_mib"] for f in runs)
    return best


def ratio(value: float, target: float | None) -> tuple[str, bool]:
    """'x1.27 (<= 1.3)' and whether it is within the target."""
    if target is None:
        return f"x{value:4.2f}        ", True
    return f"x{value:4.2f} (<= {target:g})", value <= target


def compare(name: str, path: Path, comparisons: tuple[Comparison, ...], repeat: int
            ) -> list[str]:
    """Measure each comparison on `path`; a table row each, with its verdict (if it has targets)."""
    rows = []
    for c in comparisons:
        b = measure(c.bare, path, repeat)
        r = measure(c.reader, path, repeat)
        judged = r["kernels"] >= MANY_KERNELS and (c.time_target or c.memory_target)
        t_text, t_ok = ratio(r["seconds"] / b["seconds"], c.time_target if judged else None)
        m_text, m_ok = ratio(r["peak_mib"] / b["peak_mib"], c.memory_target if judged else None)
        verdict = ("within" if t_ok and m_ok else "OUTSIDE") if judged else ""
        rows.append(
            f"| {name} | {int(r['kernels']):,} | {c.label} ({int(r['values']):,} values) |"
            f" {c.bare}: {b['seconds']:.2f} s, {b['peak_mib']:,.0f} MiB |"
            f" {r['seconds']:.2f} s, {r['peak_mib']:,.0f} MiB | {t_text} | {m_text} | {verdict} |")
        print(rows[-1], flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv", type=Path, help="a details CSV (default: the 10,000-kernel one)")
    parser.add_argument("--ncu-rep", type=Path, nargs="*", help="reports (default: the naive"
                        " h200 capture and the many-kernel one, real or synthetic)")
    parser.add_argument("--repeat", type=int, default=2, help="best of this many runs")
    parser.add_argument("--variant", help=argparse.SUPPRESS)
    parser.add_argument("path", nargs="?", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.variant:
        run_variant(args.variant, args.path)
        return 0

    from benchmarks import make_big_csv as make

    csv_path = args.csv or make.DEFAULT_OUT
    if args.csv is None and not csv_path.exists():
        print(f"building {csv_path.relative_to(ROOT)} ...")
        make.write_big_csv(csv_path, 10_000)
    reports = args.ncu_rep
    if not reports:
        reports = [NAIVE, *_many_kernel_reports(make)]
    print(f"best time of {args.repeat} runs, imports excluded; memory: peak RSS of the variant's"
          " process plus its children\n")
    print("| input | kernels | what | bare read | reader | time | memory | targets |")
    print("|---|---:|---|---|---|---|---|---|")
    rows = compare(_name(csv_path), csv_path, CSV, args.repeat)
    for report in reports:
        comparisons = NCU_REP if report.stat().st_size < EVERY_METRIC_MAX_BYTES else NCU_REP[:1]
        rows += compare(_name(report.resolve()), report.resolve(), comparisons, args.repeat)
    judged = [row for row in rows if row.endswith(("| within |", "| OUTSIDE |"))]
    outside = sum(row.endswith("| OUTSIDE |") for row in judged)
    print(f"\n{len(judged) - outside} of {len(judged)} rows with targets are within them")
    return 0


def _many_kernel_reports(make: ModuleType) -> list[Path]:
    """The real 400-kernel capture and a 10,000-kernel report of its kernels, or else a synthetic
    400-kernel report of the h200 pair (each built when missing)."""
    if not REAL_400.exists():
        many = make.default_report_out()
        if not many.exists():
            print(f"building {many.relative_to(ROOT)} (no real many-kernel capture) ...")
            make.write_big_report(many, make.DEFAULT_REPORT_KERNELS)
        return [many]
    if not SYNTHETIC_10000.exists():
        print(f"building {SYNTHETIC_10000.relative_to(ROOT)} from {REAL_400.name} ...")
        make.write_big_report(SYNTHETIC_10000, 10_000, (REAL_400,))
    return [REAL_400, SYNTHETIC_10000]


def _name(path: Path) -> str:
    size = path.stat().st_size / 1e6
    return f"{path.name} ({size:,.1f} MB)"


if __name__ == "__main__":
    sys.exit(main())
