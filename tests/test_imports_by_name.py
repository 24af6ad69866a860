"""No module of viewer imports another by its name in a string (importlib.import_module,
__import__, a spec's exec_module): such an import is invisible to grimp, so the import contracts
(tests/test_import_contract.py), the cycle test (tests/test_import_cycles.py) and mypy would not
see it; sniff once reached the text readers so, hiding a circle among the readers."""

from __future__ import annotations

import ast
from pathlib import Path

VIEWER = Path(__file__).resolve().parent.parent / "viewer"
# The callables that import a module named at run time.
BY_NAME = frozenset({"import_module", "__import__", "exec_module", "load_module"})


def imports_by_name(source: str) -> list[int]:
    """The lines of `source` that call one of BY_NAME, however it is reached (an alias of one
    imported from importlib too)."""
    tree = ast.parse(source)
    names = set(BY_NAME)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "importlib":
            names |= {alias.asname for alias in node.names
                      if alias.name in BY_NAME and alias.asname}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            callee = node.func
            name = (callee.id if isinstance(callee, ast.Name)
                    else callee.attr if isinstance(callee, ast.Attribute) else None)
            if name in names:
                found.append(node.lineno)
    return sorted(found)


def test_the_finder_finds_each_way_to_import_by_name() -> None:
    source = ("import importlib\n"
              "from importlib import import_module as im, import_module\n"
              "def f(spec):\n"
              "    importlib.import_module('a')\n"
              "    import_module('b')\n"
              "    im('b')\n"
              "    __import__('c')\n"
              "    spec.loader.exec_module(m)\n"
              "    import d\n"
              "    from e import g\n")
    assert imports_by_name(source) == [4, 5, 6, 7, 8]


def test_no_module_of_viewer_imports_by_name() -> None:
    found = [f"{path.relative_to(VIEWER.parent)}:{line}"
             for path in sorted(VIEWER.rglob("*.py"))
             for line in imports_by_name(path.read_text(encoding="utf-8"))]
    assert found == [], "import these with an import statement:\n" + "\n".join(found)
