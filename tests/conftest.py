"""Every test runs headless and without a GPU, however pytest is started."""

from __future__ import annotations

import os

# Set before any test module imports Qt or numba.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")
