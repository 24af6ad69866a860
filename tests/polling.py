"""Waiting on a condition outside Qt's event loop: a process gone, a file written.

`wait_for` is the one place a test's poll sleeps between looks; tests/test_no_fixed_waits.py
holds every other sleep to its allow-list.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(condition: Callable[[], object], timeout: float = 10.0,
             interval: float = 0.05) -> bool:
    """Look at `condition` until it holds or `timeout` seconds pass; whether it held."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return bool(condition())
        time.sleep(interval)
    return True
