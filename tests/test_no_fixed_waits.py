"""No test waits a fixed time for a result: it waits on the condition (qtbot.waitUntil,
qtbot.waitSignal, tests.polling.wait_for, an event), so it is as fast as the machine and cannot
pass before the thing it checks has happened.

A sleep may stay where it models a program's own pace rather than waits for a result; each such
place is listed here with its reason. (The fake ncu in tests/capture_install.py and the programs
in tests/system/ sleep inside the source text they write out, which no parse of tests/ sees.)
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent

FIXED_WAITS = {"time.sleep", "sleep", "qtbot.wait", "QTest.qWait", "qWait"}
"""The calls that wait a fixed time, as written."""

ALLOWED = {
    ("polling.py", "wait_for"): "the one poll: sleeps between looks at its condition",
    ("pty_command.py", "drain"):
        "the terminal's other side is closed, so select returns at once: the drain keeps the "
        "pace it would have had while the program ends",
    ("qt/views/timing/test_timing_panel.py", "test_cancel_stops_a_run_that_takes_a_while.slow"):
        "a long timing run: its launches' pace, each reporting progress",
    ("qt/kit/test_workers.py", "test_cancel_stops_a_job_that_checks_and_drops_its_result.endless"):
        "a long job: its steps' pace, each reporting progress",
    ("qt/kit/test_workers.py", "test_a_job_outliving_its_workers_widget_reports_to_no_one.slow"):
        "a job still running when its widget goes: its steps' pace",
}
"""(file under tests/, enclosing function) -> why it sleeps."""


def fixed_waits(path: Path) -> list[tuple[str, int, str]]:
    """(enclosing function, line, call) of each fixed wait in `path`."""
    found: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, where: tuple[str, ...]) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            where = (*where, node.name)
        if isinstance(node, ast.Call) and ast.unparse(node.func) in FIXED_WAITS:
            found.append((".".join(where), node.lineno, ast.unparse(node)))
        for child in ast.iter_child_nodes(node):
            visit(child, where)

    visit(ast.parse(path.read_text(encoding="utf-8")), ())
    return found


def test_no_test_waits_a_fixed_time_outside_the_allowed_places() -> None:
    unlisted, used = [], set()
    for path in sorted(TESTS.rglob("*.py")):
        name = path.relative_to(TESTS).as_posix()
        for where, line, call in fixed_waits(path):
            if (name, where) in ALLOWED:
                used.add((name, where))
            else:
                unlisted.append(f"{name}:{line} {where or '<module>'}: {call}")
    assert unlisted == [], "wait on the condition instead:\n" + "\n".join(unlisted)
    assert used == set(ALLOWED), f"allowed places that no longer sleep: {set(ALLOWED) - used}"


def test_the_search_finds_each_form_of_fixed_wait(tmp_path: Path) -> None:
    source = tmp_path / "test_sample.py"
    source.write_text(
        "import time\nfrom time import sleep\n"
        "def test_a(qtbot):\n    qtbot.wait(50)\n    time.sleep(0.1)\n"
        "    def inner():\n        sleep(1)\n    QTest.qWait(5)\n"
        "def test_b(qtbot):\n    qtbot.waitUntil(lambda: True)\n    qtbot.waitSignal(None)\n",
        encoding="utf-8")
    assert [(where, line) for where, line, _ in fixed_waits(source)] == [
        ("test_a", 4), ("test_a", 5), ("test_a.inner", 7), ("test_a", 8)]
