"""Short names that tell the kernels on screen apart, for columns, captions and the comparison.

Every place that names one or two kernels side by side asks `distinct_names` with its own
candidates, shortest first (function names, then file stems or '#index name' labels); when no
candidate tells them apart, the last is lettered '(A)', '(B)' in the order given.
"""

from __future__ import annotations

from collections.abc import Sequence

from viewer.core.model import Kernel


def distinct_names(*candidates: Sequence[str]) -> list[str]:
    """The first candidate list whose names all differ, else the last one lettered."""
    if not candidates:
        raise ValueError("distinct_names needs at least one list of names")
    for names in candidates:
        if len(set(names)) == len(names):
            return list(names)
    return [f"{name} ({chr(ord('A') + i)})" for i, name in enumerate(candidates[-1])]


def kernel_names(kernels: Sequence[Kernel]) -> list[str]:
    """Function names, else '#index name' labels, else labels lettered (A), (B)."""
    return distinct_names([k.name for k in kernels], [k.label for k in kernels])
