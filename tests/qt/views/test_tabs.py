"""The three reading-order tabs against the real reports in tests/data/corpus.

Expected values are read by eye from the details text exports next to each report.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QLabel, QWidget

from viewer.analysis import occupancy_reading, reading
from viewer.core.formatting import NOT_IN_REPORT
from viewer.core.model import Kernel
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.reading_tab import NOTHING_SELECTED, ReadingTab
from viewer.qt.kit.reading_tab_names import Names as TabNames
from viewer.qt.kit.style import Style
from viewer.qt.kit.value_bar import ValueBar
from viewer.qt.views.memory.memory_tab import MemoryTab
from viewer.qt.views.memory.memory_tab import Names as MemoryNames
from viewer.qt.views.occupancy.occupancy_tab import Names as OccupancyNames
from viewer.qt.views.occupancy.occupancy_tab import OccupancyTab
from viewer.qt.views.sol.sol_tab import Names as SolNames
from viewer.qt.views.sol.sol_tab import SpeedOfLightTab
from viewer.readers import read_report

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"
H200 = CORPUS / "h200"
PUBLIC = CORPUS / "ncu-public"
TABS = (SpeedOfLightTab, MemoryTab, OccupancyTab)


def kernel(path: Path) -> Kernel:
    return read_report(path).kernels[0]


def make(qtbot, cls: type[ReadingTab], kernels: list[Kernel], projector: bool = False,
         names: list[str] | None = None) -> ReadingTab:
    tab = cls(Style(projector))
    qtbot.addWidget(tab)
    tab.set_kernels(kernels, names)
    return tab


def text_of(tab: QWidget, name: str) -> str:
    label = tab.findChild(QLabel, name)
    assert label is not None, f"no label {name!r}"
    return label.text()


def bar(tab: QWidget, name: str) -> ValueBar:
    found = tab.findChild(ValueBar, name)
    assert found is not None, f"no bar {name!r}"
    return found


def all_text(tab: QWidget) -> str:
    return "\n".join(label.text() for label in tab.findChildren(QLabel))


def rgb_pixels(path: Path) -> np.ndarray:
    """A saved picture as rows of 0xRRGGBB values, read back from the file."""
    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB32)
    assert not image.isNull(), f"{path} is not a readable picture"
    per_row = image.bytesPerLine() // 4
    values = np.frombuffer(image.constBits(), dtype=np.uint32, count=image.height() * per_row)
    return values.reshape(image.height(), per_row)[:, :image.width()] & 0xFFFFFF


def area(tab: QWidget, widget: QWidget) -> QRect:
    """Where `widget` lies in a picture of `tab`."""
    return QRect(widget.mapTo(tab, QPoint(0, 0)), widget.size())


def count(pixels: np.ndarray, rect: QRect, color: QColor) -> int:
    """How many pixels inside `rect` are exactly `color`."""
    inside = pixels[rect.top():rect.bottom() + 1, rect.left():rect.right() + 1]
    return int(np.count_nonzero(inside == (color.rgb() & 0xFFFFFF)))


# ---------------------------------------------------------------- the interface


@pytest.mark.parametrize("cls", TABS)
def test_each_tab_names_its_step_and_question(cls: type[ReadingTab], qtbot) -> None:
    tab = cls()
    qtbot.addWidget(tab)
    assert cls.TITLE.split()[0] == str(TABS.index(cls) + 1)
    assert text_of(tab, TabNames.QUESTION) == cls.QUESTION
    assert text_of(tab, TabNames.PLACEHOLDER) == NOTHING_SELECTED


def test_titles_are_the_reading_order() -> None:
    assert [cls.TITLE for cls in TABS] == ["1  Speed Of Light", "2  Memory chart",
                                          "3  Occupancy"]
    assert tuple(cls.VIEW for cls in TABS) == reading.READING_ORDER


@pytest.mark.parametrize("cls", TABS)
def test_clear_empties_the_tab(cls: type[ReadingTab], qtbot, naive: Kernel,
                               tiled: Kernel) -> None:
    tab = make(qtbot, cls, [naive, tiled])
    assert "matmul_naive" in all_text(tab)
    tab.clear()
    assert tab.kernels == [] and tab.names == []
    assert "matmul_naive" not in all_text(tab)
    assert tab.findChildren(ValueBar) == []
    assert text_of(tab, TabNames.PLACEHOLDER) == NOTHING_SELECTED


@pytest.mark.parametrize("cls", TABS)
def test_set_kernels_takes_one_or_two(cls: type[ReadingTab], qtbot, naive: Kernel) -> None:
    tab = make(qtbot, cls, [naive])
    with pytest.raises(ValueError):
        tab.set_kernels([naive, naive, naive])
    with pytest.raises(ValueError):
        tab.set_kernels([naive], ["one", "two"])
    assert tab.kernels == [naive]
    tab.set_kernels([])
    assert tab.kernels == []


@pytest.mark.parametrize("cls", TABS)
def test_names_label_the_kernels(cls: type[ReadingTab], qtbot, naive: Kernel,
                                 tiled: Kernel) -> None:
    tab = make(qtbot, cls, [naive, tiled], names=["before", "after"])
    assert tab.names == ["before", "after"]
    if cls is not MemoryTab:
        assert text_of(tab, one_of(TabNames.KERNEL_NAME, 1)) == "before"
        assert text_of(tab, one_of(TabNames.KERNEL_NAME, 2)) == "after"
    assert "matmul_naive" not in all_text(tab)


def test_the_same_kernel_twice_gets_two_names(qtbot, naive: Kernel) -> None:
    tab = make(qtbot, SpeedOfLightTab, [naive, naive])
    first, second = tab.names
    assert first != second and "matmul_naive" in first and "matmul_naive" in second


@pytest.mark.parametrize("cls", TABS)
def test_set_style_switches_sizes_and_keeps_the_kernels(cls: type[ReadingTab], qtbot,
                                                        naive: Kernel) -> None:
    tab = make(qtbot, cls, [naive])
    desk = tab.findChild(QLabel, TabNames.QUESTION).font().pointSizeF()
    tab.set_style(Style(projector=True))
    projected = tab.findChild(QLabel, TabNames.QUESTION).font().pointSizeF()
    assert projected > desk
    assert tab.kernels == [naive]
    body = [label.font().pointSizeF() for label in tab.findChildren(QLabel)]
    assert min(body) >= 20
    tab.set_style(Style(projector=False))
    assert tab.findChild(QLabel, TabNames.QUESTION).font().pointSizeF() == desk


def test_projector_style_is_large_and_high_contrast() -> None:
    desk, room = Style(False), Style(True)
    assert room.points("body") >= 20 and room.points("small") >= 20
    assert room.points("headline") >= 1.4 * room.points("body")
    assert room.points("body") > desk.points("body")
    assert room.colors.background == "#ffffff"
    for name in ("text", "secondary"):
        assert room.color(name).lightness() < 40


def test_a_tab_takes_the_styles_palette_focused_or_not(qtbot) -> None:
    tab = SpeedOfLightTab(Style(projector=True))
    qtbot.addWidget(tab)
    colors = Style(projector=True).colors
    palette = tab.palette()
    groups = (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive,
              QPalette.ColorGroup.Disabled)
    for group in groups:
        assert palette.color(group, QPalette.ColorRole.Window).name() == colors.background
        assert palette.color(group, QPalette.ColorRole.Base).name() == colors.background
        assert palette.color(group, QPalette.ColorRole.WindowText).name() == colors.text
    for group in groups[:2]:
        assert palette.color(group, QPalette.ColorRole.Text).name() == colors.text
    tab.set_style(Style(projector=False))
    assert tab.palette().color(QPalette.ColorRole.WindowText).name() == Style().colors.text


def test_a_styled_label_is_painted_and_selectable(qtbot) -> None:
    style = Style()
    made_up = "x"
    label = style.label("busiest", "heading", bold=True, color="warning", name=made_up,
                        wrap=True, highlight=True)
    qtbot.addWidget(label)
    assert label.objectName() == made_up and label.wordWrap() and label.font().bold()
    assert label.font().pointSizeF() == style.points("heading")
    assert style.colors.warning in label.styleSheet()
    assert style.colors.highlight in label.styleSheet()
    assert label.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse


# ---------------------------------------------------------------- 1. Speed Of Light


def test_sol_naive_is_compute_bound_and_l1tex_is_busiest(qtbot, naive: Kernel) -> None:
    tab = make(qtbot, SpeedOfLightTab, [naive])
    assert text_of(tab, one_of(SolNames.VERDICT, 1)) == "compute-bound"
    assert (text_of(tab, one_of(SolNames.BUSIEST, 1))
            == "L1/TEX at 23.14 % of its active cycles")  # > 21.79
    assert bar(tab, one_of(SolNames.BAR, "compute_sm_throughput_pct", 1)).text == "67.17 %"
    assert bar(tab, one_of(SolNames.BAR, "memory_throughput_pct", 1)).text == "21.79 %"
    assert bar(tab, one_of(SolNames.BAR, "dram_throughput_pct", 1)).text == "0.20 %"
    assert bar(tab, one_of(SolNames.BAR, "l1tex_throughput_pct", 1)).emphasis
    assert not bar(tab, one_of(SolNames.BAR, "l2_throughput_pct", 1)).emphasis
    assert text_of(tab, one_of(SolNames.DURATION, 1)) == "219.14 us"
    assert f"{reading.HIGH_PCT:.0f} %" in text_of(tab, SolNames.THRESHOLD)
    assert (bar(tab, one_of(SolNames.BAR, "compute_sm_throughput_pct", 1)).threshold
            == reading.HIGH_PCT)
    warning = text_of(tab, one_of(TabNames.MISREAD, "memory_throughput_pct", 1))  # under its row
    assert "busiest memory unit against its own peak" in warning
    assert "not DRAM bandwidth" in warning
    assert (text_of(tab, one_of(TabNames.EXPLANATION, 1))
            == reading.speed_of_light(naive).explanation)


def test_rows_are_labelled_as_the_report_prints_them(qtbot, naive: Kernel) -> None:
    sol = all_text(make(qtbot, SpeedOfLightTab, [naive])).splitlines()
    for row in ("Compute (SM) Throughput", "Memory Throughput", "    L1/TEX Cache Throughput",
                "    L2 Cache Throughput", "    DRAM Throughput", "Duration"):
        assert row in sol
    occupancy = make(qtbot, OccupancyTab, [naive])
    lines = all_text(occupancy).splitlines()
    assert "Theoretical Occupancy" in lines and "Achieved Occupancy" in lines
    assert "Block Limit Shared Mem" in lines
    for metric, label, text in (("launch__block_size", "Block Size", "256"),
                                ("launch__registers_per_thread", "Registers Per Thread", "28"),
                                ("launch__waves_per_multiprocessor", "Waves Per SM", "0.97")):
        assert label in lines
        assert text_of(occupancy, one_of(OccupancyNames.LAUNCH, metric, 1)) == text


def test_sol_compare_shows_both_verdicts_and_the_duration_ratio(qtbot, naive: Kernel,
                                                                tiled: Kernel) -> None:
    tab = make(qtbot, SpeedOfLightTab, [naive, tiled])
    assert text_of(tab, one_of(SolNames.VERDICT, 1)) == "compute-bound"
    assert text_of(tab, one_of(SolNames.VERDICT, 2)) == "memory-bound"
    assert text_of(tab, one_of(SolNames.BUSIEST, 2)) == "L1/TEX at 70.97 % of its active cycles"
    assert text_of(tab, one_of(SolNames.DURATION, 2)) == "47.78 us"
    ratio = text_of(tab, SolNames.DURATION_RATIO)
    assert "matmul_naive takes 4.59x as long as matmul_tiled" in ratio
    assert "219.14 us against 47.78 us" in ratio
    reverse = make(qtbot, SpeedOfLightTab, [tiled, naive])
    assert "matmul_naive takes 4.59x as long as matmul_tiled" in text_of(reverse,
                                                                          SolNames.DURATION_RATIO)


def test_sol_small_grid_and_dram_busiest_from_other_generations(qtbot) -> None:
    hotspot = kernel(PUBLIC / "old-spelling-2020-csv-sm-pct-memory-pct-v100-hotspot.csv")
    copy = kernel(PUBLIC / "new-2025-csv-details-with-rule-columns-base-units-copy-blocked.csv")
    tab = make(qtbot, SpeedOfLightTab, [hotspot, copy])
    assert text_of(tab, one_of(SolNames.VERDICT, 1)) == "small grid"  # 36 blocks, 0.07 waves per SM
    assert "36 blocks: 0.07 waves per SM — the grid does not fill the GPU" in text_of(
        tab, one_of(TabNames.EXPLANATION, 1))
    assert "small grid" in text_of(tab, SolNames.THRESHOLD)
    assert text_of(tab, one_of(SolNames.VERDICT, 2)) == "memory-bound"
    assert text_of(tab, one_of(SolNames.BUSIEST, 2)) == "DRAM at 61.84 %"
    assert bar(tab, one_of(SolNames.BAR, "dram_throughput_pct", 2)).emphasis


def test_sol_latency_without_stall_data_says_which_capture_has_it(qtbot) -> None:
    scale = read_report(CORPUS / "h200" / "workloads-kernels-and-graph.ncu-rep").kernels[0]
    tab = make(qtbot, SpeedOfLightTab, [scale])
    assert text_of(tab, one_of(SolNames.VERDICT, 1)) == "latency-bound"
    explanation = text_of(tab, one_of(TabNames.EXPLANATION, 1))
    assert "holds no warp stall metrics" in explanation and "--set full" in explanation


def test_sol_missing_rows_say_so_and_give_no_verdict(qtbot) -> None:
    vadd = kernel(PUBLIC / "old-spelling-pascal-p40-nan-values-details.txt")
    tab = make(qtbot, SpeedOfLightTab, [vadd])
    assert text_of(tab, one_of(SolNames.VERDICT, 1)) == "no verdict"
    compute = bar(tab, one_of(SolNames.BAR, "compute_sm_throughput_pct", 1))
    assert compute.value is None and compute.text == NOT_IN_REPORT and compute.fraction is None
    assert bar(tab, one_of(SolNames.BAR, "l1tex_throughput_pct", 1)).text == NOT_IN_REPORT
    assert bar(tab, one_of(SolNames.BAR, "dram_throughput_pct", 1)).text == "0.03 %"


# ---------------------------------------------------------------- 2. The memory chart


def test_memory_tab_draws_the_naive_chart(qtbot, naive: Kernel) -> None:
    tab = make(qtbot, MemoryTab, [naive])
    item = tab.chart_item()
    assert item is not None
    texts = item.texts
    assert "8,388,608 requests" in texts and "16,777,216 sectors" in texts
    assert "2.00 per request" in texts and "1,024 per thread" in texts
    assert "hit 87.96 %" in texts and "hit 92.78 %" in texts
    assert "floor 3.15 MB" in texts and "1,686,206 sectors" in texts
    assert item.dashed == set()
    assert text_of(tab, one_of(MemoryNames.VALUE, "global_load_sectors")) == "16,777,216"
    assert text_of(tab, one_of(MemoryNames.VALUE, "sectors_per_request")) == "2.00"


def test_memory_tab_says_what_a_details_export_lacks(qtbot) -> None:
    for name in ("numba-tiled.details.txt", "numba-tiled.details.csv"):
        tab = make(qtbot, MemoryTab, [kernel(H200 / name)])
        item = tab.chart_item()
        assert item.dashed == {(0, "shared"), (0, "l1_to_l2")}
        assert NOT_IN_REPORT in item.texts
        assert "524,288 requests" in item.texts and "4.00 per request" in item.texts
        assert text_of(tab, one_of(MemoryNames.VALUE, "shared_load_instructions")) == NOT_IN_REPORT


def test_memory_compare_shares_one_width_scale(qtbot, naive: Kernel, tiled: Kernel) -> None:
    tab = make(qtbot, MemoryTab, [naive, tiled])
    widths = tab.chart_item().arrow_widths
    # load instructions: naive global 8.4M > tiled shared 5.2M > tiled global 0.5M > naive shared 0
    assert widths[(0, "global")] > widths[(1, "shared")] > widths[(1, "global")]
    assert widths[(1, "global")] > widths[(0, "shared")]
    assert widths[(0, "global")] - widths[(1, "global")] >= 4
    # bytes: L1/TEX -> L2 sectors (54 MB, 44 MB) outweigh DRAM reads (2.1 MB)
    assert widths[(0, "l1_to_l2")] > widths[(1, "l1_to_l2")] > widths[(0, "dram_read")]
    alone = make(qtbot, MemoryTab, [tiled]).chart_item().arrow_widths
    assert alone[(0, "global")] < alone[(0, "shared")]


def test_memory_compare_rows_give_ratio_and_direction(qtbot, naive: Kernel,
                                                      tiled: Kernel) -> None:
    tab = make(qtbot, MemoryTab, [naive, tiled])
    assert (text_of(tab, one_of(MemoryNames.RATIO, "global_load_sectors"))
            == "matmul_naive 8.00x matmul_tiled")
    assert (text_of(tab, one_of(MemoryNames.RATIO, "global_load_requests"))
            == "matmul_naive 16.00x matmul_tiled")
    assert (text_of(tab, one_of(MemoryNames.RATIO, "sectors_per_request"))
            == "matmul_tiled 2.00x matmul_naive")
    assert text_of(tab, one_of(MemoryNames.RATIO, "shared_load_instructions")) == (
        "matmul_tiled has some, matmul_naive none")
    assert "one scale for both kernels" in text_of(tab, MemoryNames.LEGEND)


# ---------------------------------------------------------------- 3. Occupancy


def test_occupancy_naive_binding_limits_and_gap(qtbot, naive: Kernel) -> None:
    tab = make(qtbot, OccupancyTab, [naive])
    assert bar(tab, one_of(OccupancyNames.BAR, "theoretical_pct", 1)).text == "100.00 %"
    assert bar(tab, one_of(OccupancyNames.BAR, "achieved_pct", 1)).text == "60.24 %"
    assert text_of(tab, one_of(OccupancyNames.GAP, 1)) == "39.76 points below theoretical"
    assert text_of(tab, one_of(OccupancyNames.BINDING, 1)) == "Registers, Warps"
    for limit, blocks, binds in (("SM", "32", False), ("Registers", "8  binds", True),
                                 ("Shared Mem", "32", False), ("Warps", "8  binds", True),
                                 ("Barriers", "32", False)):
        found = bar(tab, one_of(OccupancyNames.LIMIT, limit, 1))
        assert (found.text, found.emphasis) == (blocks, binds)
    assert bar(tab, one_of(OccupancyNames.LIMIT, "Registers", 1)).fraction == pytest.approx(8 / 32)
    assert (text_of(tab, one_of(TabNames.EXPLANATION, 1))
            == occupancy_reading.occupancy(naive).explanation)
    assert (f"{occupancy_reading.OCCUPANCY_GAP_PCT:.0f} points"
            in text_of(tab, OccupancyNames.THRESHOLD))
    assert text_of(tab, one_of(OccupancyNames.LAUNCH, "launch__registers_per_thread", 1)) == "28"


def test_occupancy_compare_side_by_side(qtbot, naive: Kernel, tiled: Kernel) -> None:
    tab = make(qtbot, OccupancyTab, [naive, tiled])
    assert bar(tab, one_of(OccupancyNames.BAR, "achieved_pct", 2)).text == "81.48 %"
    assert bar(tab, one_of(OccupancyNames.LIMIT, "Shared Mem", 2)).text == "21"
    assert text_of(tab, OccupancyNames.ACHIEVED_COMPARISON) == (
        "Achieved Occupancy: matmul_tiled 81.48 % against matmul_naive 60.24 %, "
        "21.24 points higher.")


def test_occupancy_barriers_row_says_it_counts_hardware_barriers(qtbot, naive: Kernel,
                                                               tiled: Kernel) -> None:
    """launch__barrier_count is the hardware barriers a block reserves: the tiled kernel's two
    __syncthreads() are both BAR.SYNC 0x0 and count 1; the probes' bar.sync 0 and 5 count 6.
    The row says so, and its tip stays while the exercise picks rows."""
    from viewer.core.metrics import BARRIER_COUNT
    from viewer.qt.views.occupancy.occupancy_tab import BARRIER_TIP
    from viewer.readers.source import read_source

    tab = make(qtbot, OccupancyTab, [naive, tiled])
    row = one_of(OccupancyNames.LAUNCH, BARRIER_COUNT)
    assert text_of(tab, row) == "Barriers used (hardware)"
    assert [text_of(tab, one_of(row, n)) for n in (1, 2)] == ["0", "1"]
    syncs = [i.text for i in read_source(H200 / "numba-tiled.ncu-rep")[0].instructions
             if i.base_opcode == "BAR"]
    assert len(syncs) == 2 and all(s.split()[-1] == "0x0" for s in syncs)
    assert "two of them, uses 1" in BARRIER_TIP and "barrier 0" in BARRIER_TIP
    probes = {k.name: k.metric(BARRIER_COUNT)
              for k in read_report(H200 / "layout-barriers.raw.txt.gz").kernels}
    assert probes == {"barriers_two_syncthreads": 1, "barriers_named_0_1": 2,
                      "barriers_named_0_5": 6}
    assert "barriers 0 and 5 (bar.sync 0, bar.sync 5) reserves 6" in BARRIER_TIP
    label = tab.findChild(QLabel, row)
    assert label.toolTip() == BARRIER_TIP
    tab.set_picking(True)
    assert label.toolTip().startswith(BARRIER_TIP) and "answer the exercise" in label.toolTip()
    tab.set_picking(False)
    assert label.toolTip() == BARRIER_TIP


def test_occupancy_without_barriers_row(qtbot) -> None:
    hotspot = kernel(PUBLIC / "old-spelling-2020-csv-sm-pct-memory-pct-v100-hotspot.csv")
    tab = make(qtbot, OccupancyTab, [hotspot])
    assert tab.findChild(ValueBar, one_of(OccupancyNames.LIMIT, "Barriers", 1)) is None
    assert text_of(tab, one_of(OccupancyNames.BINDING, 1)) == "Registers"
    assert text_of(tab, one_of(OccupancyNames.GAP, 1)) == "62.65 points below theoretical"


def test_occupancy_missing_limits_say_so(qtbot) -> None:
    vadd = kernel(PUBLIC / "old-spelling-pascal-p40-nan-values-details.txt")
    tab = make(qtbot, OccupancyTab, [vadd])
    assert text_of(tab, one_of(OccupancyNames.BINDING, 1)) == f"block limits {NOT_IN_REPORT}"
    assert bar(tab, one_of(OccupancyNames.BAR, "achieved_pct", 1)).text == NOT_IN_REPORT


# ---------------------------------------------------------------- fitting the screen


@pytest.mark.parametrize("cls", TABS)
@pytest.mark.parametrize("projector", [False, True])
def test_tabs_fit_1280_by_800(cls: type[ReadingTab], projector: bool, qtbot, naive: Kernel,
                              tiled: Kernel, tmp_path: Path) -> None:
    """Compare mode renders at 1280x800 with nothing cut off sideways (desk mode needs no
    scrolling at all), and the PNG written shows it."""
    tab = make(qtbot, cls, [naive, tiled], projector)
    tab.resize(1280, 800)
    tab.show()
    qtbot.waitExposed(tab)
    scroll = tab.scroll_area
    assert scroll.horizontalScrollBar().maximum() == 0
    if not projector:  # the reading fits; the derivation against the card may follow below
        below = tab.findChild(QLabel, MemoryNames.DERIVATION_TITLE)
        if below is None:
            assert scroll.verticalScrollBar().maximum() == 0
        else:
            top = below.mapTo(scroll.widget(), QPoint(0, 0)).y()
            assert top <= scroll.viewport().height()
    path = tmp_path / "tab.png"
    assert tab.grab().save(str(path))
    look_at_the_picture(tab, rgb_pixels(path))


def look_at_the_picture(tab: ReadingTab, pixels: np.ndarray) -> None:
    """The saved picture is the whole tab, in its style, showing what the widgets say it shows:
    the question in dark type, each bar on screen filled in its colour (the answer highlighted,
    a missing value unfilled), the memory chart's arrows in theirs."""
    style = tab.style_
    assert pixels.shape == (800, 1280)
    assert pixels[1, 1] == style.color("background").rgb() & 0xFFFFFF
    question = area(tab, tab.findChild(QLabel, TabNames.QUESTION))
    rows = pixels[question.top():question.bottom() + 1, question.left():question.right() + 1]
    dark = ((rows >> 16) & 0xFF) + ((rows >> 8) & 0xFF) + (rows & 0xFF) < 3 * 80
    assert dark.sum() > question.width(), "the question's text is not in the picture"
    on_screen = area(tab, tab.scroll_area.viewport())
    bars = [b for b in tab.findChildren(ValueBar) if on_screen.contains(area(tab, b))]
    assert bars or isinstance(tab, MemoryTab), "no bar lies on screen"
    for shown in bars:
        filled = count(pixels, area(tab, shown), style.color(shown.fill))
        if shown.fraction is None:
            assert filled == 0, shown.objectName()
        elif shown.fraction >= 0.02:  # a few pixels of the track at least
            assert filled > 0, shown.objectName()
        highlighted = count(pixels, area(tab, shown), style.color("highlight"))
        assert (highlighted > 0) == (shown.emphasis and shown.value is not None), (
            shown.objectName())
    if isinstance(tab, MemoryTab):
        chart = area(tab, tab.findChild(QWidget, MemoryNames.CHART))
        assert on_screen.intersects(chart)
        for arrows in ("memory", "shared"):
            assert count(pixels, chart & on_screen, style.color(arrows)) > 100, arrows


def derivation(kernel: str, row: str, column: int) -> str:
    """The object name of a cell of the memory tab's derivation table."""
    return one_of(MemoryNames.DERIVATION, kernel, row, column)


def test_memory_tab_sets_the_derivation_against_the_card(qtbot) -> None:
    profiles = Path(__file__).resolve().parents[3] / "profiles"
    kernels = [read_report(profiles / f"{n}.ncu-rep").kernels[0] for n in ("naive", "tiled")]
    tab = MemoryTab()
    qtbot.addWidget(tab)
    tab.set_kernels(kernels, ["matmul_naive", "matmul_tiled"])
    found = {w.objectName(): w.text() for w in tab.findChildren(QLabel) if w.objectName()}
    assert found[derivation("matmul_naive", "global_load_requests", 2)] == "8,388,608"
    assert found[derivation("matmul_naive", "global_load_requests", 3)] == "8,388,608"
    assert found[derivation("matmul_tiled", "shared_load_instructions", 4)] == "62.50 %"
    assert "merged" in found[MemoryNames.DERIVATION_NOTE]


def test_memory_tab_has_no_derivation_for_foreign_kernels(qtbot) -> None:
    (kernel,) = read_report(CORPUS / "ncu-public"
                            / "new-2025-details-naive-gemm-single-kernel-cc86.txt").kernels
    tab = MemoryTab()
    qtbot.addWidget(tab)
    tab.set_kernels([kernel])
    assert all(w.objectName() != MemoryNames.DERIVATION_TITLE for w in tab.findChildren(QLabel))


def test_memory_tab_says_what_the_dram_counters_show_against_the_floor(qtbot) -> None:
    """The boxes show only 'floor 3.15 MB, 0.67x floor'; the words under the chart say why a
    kernel can sit below a compulsory floor, from each kernel's own two DRAM counters."""
    profiles = Path(__file__).resolve().parents[3] / "profiles"
    kernels = [read_report(profiles / f"{n}.ncu-rep").kernels[0] for n in ("naive", "tiled")]
    for shown, names in (([kernels[0]], ["matmul_naive"]), (kernels, ["matmul_naive",
                                                                       "matmul_tiled"])):
        tab = MemoryTab()
        qtbot.addWidget(tab)
        tab.set_kernels(shown, names)
        found = {w.objectName(): w.text() for w in tab.findChildren(QLabel) if w.objectName()}
        for kernel, name in zip(shown, names, strict=True):
            text = found[one_of(MemoryNames.FLOOR_NOTE, name)]
            read = kernel.metric("dram__bytes_read.sum")
            assert read is not None and read > 2_097_152 * 1.001  # an exact count
            assert f"DRAM read {read:,.0f} B against A and B's 2,097,152 B" in text
            assert "wrote 0 B against C's 1,048,576 B" in text
            assert text.startswith(f"{name}'s DRAM traffic below the floor" if len(shown) == 2
                                   else "DRAM traffic below the floor")
