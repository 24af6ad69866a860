"""What the words say of the grid: 'could have filled the machine' only on a grid of a full wave
or more, and a kernel called latency-bound only where a small grid is ruled out."""

from __future__ import annotations

import re

from tests.claims.claim import Claim, uncovered
from viewer.analysis import launch_grid
from viewer.core.model import Kernel

_FILLED = re.compile(r"(?<!Whether )the launch could have filled the machine")
_NOT_FILLED = re.compile(r"Whether the launch could have filled the machine is unknown")
_SMALL = re.compile(r"the grid does not fill the GPU|the launch cannot fill the machine")
_LATENCY = re.compile(r"(?<!small grid or )latency-bound|"
                      r"(?<!Where the grid fills the GPU, )the kernel is stalled on latency")
# "latency" words that call no kernel latency-bound.
_OTHER_LATENCY = re.compile(r"small grid or latency-bound|a small grid, not latency, bounds it|"
                            r"Where the grid fills the GPU, the kernel is stalled on latency|"
                            r"fixed-latency dependency|warp_latency_per_inst")


def filled_claims(text: str, kernel: Kernel) -> list[Claim]:
    """'could have filled the machine': only on a grid of at least one full wave."""
    waves = launch_grid.grid(kernel).full_waves
    return [Claim(m.group(0), waves is not None and waves >= 1, f"full waves {waves}")
            for m in _FILLED.finditer(text)]


def unfilled_words(text: str) -> list[str]:
    """'could have filled' that is neither the claim nor its unknown."""
    return uncovered(text, "could have filled", (_FILLED, _NOT_FILLED))


def small_claims(text: str, kernel: Kernel) -> list[Claim]:
    """'the grid does not fill the GPU', 'the launch cannot fill the machine': only where the
    grid is known to hold less than a full wave."""
    small = launch_grid.grid(kernel).small
    return [Claim(m.group(0), small is True, f"small {small}") for m in _SMALL.finditer(text)]


def latency_claims(text: str, kernel: Kernel) -> list[Claim]:
    """A kernel called latency-bound: only where a small grid is ruled out (the grid known to
    hold a full wave, and ncu's own Small Grid rule not saying otherwise)."""
    launch = launch_grid.grid(kernel)
    rule = launch_grid.small_grid_rule(kernel)
    holds = launch.small is False and rule is None
    return [Claim(m.group(0), holds, f"small {launch.small}, ncu's rule {rule}")
            for m in _LATENCY.finditer(text)]


def unclaimed_latency(text: str) -> list[str]:
    """'latency' that neither calls a kernel latency-bound nor is among the other words."""
    return uncovered(text, "latency", (_LATENCY, _OTHER_LATENCY))
