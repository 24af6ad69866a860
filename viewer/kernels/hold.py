"""A one-thread kernel that keeps the stream busy for a while.

Queued ahead of a timed launch, it lets the host finish its launch call before the GPU reaches the
start event, so the two events around the launch time the kernel alone, not numba's dispatch.
"""

from __future__ import annotations

import numpy as np
from numba import cuda, uint32, uint64

SLEEP_NS = 1000
"""Nanoseconds per sleep; the hold sleeps this long once per microsecond asked for."""


@cuda.jit
def hold_kernel(microseconds):
    i = uint64(0)
    while i < microseconds:
        cuda.nanosleep(uint32(SLEEP_NS))
        i += uint64(1)


def hold(microseconds: int, stream: object = 0) -> None:
    """Queue a hold of about `microseconds` on `stream` (a numba stream, or 0 for the default
    stream); returns once queued."""
    hold_kernel[1, 1, stream](np.uint64(microseconds))
