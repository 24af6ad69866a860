"""Tests reach a widget through its public interface: its public attributes and methods, and the
object names its module declares in a `Names` enum (ARCHITECTURE.md, "Habits"). A test that
spells an object name out ("total", f"bar_{key}") or reads a private attribute (`tab._scroll`)
is tied to the widget's insides, and no one reading the widget sees that a test relies on them.

The finder parses every file under tests/ and reports, with its line:
- a findChild/findChildren call whose name is a string written out (a literal or an f-string),
  or a call of a helper of that file whose parameter becomes such a name, given one written out;
- an objectName() compared with, or tested for a prefix of, a string written out;
- an attribute `x._name` (one underscore) where x is not `self` or `cls`.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent

FINDERS = frozenset({"findChild", "findChildren"})
PREFIX_TESTS = frozenset({"startswith", "endswith", "removeprefix", "removesuffix"})

ALLOWED: dict[tuple[str, str], str] = {
    ("pty_command.py", "_exit"): "os._exit: the documented way a forked child ends",
    ("hostile_disk.py", "_exit"): "os._exit: the documented way a forked child ends",
    ("capture/test_capture_helper_attacks.py", "_INSTALL_SCHEMES"):
        "sysconfig has no public way to add an install scheme: the test makes Debian's",
    ("test_readme.py", "_actions"): "argparse has no public way to list a parser's options",
    ("test_readme.py", "_SubParsersAction"):
        "argparse has no public way to list a parser's commands",
}
"""(file under tests/, attribute) -> why it may be read."""


def written_out(node: ast.expr | None) -> bool:
    """Whether `node` is a string written out: a literal, or an f-string with literal text."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(part, ast.Constant) for part in node.values)
    return False


def name_argument(call: ast.Call) -> ast.expr | None:
    """The object name a findChild/findChildren call is given, if any."""
    if len(call.args) >= 2:
        return call.args[1]
    return next((k.value for k in call.keywords if k.arg == "name"), None)


def is_finder(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and call.func.attr in FINDERS


def named_helpers(tree: ast.Module) -> dict[str, int]:
    """The file's functions that pass one of their parameters on as a findChild name: function
    -> that parameter's position."""
    helpers = {}
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        params = [a.arg for a in function.args.args]
        for call in ast.walk(function):
            if isinstance(call, ast.Call) and is_finder(call):
                name = name_argument(call)
                if isinstance(name, ast.Name) and name.id in params:
                    helpers[function.name] = params.index(name.id)
    return helpers


def is_object_name(node: ast.expr) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "objectName")


def named_by_hand(node: ast.AST, helpers: dict[str, int]) -> bool:
    """Whether `node` reaches a widget by an object name written out."""
    if isinstance(node, ast.Call):
        if is_finder(node):
            return written_out(name_argument(node))
        if isinstance(node.func, ast.Name) and node.func.id in helpers:
            at = helpers[node.func.id]
            return at < len(node.args) and written_out(node.args[at])
        if isinstance(node.func, ast.Attribute) and node.func.attr in PREFIX_TESTS:
            return is_object_name(node.func.value) and any(map(written_out, node.args))
    if isinstance(node, ast.Compare):
        sides = [node.left, *node.comparators]
        return any(map(is_object_name, sides)) and any(map(written_out, sides))
    return False


def is_private(node: ast.AST) -> bool:
    """Whether `node` reads `x._name` of an x other than self or cls."""
    return (isinstance(node, ast.Attribute) and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")))


def breaches(source: str) -> list[tuple[int, str]]:
    """(line, what) of each way `source` reaches past a widget's test interface."""
    tree = ast.parse(source)
    helpers = named_helpers(tree)
    found = []
    for node in ast.walk(tree):
        if named_by_hand(node, helpers) or is_private(node):
            found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def private_name(what: str) -> str:
    return what.rsplit(".", 1)[-1]


def test_tests_reach_widgets_through_their_test_interface() -> None:
    unlisted, used = [], set()
    for path in sorted(TESTS.rglob("*.py")):
        name = path.relative_to(TESTS).as_posix()
        for line, what in breaches(path.read_text(encoding="utf-8")):
            if (name, private_name(what)) in ALLOWED:
                used.add((name, private_name(what)))
            else:
                unlisted.append(f"{name}:{line}: {what}")
    assert unlisted == [], ("use the Names and public attributes the module declares:\n"
                            + "\n".join(unlisted))
    assert used == set(ALLOWED), f"allowed places no longer used: {set(ALLOWED) - used}"


def test_the_finder_finds_each_form() -> None:
    source = ("def text(widget, name):\n"
              "    return widget.findChild(QLabel, name).text()\n"
              "def test_a(tab, key):\n"
              "    tab.findChild(QLabel, 'total')\n"
              "    tab.findChildren(QLabel, f'bar_{key}')\n"
              "    text(tab, 'question')\n"
              "    tab._scroll.viewport()\n"
              "    [w for w in tab.findChildren(QLabel) if w.objectName().startswith('bar_')]\n"
              "    assert tab.objectName() == 'dock'\n"
              "    module._helper(1)\n"
              "def test_b(self, tab, key):\n"
              "    tab.findChild(QLabel, Names.TOTAL)\n"
              "    tab.findChild(QLabel, one_of(Names.BAR, key))\n"
              "    text(tab, Names.QUESTION)\n"
              "    tab.scroll_area.viewport(), self._kept, tab.__class__\n"
              "    tab.findChildren(QLabel)\n")
    assert [line for line, _ in breaches(source)] == [4, 5, 6, 7, 8, 9, 10]
