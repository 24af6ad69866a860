"""The layering rules of ARCHITECTURE.md: Qt only in viewer/qt; the capture helper stdlib-only."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VIEWER = ROOT / "viewer"
QT_PACKAGES = {"PySide6", "pyqtgraph", "shiboken6"}


def imported_top_levels(path: Path) -> set[str]:
    """Top-level package of every import in a file, function-level imports included."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_import_linter_contract_holds() -> None:
    lint_imports = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run([str(lint_imports)], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_qt_outside_viewer_qt() -> None:
    offenders = [str(p.relative_to(ROOT)) for p in VIEWER.rglob("*.py")
                 if VIEWER / "qt" not in p.parents and imported_top_levels(p) & QT_PACKAGES]
    assert offenders == []


def test_the_checker_sees_a_qt_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from PySide6 import QtCore\n", encoding="utf-8")
    assert "PySide6" in imported_top_levels(sample)


def test_capture_helper_is_standard_library_only() -> None:
    helpers = sorted((VIEWER / "capture").glob("helper*.py"))
    if not helpers:
        pytest.skip("viewer/capture has no privileged helper yet")
    for helper in helpers:
        outside = imported_top_levels(helper) - set(sys.stdlib_module_names)
        assert outside == set(), f"{helper.name} imports {sorted(outside)}"
