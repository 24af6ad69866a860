"""Short names that tell the kernels on screen apart, for columns, captions and the comparison.

Every place that names one or two kernels side by side asks `distinct_names` with its own
candidates, shortest first (function names, then file stems or '#index name' labels); when no
candidate tells them apart, the last is lettered '(A)', '(B)' in the order given. Files are
named by `distinct_paths`: their names, or as much of their paths as tells them apart.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

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


def distinct_paths(sources: Sequence[str | Path]) -> list[str]:
    """The shortest ends of the files' paths that tell different files apart: their names where
    those differ ('naive.ncu-rep'), else with as many folders above as it takes
    ('profiles/naive.ncu-rep' against 'old/naive.ncu-rep'); one path named twice, one text."""
    whole = [Path(os.path.abspath(source)).parts for source in sources]
    files = set(whole)
    for depth in range(1, max(map(len, whole), default=0) + 1):
        ends = {parts: os.path.join(*parts[-depth:]) for parts in files}
        if len(set(ends.values())) == len(files):
            return [ends[parts] for parts in whole]
    return [os.path.join(*parts) for parts in whole]  # not reached: whole paths differ
