"""The memory chart: its plain-data layout (viewer.analysis.chart_layout) and the drawn item.

Expected values are read by eye from tests/data/corpus/h200/*.details.txt and raw.csv.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtWidgets import QScrollArea

from viewer.analysis import chart_layout as cl
from viewer.core.formatting import NOT_IN_REPORT
from viewer.core.model import Kernel
from viewer.qt.kit.style import _POINTS, Style
from viewer.qt.views.memory.memory_chart_item import MemoryChartItem
from viewer.qt.views.memory.memory_tab import MemoryChartView, MemoryTab
from viewer.readers import read_report

H200 = Path(__file__).resolve().parents[3] / "data" / "corpus" / "h200"
PUBLIC = Path(__file__).resolve().parents[3] / "data" / "corpus" / "ncu-public"
TORCH = H200 / "torch-transformer-400.details.txt.gz"


def kernel(path: Path) -> Kernel:
    return read_report(path).kernels[0]


# ---------------------------------------------------------------- widths


@given(st.floats(0, 1e12), st.floats(0, 1e12))
def test_log_width_grows_with_traffic_and_stays_in_range(a: float, b: float) -> None:
    largest = max(a, b, 1.0)
    wa, wb = cl.log_width(a, largest, 2, 22), cl.log_width(b, largest, 2, 22)
    assert 2 <= wa <= 22 and 2 <= wb <= 22
    if a <= b:
        assert wa <= wb


def test_log_width_ends_and_steps() -> None:
    assert cl.log_width(5e6, 5e6, 2, 22) == 22
    assert cl.log_width(0, 5e6, 2, 22) == 2
    assert cl.log_width(5e6 / 10 ** cl.WIDTH_DECADES, 5e6, 2, 22) == pytest.approx(2)
    step = cl.log_width(8e6, 8e6, 2, 22) - cl.log_width(1e6, 8e6, 2, 22)
    assert step == pytest.approx(20 * math.log10(8) / cl.WIDTH_DECADES)
    assert step > 5


# ---------------------------------------------------------------- counts per thread


def test_per_thread_counts_are_the_lessons(naive: Kernel, tiled: Kernel) -> None:
    assert cl.warps(naive) == 32 * 32 * 256 // 32
    assert cl.per_thread(8_388_608, naive) == 1024
    band = cl.chart_band(tiled, "tiled")
    assert band.arrow("global").above == ("524,288 requests", "64 per thread")
    assert band.arrow("shared").above == ("5,242,880 shared loads", "640 per thread")
    no_launch = kernel(PUBLIC / "old-spelling-pascal-p40-nan-values-details.txt")
    assert cl.warps(no_launch) is None and cl.per_thread(10, no_launch) is None


# ---------------------------------------------------------------- bands


def test_naive_band_from_the_full_report(naive: Kernel) -> None:
    band = cl.chart_band(naive, "naive")
    assert band.caption == ("1,024 global loads per thread, 2.00 sectors each, 16,777,216 "
                            "sectors across the grid, 0 shared loads per thread.")
    assert band.arrow("global").below == ("16,777,216 sectors", "2.00 per request")
    assert band.arrow("global").amount == 8_388_608
    assert band.arrow("l1_to_l2").above == ("1,686,206 sectors",)
    assert band.arrow("l1_to_l2").amount == 1_686_206 * 32
    assert band.arrow("dram_read").above == ("read 2.10 MB",)
    assert band.arrow("dram_read").leftward
    assert band.arrow("dram_write").below == ("written 0 B",)
    assert band.arrow("dram_write").amount == 0 and not band.arrow("dram_write").missing
    assert band.box("l1tex").lines == ("hit 87.96 %",)
    assert band.box("l2").lines == ("hit 92.78 %",)
    assert band.box("dram").lines == ("2.10 MB moved", "floor 3.15 MB", "0.67x floor")
    assert band.shared_note == cl.shared_note(naive)
    assert band.shared_note.startswith(cl.SHARED_NOTE)
    assert not any(arrow.missing for arrow in band.arrows)


@pytest.mark.parametrize("name", ["numba-naive.details.txt", "numba-naive.details.csv"])
def test_details_exports_lack_the_shared_and_l2_counters(name: str) -> None:
    band = cl.chart_band(kernel(H200 / name), "naive")
    assert band.arrow("shared").missing and band.arrow("l1_to_l2").missing
    assert band.arrow("shared").above == ("shared loads:", NOT_IN_REPORT)
    assert band.arrow("l1_to_l2").above == ("sectors:", NOT_IN_REPORT)
    assert band.shared_note == ""
    assert band.arrow("global").above[0] == "8,388,608 requests"
    assert band.arrow("global").below == ("16,777,216 sectors", "2.00 per request")
    assert band.box("dram").lines[0] == "2.10 MB moved"


def test_no_floor_without_a_known_problem_size() -> None:
    copy = kernel(PUBLIC / "new-2025-csv-details-with-rule-columns-base-units-copy-blocked.csv")
    band = cl.chart_band(copy, "copy")
    assert band.box("dram").lines == (f"bytes {NOT_IN_REPORT}",)
    assert band.arrow("global").missing and band.arrow("dram_read").missing


def test_widths_share_a_scale_per_family(naive: Kernel, tiled: Kernel) -> None:
    bands = [cl.chart_band(naive, "naive"), cl.chart_band(tiled, "tiled")]
    largest = cl.largest_by_family(bands)
    assert largest[cl.INSTRUCTIONS] == 8_388_608
    assert largest[cl.BYTES] == 1_686_206 * 32
    assert cl.largest_by_family([cl.chart_band(tiled, "tiled")])[cl.INSTRUCTIONS] == 5_242_880


def test_memory_rows_and_ratios(naive: Kernel, tiled: Kernel) -> None:
    rows = {row.key: row for row in cl.memory_ratios(naive, tiled, "naive", "tiled")}
    assert [row.key for row in rows.values()] == list(cl.MEMORY_COMPARED)
    sectors = rows["global_load_sectors"]
    assert (sectors.first, sectors.second, sectors.direction) == (
        "16,777,216", "2,097,152", "naive 8.00x tiled")
    assert rows["global_load_requests"].direction == "naive 16.00x tiled"
    assert rows["sectors_per_request"].direction == "tiled 2.00x naive"
    assert rows["duration_ns"].direction == "naive 4.59x tiled"
    assert rows["dram_bytes_write"].direction == "equal"
    values = dict((key, text) for key, _, text in cl.memory_values(naive))
    assert values["l1tex_hit_rate_pct"] == "87.96 %" and values["duration_ns"] == "219.14 us"
    details = kernel(H200 / "numba-naive.details.txt")
    values = dict((key, text) for key, _, text in cl.memory_values(details))
    assert values["shared_load_instructions"] == NOT_IN_REPORT


# ---------------------------------------------------------------- the drawn item


@pytest.fixture
def bands(naive: Kernel, tiled: Kernel) -> list[cl.ChartBand]:
    return [cl.chart_band(naive, "naive"), cl.chart_band(tiled, "tiled")]


def test_item_bounding_rect_is_the_painted_picture(qtbot, bands: list[cl.ChartBand]) -> None:
    item = MemoryChartItem()
    assert item.boundingRect().isEmpty()
    item.set_bands(bands, Style())
    rect, painted = item.boundingRect(), item.painted_rect()
    assert rect.topLeft().toTuple() == (0, 0)
    assert rect.contains(painted.toRectF())
    margin = 8
    assert painted.right() >= rect.right() - margin - 2
    assert painted.bottom() >= rect.bottom() - margin - 2
    assert rect.width() == pytest.approx(item.natural_width)


def test_item_fills_a_wider_width_and_narrows_labels_for_a_smaller_one(
        qtbot, bands: list[cl.ChartBand]) -> None:
    item = MemoryChartItem()
    item.set_bands(bands, Style(projector=True))
    wide = item.natural_width
    assert "16,777,216 sectors" in item.texts
    item.set_bands(bands, Style(projector=True), wide + 300)
    assert item.boundingRect().width() == pytest.approx(wide + 300)
    item.set_bands(bands, Style(projector=True), wide - 300)
    assert item.natural_width < wide
    assert "16,777,216" in item.texts and "sectors" in item.texts
    assert "2.00 per request" in item.texts and "53.96 MB" in item.texts


def smallest(style: Style) -> float:
    """The smallest type the style sets: the floor of the chart's painted text."""
    return min(style.points(role) for role in _POINTS)


def test_view_shrinks_only_when_it_must(qtbot, bands: list[cl.ChartBand]) -> None:
    view = MemoryChartView(bands, Style())
    qtbot.addWidget(view)
    natural = view.item.natural_width
    view.resize(round(natural) + 200, 300)
    view.show()
    qtbot.waitExposed(view)
    assert view.scale_factor == 1.0
    assert view.item.boundingRect().width() == pytest.approx(natural + 200, abs=1)
    view.resize(round(natural * 0.8), 300)  # short: the one-row chart, a little smaller

    def a_little_smaller() -> None:
        assert view.scale_factor < 1.0 and not view.item.wrapped
        assert view.height() == math.ceil(view.item.boundingRect().height() * view.scale_factor)

    qtbot.waitUntil(a_little_smaller, timeout=5_000)


def test_where_shrinking_would_not_read_the_bands_wrap(qtbot, bands: list[cl.ChartBand]) -> None:
    """Half the width: the one-row chart would be drawn at half its type; each band goes on
    rows that fit instead, at its own size, as tall as that takes."""
    view = MemoryChartView(bands, Style())
    qtbot.addWidget(view)
    natural = view.item.natural_width
    one_row = view.item.boundingRect().height()
    view.resize(round(natural / 2), 300)
    view.show()
    qtbot.waitExposed(view)
    assert view.item.wrapped, (view.width(), natural)
    assert view.item.smallest_points * view.scale_factor >= smallest(Style())
    assert view.item.boundingRect().width() * view.scale_factor <= view.width()
    assert view.height() > one_row
    assert view.item.texts.count("L1/TEX") == 2 * len(bands)  # it starts the next row again
    view.resize(round(natural) + 10, 300)
    qtbot.waitUntil(lambda: not view.item.wrapped and view.scale_factor == 1.0, timeout=5_000)


def torch_bands() -> list[cl.ChartBand]:
    """The matrix's two long-named cuBLAS kernels (#2, #7), whose report lacks most counters."""
    kernels = {k.index: k for k in read_report(TORCH).kernels}
    return [cl.chart_band(kernels[2], "sm80_xmma_..._tilesize64x64x8_st..._5x_cublas"),
            cl.chart_band(kernels[7], "sm80_xmma_..._tilesize32x32x8_st..._5x_cublas")]


@pytest.mark.parametrize("projector", [False, True], ids=["desk", "projector"])
@pytest.mark.parametrize("pair", ["shipped", "torch"])
def test_the_wrapped_chart_shows_every_number_of_the_one_row_chart(
        qtbot, bands: list[cl.ChartBand], pair: str, projector: bool) -> None:
    chosen = bands if pair == "shipped" else torch_bands()
    style = Style(projector=projector)
    wide, wrapped = MemoryChartItem(), MemoryChartItem()
    wide.set_bands(chosen, style)
    for width in (wide.natural_width * 0.6, wide.natural_width * 0.4):
        wrapped.set_bands(chosen, style, width, wrap=True)
        assert wrapped.natural_width <= max(width, wrapped.natural_width)
        drawn = " ".join(wrapped.texts)
        missing = [t for t in wide.texts if t not in wrapped.texts
                   and not all(part in drawn for part in t.split())]
        assert not missing, width
        assert set(wide.row_keys()) == set(wrapped.row_keys())
        assert wrapped.dashed == wide.dashed
        assert wrapped.arrow_widths == wide.arrow_widths
    assert wrapped.boundingRect().height() > wide.boundingRect().height()


def test_a_long_name_breaks_over_lines_within_the_wrapped_chart(qtbot) -> None:
    item = MemoryChartItem()
    item.set_bands(torch_bands(), Style(projector=True), 600, wrap=True)
    painted = item.painted_rect()
    assert painted.right() <= item.boundingRect().right()


@pytest.mark.parametrize("size", [(830, 520), (1195, 830), (1300, 520), (1854, 830)],
                         ids=["1366-exercise", "1920-exercise", "1366", "1920"])
@pytest.mark.parametrize("pair", ["shipped", "torch"])
def test_in_projector_mode_the_charts_type_is_never_smaller_than_the_projectors(
        qtbot, naive, tiled, size, pair) -> None:
    """The reading area of each screen, with the exercise open or not: the chart is drawn at
    no less than the projector's smallest type, never wider than its view nor past the page's
    right edge, and the page scrolls down to the rest of it (the whole window's matrix is in
    test_instructor_matrix)."""
    tab = MemoryTab(Style(projector=True))
    qtbot.addWidget(tab)
    tab.resize(*size)
    if pair == "shipped":
        tab.set_kernels([naive, tiled], ["matmul_naive", "matmul_tiled"])
    else:
        kernels = {k.index: k for k in read_report(TORCH).kernels}
        tab.set_kernels([kernels[2], kernels[7]], [b.name for b in torch_bands()])
    tab.show()
    qtbot.waitExposed(tab)
    view = tab.findChild(MemoryChartView)
    area = tab.findChild(QScrollArea)

    def readable_and_within() -> None:
        assert view.item.smallest_points * view.scale_factor >= smallest(Style(projector=True))
        assert view.item.boundingRect().width() * view.scale_factor <= view.width() + 0.5
        right = view.mapTo(area.viewport(), view.rect().bottomRight())
        assert right.x() <= area.viewport().width()
        if view.height() > area.viewport().height():
            assert area.verticalScrollBar().maximum() > 0

    qtbot.waitUntil(readable_and_within, timeout=5_000)  # once the layout has settled


def test_the_t4_tables_dram_sum_is_shown_as_a_sum() -> None:
    """The T4 table holds dram__bytes read + written as one sum, not the two apart."""
    from viewer.core import shipped

    naive = read_report(shipped.reference()).kernels[0]
    band = cl.chart_band(naive, "naive")
    dram = next(b for b in band.boxes if b.key == "dram")
    assert dram.lines[0] == "4.74 MB read + written"
    assert all(NOT_IN_REPORT not in line for line in dram.lines)
    read = next(a for a in band.arrows if a.key == "dram_read")
    assert read.amount is None  # the read alone is still not in the table
