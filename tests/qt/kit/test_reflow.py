"""The reading tabs laid out again for a narrow width (viewer.qt.kit.reflow): labels over their
rows, then the memory table's words under its values; back side by side when the width returns;
the desk layout untouched where it fits."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QGridLayout, QLabel, QWidget

from tests.qt.grids import grid_position
from viewer.core.model import Kernel
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.reading_tab import ReadingTab
from viewer.qt.kit.reading_tab_names import Names as TabNames
from viewer.qt.kit.reflow import LayoutFit, stack_labels
from viewer.qt.kit.style import Style
from viewer.qt.kit.value_bar import ValueBar
from viewer.qt.views.memory.memory_tab import MemoryTab
from viewer.qt.views.memory.memory_tab import Names as MemoryNames
from viewer.qt.views.occupancy.occupancy_tab import OccupancyTab
from viewer.qt.views.sol.sol_tab import Names as SolNames
from viewer.qt.views.sol.sol_tab import SpeedOfLightTab

# The PyTorch capture's cuBLAS pair as the window names them (viewer.core.names: 40 characters).
LONG = [f"sm80_xmma_\u2026_tilesize{t}_st\u20265x_cublas" for t in ("64x64x8", "32x32x8")]


def shown(qtbot, cls: type[ReadingTab], kernels: list[Kernel], width: int,
          projector: bool = True, names: list[str] | None = None) -> ReadingTab:
    tab = cls(Style(projector))
    qtbot.addWidget(tab)
    tab.set_kernels(kernels, names)
    tab.resize(width, 700)
    tab.show()
    qtbot.waitExposed(tab)
    settle()
    return tab


def settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def sideways(tab: ReadingTab) -> bool:
    return tab.scroll_area.widget().width() > tab.scroll_area.viewport().width()


def row_label(tab: QWidget, text: str) -> QLabel:
    return next(label for label in tab.findChildren(QLabel) if label.text().strip() == text)


def test_narrow_speed_of_light_puts_each_label_over_its_bars(qtbot, naive: Kernel,
                                                             tiled: Kernel) -> None:
    tab = shown(qtbot, SpeedOfLightTab, [naive, tiled], 900)
    assert tab.reflow == 1 and not sideways(tab)
    label = row_label(tab, "Compute (SM) Throughput")
    bars = [tab.findChild(ValueBar, one_of(SolNames.BAR, "compute_sm_throughput_pct", c))
            for c in (1, 2)]
    row, column = grid_position(tab, label)
    assert [grid_position(tab, b) for b in bars] == [(row + 1, 0), (row + 1, 1)]
    assert column == 0
    misread = tab.findChild(QLabel, one_of(TabNames.MISREAD, "memory_throughput_pct", 1))
    bar = tab.findChild(ValueBar, one_of(SolNames.BAR, "memory_throughput_pct", 1))
    below_bar = (grid_position(tab, bar)[0] + 1, 0)
    assert grid_position(tab, misread) == below_bar  # still right under it
    explanations = [tab.findChild(QLabel, one_of(TabNames.EXPLANATION, c)) for c in (1, 2)]
    assert explanations[1].y() > explanations[0].y() + explanations[0].height() // 2


def test_the_width_back_puts_the_labels_beside_again(qtbot, naive: Kernel,
                                                     tiled: Kernel) -> None:
    tab = shown(qtbot, SpeedOfLightTab, [naive, tiled], 900)
    assert tab.reflow == 1
    tab.resize(1800, 700)
    settle()
    assert tab.reflow == 0 and not sideways(tab)
    label = row_label(tab, "Compute (SM) Throughput")
    bar = tab.findChild(ValueBar, one_of(SolNames.BAR, "compute_sm_throughput_pct", 1))
    assert grid_position(tab, label) == (grid_position(tab, bar)[0], 0)


def test_long_names_put_which_has_more_under_the_values(qtbot, naive: Kernel,
                                                        tiled: Kernel) -> None:
    tab = shown(qtbot, MemoryTab, [naive, tiled], 900, names=LONG)
    assert tab.reflow == 2 and not sideways(tab)
    words = tab.findChild(QLabel, one_of(MemoryNames.RATIO, "global_load_sectors"))
    assert "8.00x" in words.text()
    label = row_label(tab, "Sectors moved (global loads)")
    row, _ = grid_position(tab, label)
    assert grid_position(tab, words) == (row + 2, 0)
    assert not [w for w in tab.findChildren(QLabel) if w.text() == "Which has more"]


@pytest.mark.parametrize("cls", [SpeedOfLightTab, MemoryTab, OccupancyTab])
def test_the_desk_layout_stays_where_it_fits(qtbot, cls, naive: Kernel, tiled: Kernel) -> None:
    tab = shown(qtbot, cls, [naive, tiled], 1280, projector=False)
    assert tab.reflow == 0 and not sideways(tab)


def test_a_tab_not_shown_keeps_its_widest_layout(qtbot, naive: Kernel, tiled: Kernel) -> None:
    tab = SpeedOfLightTab(Style(projector=True))
    qtbot.addWidget(tab)
    tab.set_kernels([naive, tiled])
    assert tab.reflow == 0


def test_stack_labels_moves_column_0_over_its_row(qtbot) -> None:
    holder = QWidget()
    qtbot.addWidget(holder)
    grid = QGridLayout(holder)
    cells = {name: QLabel(name) for name in ("title", "label", "a", "b", "note", "words")}
    grid.addWidget(cells["title"], 0, 0, 1, 3)
    grid.addWidget(cells["label"], 1, 0)
    grid.addWidget(cells["a"], 1, 1)
    grid.addWidget(cells["b"], 1, 2)
    grid.addWidget(cells["note"], 2, 1, 1, -1)
    grid.addWidget(cells["words"], 3, 0, 1, -1)
    grid.setColumnStretch(1, 1)
    grid.setColumnStretch(2, 1)
    stack_labels(grid)
    place = {name: grid.getItemPosition(grid.indexOf(w)) for name, w in cells.items()}
    assert place == {"title": (0, 0, 1, 2), "label": (1, 0, 1, 2), "a": (2, 0, 1, 1),
                     "b": (2, 1, 1, 1), "note": (3, 0, 1, 2), "words": (4, 0, 1, 2)}
    assert [grid.columnStretch(c) for c in range(3)] == [1, 1, 0]


def test_a_fit_builds_narrower_layouts_until_one_fits_and_remembers_their_widths() -> None:
    """LayoutFit alone: the widest layout first, the next where it needs more than the room,
    the narrowest whatever it needs; a room a layout was measured too wide for skips it."""
    needs = {0: 900, 1: 700, 2: 650}
    built: list[int] = []

    def build(level: int) -> int:
        assert fits.fitting  # a resize the build causes starts no second fit
        built.append(level)
        return needs[level]

    fits = LayoutFit(2)
    assert fits.fit(None, build) == 0 and built == [0]  # not shown: the widest
    assert fits.fit(800, build) == 1 and built == [0, 1]  # 0 is known to need 900
    assert fits.widest(800) == 1 and fits.widest(900) == 0
    assert fits.fit(600, build) == 2 and built == [0, 1, 2]  # the narrowest, too wide or not
    fits.forget()
    assert fits.fit(1000, build) == 0 and built == [0, 1, 2, 0] and not fits.fitting
    fits.forget()
    assert fits.fit(800, build) == 1 and built[-2:] == [0, 1]  # measured again, then narrower

