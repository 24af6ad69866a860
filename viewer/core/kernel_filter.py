"""Picking kernels by name as ncu's `-k/--kernel-name` does: `regex:<expression>` searches the
name, anything else must equal it (`kernel_spec`: argparse's check of a -k value); and the
window's command line picks (`start_picks`), which the window and its terminal stand-in share.

A kernel's name is its function name ('matmul_naive', 'gemm'); its whole demangled name
('void gemm<float>(float *, int)') is tried too, so a name pasted from ncu's output picks it.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterable, Sequence

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


def kernel_spec(text: str) -> str:
    """argparse's check of a -k value: a regex that compiles, or a name."""
    try:
        matcher(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def select(kernels: Iterable[Kernel], spec: str | None) -> list[Kernel]:
    """The kernels `spec` picks, in their order (all of them when `spec` is None)."""
    if spec is None:
        return list(kernels)
    picks = matcher(spec)
    return [k for k in kernels if picks(k)]


def start_picks(kernels: Sequence[Kernel], numbers: Sequence[int] = (),
                spec: str | None = None) -> tuple[list[int], str]:
    """Where in `kernels` (every file's, in file then launch order) the kernels are that the
    window's `--kernels I,J` (`numbers`: the first kernel of each number not picked already,
    so a number named twice is the next file's) or `-k SPEC` (the first one or two SPEC picks)
    ask for, and '' or the one line refusing the request, naming it as typed."""
    if numbers:
        asked = "--kernels " + ",".join(map(str, numbers))
        picks: list[int] = []
        for number in numbers[:2]:
            at = next((i for i, k in enumerate(kernels) if k.index == number
                       and i not in picks), None)
            if at is None:
                again = "second " if any(kernels[i].index == number for i in picks) else ""
                return [], f"{asked}: no {again}kernel #{number} in the files opened"
            picks.append(at)
        return picks, ""
    if spec is not None:
        matches = matcher(spec)
        found = [i for i, k in enumerate(kernels) if matches(k)][:2]
        return found, "" if found else f"-k {spec!r}: no kernel in the files opened matches it"
    return [], ""
