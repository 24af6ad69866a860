"""A comparison across sizes names the sizes: two kernels whose N (the lesson's matmuls) or whose
launches (grid x block) differ, each size stated wherever they are compared."""

from __future__ import annotations

import functools
import itertools
import math
import re

from tests.claims.claim import Claim
from viewer.core import formatting as fmt
from viewer.core.model import Kernel
from viewer.lesson import lesson_kernels


def threads(kernel: Kernel) -> int | None:
    """Threads launched: grid times block, as the launch says (None where it does not)."""
    if kernel.grid is None or kernel.block is None:
        return None
    return math.prod(kernel.grid) * math.prod(kernel.block)


def dim(kernel: Kernel) -> int | None:
    """N of the lesson's square matmuls (a published table's, or grid times block)."""
    return lesson_kernels.lesson_dim(kernel)


def sizes_differ(a: Kernel, b: Kernel) -> bool:
    """Both sizes known, and not the same: N of the lesson's matmuls, else the threads."""
    na, nb = dim(a), dim(b)
    if na is not None and nb is not None:
        return na != nb
    ta, tb = threads(a), threads(b)
    return ta is not None and tb is not None and ta != tb


@functools.lru_cache(maxsize=1024)
def _n_is(n: int) -> re.Pattern[str]:
    return re.compile(rf"\bN = {n}\b")


def names_size(text: str, kernel: Kernel) -> bool:
    """Whether `text` states the kernel's size: 'N = 512' for the lesson's matmuls, else (or
    also) its threads, '1,048,576 threads'."""
    n, t = dim(kernel), threads(kernel)
    return (n is not None and _n_is(n).search(text) is not None) or \
        (t is not None and f"{fmt.count(t)} threads" in text)


def size_claims(text: str, kernels: tuple[Kernel, ...]) -> list[Claim]:
    """A comparison of kernels of different sizes names every size."""
    found = []
    for a, b in itertools.combinations(kernels, 2):
        if sizes_differ(a, b):
            named = names_size(text, a) and names_size(text, b)
            found.append(Claim(text[:160], named, f"sizes {dim(a) or threads(a)} and "
                                                  f"{dim(b) or threads(b)} not both named"))
    return found
