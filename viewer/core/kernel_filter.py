"""Picking kernels by name as ncu's `-k/--kernel-name` does: `regex:<expression>` searches the
name, anything else must equal it.

A kernel's name is its function name ('matmul_naive', 'gemm'); its whole demangled name
('void gemm<float>(float *, int)') is tried too, so a name pasted from ncu's output picks it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from viewer.core.model import Kernel

REGEX = "regex:"


def matcher(spec: str) -> Callable[[Kernel], bool]:
    """A test for kernels `spec` picks; ValueError for a regular expression that does not
    compile."""
    if spec.startswith(REGEX):
        try:
            pattern = re.compile(spec[len(REGEX):])
        except re.error as exc:
            raise ValueError(f"bad regular expression {spec[len(REGEX):]!r}: {exc}") from None
        return lambda k: bool(pattern.search(k.name) or pattern.search(k.display_name))
    return lambda k: spec in (k.name, k.display_name)


def select(kernels: Iterable[Kernel], spec: str | None) -> list[Kernel]:
    """The kernels `spec` picks, in their order (all of them when `spec` is None)."""
    if spec is None:
        return list(kernels)
    picks = matcher(spec)
    return [k for k in kernels if picks(k)]
