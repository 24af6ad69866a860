"""Every test runs headless and without a GPU, however pytest is started."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Set before any test module imports Qt or numba.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

H200 = Path(__file__).parent / "data" / "corpus" / "h200"


@pytest.fixture(scope="session")
def naive():
    """The lesson's naive matmul as captured on an H200 (the corpus .ncu-rep)."""
    from viewer.readers import read_report

    return read_report(H200 / "numba-naive.ncu-rep").kernels[0]


@pytest.fixture(scope="session")
def tiled():
    """The lesson's tiled matmul as captured on an H200 (the corpus .ncu-rep)."""
    from viewer.readers import read_report

    return read_report(H200 / "numba-tiled.ncu-rep").kernels[0]
