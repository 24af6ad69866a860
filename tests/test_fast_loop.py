"""`make test-fast`'s choice: tests/conftest.py's --fast keeps the tests tests/durations.json
recorded under FAST_S (and those it does not know) of modules under MODULE_S, never one marked
slow."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import DURATIONS, FAST_S, MODULE_S

pytestmark = pytest.mark.slow  # it starts pytest itself: make test runs it, test-fast does not

ROOT = Path(__file__).resolve().parent.parent


def collected(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:randomly", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode in (0, 5), done.stdout + done.stderr  # 5: every test deselected
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_the_record_is_a_table_of_seconds() -> None:
    recorded = json.loads(DURATIONS.read_text(encoding="utf-8"))
    assert len(recorded) > 1000
    assert all(isinstance(v, float | int) and v >= 0 for v in recorded.values())


def _module_seconds(recorded: dict[str, float], module: str) -> float:
    return sum(v for k, v in recorded.items() if k.split("::", 1)[0] == module)


def test_fast_leaves_out_what_took_long_and_what_is_marked_slow() -> None:
    recorded = json.loads(DURATIONS.read_text(encoding="utf-8"))
    module = "tests/analysis/test_advice.py"
    assert _module_seconds(recorded, module) < MODULE_S
    every = collected(module)
    fast = collected("--fast", module)
    assert fast and len(fast) < len(every)
    assert all(recorded.get(t, 0.0) < FAST_S for t in fast)
    assert [t for t in every if t not in fast] == [t for t in every
                                                   if recorded.get(t, 0.0) >= FAST_S]
    assert collected("--fast", "tests/readers/test_refusals_bounded.py") == []  # marked slow


def test_fast_leaves_out_a_module_whose_shared_fixtures_cost_a_whole_run_much() -> None:
    """The instructor matrix's windows are made by its first test: quick tests after it."""
    recorded = json.loads(DURATIONS.read_text(encoding="utf-8"))
    module = "tests/qt/shell/test_instructor_matrix.py"
    assert _module_seconds(recorded, module) >= MODULE_S
    assert any(recorded.get(t, 1.0) < FAST_S for t in collected(module))
    assert collected("--fast", module) == []
