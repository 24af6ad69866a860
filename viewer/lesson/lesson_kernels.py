"""Which kernels are the lesson's naive and tiled matmuls, their size, and the values the lesson
reads that a report may hold in more than one way.

A kernel is the lesson's when its name says so and nothing is guessed: the app's own numba
kernels (matmul_naive, matmul_tiled; their size follows from the launch, one thread per output,
viewer.analysis.reading.problem_dim) and a published reference's kernels (naive, tiled; their size
is in the reference's provenance). Any other kernel is not the lesson's, and `find_pair` says so.
"""

from __future__ import annotations

from collections.abc import Sequence

from viewer.analysis import launch_size
from viewer.core.metrics import SUMMARY_METRICS
from viewer.core.model import Kernel
from viewer.readers.reference_toml import PublishedKernel

ROLES = ("naive", "tiled")
APP_KERNELS = {"matmul_naive": "naive", "matmul_tiled": "tiled"}
DRAM_BYTES = "dram__bytes.sum"
DRAM_READ = SUMMARY_METRICS["dram_bytes_read"]
DRAM_WRITE = SUMMARY_METRICS["dram_bytes_write"]


class NotTheLesson(ValueError):
    """Kernels that are not the lesson's naive and tiled matmuls; str() says which and why."""


def role(kernel: Kernel) -> str | None:
    """'naive' or 'tiled' for the lesson's kernels, else None."""
    if isinstance(kernel, PublishedKernel):
        return kernel.name if kernel.name in ROLES else None
    return APP_KERNELS.get(kernel.name)


def lesson_dim(kernel: Kernel) -> int | None:
    """The square matmul size of one of the lesson's kernels, None when it is not known."""
    return launch_size.size(kernel).dim


def lesson_tile(kernel: Kernel) -> int | None:
    """The tile of one of the lesson's kernels: its square block's side, else None."""
    if isinstance(kernel, PublishedKernel) and kernel.published is not None:
        return kernel.published.tile
    block = kernel.block
    if role(kernel) is None or block is None or block[0] != block[1] or block[2] != 1:
        return None
    return block[0]


def find_pair(kernels: Sequence[Kernel]) -> tuple[Kernel, Kernel]:
    """The one naive and the one tiled kernel among `kernels`; NotTheLesson saying plainly what
    is there when it is not exactly one of each."""
    found: dict[str, list[Kernel]] = {r: [] for r in ROLES}
    for kernel in kernels:
        r = role(kernel)
        if r is not None:
            found[r].append(kernel)
    if all(len(found[r]) == 1 for r in ROLES):
        return found["naive"][0], found["tiled"][0]
    names = ", ".join(sorted({k.name for k in kernels})) or "no kernel"
    lacking = [r for r in ROLES if not found[r]]
    several = [r for r in ROLES if len(found[r]) > 1]
    if lacking:
        why = (f"no {' and no '.join(lacking)} matmul of the lesson among them (the lesson's "
               f"kernels are the app's {' and '.join(APP_KERNELS)} and a published reference's "
               f"{' and '.join(ROLES)}; these hold {names})")
    else:
        why = (f"more than one {' and '.join(several)} kernel ({len(kernels)} kernels): name "
               "files that hold one launch of each")
    raise NotTheLesson(f"these are not the lesson's two kernels: {why}")


def dram_metric(kernel: Kernel) -> str:
    """The metric the kernel's DRAM traffic is read from: dram__bytes.sum where the report holds
    it, else dram__bytes_read.sum (written bytes are added to it)."""
    return DRAM_BYTES if kernel.metric(DRAM_BYTES) is not None else DRAM_READ


def dram_bytes(kernel: Kernel) -> float | None:
    """Bytes read and written at DRAM: dram__bytes.sum, else read plus written; None when the
    report holds neither."""
    total = kernel.metric(DRAM_BYTES)
    if total is not None:
        return total
    read, written = kernel.metric(DRAM_READ), kernel.metric(DRAM_WRITE)
    if read is None or written is None:
        return None
    return read + written


def spread(kernel: Kernel, metric: str) -> float:
    """How far the true value of `metric` may sit from the one the kernel holds: half a printed
    unit for a published reference, 0 for a report (its values are as measured)."""
    if isinstance(kernel, PublishedKernel):
        return kernel.spread.get(metric, 0.0)
    return 0.0
