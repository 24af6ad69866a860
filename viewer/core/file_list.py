"""The files a command names, each read once.

`python -m viewer naive.ncu-rep naive.ncu-rep` would otherwise open one report as two and compare
a kernel with itself ('equal' on every row). A file named again, by the same path, another
spelling of it, a link to it or a hard link (the same device and inode), is dropped with one line
saying so; a path that is not there is compared by its resolved spelling, left for the reader to
refuse once. `once` keeps the first of each and says the others on stderr.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO, TypeVar

from viewer.core.terminal_text import visible

P = TypeVar("P", str, Path)


def _identity(path: str | Path) -> tuple[object, ...]:
    """What makes two names one file: its device and inode, else (not there) its real path."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return ("path", os.path.realpath(path))
    return ("file", st.st_dev, st.st_ino)


def named_once(paths: Sequence[P]) -> tuple[list[P], list[str]]:
    """`paths` in order without those naming a file named before, and one line for each file
    named more than once ('profiles/naive.ncu-rep named twice: read once', with the other
    spellings where they differ: '(also as ./profiles/naive.ncu-rep)')."""
    kept: list[P] = []
    names: dict[tuple[object, ...], list[P]] = {}
    for path in paths:
        named = names.setdefault(_identity(path), [])
        if not named:
            kept.append(path)
        named.append(path)
    said = []
    for first, *again in names.values():
        if again:
            times = "twice" if len(again) == 1 else f"{len(again) + 1} times"
            others = list(dict.fromkeys(str(p) for p in again if str(p) != str(first)))
            also = f" (also as {', '.join(others)})" if others else ""
            said.append(f"{first} named {times}{also}: read once")
    return kept, said


def once(paths: Sequence[P], err: TextIO | None = None) -> list[P]:
    """`paths` with each file once; a line on `err` (stderr) for each named more than once."""
    kept, said = named_once(paths)
    for line in said:
        print(visible(f"note: {line}"), file=err or sys.stderr)
    return kept
