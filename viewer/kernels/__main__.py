"""python -m viewer.kernels: check, time, print the ncu command, or be the program it profiles.

  check [--dim N ...]            correctness of both kernels (numba's CUDA simulator too: at size
                                 32 there by default, seconds, where 512 would take over an hour)
  time --dim N [--json]          the timing run (needs a GPU)
  time --dim N,N,... [--json]    the timing run at each size of a list (at most 8, 16..8192 in
                                 steps of 16), a table of each kernel's median and spread
  ncu-command --kernel K --dim N the capture command for kernel K's first timed launch, into a
                                 new report (a fresh name, or --report; never over a file)
  profile-target --kernel K --dim N
                                 the runner's launch order for one kernel, for ncu to profile
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from viewer.core import dependencies
from viewer.core.jobs import Job
from viewer.core.terminal_text import visible

if TYPE_CHECKING:
    from viewer.kernels.runner import TimingResult

PROG = "python -m viewer.kernels"
CHECK_DIM = 512
"""check's size on a GPU: the lesson's."""
SIMULATOR_CHECK_DIM = 32
"""check's size on numba's CUDA simulator: two tiles a side, a few seconds."""
SIMULATOR_S_PER_CUBED_DIM = 3.6e-5
"""The simulator's time for both kernels, per N³ (a 2-core machine: size 64 in 10 s, 512 in
80 minutes): one Python thread per output element, each looping over N."""
SIMULATOR_WARN_S = 60.0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    kernels = ("naive", "tiled")

    p = sub.add_parser("check", help="check both kernels against a float64 CPU reference")
    p.add_argument("--dim", type=int, nargs="+", default=None, metavar="N",
                   help=f"sizes (default {CHECK_DIM} on a GPU, {SIMULATOR_CHECK_DIM} on numba's "
                        "CUDA simulator)")

    p = sub.add_parser("time", help="time both kernels through the lesson's launch order")
    p.add_argument("--dim", default="512", metavar="N[,N...]",
                   help="a size, or a list of sizes (at most 8, each 16 to 8192 in steps of 16) "
                        "timed one after another into one table")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")

    p = sub.add_parser("ncu-command", help="print the capture command for one kernel")
    p.add_argument("--kernel", choices=kernels, required=True)
    p.add_argument("--dim", type=int, default=512, metavar="N")
    p.add_argument("--report", default=None,
                   help="report path, refused when it exists (default: KERNEL-DIM-YYYYmmdd-HHMMSS "
                        "in the current directory)")
    p.add_argument("--python", default="python3", help="the Python that runs the kernels")

    p = sub.add_parser("profile-target", help="run one kernel's launch order (for ncu)")
    p.add_argument("--kernel", choices=kernels, required=True)
    p.add_argument("--dim", type=int, default=512, metavar="N")
    return parser


def _fail(command: str, message: str, code: int = 1) -> int:
    print(visible(f"{PROG} {command}: {message}"), file=sys.stderr)
    return code


def _no_device_message() -> str | None:
    from numba import config, cuda

    if config.ENABLE_CUDASIM or cuda.is_available():
        return None
    python = shlex.quote(sys.executable)
    return (f"no CUDA GPU found; `NUMBA_ENABLE_CUDASIM=1 {python} -m viewer.kernels check` "
            f"checks the kernels on numba's CUDA simulator instead (size {SIMULATOR_CHECK_DIM}, "
            "a few seconds)")


def simulator_seconds(dims: list[int]) -> float:
    """About how long check takes at these sizes on numba's CUDA simulator."""
    return sum(SIMULATOR_S_PER_CUBED_DIM * dim**3 for dim in dims)


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} seconds"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:.0f} hours ({seconds / 60:.0f} minutes)"


def _check(dims: list[int] | None) -> int:
    """check at `dims`, or with none named at the size for where it runs (a GPU or the
    simulator, which says the size it picked)."""
    from numba import config

    from viewer.kernels.runner import check

    missing = _no_device_message()
    if missing:
        return _fail("check", missing)
    simulated = bool(config.ENABLE_CUDASIM)
    if dims is None:
        dims = [SIMULATOR_CHECK_DIM if simulated else CHECK_DIM]
        if simulated:
            print(f"numba's CUDA simulator: checking at size {SIMULATOR_CHECK_DIM} "
                  f"({CHECK_DIM} on a GPU; --dim N for another)", flush=True)
    elif simulated and simulator_seconds(dims) > SIMULATOR_WARN_S:
        sizes = " ".join(str(d) for d in dims)
        print(visible(f"{PROG} check: on numba's CUDA simulator --dim {sizes} takes about "
                      f"{_duration(simulator_seconds(dims))} (with no --dim it checks at size "
                      f"{SIMULATOR_CHECK_DIM}, in seconds)"), file=sys.stderr, flush=True)
    ok = True
    for dim in dims:
        for result in check(dim, Job()):
            verdict = "ok" if result.passed else "FAILED"
            ok &= result.passed
            print(
                f"{result.kernel:<6} {dim:>6}  relative error {result.relative_error:.2e}"
                f"  {verdict}"
            )
    return 0 if ok else 1


def _print_timing(result: TimingResult) -> None:
    print(
        f"{result.device}, {result.dim} x {result.dim} x {result.dim} float32. Per launch: GPU "
        f"time between two events around one launch (median of its timed launches)"
    )
    print(
        f"{'kernel':<7}{'median ms':>11}{'min ms':>10}{'max ms':>10}{'GFLOP/s':>10}"
        f"{'dispatch ms':>13}{'rel. error':>12}  check"
    )
    for k in result.kernels:
        verdict = "ok" if k.passed else "FAILED"
        if not all(k.queued):
            verdict += f" ({k.queued.count(False)} launch(es) not queued behind the hold)"
        print(
            f"{k.kernel:<7}{k.median_ms:>11.4f}{min(k.launches_ms):>10.4f}"
            f"{max(k.launches_ms):>10.4f}{k.gflops():>10.1f}{k.median_dispatch_ms:>13.4f}"
            f"{k.relative_error:>12.2e}  {verdict}"
        )
    print(f"dispatch overhead (host time of one launch call, median): {result.dispatch_ms:.4f} ms")


def _timing_dict(result: TimingResult) -> dict[str, Any]:
    """The --json form: asdict(result) with the figures its properties compute."""
    out = asdict(result)
    out["dispatch_ms"] = result.dispatch_ms
    for entry, k in zip(out["kernels"], result.kernels, strict=True):
        entry["median_ms"] = k.median_ms
        entry["median_dispatch_ms"] = k.median_dispatch_ms
        entry["gflops"] = k.gflops()
        entry["passed"] = k.passed
    return out


def _time(dim: int, as_json: bool) -> int:
    from viewer.kernels.runner import GpuUnavailable, time_kernels

    try:
        result = time_kernels(dim, Job())
    except (GpuUnavailable, ValueError) as exc:
        return _fail("time", str(exc))
    if as_json:
        print(json.dumps(_timing_dict(result), indent=2))
    else:
        _print_timing(result)
    return 0 if all(k.passed for k in result.kernels) else 1


def _time_list(text: str, as_json: bool) -> int:
    """time --dim LIST: each size in turn, one table (or one JSON object)."""
    from viewer.kernels.runner import GpuUnavailable
    from viewer.kernels.sizes import as_dict, parse_sizes, time_sizes
    from viewer.kernels.sizes_table import table_lines

    try:
        dims = parse_sizes(text)
    except ValueError as exc:
        return _fail("time", str(exc), 2)
    try:
        result = time_sizes(dims, Job())
    except GpuUnavailable as exc:
        return _fail("time", str(exc))
    if as_json:
        print(json.dumps(as_dict(result), indent=2))
    else:
        print("\n".join(table_lines(result)))
    return 0 if result.passed else 1


def _profile_target(kernel: str, dim: int) -> int:
    from viewer.kernels.runner import GpuUnavailable, require_gpu, run_launch_order

    try:
        require_gpu()
        timing = run_launch_order(kernel, dim, Job())
    except (GpuUnavailable, ValueError) as exc:
        return _fail("profile-target", str(exc))
    verdict = "ok" if timing.passed else "FAILED"
    print(f"{kernel} at {dim}: relative error {timing.relative_error:.2e} {verdict}")
    return 0 if timing.passed else 1


def _ncu_command(kernel: str, dim: int, report: str | None, python: str) -> int:
    from viewer.kernels.ncu_command import default_report, ncu_command_line, report_file

    report = report if report is not None else default_report(kernel, dim)
    existing = report_file(report)
    if existing.exists():
        return _fail("ncu-command", f"{existing} exists; name a new report with --report "
                                    "(the command never writes over one)")
    print(ncu_command_line(kernel, dim, report, python=python))
    return 0


def main(argv: list[str] | None = None) -> int:
    """The command line; run by a Python that lacks numba or numpy, one line on what to install."""
    return dependencies.run_or_say_missing(_main, argv, dependencies.KERNEL_NEEDS)


def _main(argv: list[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "ncu-command":
        return _ncu_command(args.kernel, args.dim, args.report, args.python)
    if args.command == "time" and not (args.dim.isascii() and args.dim.isdigit()):
        return _time_list(args.dim, args.json)
    if args.command == "time":
        args.dim = int(args.dim)
    dims = [args.dim] if isinstance(args.dim, int) else args.dim or []
    bad = [d for d in dims if d < 1]
    if bad:
        return _fail(args.command, f"size must be a positive integer, got {bad[0]}", 2)
    if args.command == "check":
        return _check(args.dim)
    if args.command == "time":
        return _time(args.dim, args.json)
    return _profile_target(args.kernel, args.dim)


if __name__ == "__main__":
    sys.exit(main())
