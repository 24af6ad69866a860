"""Instruction mix in the window (I): the shipped pair read when shown, a bar per opcode and
kernel with viewer.analysis.instruction_mix's values, largest first, B over A and the sentence;
an export and a capture without counters each said in one line, with no bar."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel

from viewer.analysis import instruction_mix as analysis
from viewer.core.model import Report
from viewer.qt.kit.object_names import is_one_of, one_of
from viewer.qt.kit.style import Style
from viewer.qt.kit.value_bar import ValueBar
from viewer.qt.views.instruction_mix.instruction_mix_view import (
    NO_COUNTERS,
    InstructionMixView,
    Names,
    count_text,
    ratio_text,
)
from viewer.readers import read_report
from viewer.readers.source import read_source

ROOT = Path(__file__).resolve().parents[4]
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
BASIC = ROOT / "tests" / "data" / "corpus" / "h200" / "workloads-kernels-and-graph.ncu-rep"
EXPORT = ROOT / "profiles" / "naive.raw.csv"


def shown(qtbot, reports: list[Report], projector: bool = False) -> InstructionMixView:
    view = InstructionMixView(Style(projector))
    qtbot.addWidget(view)
    view.show()
    view.set_kernels([r.kernels[0] for r in reports], None, reports)
    qtbot.waitUntil(lambda: view.ready and not view.loading, timeout=60_000)
    return view


def bars(view: InstructionMixView) -> list[ValueBar]:
    return [b for b in view.findChildren(ValueBar) if is_one_of(b.objectName(), Names.BAR)]


@pytest.mark.parametrize("projector", [False, True], ids=["desk", "projector"])
def test_the_pair_s_bars_are_the_plain_rows_largest_first(qtbot, projector: bool) -> None:
    view = shown(qtbot, [read_report(NAIVE), read_report(TILED)], projector)
    expected = analysis.mix([read_source(NAIVE)[0], read_source(TILED)[0]])
    assert not expected.empty
    found = {b.objectName(): b for b in bars(view)}
    assert list(found) == [one_of(Names.BAR, r.opcode, c) for r in expected.rows for c in (1, 2)]
    for row in expected.rows:
        for column in (1, 2):
            bar = found[one_of(Names.BAR, row.opcode, column)]
            assert bar.value == pytest.approx(row.shares[column - 1])
            assert bar.text == count_text(row, column - 1)
        assert view.findChild(QLabel, one_of(Names.RATIO, row.opcode)).text() == ratio_text(row)
    largest = [r.largest for r in expected.rows]
    assert largest == sorted(largest, reverse=True)
    assert view.findChild(QLabel, one_of(Names.RATIO, "LDS")).text() == "only in B"
    assert view.findChild(QLabel, Names.SENTENCE).text() == analysis.sentence(expected)
    assert view.findChild(QLabel, Names.MISSING) is None


def test_one_kernel_has_one_bar_per_opcode_and_no_ratio(qtbot) -> None:
    view = shown(qtbot, [read_report(TILED)])
    expected = analysis.mix([read_source(TILED)[0]])
    named = [one_of(Names.BAR, r.opcode, 1) for r in expected.rows]
    assert [b.objectName() for b in bars(view)] == named
    assert not [w for w in view.findChildren(QLabel) if is_one_of(w.objectName(), Names.RATIO)]
    assert view.findChild(QLabel, Names.SENTENCE).text() == analysis.sentence(expected)


@pytest.mark.parametrize("path", [EXPORT, BASIC], ids=lambda p: p.name)
def test_a_file_without_counters_says_so_in_one_line(qtbot, path: Path) -> None:
    report = read_report(path)
    view = shown(qtbot, [report])
    missing = view.findChild(QLabel, Names.MISSING).text()
    assert "\n" not in missing and not bars(view)
    if path is EXPORT:
        assert report.format in missing and ".ncu-rep" in missing
    else:
        assert missing == f"{NO_COUNTERS[0].upper()}{NO_COUNTERS[1:]}."


def test_beside_a_kernel_without_counters_its_bars_are_missing_not_zero(qtbot) -> None:
    view = shown(qtbot, [read_report(NAIVE), read_report(BASIC)])
    assert view.findChild(QLabel, Names.MISSING).text().startswith("B: ")
    opcodes = [row.opcode for row in view.mix().rows]
    second = [view.findChild(ValueBar, one_of(Names.BAR, opcode, 2)) for opcode in opcodes]
    assert second and all(b is not None and b.value is None for b in second)
    assert all(view.findChild(QLabel, one_of(Names.RATIO, opcode)).text() == "n/a"
               for opcode in opcodes)
