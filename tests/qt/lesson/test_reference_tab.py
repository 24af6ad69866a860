"""T4 vs this report: the lesson's published T4 rows beside the shipped pair, the words of
viewer.lesson.t4_reference, the T4 provenance line, and the T4 alone when no pair is open."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtWidgets import QLabel, QWidget

from viewer.core import formatting as fmt
from viewer.core import shipped
from viewer.core.elide import breakable
from viewer.core.model import Kernel
from viewer.lesson import t4_reference
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.style import Style
from viewer.qt.lesson.reference_tab import MOVED, NEEDS_PAIR, Names, ReferenceTab
from viewer.readers import read_report

NAMES = ["matmul_naive", "matmul_tiled"]
REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
L2_HIT = "lts__t_sector_hit_rate.pct"


@pytest.fixture(scope="module")
def pair() -> list[Kernel]:
    """The shipped naive and tiled reports' kernels (an H200)."""
    return [read_report(path).kernels[0] for path in shipped.comparison()]


@pytest.fixture(scope="module")
def t4() -> list[Kernel]:
    by_name = {k.name: k for k in t4_reference.reference_report().kernels}
    return [by_name["naive"], by_name["tiled"]]


def make(qtbot, kernels: list[Kernel], names: list[str], projector: bool = False) -> ReferenceTab:
    tab = ReferenceTab(Style(projector))
    qtbot.addWidget(tab)
    tab.set_kernels(kernels, names)
    return tab


def text(widget: QWidget, name: str) -> str:
    label = widget.findChild(QLabel, name)
    assert label is not None, f"no label {name!r}"
    return label.text()


def table(tab: ReferenceTab, count: int, columns: int) -> list[list[str]]:
    """Each row as shown: label, values, verdict (when there is one)."""
    rows = []
    for number in range(2, count + 2):
        row = [text(tab, one_of(Names.LABEL, number))]
        row += [text(tab, one_of(Names.VALUE, number, c)) for c in range(1, columns + 1)]
        verdict = tab.findChild(QLabel, one_of(Names.MOVED, number))
        rows.append(row + ([verdict.text()] if verdict is not None else []))
    return rows


def test_the_t4_rows_sit_beside_the_shipped_pair(qtbot, pair, t4) -> None:
    tab = make(qtbot, pair, NAMES)
    rows = t4_reference.cross_gpu(t4, pair)
    assert len(rows) == 12  # the lesson's table
    expected = [[breakable(r.label), *(t4_reference.t4_figure(r, v) for v in r.t4),
                 *(fmt.by_unit(v, r.unit) for v in r.here), MOVED[r.moved]] for r in rows]
    assert table(tab, len(rows), 4) == expected
    requests = next(r for r in rows if r.metric == REQUESTS)
    shown = table(tab, len(rows), 4)[rows.index(requests)]
    assert shown[1:] == ["8,388,608", "524,288", "8,388,608", "524,288", "did not move"]
    duration = table(tab, len(rows), 4)[[r.label for r in rows].index("Duration")]
    assert duration[1:3] == ["1.18 ms", "744.64 us"] and duration[-1] == "moved"
    assert text(tab, one_of(Names.DEVICE, 0)) == "Tesla T4, N = 512"
    assert text(tab, one_of(Names.DEVICE, 1)) == "NVIDIA H200, N = 512"
    spr = table(tab, len(rows), 4)[[r.metric for r in rows].index("sectors_per_request")]
    assert spr[1:5] == ["2.0", "4.0", "2.00", "4.00"]  # the lesson prints "2.0 4.0"


def test_what_moved_and_what_did_not_is_said_in_the_lessons_words(qtbot, pair, t4) -> None:
    tab = make(qtbot, pair, NAMES)
    words = t4_reference.summary_words(t4_reference.cross_gpu(t4, pair))
    summaries = [text(tab, one_of(Names.SUMMARY, i)) for i in range(len(words))]
    assert [s.replace("\u200b", "") for s in summaries] == words
    assert words[0].startswith("Moved across GPUs") and "Duration" in words[0]
    assert words[1].startswith("Did not move") and REQUESTS in words[1]


def test_the_provenance_line_says_where_the_t4_figures_come_from(qtbot, pair) -> None:
    line = text(make(qtbot, pair, NAMES), Names.PROVENANCE)
    assert line == t4_reference.provenance_text()
    for part in ("Tesla T4", "595.84", "12.6", "2024.3.2", "base", "2026-09-01"):
        assert part in line


def test_a_row_this_report_lacks_is_missing_not_zero(qtbot, pair, t4) -> None:
    naive = replace(pair[0], metrics={k: v for k, v in pair[0].metrics.items() if k != L2_HIT})
    tab = make(qtbot, [naive, pair[1]], NAMES)
    rows = t4_reference.cross_gpu(t4, [naive, pair[1]])
    number = 2 + [r.metric for r in rows].index(L2_HIT)
    assert text(tab, one_of(Names.VALUE, number, 3)) == fmt.MISSING
    assert text(tab, one_of(Names.MOVED, number)) == MOVED[None]


def test_the_t4_open_shows_its_rows_alone(qtbot, t4) -> None:
    tab = make(qtbot, t4, ["naive", "tiled"])
    rows = t4_reference.cross_gpu(t4, t4)
    assert table(tab, len(rows), 2) == [
        [breakable(r.label), *(t4_reference.t4_figure(r, v) for v in r.t4)] for r in rows]


def test_without_the_pair_the_t4_stands_alone(qtbot, pair, t4) -> None:
    tab = make(qtbot, pair[:1], NAMES[:1])
    assert text(tab, Names.NEEDS_PAIR) == NEEDS_PAIR
    rows = t4_reference.cross_gpu(t4, t4)
    assert table(tab, len(rows), 2) == [
        [breakable(r.label), *(t4_reference.t4_figure(r, v) for v in r.t4)] for r in rows]
    assert tab.findChild(QLabel, one_of(Names.VALUE, 2, 3)) is None
    assert tab.findChild(QLabel, Names.PROVENANCE) is not None


def test_projector_mode_is_large_type(qtbot, pair) -> None:
    tab = make(qtbot, pair, NAMES, projector=True)
    assert tab.findChild(QLabel, one_of(Names.VALUE, 2, 1)).font().pointSizeF() >= 20
    assert tab.findChild(QLabel, one_of(Names.SUMMARY, 0)).font().pointSizeF() >= 20


def test_the_t4_table_open_is_not_compared_with_itself(qtbot, t4) -> None:
    tab = make(qtbot, t4, ["naive", "tiled"])
    assert text(tab, Names.SAME_TABLE) == t4_reference.SAME_TABLE
    assert tab.findChild(QLabel, one_of(Names.SUMMARY, 0)) is None  # no "did not move" on every row
    assert tab.findChild(QLabel, one_of(Names.MOVED, 2)) is None
    assert tab.findChild(QLabel, one_of(Names.DEVICE, 1)) is None  # one side: the T4's
