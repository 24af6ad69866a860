"""The Nsight Compute command that captures one kernel's first timed launch.

The launch to capture is computed from the runner's own launch order, so documentation and code
cannot disagree about it: ncu's --launch-skip counts only the launches that match the kernel
filter, so with one kernel named per capture the skipped launches are that kernel's own
correctness and warm-up launches, and --launch-count 1 takes the first timed one.

The command never overwrites: it has no -f (ncu then refuses an existing report), the default
report is a fresh name, and `python -m viewer.kernels ncu-command` refuses a --report that exists.
"""

from __future__ import annotations

import shlex
from datetime import datetime
from pathlib import Path

from viewer.core.terminal_text import visible
from viewer.kernels import runner
from viewer.kernels.matmul import KERNEL_FUNCTIONS

LESSON_METRICS: tuple[str, ...] = (
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
)
"""The lesson's four counters: load requests, the sectors they pulled, DRAM bytes each way."""

CLOCK_CONTROL = "none"
"""Leave the GPU's clocks as they are: the capture must not change the card's settings."""


REPORT_SUFFIX = ".ncu-rep"
"""What ncu adds to an -o name that lacks it."""


def default_report(kernel: str, dim: int, now: datetime | None = None) -> str:
    """A report name of its own in the current directory: KERNEL-DIM-YYYYmmdd-HHMMSS."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    return f"{kernel}-{dim}-{stamp}"


def report_file(report: str | Path) -> Path:
    """The file ncu writes for `-o report`."""
    path = Path(report)
    return path if path.name.endswith(REPORT_SUFFIX) else path.with_name(path.name + REPORT_SUFFIX)


def launch_skip() -> int:
    """Launches of the named kernel before its first timed one, read from the runner."""
    return runner.CORRECTNESS_LAUNCHES + runner.WARMUP_LAUNCHES


def ncu_command(
    kernel: str,
    dim: int,
    report: str | Path,
    *,
    python: str = "python3",
    ncu: str = "ncu",
) -> list[str]:
    """The argv that captures kernel `kernel`'s first timed launch at dim into `report` (a new
    file: without -f, ncu refuses to write over one)."""
    if kernel not in KERNEL_FUNCTIONS:
        known = ", ".join(KERNEL_FUNCTIONS)
        raise ValueError(f"unknown kernel {kernel!r}; the kernels are {known}")
    return [
        ncu,
        "-k", f"regex:{KERNEL_FUNCTIONS[kernel]}",
        "--launch-skip", str(launch_skip()),
        "--launch-count", "1",
        "--set", "full",
        "--import-source", "yes",
        "--metrics", ",".join(LESSON_METRICS),
        "--clock-control", CLOCK_CONTROL,
        "-o", str(report),
        python, "-m", "viewer.kernels", "profile-target",
        "--kernel", kernel,
        "--dim", str(dim),
    ]


def ncu_command_line(kernel: str, dim: int, report: str | Path, **kwargs: str) -> str:
    """ncu_command as one shell-quoted line, safe to print (see shell_word)."""
    return " ".join(shell_word(word) for word in ncu_command(kernel, dim, report, **kwargs))


def shell_word(word: str) -> str:
    """`word` quoted for the shell: shlex.quote's form, or, where it holds a character a
    terminal must not be sent (a control, a bidirectional override: viewer.core.terminal_text),
    bash's `$'...'` with that character escaped, so the printed command stays exact."""
    if visible(word) == word:
        return shlex.quote(word)
    return "$'" + visible(word.replace("\\", "\\\\").replace("'", "\\'")) + "'"
