"""The timing tab over a list of sizes: the field's list run size by size, one point per size
per kernel with its min..max bars, the ratio, the points over 2 % ringed and said in a sentence,
and one size still shown as before. The launch times are MADE UP for the display (they say so);
tests/kernels/test_sizes_timing.py checks the numbers against the runner's own on the
simulator."""

from __future__ import annotations

import math

import pytest
from PySide6.QtWidgets import QLabel

from viewer.analysis.timing import DeviceCheck
from viewer.core.jobs import Job
from viewer.kernels.runner import KernelTiming, TimingResult
from viewer.kernels.sizes import SizesTiming
from viewer.qt.kit.style import Style
from viewer.qt.views.timing.sizes_numbers import Names as SizesNames
from viewer.qt.views.timing.sizes_numbers import sizes_cell_name
from viewer.qt.views.timing.timing_panel import TimingPanel
from viewer.qt.views.timing.timing_panel_names import Names

DEVICE = DeviceCheck(device="made-up device (display test)")
NOISY = (1.0, 1.1, 0.9, 1.0)  # 8.2 % relative standard deviation


def made_up(dim: int, job: Job) -> TimingResult:
    """MADE-UP launches (display test): naive noisy at 32, everything else steady."""
    scale = (dim / 16) ** 3
    naive = tuple(v * scale for v in (NOISY if dim == 32 else (1.0, 1.01, 0.99, 1.0)))
    tiled = tuple(v * scale / 2 for v in (1.0, 1.01, 0.99, 1.0))

    def kernel(name: str, launches: tuple[float, ...]) -> KernelTiming:
        return KernelTiming(name, dim, 1e-7, launches, (0.01,) * 4, (True,) * 4, True)

    job.progress(1.0, f"at {dim}")
    return TimingResult(dim, DEVICE.device or "", (kernel("naive", naive), kernel("tiled", tiled)))


@pytest.fixture
def panel(qtbot):
    made = TimingPanel(Style(), find_device=lambda job: DEVICE, run_timing=made_up, record=None)
    qtbot.addWidget(made)
    made.resize(1366, 900)
    made.show()
    qtbot.waitUntil(lambda: made.can_run, timeout=10_000)
    yield made
    assert made.shutdown(10_000)


def run(qtbot, panel: TimingPanel, sizes: str) -> None:
    panel.size_box.setText(sizes)
    with qtbot.waitSignal(panel.jobs.timed, timeout=10_000):
        panel.run()
    qtbot.waitUntil(lambda: panel.can_run, timeout=10_000)


def text(panel: TimingPanel, name: str) -> str:
    found = panel.findChild(QLabel, name)
    assert found is not None, name
    return found.text()


def test_a_list_is_timed_size_by_size_and_plotted_with_bars(qtbot, panel) -> None:
    run(qtbot, panel, "16,32,48")
    result = panel.result
    assert isinstance(result, SizesTiming) and result.dims == (16, 32, 48)
    plot = panel.results.sizes_plot
    assert plot.isVisible() and not panel.plot.isVisible()
    for kernel in ("naive", "tiled"):
        xs, ys = plot.points[kernel].getData()
        assert list(xs) == pytest.approx([math.log10(d) for d in (16, 32, 48)])
        spreads = [size.spread(kernel) for size in result.sizes]
        assert list(ys) == pytest.approx([math.log10(s.median_ms) for s in spreads])
        bars = plot.bars[kernel].opts
        assert len(bars["x"]) == 3
        assert list(bars["top"]) == pytest.approx(
            [math.log10(s.max_ms / s.median_ms) for s in spreads])
        assert list(bars["bottom"]) == pytest.approx(
            [math.log10(s.median_ms / s.min_ms) for s in spreads])
    assert plot.flags is not None
    flagged = plot.flags.data
    assert len(flagged) == 1 and flagged[0]["x"] == pytest.approx(math.log10(32))
    _rx, ry = plot.ratio_curve.getData()
    assert list(ry) == pytest.approx([size.ratio for size in result.sizes])
    assert text(panel, Names.STATUS) == "Timed both kernels at 16, 32, 48 (each N x N x N)."


def test_the_points_over_2_percent_are_said_and_marked_in_the_table(qtbot, panel) -> None:
    run(qtbot, panel, "16,32")
    said = text(panel, SizesNames.SIZES_STABILITY)
    assert said.startswith("Over 2% relative standard deviation: naive at 32 (8.2%).")
    assert "run again, or the machine is busy" in said and "ringed" in said
    assert "sample standard deviation" in said
    assert text(panel, sizes_cell_name("", "stable", 1)) == "yes"
    assert text(panel, sizes_cell_name("", "stable", 2)) == "NO"
    assert text(panel, sizes_cell_name("naive", "rel. std. dev.", 2)) == "8.2%"
    assert text(panel, sizes_cell_name("", "naive / tiled", 2)) == "2.00x"
    assert text(panel, sizes_cell_name("naive", "rel. std. dev.", 0)) == "naive\nrel. std. dev."
    run(qtbot, panel, "16,48")
    assert text(panel, SizesNames.SIZES_STABILITY).startswith("Every point is stable")
    assert panel.results.sizes_plot.flags.data.size == 0


def test_one_size_is_shown_as_before(qtbot, panel) -> None:
    run(qtbot, panel, "32")
    assert isinstance(panel.result, TimingResult) and panel.result.dim == 32
    assert panel.plot.isVisible() and not panel.results.sizes_plot.isVisible()
    assert set(panel.plot.launch_curves) == {"naive", "tiled"}
    run(qtbot, panel, "16,32")
    assert panel.results.sizes_plot.isVisible() and not panel.plot.isVisible()
