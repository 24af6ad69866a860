"""One home for each constant and table: defined in one module of viewer/, imported elsewhere.

A second definition drifts from the first unnoticed (the tab keys of --tab, the words for a
missing value, the size of a sector); these tests fail when one appears.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from viewer.analysis import chart_layout, export, predict
from viewer.core import formatting as fmt
from viewer.core.model import Kernel
from viewer.lesson import derivation_check

VIEWER = Path(__file__).resolve().parent.parent / "viewer"

# Constant -> the one module that defines it.
HOMES = {
    "NOT_IN_REPORT": "core/formatting.py",
    "MISSING": "core/formatting.py",
    "WARP_SIZE": "analysis/predict.py",
    "SECTOR_BYTES": "analysis/predict.py",
    "FLOAT_BYTES": "analysis/predict.py",
    "READING_ORDER": "analysis/reading.py",
    "HIGH_PCT": "analysis/reading.py",
    "OCCUPANCY_GAP_PCT": "analysis/occupancy_reading.py",
    "LABELS": "core/metrics.py",
    "SUMMARY_METRICS": "core/metrics.py",
}
# Values whose spelling has one home: the literal -> the module that may write it.
LITERALS = {
    "not in this report": "core/formatting.py",
    ("sol", "memory", "occupancy"): "analysis/reading.py",
}


def modules() -> list[tuple[str, ast.Module]]:
    return [(str(path.relative_to(VIEWER)), ast.parse(path.read_text(encoding="utf-8")))
            for path in sorted(VIEWER.rglob("*.py"))]


def module_level_names(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def literals(tree: ast.Module) -> list[object]:
    """Every string and tuple the module writes out literally."""
    found: list[object] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Constant, ast.Tuple)):
            try:
                found.append(ast.literal_eval(node))
            except ValueError:  # a tuple of names, not of values
                continue
    return found


def test_each_constant_is_defined_in_one_module() -> None:
    parsed = modules()
    for name, home in HOMES.items():
        defined = [path for path, tree in parsed if name in module_level_names(tree)]
        assert defined == [home], f"{name} is defined in {defined}, its home is {home}"


def test_the_old_copies_are_gone() -> None:
    """TABS (the --tab keys) and the tabs' own NOT_IN_REPORT were copies of these homes."""
    for path, tree in modules():
        assert "TABS" not in module_level_names(tree), path


@pytest.mark.parametrize(("literal", "home"), LITERALS.items())
def test_a_value_is_written_out_in_its_home_only(literal: object, home: str) -> None:
    writers = [path for path, tree in modules() if literal in literals(tree)]
    assert writers == [home], f"{literal!r} is written out in {writers}"


def test_sectors_per_request_is_written_through_one_function(monkeypatch, naive: Kernel) -> None:
    """The memory chart, its value rows, the derivation, the exports and the predict table all
    write sectors per request with formatting.sectors_per_request."""
    monkeypatch.setattr(fmt, "sectors_per_request", lambda value: f"<{value:g}>")
    band = chart_layout.chart_band(naive, "naive")
    assert "<2> per request" in band.arrow("global").below
    assert "<2> sectors each" in band.caption
    rows = {key: text for key, _, text in chart_layout.memory_values(naive)}
    assert rows["sectors_per_request"] == "<2>"
    check = next(c for c in derivation_check.predictions(naive) if c.key == "sectors_per_request")
    assert (check.derived_text, check.measured_text) == ("<2>", "<2>")
    assert "| Sectors per request | <2> |" in export.comparison_markdown([naive], ["naive"])
    assert "<2>" in predict.format_table(predict.derive(512))
