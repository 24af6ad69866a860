"""Nsight Compute's own CLI and the viewer side by side, on the GPU machine (issue 28).

For each report, best of `--repeat` runs of each, interleaved (every round runs each column once):
`ncu --import F --page details --csv`, `ncu --import F --page raw --csv`, the viewer's
`summary F` read cold (--no-cache), `summary F` opened again (answered from the read cache, in a
private XDG_CACHE_HOME filled once before the rounds), `metrics F --json` (--no-cache), the
protective child's fixed cost (`python -S`, its module and ncu_report imported), and bare
in-process ncu_report loads of the metrics `summary` reads and of every metric
(benchmarks/bench_summary.py's `ncu_report_known` and `ncu_report_all` variants, imports
included). Wall seconds of each process; peak memory is the ru_maxrss os.wait4 gives for the
process, the largest of it and the children it waited for (the viewer's reader child), so
`summary` reads against the bare load's process. Without ncu, the ratios are against the bare
loads instead (`make bench` runs it so).

    python3 benchmarks/bench_vs_ncu.py [--many PATH] [--python PY] [--baseline ROOT]
                                       [--repeat 3] [--json OUT]

The reports: the shipped pair (profiles/), the corpus's one-kernel CUDA C++ and numba captures,
and the many-kernel report `--many` names (benchmarks/device_torch.sh makes a 400-kernel PyTorch
one). `--baseline ROOT`: another checkout's viewer (its folder holding `viewer/`) measured in
the same rounds, for the figures before a change. The viewer and the bare load run with the
python `--python` names (default: this one); ncu's own ncu_report (its extras/python) is put on
their PYTHONPATH. Where ncu is missing it says so in one line and measures the viewer's columns.
Prints a markdown table and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ("profiles/naive.ncu-rep", "profiles/tiled.ncu-rep",
           "tests/data/corpus/h200/numba-naive.ncu-rep",
           "tests/data/corpus/h200/workloads-kernels-and-graph.ncu-rep")
NCU_COLUMNS = ("ncu_details", "ncu_raw")
TIMEOUT_S = 300.0
NSIGHT_COMPUTE = "/opt/nvidia/nsight-compute"


@dataclass
class Run:
    """One process's wall seconds, peak resident KiB and exit status."""

    seconds: float
    peak_kib: int
    status: int


@dataclass
class Column:
    """One column of the table: how it runs, and its runs."""

    name: str
    argv: list[str]
    env: dict[str, str]
    cwd: Path
    runs: list[Run] = field(default_factory=list)

    def best(self) -> Run | None:
        good = [r for r in self.runs if r.status == 0]
        return min(good, key=lambda r: r.seconds) if good else None


def timed(argv: list[str], env: dict[str, str], cwd: Path) -> Run:
    """Run `argv` (output thrown away), measured by os.wait4."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as null, tempfile.TemporaryFile() as errors:
        proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=null,
                                stderr=errors)
        deadline = start + TIMEOUT_S
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                _, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.002)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            errors.seek(0)
            said = errors.read().decode("utf-8", "replace").strip().splitlines()[-1:]
            print(f"    exit {proc.returncode}: {' '.join(argv[:4])}...: {''.join(said)[:300]}")
    return Run(seconds, usage.ru_maxrss, proc.returncode)


def ncu_report_folder(ncu: str) -> str:
    """ncu's own extras/python, which holds its ncu_report package ('' where there is none):
    beside the ncu found (the command on PATH may be a link or a wrapper), else that of the
    newest Nsight Compute under /opt/nvidia/nsight-compute."""
    here = Path(ncu).resolve().parent
    candidates = [here / "extras" / "python", here.parent / "extras" / "python",
                  *sorted(Path(NSIGHT_COMPUTE).glob("*/extras/python"), reverse=True)]
    for candidate in candidates:
        if (candidate / "ncu_report").is_dir() or (candidate / "ncu_report.py").is_file():
            return str(candidate)
    return ""


def environment(package_root: Path, extras: str, cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(package_root), env.get("PYTHONPATH", ""), extras) if p)
    env["XDG_CACHE_HOME"] = str(cache)
    env.pop("NCU_READER_NO_CACHE", None)
    env.pop("QT_QPA_PLATFORM", None)
    return env


def columns(report: Path, python: str, ncu: str | None, roots: dict[str, Path], extras: str,
            cache: Path) -> list[Column]:
    """The columns for one report: ncu's two pages, then each viewer's (`roots`: label ->
    the checkout it runs from), then the bare ncu_report load."""
    plain = dict(os.environ)
    out: list[Column] = []
    if ncu is not None:
        out += [Column("ncu_details", [ncu, "--import", str(report), "--page", "details",
                                       "--csv"], plain, ROOT),
                Column("ncu_raw", [ncu, "--import", str(report), "--page", "raw", "--csv"],
                       plain, ROOT)]
    for label, root in roots.items():
        env = environment(root, extras, cache / label)
        viewer = [python, "-m", "viewer"]
        suffix = "" if label == "new" else f"_{label}"
        out += [Column(f"summary_cold{suffix}", [*viewer, "summary", str(report), "--no-cache"],
                       env, root),
                Column(f"metrics_json{suffix}", [*viewer, "metrics", str(report), "--json",
                                                 "--no-cache"], env, root)]
        if label == "new":
            out.append(Column("summary_cached", [*viewer, "summary", str(report)], env, root))
    env = environment(ROOT, extras, cache / "bare")
    # the protective child's fixed cost: its interpreter (-S, as it runs), its module, ncu_report
    child_env = {**env, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), extras or found_ncu_report(python, env)) if p)}
    out.append(Column("child_fixed", [python, "-S", "-c",
                                      "import viewer.readers.ncu_rep_child, ncu_report"],
                      child_env, ROOT))
    out.append(Column("bare_ncu_report", [python, str(ROOT / "benchmarks" / "bench_summary.py"),
                                          "--variant", "ncu_report_known", str(report)],
                      env, ROOT))
    out.append(Column("bare_all", [python, str(ROOT / "benchmarks" / "bench_summary.py"),
                                   "--variant", "ncu_report_all", str(report)], env, ROOT))
    return out


def found_ncu_report(python: str, env: dict[str, str]) -> str:
    """The folder that holds the ncu_report package `python` imports ('' where none)."""
    done = subprocess.run([python, "-c", "import importlib.util, os; s = importlib.util."
                           "find_spec('ncu_report'); print(os.path.dirname(os.path.dirname("
                           "s.origin)) if s and s.origin else '')"], capture_output=True,
                          text=True, env=env, check=False)
    return done.stdout.strip()


def measure(report: Path, cols: list[Column], repeat: int) -> None:
    """Prime the cache, then `repeat` rounds of every column in turn."""
    for col in cols:
        if col.name == "summary_cached":
            timed(col.argv, col.env, col.cwd)
    for _ in range(repeat):
        for col in cols:
            col.runs.append(timed(col.argv, col.env, col.cwd))
        print(f"  {report.name}: " + ", ".join(
            f"{c.name} {c.runs[-1].seconds:.2f}" + ("" if c.runs[-1].status == 0 else
                                                    f" (exit {c.runs[-1].status})")
            for c in cols), flush=True)


def figures(cols: list[Column]) -> dict[str, dict[str, float | int | None]]:
    found: dict[str, dict[str, float | int | None]] = {}
    for col in cols:
        best = col.best()
        peak = min((r.peak_kib for r in col.runs if r.status == 0), default=None)
        found[col.name] = {"seconds": None if best is None else round(best.seconds, 4),
                           "peak_mib": None if peak is None else round(peak / 1024, 1),
                           "runs": [round(r.seconds, 4) for r in col.runs],
                           "failed": sum(r.status != 0 for r in col.runs)}
    return found


def _cell(found: dict[str, dict[str, float | int | None]], name: str, against: str | None
          ) -> str:
    value = found.get(name, {}).get("seconds")
    if not isinstance(value, float):
        return "—"
    base = found.get(against or "", {}).get("seconds")
    ratio = f" ({value / base:.2f}x)" if isinstance(base, float) and base > 0 else ""
    return f"{value:.2f} s{ratio}"


def table(results: list[dict[str, object]], before: bool, ncu: bool) -> str:
    """The markdown table: ratios against ncu's pages, or (no ncu) against the bare loads."""
    details, raw = ("details", "raw") if ncu else ("bare", "bare all")
    heads = ["file", "kernels", "ncu details csv", "ncu raw csv", f"summary cold (x {details})",
             f"summary cached (x {details})", f"metrics --json (x {raw})"]
    if before:
        heads[4:4] = [f"summary cold, before (x {details})"]
        heads.append(f"metrics --json, before (x {raw})")
    heads += ["child's fixed cost", "bare ncu_report load (summary's metrics)",
              "bare load, every metric", "peak MiB: summary / bare (ratio)"]
    to_details, to_raw = ("ncu_details", "ncu_raw") if ncu else ("bare_ncu_report", "bare_all")
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    for result in results:
        found = result["figures"]
        assert isinstance(found, dict)
        cells = [str(result["file"]), str(result.get("kernels") or "?"),
                 _cell(found, "ncu_details", None), _cell(found, "ncu_raw", None)]
        if before:
            cells.append(_cell(found, "summary_cold_before", to_details))
        cells += [_cell(found, "summary_cold", to_details),
                  _cell(found, "summary_cached", to_details),
                  _cell(found, "metrics_json", to_raw)]
        if before:
            cells.append(_cell(found, "metrics_json_before", to_raw))
        cells += [_cell(found, name, None) for name in ("child_fixed", "bare_ncu_report",
                                                          "bare_all")]
        mine = found.get("summary_cold", {}).get("peak_mib")
        bare = found.get("bare_ncu_report", {}).get("peak_mib")
        cells.append(f"{mine:,.0f} / {bare:,.0f} ({mine / bare:.2f}x)"
                     if isinstance(mine, float) and isinstance(bare, float) and bare else "—")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def kernel_count(report: Path, python: str, env: dict[str, str]) -> int | None:
    done = subprocess.run([python, "-m", "viewer", "summary", str(report), "--json",
                           "--no-cache"], capture_output=True, text=True, env=env, cwd=ROOT,
                          check=False)
    try:
        return len(json.loads(done.stdout.splitlines()[0])["kernels"])
    except (ValueError, IndexError, KeyError, TypeError):
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--many", type=Path, help="a many-kernel report to add")
    parser.add_argument("--python", default=sys.executable, help="the viewer's interpreter")
    parser.add_argument("--baseline", type=Path, help="another checkout's viewer, 'before'")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--print-ncu-report", action="store_true",
                        help="print the folder of ncu's ncu_report package and exit")
    parser.add_argument("reports", nargs="*", type=Path, help=f"default: {', '.join(REPORTS)}")
    args = parser.parse_args(argv)
    reports = [*(args.reports or [ROOT / r for r in REPORTS])]
    if args.many is not None:
        reports.append(args.many)
    ncu = shutil.which("ncu")
    if args.print_ncu_report:
        print(ncu_report_folder(ncu) if ncu else "")
        return 0
    if ncu is None:
        print("ncu is not on PATH: its columns are left out, the viewer's measured alone")
    extras = ncu_report_folder(ncu) if ncu else ""
    version = subprocess.run([ncu, "--version"], capture_output=True, text=True,
                             check=False).stdout.strip().splitlines()[-1:] if ncu else []
    roots = {"new": ROOT, **({"before": args.baseline.resolve()} if args.baseline else {})}
    results: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="bench-vs-ncu-") as cache:
        for report in reports:
            cols = columns(report.resolve(), args.python, ncu, roots, extras, Path(cache))
            kernels = kernel_count(report.resolve(), args.python, cols[-1].env)
            measure(report, cols, args.repeat)
            results.append({"file": report.name, "bytes": report.stat().st_size,
                            "kernels": kernels, "figures": figures(cols)})
    print()
    print(f"ncu: {version[0] if version else 'not found'}; python: {args.python}; best of"
          f" {args.repeat}, interleaved; ratios against the column named in the heading")
    print(table(results, args.baseline is not None, ncu is not None))
    if args.json:
        args.json.write_text(json.dumps({"ncu": version[0] if version else None,
                                         "python": args.python, "repeat": args.repeat,
                                         "results": results}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
