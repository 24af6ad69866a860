"""The lesson's misreads shown next to the number they are misread from.

Each Misread of viewer.lesson.misreads sits under the row its key names (Memory Throughput in the
Speed Of Light tab, worded from the values: "not DRAM bandwidth" on the H200 matmuls, "agree" on
the 2019 P40 export where DRAM is itself the busiest unit); the comparison's misreads are a
warning on the compare line (the published T4 against the shipped H200 report: different GPUs,
clock controls and ncu versions; the shipped pair: the request ratio without the sectors).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel, QWidget

from tests.qt.grids import grid_position
from viewer.analysis.timing import DeviceCheck
from viewer.core import shipped
from viewer.core.elide import wrappable_names
from viewer.core.model import Kernel, Report
from viewer.lesson.misreads import compare_misreads, misreads, profiled_duration_note
from viewer.qt.kernel_list.kernel_list import kernel_entries
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.reading_tab_names import Names as TabNames
from viewer.qt.kit.style import Style
from viewer.qt.kit.value_bar import ValueBar
from viewer.qt.shell.compare_line import SHORT_HEIGHT, CompareLine, first_sentence
from viewer.qt.shell.main_window import MainWindow
from viewer.qt.views.sol.sol_tab import Names as SolNames
from viewer.qt.views.sol.sol_tab import SpeedOfLightTab
from viewer.readers import read_report

PUBLIC = Path(__file__).resolve().parents[2] / "data" / "corpus" / "ncu-public"
P40 = PUBLIC / "old-spelling-pascal-p40-gpu-speed-of-light-sol-fb-details.txt"
T4 = shipped.profiles_dir() / "t4-reference.toml"
NAIVE, TILED = shipped.comparison()


def sol_tab(qtbot, kernels: list[Kernel], projector: bool = False) -> SpeedOfLightTab:
    tab = SpeedOfLightTab(Style(projector))
    qtbot.addWidget(tab)
    tab.set_kernels(kernels)
    return tab


def text_of(widget: QWidget, name: str) -> str:
    label = widget.findChild(QLabel, name)
    assert label is not None, f"no label {name!r}"
    return label.text()


def test_memory_throughput_misread_sits_under_its_row(qtbot, naive: Kernel,
                                                      tiled: Kernel) -> None:
    tab = sol_tab(qtbot, [naive, tiled])
    for column, kernel in enumerate((naive, tiled), 1):
        (expected,) = [m for m in misreads(kernel) if m.key == "memory_throughput_pct"]
        label = tab.findChild(QLabel, one_of(TabNames.MISREAD, "memory_throughput_pct", column))
        assert label.text() == wrappable_names(expected.text)  # a metric name may break
        assert "not DRAM bandwidth" in label.text()
        bar = tab.findChild(ValueBar, one_of(SolNames.BAR, "memory_throughput_pct", column))
        bar_row, bar_column = grid_position(tab, bar)
        assert grid_position(tab, label) == (bar_row + 1, bar_column)  # right under the number
    # worded from the values: this kernel's own percentages, not a fixed sentence
    assert "21.79 %" in text_of(tab, one_of(TabNames.MISREAD, "memory_throughput_pct", 1))
    assert "0.20 %" in text_of(tab, one_of(TabNames.MISREAD, "memory_throughput_pct", 1))
    assert "70.97 %" in text_of(tab, one_of(TabNames.MISREAD, "memory_throughput_pct", 2))


def test_on_the_p40_where_dram_is_busiest_the_rows_agree(qtbot) -> None:
    (vadd,) = read_report(P40).kernels
    tab = sol_tab(qtbot, [vadd])
    words = text_of(tab, one_of(TabNames.MISREAD, "memory_throughput_pct", 1))
    assert "82.65 %" in words and "agree" in words
    assert "not DRAM bandwidth" not in words
    assert text_of(tab, one_of(SolNames.BUSIEST, 1)) == "DRAM at 82.65 %"


def test_the_profiled_duration_note_sits_under_duration(qtbot, naive: Kernel) -> None:
    tab = sol_tab(qtbot, [naive])
    assert tab.findChild(QLabel, one_of(TabNames.NOTE, "duration_ns")) is None
    note = profiled_duration_note(True)
    tab.set_notes([note])
    label = tab.findChild(QLabel, one_of(TabNames.NOTE, "duration_ns"))
    assert label.text() == note.text
    duration_row, _ = grid_position(tab, tab.findChild(QLabel, one_of(SolNames.DURATION, 1)))
    assert grid_position(tab, label) == (duration_row + 1, 1)
    tab.set_notes([])
    assert tab.findChild(QLabel, one_of(TabNames.NOTE, "duration_ns")) is None


def test_the_t4_tables_busiest_unit_is_not_guessed(qtbot) -> None:
    """The T4 table has no L1/TEX or L2 row: DRAM (1.25 %) is not the busiest unit because it
    is the only unit row, when Memory Throughput reads 60.78 %."""
    naive_t4 = read_report(T4).kernels[0]
    tab = sol_tab(qtbot, [naive_t4])
    busiest = text_of(tab, one_of(SolNames.BUSIEST, 1))
    assert "not in this report" in busiest and "60.78 %" in busiest
    assert not tab.findChild(ValueBar, one_of(SolNames.BAR, "dram_throughput_pct", 1)).emphasis


# ---------------------------------------------------------------- the compare line


def line_for(qtbot, reports: list[Report], style: Style) -> CompareLine:
    line = CompareLine()
    qtbot.addWidget(line)
    entries = kernel_entries(reports)
    firsts = [next(e for e in entries if e.report_index == i) for i in range(2)]
    line.show_picks(firsts, [e.kernel.name for e in firsts], style, reports)
    return line


@pytest.fixture(scope="module")
def t4_and_h200() -> list[Report]:
    return [read_report(T4), read_report(NAIVE)]


def test_compare_line_warns_t4_against_h200(qtbot, t4_and_h200) -> None:
    t4, h200 = t4_and_h200
    line = line_for(qtbot, t4_and_h200, Style())
    expected = compare_misreads(t4.kernels[0], h200.kernels[0], t4, h200)
    assert line.misreads == expected
    kinds = {m.kind for m in line.misreads}
    assert {"different-gpu", "different-clocks", "different-ncu"} <= kinds
    text = line.text()
    assert text.count("Careful:") == len(expected)
    assert "Tesla T4" in text and "NVIDIA H200" in text
    assert "--clock-control base" in text and "--clock-control none" in text
    assert line.toolTip() == "\n\n".join(m.text for m in expected)


def test_in_projector_mode_each_warning_is_its_first_sentence(qtbot, t4_and_h200) -> None:
    line = line_for(qtbot, t4_and_h200, Style(projector=True))
    text = line.text()
    for misread in line.misreads:
        head = first_sentence(misread.text)
        assert head in text and head != misread.text
        assert misread.text not in text


def test_without_reports_or_with_one_kernel_there_is_no_warning(qtbot, t4_and_h200) -> None:
    line = CompareLine()
    qtbot.addWidget(line)
    entries = kernel_entries(t4_and_h200)
    line.show_picks([entries[0], entries[-1]], ["a", "b"], Style())  # no reports given
    assert line.misreads == [] and "Careful" not in line.text()
    line.show_picks(entries[:1], ["a"], Style(), t4_and_h200)
    assert line.misreads == []


@pytest.fixture
def window(shown_window) -> MainWindow:
    return shown_window


def load(window: MainWindow, qtbot, *paths: Path) -> None:
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        window.open_paths(list(paths))


def test_the_window_warns_when_the_t4_meets_the_shipped_h200(window, qtbot) -> None:
    load(window, qtbot, T4, NAIVE)
    window.set_tab(0)
    assert [k.name for k in window.kernels] == ["naive", "matmul_naive"]
    kinds = {m.kind for m in window.compare_line.misreads}
    assert {"different-gpu", "different-clocks", "different-ncu"} <= kinds
    assert "Different GPUs" in window.compare_line.text()
    window.set_projector(True, full_screen=False)  # the room sees it too
    assert "Different GPUs" in window.compare_line.text()


def test_the_window_warns_of_the_request_ratio_on_the_shipped_pair(window, qtbot) -> None:
    load(window, qtbot, NAIVE, TILED)
    window.set_tab(0)
    line = window.compare_line
    assert [m.kind for m in line.misreads].count("request-ratio") == 1
    assert window.height() < SHORT_HEIGHT and line.folded  # 800 high: one line names them
    assert "requests against sectors" in line.text()
    line.toggle_notes()  # N opens them whole
    assert "16.00x the global load requests" in line.text()
    assert "8.00x the sectors" in line.text()


def test_durations_are_marked_profiled_once_the_timing_tab_can_time(window, qtbot) -> None:
    load(window, qtbot, NAIVE, TILED)
    sol = window.tab_pages[0]
    assert sol.findChild(QLabel, one_of(TabNames.NOTE, "duration_ns")) is None
    window.timing_panel.probe.done.emit(DeviceCheck(device="NVIDIA H200"))
    assert text_of(sol, one_of(TabNames.NOTE, "duration_ns")) == profiled_duration_note(True).text
    assert (len(sol.findChildren(QLabel, one_of(TabNames.NOTE, "duration_ns")))
            == 1)  # once for both kernels
    window.timing_panel.probe.done.emit(DeviceCheck(problem="no GPU"))
    assert sol.findChild(QLabel, one_of(TabNames.NOTE, "duration_ns")) is None
