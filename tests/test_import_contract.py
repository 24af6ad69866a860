"""The layering rule of ARCHITECTURE.md: only viewer.qt touches Qt, checked by import-linter.

import-linter's forbidden contract in pyproject.toml does the checking; these tests run it, make
sure it names every module outside viewer/qt (a new module left off the list would go unchecked),
and show it catches a Qt import hidden in a function; likewise the layers, outside viewer.qt and
inside it. That the capture helper imports only the standard library is
tests/capture/test_capture_helper.py's to check.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VIEWER = ROOT / "viewer"
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
CONTRACT = "Only viewer.qt touches Qt"
# Modules that may reach Qt: the widgets, and the entry point that starts them.
MAY_USE_QT = ("viewer.qt", "viewer.__main__")


def qt_contract(config: dict) -> dict:
    contracts = config["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["name"] == CONTRACT)


def modules_outside_qt() -> list[str]:
    """Every module of the viewer package but viewer itself and those in MAY_USE_QT."""
    names = []
    for path in sorted(VIEWER.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if name != "viewer" and not any(name == m or name.startswith(m + ".")
                                        for m in MAY_USE_QT):
            names.append(name)
    return names


def run_lint_imports(cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env=env)


def test_import_linter_contract_holds() -> None:
    result = run_lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_contract_names_every_module_outside_viewer_qt() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = qt_contract(config)
    assert {"PySide6", "pyqtgraph", "viewer.qt"} <= set(contract["forbidden_modules"])
    sources = contract["source_modules"]
    unchecked = [name for name in modules_outside_qt()
                 if not any(name == s or name.startswith(s + ".") for s in sources)]
    assert unchecked == [], "add these to the contract's source_modules in pyproject.toml"


def test_the_contract_catches_a_qt_import_inside_a_function(tmp_path: Path) -> None:
    """The same contract, on a package with one plain module that imports Qt only when called."""
    package = tmp_path / "sample"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "plain.py").write_text("def f():\n    from PySide6 import QtCore\n",
                                      encoding="utf-8")
    (package / "widgets.py").write_text("import PySide6\n", encoding="utf-8")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    forbidden = [m for m in qt_contract(config)["forbidden_modules"] if not m.startswith("viewer")]
    (tmp_path / "pyproject.toml").write_text(
        '[tool.importlinter]\nroot_packages = ["sample"]\ninclude_external_packages = true\n'
        f'[[tool.importlinter.contracts]]\nname = "{CONTRACT}"\ntype = "forbidden"\n'
        f'source_modules = ["sample.plain"]\nforbidden_modules = {json.dumps(forbidden)}\n',
        encoding="utf-8")
    result = run_lint_imports(tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert result.returncode != 0, result.stdout
    assert "sample.plain -> PySide6" in result.stdout
    assert "sample.widgets" not in result.stdout  # outside the contract, as viewer.qt is


LAYERS = "Layers: no import reaches up"


def layers_contract(config: dict) -> dict:
    contracts = config["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["name"] == LAYERS)


def test_the_layers_name_every_package_of_viewer() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    named = {m.strip() for layer in layers_contract(config)["layers"]
             for m in layer.replace("|", ":").split(":")}
    packages = {f"viewer.{p.name}" for p in VIEWER.iterdir() if (p / "__init__.py").exists()}
    assert packages <= named, "add these to the layers contract in pyproject.toml"


def test_the_layers_catch_an_import_that_reaches_up(tmp_path: Path) -> None:
    """A copy of viewer with one core module that imports the analysis above it, when called."""
    shutil.copytree(VIEWER, tmp_path / "viewer",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "viewer" / "core" / "planted.py").write_text(
        "def f():\n    from viewer.analysis import reading\n", encoding="utf-8")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    result = run_lint_imports(tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert result.returncode != 0, result.stdout
    assert f"{LAYERS} BROKEN" in result.stdout
    assert "viewer.core.planted -> viewer.analysis.reading" in result.stdout


HELPER_ALONE = "The capture helper imports nothing of the app"
THROUGH_PROTOCOL = "The app speaks to the capture helper through its protocol"
HELPER = "viewer.capture.helper"
APP_MAY_IMPORT = {f"{HELPER}.protocol", f"{HELPER}.trust", HELPER}


def contract(config: dict, name: str) -> dict:
    return next(c for c in config["tool"]["importlinter"]["contracts"] if c["name"] == name)


def test_the_helper_contracts_name_every_module() -> None:
    """Each viewer package and capture module outside the helper is kept from the helper and
    from its inner modules; each helper module the app may not import is listed."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    alone, through = contract(config, HELPER_ALONE), contract(config, THROUGH_PROTOCOL)
    assert alone["source_modules"] == [HELPER]
    app = [n for n in modules_outside_qt()
           if n != "viewer.capture" and not (n == HELPER or n.startswith(HELPER + "."))]
    app.append("viewer.qt")
    for listed in (alone["forbidden_modules"], through["source_modules"]):
        missed = [n for n in app if not any(n == s or n.startswith(s + ".") for s in listed)]
        assert missed == [], "add these to the helper contracts in pyproject.toml"
    inner = {n for n in modules_outside_qt() if n.startswith(HELPER + ".")}
    assert inner - APP_MAY_IMPORT - {f"{HELPER}.__main__"} == set(through["forbidden_modules"])


def test_the_protocol_contract_catches_the_app_reaching_past_it(tmp_path: Path) -> None:
    """A copy of viewer whose capture client imports the helper's command module, when called."""
    shutil.copytree(VIEWER, tmp_path / "viewer",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "viewer" / "capture" / "planted.py").write_text(
        "def f():\n    from viewer.capture.helper import command\n", encoding="utf-8")
    config = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(config.replace(
        '"viewer.capture.store",\n]\nforbidden_modules = [\n    "viewer.capture.helper.main"',
        '"viewer.capture.store", "viewer.capture.planted",\n]\n'
        'forbidden_modules = [\n    "viewer.capture.helper.main"'), encoding="utf-8")
    result = run_lint_imports(tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert result.returncode != 0, result.stdout
    assert f"{THROUGH_PROTOCOL} BROKEN" in result.stdout
    assert "viewer.capture.planted -> viewer.capture.helper.command" in result.stdout


WINDOW_LAYERS = "Layers inside the window: no import reaches up"
VIEWS_APART = "Each view imports no other view"
QT = VIEWER / "qt"


def test_the_window_layers_name_every_subpackage_of_viewer_qt() -> None:
    """Each folder of viewer/qt is a layer of the window's contract (exhaustive, so a new one
    left off breaks it), and every folder under views/ is kept from the others."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    layers = contract(config, WINDOW_LAYERS)
    assert layers["containers"] == ["viewer.qt"] and layers["exhaustive"] is True
    named = [m.strip() for layer in layers["layers"] for m in layer.replace("|", ":").split(":")]
    packages = {p.name for p in QT.iterdir() if (p / "__init__.py").exists()}
    assert sorted(named) == sorted(packages), "name each viewer/qt folder in pyproject.toml"
    assert [p for p in QT.glob("*.py") if p.name != "__init__.py"] == []  # no module outside one
    assert contract(config, VIEWS_APART)["modules"] == ["viewer.qt.views.*"]


def test_the_window_contracts_catch_a_planted_breach(tmp_path: Path) -> None:
    """A copy of viewer whose kit reaches up to the shell and whose Speed Of Light view imports
    the memory view, each when called, with a new viewer/qt folder named nowhere."""
    shutil.copytree(VIEWER, tmp_path / "viewer",
                    ignore=shutil.ignore_patterns("__pycache__"))
    qt = tmp_path / "viewer" / "qt"
    (qt / "kit" / "planted.py").write_text(
        "def f():\n    from viewer.qt.shell import loading\n", encoding="utf-8")
    (qt / "views" / "sol" / "planted.py").write_text(
        "def f():\n    from viewer.qt.views.memory import memory_tab\n", encoding="utf-8")
    (qt / "unnamed").mkdir()
    (qt / "unnamed" / "__init__.py").write_text("", encoding="utf-8")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    result = run_lint_imports(tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert result.returncode != 0, result.stdout
    assert f"{WINDOW_LAYERS} BROKEN" in result.stdout
    assert "viewer.qt.kit.planted -> viewer.qt.shell.loading" in result.stdout
    assert "- viewer.qt.unnamed" in result.stdout
    assert f"{VIEWS_APART} BROKEN" in result.stdout
    assert "viewer.qt.views.sol.planted -> viewer.qt.views.memory.memory_tab" in result.stdout
