"""How large a kernel's launch is, in words: N for the lesson's square matmuls (the app's own, one
thread per output, and a published table's), else the threads it launched (grid x block); and
the launch as a tab's heading names it (`launch_text`: grid, block, device).

Request, sector and byte counts and durations grow with the size (with N for the matmuls, with the
work given for any launch), so a comparison of two kernels of different sizes names both
(`size_words`): a ratio between them is not the kernels' alone.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from viewer.analysis.reading import problem_dim
from viewer.core import formatting as fmt
from viewer.core.model import Kernel
from viewer.readers.reference_toml import PublishedKernel


@dataclass(frozen=True)
class Size:
    """A launch's size: `dim` (N of N x N x N) for the lesson's matmuls, `threads` grid x
    block; None where the report does not say."""

    dim: int | None
    threads: int | None
    grid: tuple[int, int, int] | None = None
    block: tuple[int, int, int] | None = None

    @property
    def text(self) -> str:
        """'at N = 512 (262,144 threads: grid 32x32x1 of 16x16x1 blocks)', 'with 4,096 threads
        (grid 16x1x1 of 256x1x1 blocks)', or that the report does not say."""
        if self.threads is None or self.grid is None or self.block is None:
            return f"at N = {self.dim}" if self.dim is not None else "of a size the report lacks"
        shape = f"grid {_dims(self.grid)} of {_dims(self.block)} blocks"
        threads = f"{fmt.count(self.threads)} threads"
        if self.dim is not None:
            return f"at N = {self.dim} ({threads}: {shape})"
        return f"with {threads} ({shape})"


def _dims(dims: tuple[int, int, int]) -> str:
    return "x".join(str(d) for d in dims)


def launch_text(kernel: Kernel) -> str:
    """'grid 32x32x1, block 16x16x1, NVIDIA H200 (CC 9.0)', leaving out what the report lacks."""
    parts = []
    if kernel.grid is not None:
        parts.append("grid " + _dims(kernel.grid))
    if kernel.block is not None:
        parts.append("block " + _dims(kernel.block))
    device = kernel.device_label
    if device or kernel.cc:
        parts.append(" ".join(p for p in (device, f"(CC {kernel.cc})" if kernel.cc else "") if p))
    return ", ".join(parts)


def size(kernel: Kernel) -> Size:
    """The kernel's launch size: N where it is one of the lesson's matmuls, and its threads."""
    if isinstance(kernel, PublishedKernel) and kernel.published is not None:
        dim: int | None = kernel.published.dim
    else:
        dim = problem_dim(kernel)
    grid, block = kernel.grid, kernel.block
    threads = None if grid is None or block is None else math.prod(grid) * math.prod(block)
    return Size(dim, threads, grid, block)


def differ(a: Size, b: Size) -> bool:
    """Both sizes known and not the same: by N where both have one, else by threads."""
    if a.dim is not None and b.dim is not None:
        return a.dim != b.dim
    return a.threads is not None and b.threads is not None and a.threads != b.threads


def size_words(kernels: Sequence[Kernel], names: Sequence[str]) -> str:
    """Where the kernels' sizes differ, each named with its size and what follows; else ''."""
    sizes = [size(k) for k in kernels]
    if not any(differ(a, b) for a, b in itertools.combinations(sizes, 2)):
        return ""
    listed = ", ".join(f"{name} {s.text}" for name, s in zip(names, sizes, strict=True))
    if all(s.dim is not None for s in sizes):
        return (f"Sizes differ: {listed}: request, sector and byte counts and durations grow "
                "with N, so a ratio between them is not the kernels' alone.")
    return (f"Launch sizes differ: {listed}: counts and durations follow the work a launch is "
            "given, so a ratio between them may be the sizes' rather than the kernels'.")
