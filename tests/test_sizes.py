"""Small modules with one job: no view module (viewer/qt/views/) over 250 lines, no module of
viewer over 400, no function or method over 60 (from its `def` line to its last, as ast counts
them). A file past its limit is asking to be split, not for a higher limit."""

from __future__ import annotations

import ast
from pathlib import Path

VIEWER = Path(__file__).resolve().parent.parent / "viewer"

VIEW_LINES = 250
MODULE_LINES = 400
FUNCTION_LINES = 60


def module_limit(name: str) -> int:
    """The most lines the module at `name` (a path under the repository's root) may have."""
    return VIEW_LINES if name.startswith("viewer/qt/views/") else MODULE_LINES


def long_functions(source: str, limit: int = FUNCTION_LINES) -> list[tuple[str, int, int]]:
    """(qualified name, first line, lines) of each function or method in `source` longer than
    `limit` lines."""
    found: list[tuple[str, int, int]] = []

    def visit(node: ast.AST, where: tuple[str, ...]) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            where = (*where, node.name)
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if not isinstance(node, ast.ClassDef) and lines > limit:
                found.append((".".join(where), node.lineno, lines))
        for child in ast.iter_child_nodes(node):
            visit(child, where)

    visit(ast.parse(source), ())
    return found


def oversized(root: Path) -> list[str]:
    """What under `root`'s viewer/ is past its limit, each named with its count and limit."""
    found = []
    for path in sorted((root / "viewer").rglob("*.py")):
        name = path.relative_to(root).as_posix()
        source = path.read_text(encoding="utf-8")
        lines, limit = len(source.splitlines()), module_limit(name)
        if lines > limit:
            found.append(f"{name}: {lines} lines, over the {limit} a module here may have")
        found += [f"{name}:{line} {where}: {count} lines, over the {FUNCTION_LINES} a function "
                  "may have" for where, line, count in long_functions(source)]
    return found


def test_no_module_or_function_of_viewer_is_past_its_limit() -> None:
    found = oversized(VIEWER.parent)
    assert found == [], "split these into smaller pieces with one job each:\n" + "\n".join(found)


def test_the_counts_find_a_planted_long_function_and_long_modules(tmp_path: Path) -> None:
    def lines(indent: str) -> str:
        return "".join(f"{indent}x = {n}\n" for n in range(59))

    source = (f"def fits():\n{lines('    ')}\n"  # 60 lines: the limit, not past it
              f"class Panel:\n    def too_long(self):\n{lines(' ' * 8)}        return x\n")
    assert long_functions(source) == [("Panel.too_long", 63, 61)]
    views = tmp_path / "viewer" / "qt" / "views" / "sample"
    views.mkdir(parents=True)
    (views / "panel.py").write_text("x = 1\n" * 251, encoding="utf-8")
    (tmp_path / "viewer" / "plain.py").write_text("x = 1\n" * 401, encoding="utf-8")
    (tmp_path / "viewer" / "not_a_view.py").write_text("x = 1\n" * 300, encoding="utf-8")
    (tmp_path / "viewer" / "code.py").write_text(source, encoding="utf-8")
    assert oversized(tmp_path) == [
        "viewer/code.py:63 Panel.too_long: 61 lines, over the 60 a function may have",
        "viewer/plain.py: 401 lines, over the 400 a module here may have",
        "viewer/qt/views/sample/panel.py: 251 lines, over the 250 a module here may have",
    ]
