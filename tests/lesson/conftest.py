"""The lesson's tests' fixtures: the N = 1024 pair (tests/pair_1024.py makes it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pair_1024 import write_pair_1024


@pytest.fixture(scope="session")
def pair_1024(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """naive-1024.details.csv and tiled-1024.details.csv."""
    return write_pair_1024(tmp_path_factory.mktemp("n1024"))
