"""The terminal side: `summary` (the reading order per kernel) and `predict` (the derivation).

`python -m viewer summary FILE... [--json]` prints one JSON object per file (one per line) with
--json, else a readable table of the three readings. Bad input: one line on stderr naming the file,
exit status 1; the other files are still summarised.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

from viewer import formatting as fmt
from viewer import reading
from viewer.model import Kernel, Report, ReportError

SCHEMA = 1
PROFILES = Path(__file__).resolve().parent.parent / "profiles"


def shipped_comparison() -> list[Path]:
    """The naive-vs-tiled reports that ship in profiles/ (what the app opens by default)."""
    return [PROFILES / "naive.ncu-rep", PROFILES / "tiled.ncu-rep"]


def kernel_json(kernel: Kernel) -> dict[str, object]:
    return {
        "index": kernel.index,
        "name": kernel.name,
        "display_name": kernel.display_name,
        "grid": list(kernel.grid) if kernel.grid else None,
        "block": list(kernel.block) if kernel.block else None,
        "device": kernel.device,
        "cc": kernel.cc,
        "metrics": reading.summary(kernel),
    }


def report_json(report: Report) -> dict[str, object]:
    return {
        "schema": SCHEMA,
        "source": report.source,
        "format": report.format,
        "kernels": [kernel_json(k) for k in report.kernels],
    }


def _wrap(text: str, indent: str = "     ") -> str:
    return textwrap.fill(text, width=96, initial_indent=indent, subsequent_indent=indent)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _row(label: str, text: str) -> str:
    return f"     {label:<46}  {text}"


def kernel_text(kernel: Kernel) -> str:
    """The three readings of one kernel, in the lesson's order."""
    grid = "x".join(map(str, kernel.grid)) if kernel.grid else fmt.MISSING
    block = "x".join(map(str, kernel.block)) if kernel.block else fmt.MISSING
    lines = [f"{kernel.label}   grid {grid}  block {block}   device {kernel.device or fmt.MISSING}"
             f"   CC {kernel.cc or fmt.MISSING}"]

    sol = reading.speed_of_light(kernel)
    lines.append(f"  1. Speed Of Light: {sol.verdict or 'no verdict'}")
    lines += [
        _row("Compute (SM) Throughput", fmt.percent(sol.compute_pct)),
        _row("Memory Throughput", fmt.percent(sol.memory_pct)),
        _row("DRAM Throughput", fmt.percent(sol.dram_pct)),
        _row("Duration", fmt.duration(sol.duration_ns)),
    ]
    lines += [_row(f"{u.name} throughput", fmt.percent(u.pct)) for u in sol.units[:2]]
    lines.append(_wrap(sol.explanation))

    chart = reading.memory_chart(kernel)
    lines.append("  2. The memory chart")
    for arrow in chart.arrows:
        label = f"{arrow.source} -> {arrow.target}: {arrow.label}"
        amount = fmt.size(arrow.amount) if arrow.unit == "byte" else fmt.count(arrow.amount)
        lines.append(_row(label, amount + (f"   ({arrow.note})" if arrow.note else "")))
    lines += [
        _row("sectors per request", fmt.MISSING if chart.sectors_per_request is None
             else f"{chart.sectors_per_request:.2f}"),
        _row("L1/TEX Hit Rate", fmt.percent(chart.l1tex_hit_rate_pct)),
        _row("L2 Hit Rate", fmt.percent(chart.l2_hit_rate_pct)),
    ]
    if chart.compulsory_bytes is not None:
        lines.append(_row("DRAM bytes / compulsory floor",
                          f"{fmt.size(chart.dram_bytes)} / {fmt.size(chart.compulsory_bytes)}"
                          f" = {fmt.ratio(chart.times_compulsory)}"))
        lines.append(_wrap(_sentence(chart.floor_note)))

    checks = reading.predictions(kernel)
    if checks:
        lines.append("     The derivation, against the card (derived / measured):")
        for check in checks:
            lines.append(_row("  " + check.label,
                              f"{check.derived_text} / {check.measured_text}"))
        if any(check.fewer_shared_loads for check in checks):
            lines.append(_wrap(reading.SHARED_LOAD_NOTE))

    occ = reading.occupancy(kernel)
    lines.append("  3. Occupancy")
    lines += [
        _row("Theoretical Occupancy", fmt.percent(occ.theoretical_pct)),
        _row("Achieved Occupancy", fmt.percent(occ.achieved_pct)),
    ]
    lines += [_row(lim.name, fmt.count(lim.blocks)) for lim in occ.limits]
    lines.append(_wrap(occ.explanation))
    return "\n".join(lines)


def comparison_text(first: Kernel, second: Kernel) -> str:
    a, b = first.name, second.name
    if a == b:
        a, b = first.label, second.label
    lines = [f"Comparison: {a} against {b}"]
    for diff in reading.compare(first, second):
        lines.append("  " + diff.direction(a, b))
    return "\n".join(lines)


def report_text(report: Report) -> str:
    head = f"{report.source}  ({report.format}, {len(report.kernels)} kernel"
    head += "s)" if len(report.kernels) != 1 else ")"
    return "\n\n".join([head] + [kernel_text(k) for k in report.kernels])


def summarize(paths: Sequence[str | Path], as_json: bool = False, out=None, err=None) -> int:
    """Print the reading order for each file; 0 when every file was read, else 1."""
    from viewer.readers import read_report

    out = out or sys.stdout
    err = err or sys.stderr
    status = 0
    kernels: list[Kernel] = []
    for path in paths:
        try:
            report = read_report(path)
        except ReportError as exc:
            print(f"error: {exc}", file=err)
            status = 1
            continue
        kernels += report.kernels
        if as_json:
            print(json.dumps(report_json(report)), file=out)
        else:
            print(report_text(report) + "\n", file=out)
    if not as_json and len(kernels) == 2:
        print(comparison_text(*kernels), file=out)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "predict":
        from viewer import predict

        return predict.cli(argv[1:])
    if argv and argv[0] == "capture":
        from viewer.capture import terminal

        return terminal.cli(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m viewer summary",
                                     description="Print the lesson's reading order per kernel.")
    parser.add_argument("files", nargs="*", type=Path,
                        help="reports or exports (default: the shipped naive-vs-tiled pair)")
    parser.add_argument("--json", action="store_true", help="one JSON object per file")
    args = parser.parse_args(argv[1:] if argv and argv[0] == "summary" else argv)
    return summarize(args.files or shipped_comparison(), as_json=args.json)


if __name__ == "__main__":
    sys.exit(main())
