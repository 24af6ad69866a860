"""Time the readers against a bare read of the same file; print a table (nothing is asserted).

Two comparisons, each variant in a subprocess of its own so its peak memory is its own:

- A many-kernel details CSV (benchmarks/make_big_csv.py builds one from real rows when it is
  missing): `read_report`, then the `python -m viewer summary FILE --json` document, against a bare
  `pandas.read_csv(FILE, dtype=str)`, and against a bare read of just the columns the reader uses.
- A .ncu-rep (those given with --ncu-rep; by default the h200 pair and a synthetic 400-kernel
  report that make_big_csv.py builds from their result blocks): `read_report`, then the summary
  document, against a bare in-process ncu_report load that reads the same metrics (every numeric
  metric with a value, its unit looked up once per metric name as the reader does); and the same
  pair restricted to viewer.metrics.KNOWN_METRICS.

Time is the read alone, imports excluded. Peak memory is the subprocess's maximum resident set
(resource.getrusage RUSAGE_SELF) plus that of its own children (RUSAGE_CHILDREN: the .ncu-rep
reader's child), a sum that bounds what both held at once. Targets: at most 1.5x the bare read's
time and 2x its peak memory.

    python benchmarks/bench_summary.py [--csv FILE] [--ncu-rep FILE ...] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

H200 = ROOT / "tests" / "data" / "corpus" / "h200"
DEFAULT_REPORTS = (H200 / "numba-naive.ncu-rep", H200 / "numba-tiled.ncu-rep")
TIME_TARGET, MEMORY_TARGET = 1.5, 2.0


# ----------------------------------------------------------------- the variants (in a subprocess)


def _reader(path: Path, known_only: bool = False) -> dict[str, float]:
    from viewer import cli
    from viewer.readers import ncu_rep, read_report, sniff

    if sniff.sniff(path) in (sniff.DETAILS_CSV, sniff.RAW_CSV):
        import viewer.readers.details_csv  # noqa: F401  (pandas, as the bare read imports it)

    start = time.perf_counter()
    if known_only:
        report = ncu_rep.read(path, known_only=True)
    else:
        report = read_report(path)
    read_s = time.perf_counter() - start
    document = json.dumps(cli.report_json(report))
    return {"seconds": read_s, "summary_seconds": time.perf_counter() - start,
            "kernels": len(report.kernels),
            "metrics": sum(len(k.metrics) for k in report.kernels), "json_bytes": len(document)}


def _pandas(path: Path, usecols: bool) -> dict[str, float]:
    import pandas as pd

    from viewer.readers import details_csv
    from viewer.readers.sniff import find_csv_header

    header = find_csv_header(path)
    columns = [c for c in header.columns if c in details_csv.REQUIRED + details_csv.OPTIONAL]
    start = time.perf_counter()
    with path.open("rb") as f:
        f.seek(header.offset)
        frame = pd.read_csv(f, dtype=str, usecols=columns if usecols else None)
    return {"seconds": time.perf_counter() - start, "kernels": frame["ID"].nunique(),
            "metrics": len(frame)}


def _ncu_report(path: Path, known_only: bool) -> dict[str, float]:
    import ncu_report

    from viewer.metrics import KNOWN_METRICS
    from viewer.units import unit_scale

    kinds = ncu_report.IMetric
    integer = {kinds.ValueKind_UINT32, kinds.ValueKind_UINT64}
    numeric = integer | {kinds.ValueKind_FLOAT, kinds.ValueKind_DOUBLE}
    start = time.perf_counter()
    context = ncu_report.load_report(str(path))
    scales: dict[str, float] = {}
    kernels = []
    for r in range(context.num_ranges()):
        profiled = context.range_by_idx(r)
        for a in range(profiled.num_actions()):
            action = profiled.action_by_idx(a)
            values = {}
            for name in sorted(KNOWN_METRICS) if known_only else action.metric_names():
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
            "metrics": sum(len(v) for _, v in kernels)}


VARIANTS = {
    "read_report": lambda p: _reader(p),
    "read_report_known": lambda p: _reader(p, known_only=True),
    "pandas_all_columns": lambda p: _pandas(p, usecols=False),
    "pandas_reader_columns": lambda p: _pandas(p, usecols=True),
    "ncu_report": lambda p: _ncu_report(p, known_only=False),
    "ncu_report_known": lambda p: _ncu_report(p, known_only=True),
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
    """The best of `repeat` runs of a variant, each in a fresh subprocess."""
    best: dict[str, float] | None = None
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, __file__, "--variant", name, str(path)],
            check=True, capture_output=True, text=True, cwd=ROOT,
        )
        figures = json.loads(out.stdout.strip().splitlines()[-1])
        figures["peak_mib"] = (figures["self_rss_kib"] + figures["children_rss_kib"]) / 1024
        if best is None or figures["seconds"] < best["seconds"]:
            best = figures
    assert best is not None
    return best


def row(label: str, figures: dict[str, float], bare: dict[str, float] | None) -> str:
    child = figures["children_rss_kib"] / 1024
    text = (f"  {label:<34}{figures['seconds']:>8.2f} s {figures['peak_mib']:>8.0f} MiB"
            f" {'(child ' + format(child, '.0f') + ')' if child else '':>12}")
    if bare is not None:
        t = figures["seconds"] / bare["seconds"]
        m = figures["peak_mib"] / bare["peak_mib"]
        verdict = "within" if t <= TIME_TARGET and m <= MEMORY_TARGET else "OUTSIDE"
        text += f"   x{t:4.2f} time  x{m:4.2f} memory  ({verdict} targets)"
    if "summary_seconds" in figures:
        text += f"   summary JSON done at {figures['summary_seconds']:.2f} s"
    return text


def compare(title: str, path: Path, pairs: list[tuple[str, str]], repeat: int) -> None:
    size = path.stat().st_size / 1e6
    print(f"\n{title}: {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}"
          f" ({size:,.1f} MB)")
    for reader, bare in pairs:
        b = measure(bare, path, repeat)
        r = measure(reader, path, repeat)
        print(f"  {'':<34}{int(r['kernels']):,} kernels, {int(r['metrics']):,} metric values"
              f" read ({int(b['metrics']):,} by the bare read)")
        print(row(bare, b, None))
        print(row(reader, r, b))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv", type=Path, help="a details CSV (default: the 10,000-kernel one)")
    parser.add_argument("--ncu-rep", type=Path, nargs="*",
                        help="reports (default: the h200 pair and the synthetic 400-kernel one)")
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
    if reports is None:
        reports = [*DEFAULT_REPORTS, make.default_report_out()]
        if not reports[-1].exists():
            print(f"building {reports[-1].relative_to(ROOT)} ...")
            make.write_big_report(reports[-1], make.DEFAULT_REPORT_KERNELS)
    print(f"best of {args.repeat}; time is the read alone, imports excluded; memory is peak RSS of"
          " the variant's process plus its children")
    compare("details CSV", csv_path, [("read_report", "pandas_all_columns"),
                                      ("read_report", "pandas_reader_columns")], args.repeat)
    for report in reports:
        kind = "synthetic .ncu-rep" if report.name.startswith("synthetic-") else ".ncu-rep"
        compare(kind, report.resolve(), [("read_report", "ncu_report"),
                                               ("read_report_known", "ncu_report_known")],
                args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
