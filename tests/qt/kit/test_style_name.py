"""One name for a widget's style across viewer/qt: a widget keeps its Style in `_style`, and a view
shows it by the read-only property `style_` (QWidget.style() is Qt's), which returns `_style`;
`set_style` is the one way to change it."""

from __future__ import annotations

import ast
from pathlib import Path

QT = Path(__file__).resolve().parents[3] / "viewer" / "qt"


def style_assignments(tree: ast.AST) -> list[int]:
    """The lines that assign an attribute named `style_`."""
    lines = []
    for node in ast.walk(tree):
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign))
                   else [])
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and part.attr == "style_":
                    lines.append(node.lineno)
    return lines


def style_properties(tree: ast.AST) -> list[tuple[int, bool]]:
    """Each `def style_`, and whether it is a property that returns self._style, hands on the
    style_ of a part the widget holds (`self.panel.style_`), or only declares it (the View
    protocol's `...`)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "style_":
            is_property = any(isinstance(d, ast.Name) and d.id == "property"
                              for d in node.decorator_list)
            returns = [s for s in node.body if isinstance(s, ast.Return)]
            said = ast.unparse(returns[0].value) if len(returns) == 1 and returns[0].value else ""
            declared = [ast.unparse(b) for b in node.body[-1:]] == ["..."]
            plain = declared or said == "self._style" or (
                said.startswith("self.") and said.endswith(".style_") and said.count(".") == 2)
            found.append((node.lineno, is_property and plain))
    return found


def test_the_checks_find_a_style_kept_under_the_other_name() -> None:
    tree = ast.parse("class A:\n"
                     "    def __init__(self, style):\n"
                     "        self.style_ = style\n"
                     "        self.kernels, self.style_ = [], style\n"
                     "    def style_(self):\n"
                     "        return self.other\n")
    assert style_assignments(tree) == [3, 4]
    assert style_properties(tree) == [(5, False)]


def test_every_widget_keeps_its_style_in_one_name() -> None:
    kept_as_style_, not_plain = [], []
    for path in sorted(QT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        name = path.relative_to(QT.parent.parent)
        kept_as_style_ += [f"{name}:{line}" for line in style_assignments(tree)]
        not_plain += [f"{name}:{line}" for line, ok in style_properties(tree) if not ok]
    assert kept_as_style_ == [], "keep the Style in self._style"
    assert not_plain == [], "style_ is a property that returns self._style"
