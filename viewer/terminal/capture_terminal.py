"""`python -m viewer capture`: one report per kernel and size from a terminal, all in one run of
the helper (one password), through the app's route.

`--check` prints the check-up (viewer.capture.checkup) and captures nothing. Otherwise it prints
the route and progress on stderr (for a list of sizes, one line per size), each saved report's
path on stdout; a refused request (a list too long, a size out of range) or a failure (a helper's
refusal, a captures folder that cannot be made or written, a full disk) is one line on stderr and a
non-zero exit (2 for a refused request, 1 when there is no route here).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from viewer.capture.checkup import Finding, checkup, checkup_lines
from viewer.capture.client import (
    CaptureError,
    PartlyKept,
    Request,
    RequestError,
    Route,
    Step,
    cancelled,
    choose_route,
    run_sweep,
)
from viewer.capture.helper import protocol as h
from viewer.capture.store import ReportSink, SinkError, capture_stem, open_captures
from viewer.core.jobs import Job
from viewer.core.terminal_text import visible

DESCRIPTION = ("Capture the app's own matmul kernel(s) with Nsight Compute on this GPU; "
               "the reports go to the captures folder (XDG data home, ncu-reader/captures).")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m viewer capture", description=DESCRIPTION)
    add_arguments(p)
    return p


def add_arguments(p: argparse.ArgumentParser) -> None:
    """capture's options, for this module's parser and viewer/cli.py's command tree."""
    p.add_argument("--target", choices=(*h.TARGETS, "both"), default="both",
                   help="which kernel (both: one report each)")
    p.add_argument("--dim", default="512", metavar="N[,N...]",
                   help=f"matrix size, {h.DIM_MIN}..{h.DIM_MAX}, a multiple of {h.TILE}; or a "
                        f"list of up to {h.MAX_DIMS} (256,512,1024), all captured in one run "
                        "(one password)")
    p.add_argument("--set", choices=h.SETS, default="full", help="ncu's section set")
    p.add_argument("--clock", choices=h.CLOCKS, default="base",
                   help="ncu's clock control (base locks clocks so captures compare)")
    p.add_argument("--check", action="store_true",
                   help="capture nothing: say what this machine has for a capture (ncu, the "
                        "driver's setting, the helper, pkexec, an authentication agent) and "
                        "what to do about each")


def cli(argv: Sequence[str], out: TextIO | None = None, err: TextIO | None = None,
        route_fn: Callable[[], Route] = choose_route,
        run_checkup: Callable[[], list[Finding]] = checkup) -> int:
    """Parse and run the capture command; returns the exit status."""
    try:
        args = parser().parse_args(list(argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    return run(args, out, err, route_fn, run_checkup)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None,
        route_fn: Callable[[], Route] = choose_route,
        run_checkup: Callable[[], list[Finding]] = checkup) -> int:
    """Run the capture command on parsed options; returns the exit status. `run_checkup` is
    the check-up `--check` prints (a test's own machine in the tests)."""
    out = out or sys.stdout
    err = err or sys.stderr
    if args.check:
        return check(out, run_checkup)
    request = Request(args.target, args.dim, args.set, args.clock)
    try:
        reports = request.reports()
    except RequestError as exc:
        print(visible(f"capture: {exc}"), file=err)
        return 2
    route = route_fn()
    if route.kind == "none":
        print(visible(f"capture: {route.reason}"), file=err)
        return 1
    print(visible(f"capture: route {route.kind}: {route.reason}"), file=err)
    try:
        sink = ReportSink(open_captures(), capture_stem(args.target, args.dim, args.set),
                          cap=h.MAX_REPORT_BYTES * len(reports))
    except SinkError as exc:
        print(visible(f"capture: {exc}"), file=err)
        return 1
    said = Said(err, reports)
    try:
        paths = run_sweep(route, request, sink, Job(said.progress), said.step)
    except KeyboardInterrupt:
        print("capture: interrupted; nothing was saved.", file=err)
        return 130
    except CaptureError as exc:
        print(visible(f"capture: {exc}"), file=err)
        kept = exc.kept if isinstance(exc, PartlyKept) else []
        if kept:
            print(f"capture: kept the {len(kept)} of {len(reports)} reports that arrived whole:",
                  file=err)
            for item in kept:
                print(visible(str(item.path)), file=out, flush=True)
        return 130 if cancelled(exc) else 1
    for path in paths:
        print(visible(str(path)), file=out, flush=True)
    return 0


class Said:
    """The progress a run prints on stderr: for one size, each of ncu's steps, named by the
    kernel they belong to; for a list of sizes, one line as each size starts."""

    def __init__(self, err: TextIO, reports: Sequence[Request]) -> None:
        self.err = err
        self.dims = list(dict.fromkeys(int(r.dim) for r in reports))
        self.targets = list(dict.fromkeys(r.target for r in reports))
        self.target = self.targets[0]

    def step(self, step: Step) -> None:
        self.target = step.target
        if len(self.dims) > 1 and step.target == self.targets[0] and step.dim in self.dims:
            print(visible(f"  size {step.dim} ({self.dims.index(step.dim) + 1} of "
                          f"{len(self.dims)}): {' and '.join(self.targets)}"),
                  file=self.err, flush=True)

    def progress(self, fraction: float, message: str) -> None:
        if len(self.dims) == 1:
            print(visible(f"  {self.target}: {message}"), file=self.err, flush=True)


def check(out: TextIO, run_checkup: Callable[[], list[Finding]] = checkup) -> int:
    """`capture --check`: the check-up's findings; exit 0 when every one is fine, else 1."""
    findings = run_checkup()
    for line in checkup_lines(findings):
        print(visible(line), file=out)
    return 0 if all(f.ok for f in findings) else 1
