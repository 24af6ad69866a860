"""The timing panel: no GPU here (said in one line), results displayed, runs cancelled, stale
results dropped.

This machine has no GPU, so the timing itself cannot run: the display tests build TimingResult
objects directly. H200_512 holds real per-launch times; the MADE_UP values elsewhere are invented
for the display tests and say so.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest
from numba import config, cuda
from PySide6.QtCore import Qt, QThreadPool
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QBoxLayout, QLabel

from viewer.analysis.timing import (
    NEEDS_GPU,
    DeviceCheck,
    find_device,
    queue_warning,
    ratio_text,
)
from viewer.core.formatting import milliseconds as ms_text
from viewer.core.jobs import Job
from viewer.kernels.runner import KernelTiming, TimingResult
from viewer.qt.kit.style import Style
from viewer.qt.views.timing.record_view import Names as RecordNames
from viewer.qt.views.timing.record_view import recorded_cell_name
from viewer.qt.views.timing.run_numbers import Names as NumberNames
from viewer.qt.views.timing.run_numbers import cell_name
from viewer.qt.views.timing.timing_pages import Names as PageNames
from viewer.qt.views.timing.timing_panel import TimingPanel
from viewer.qt.views.timing.timing_panel_names import Names

# Measured on an NVIDIA H200 by viewer.kernels.runner.time_kernels(512, Job()) (the JSON of
# `python -m viewer.kernels time --dim 512 --json`), rounded to the nanosecond.
H200_512 = TimingResult(dim=512, device="NVIDIA H200", kernels=(
    KernelTiming(
        kernel="naive", dim=512, relative_error=4.06e-07,
        launches_ms=(0.058816, 0.058816, 0.05904, 0.060192, 0.05936, 0.059008, 0.05872, 0.05856,
                     0.05888, 0.05904),
        dispatch_ms=(0.097697, 0.149403, 0.190829, 0.163025, 0.153714, 0.158203, 0.174115,
                     0.144105, 0.142289, 0.146579),
        queued=(True,) * 10, timed_output_matches=True),
    KernelTiming(
        kernel="tiled", dim=512, relative_error=4.03e-07,
        launches_ms=(0.04176, 0.04192, 0.041888, 0.04176, 0.041632, 0.0416, 0.041792, 0.041792,
                     0.041792, 0.041792),
        dispatch_ms=(0.102792, 0.141849, 0.133404, 0.132331, 0.123772, 0.119546, 0.144839,
                     0.137034, 0.114015, 0.135525),
        queued=(True,) * 10, timed_output_matches=True),
))


def made_up(dim: int) -> TimingResult:
    """MADE-UP values for display tests, not a measurement: H200_512's launches relabelled."""
    return TimingResult(dim=dim, device="made-up device (display test)", kernels=tuple(
        replace(k, dim=dim) for k in H200_512.kernels))


MADE_UP_DEVICE = DeviceCheck(device="made-up device (display test)")


def found_made_up_device(job: Job) -> DeviceCheck:
    return MADE_UP_DEVICE


@pytest.fixture
def make_panel(qtbot):
    panels: list[TimingPanel] = []

    def make(style: Style | None = None, **kwargs) -> TimingPanel:
        panel = TimingPanel(style, **kwargs)
        qtbot.addWidget(panel)
        panels.append(panel)
        return panel

    yield make
    for panel in panels:
        assert panel.shutdown(10_000)


def ready(qtbot, panel: TimingPanel) -> TimingPanel:
    """Look for the GPU and wait for the answer."""
    panel.check_device()
    qtbot.waitUntil(lambda: panel.device_check is not None, timeout=30_000)
    return panel


def label(panel: TimingPanel, name: str) -> QLabel:
    found = panel.findChild(QLabel, name)
    assert found is not None, f"no label {name!r}"
    return found


# ---------------------------------------------------------------------------- sizes and text


def test_the_size_field_takes_the_capture_grammar(make_panel) -> None:
    panel = make_panel()
    box = panel.size_box
    assert panel.dims == (512,) and panel.dim == 512 and box.text() == "512"
    panel.set_dim(1024)
    assert panel.dims == (1024,)
    box.setText("16,32")
    assert box.hasAcceptableInput() and panel.dims == (16, 32) and panel.dim == 16
    box.setText("16,17")  # not a multiple of the tile: corrected, the repeat dropped
    assert not box.hasAcceptableInput() and panel.dims == (16,)
    box.setText("1000,16")
    box.interpretText()
    assert box.text() == "992,16" and panel.dims == (992, 16)


def test_milliseconds_keep_four_significant_digits() -> None:
    assert ms_text(0.058944) == "0.05894 ms"
    assert ms_text(0.142069) == "0.1421 ms"
    assert ms_text(46.248289) == "46.25 ms"
    assert ms_text(1234.6) == "1,235 ms"


def test_ratio_and_queue_texts() -> None:
    assert ratio_text(H200_512) == "naive / tiled: 1.41x"
    naive, tiled = H200_512.kernels
    stopped = replace(H200_512, kernels=(naive, replace(tiled, launches_ms=(0.0,) * 10)))
    assert ratio_text(stopped) == "naive / tiled: n/a"
    assert ratio_text(replace(H200_512, kernels=(naive,))) == ""
    assert queue_warning(naive) == ""
    one = replace(naive, queued=(True,) * 9 + (False,))
    assert queue_warning(one) == ("1 naive launch was not queued behind the hold: its time may "
                                  "include dispatch.")
    assert queue_warning(replace(naive, queued=(False, False) + (True,) * 8)).startswith(
        "2 naive launches were not queued")


# ---------------------------------------------------------------------------- no GPU


def no_gpu_reason() -> str:
    if config.ENABLE_CUDASIM:
        return "NUMBA_ENABLE_CUDASIM=1"
    if not cuda.is_available():
        return "numba finds no CUDA GPU"
    pytest.skip("this machine has a CUDA GPU")


def test_without_a_gpu_the_panel_says_so_in_one_line(make_panel, qtbot) -> None:
    reason = no_gpu_reason()
    check = find_device(Job())
    assert check.device is None and reason in check.problem
    panel = ready(qtbot, make_panel())
    status = label(panel, Names.STATUS).text()
    assert status == check.problem
    assert NEEDS_GPU in status and "\n" not in status
    assert panel.status_kind == "problem"
    assert not panel.run_button.isEnabled()
    intro = label(panel, PageNames.INTRO).text()
    assert "1 correctness launch" in intro and "3 warm-ups" in intro
    assert "10 timed launches" in intro
    panel.run_action.trigger()
    panel.run()
    assert panel.worker.generation == 0
    assert label(panel, Names.STATUS).text() == status
    assert panel.result is None


def test_first_show_looks_for_the_gpu(make_panel, qtbot) -> None:
    panel = make_panel(find_device=found_made_up_device)
    assert panel.device_check is None
    assert label(panel, Names.STATUS).text() == "Looking for a CUDA GPU..."
    assert not panel.run_button.isEnabled()
    panel.show()
    qtbot.waitUntil(lambda: panel.device_check == MADE_UP_DEVICE, timeout=10_000)
    assert panel.run_button.isEnabled()
    assert label(panel, Names.STATUS).text() == "Ready to time on made-up device (display test)."


def test_a_gpu_missing_at_run_time_is_the_same_one_line(make_panel, qtbot) -> None:
    reason = no_gpu_reason()
    # The device check is told a GPU exists; the real time_kernels then finds none.
    panel = ready(qtbot, make_panel(find_device=found_made_up_device))
    panel.run()
    qtbot.waitUntil(lambda: panel.status_kind == "problem", timeout=30_000)
    status = label(panel, Names.STATUS).text()
    assert reason in status and NEEDS_GPU in status
    assert "Traceback" not in status and "\n" not in status
    assert not panel.run_button.isEnabled()
    assert panel.result is None


# ---------------------------------------------------------------------------- a result shown


def test_a_measured_result_is_displayed(make_panel) -> None:
    panel = make_panel()
    panel.show_result(H200_512)
    assert panel.stack.currentIndex() == 1
    naive, tiled = H200_512.kernels
    for timing in (naive, tiled):
        x, y = panel.plot.launch_curves[timing.kernel].getData()
        assert list(x) == list(range(1, 11))
        assert list(y) == list(timing.launches_ms)
    _, naive_median = panel.plot.median_curves["naive"].getData()
    _, tiled_median = panel.plot.median_curves["tiled"].getData()
    assert list(naive_median) == pytest.approx([0.058944, 0.058944])
    assert list(tiled_median) == pytest.approx([0.041792, 0.041792])
    colors = {panel.plot.launch_curves[k].opts["pen"].color().name() for k in ("naive", "tiled")}
    assert len(colors) == 2
    legend = [text.text for _sample, text in panel.plot.legend.items]
    assert legend == ["naive", "tiled", "naive median", "tiled median"]

    assert label(panel, cell_name("median", "naive")).text() == "0.05894 ms"
    assert label(panel, cell_name("median", "tiled")).text() == "0.04179 ms"
    assert label(panel, cell_name("min", "naive")).text() == "0.05856 ms"
    assert label(panel, cell_name("max", "naive")).text() == "0.06019 ms"
    assert label(panel, cell_name("GFLOP/s", "naive")).text() == "4,554"
    assert label(panel, cell_name("GFLOP/s", "tiled")).text() == "6,423"
    assert label(panel, cell_name("check", "tiled")).text() == "ok"
    assert label(panel, NumberNames.RATIO).text() == "naive / tiled: 1.41x"
    assert label(panel, NumberNames.DEVICE).text() == "NVIDIA H200, 512 x 512 x 512 float32"
    assert label(panel, NumberNames.DISPATCH).text() == (
        "Timed without dispatch: each launch queued behind a hold kernel; dispatch costs "
        "0.1421 ms per launch on the host (median host time of one launch call).")
    assert label(panel, NumberNames.WARNINGS).isHidden()
    note = label(panel, Names.PLAIN_RUN_NOTE).text()
    assert "Timings come from a plain run, counters from a profiled run, never mixed" in note


def test_unqueued_launches_and_a_wrong_product_are_flagged(make_panel, qtbot) -> None:
    naive, tiled = made_up(512).kernels
    flawed = replace(made_up(512), kernels=(
        replace(naive, relative_error=0.5),
        replace(tiled, queued=(False, False) + (True,) * 8)))

    def run_flawed(dim: int, job: Job) -> TimingResult:
        return flawed

    panel = ready(qtbot, make_panel(find_device=found_made_up_device, run_timing=run_flawed))
    with qtbot.waitSignal(panel.worker.done, timeout=10_000):
        panel.run()
    assert label(panel, cell_name("check", "naive")).text() == "FAILED: relative error 5.0e-01"
    assert label(panel, cell_name("check", "tiled")).text() == "ok"
    assert label(panel, NumberNames.WARNINGS).text() == (
        "2 tiled launches were not queued behind the hold: their times may include dispatch.")
    assert not label(panel, NumberNames.WARNINGS).isHidden()
    assert panel.status_kind == "problem"
    assert "naive computed a wrong product" in label(panel, Names.STATUS).text()


# ---------------------------------------------------------------------------- running


def test_a_run_reports_progress_then_shows_its_result(make_panel, qtbot) -> None:
    seen: list[tuple[float, str]] = []

    def run_made_up(dim: int, job: Job) -> TimingResult:
        job.progress(0.5, f"naive at {dim}: timed launch")
        return made_up(dim)

    panel = ready(qtbot, make_panel(find_device=found_made_up_device, run_timing=run_made_up))
    panel.worker.progress.connect(lambda f, m: seen.append((f, m)))
    panel.set_dim(1024)
    with qtbot.waitSignal(panel.worker.done, timeout=10_000):
        panel.run()
    assert seen == [(0.5, "naive at 1024: timed launch")]
    assert panel.result.dim == 1024
    assert label(panel, Names.STATUS).text() == "Timed both kernels at 1024 x 1024 x 1024."
    assert panel.run_button.isEnabled() and not panel.cancel_button.isEnabled()
    assert panel.progress.isHidden()


def test_ctrl_r_runs(make_panel, qtbot) -> None:
    panel = ready(qtbot, make_panel(find_device=found_made_up_device,
                                    run_timing=lambda dim, job: made_up(dim)))
    assert panel.run_action.shortcut() == QKeySequence("Ctrl+R")
    panel.show()
    qtbot.waitExposed(panel)
    panel.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is panel, timeout=5_000)
    target = QApplication.focusWidget() or panel
    with qtbot.waitSignal(panel.worker.done, timeout=10_000):
        qtbot.keyClick(target, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert panel.result.dim == 512


def test_cancel_stops_a_run_that_takes_a_while(make_panel, qtbot) -> None:
    started = threading.Event()

    def slow(dim: int, job: Job) -> TimingResult:
        started.set()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            job.progress(0.1, "naive at 512: timed launch")
            time.sleep(0.005)
        return made_up(dim)

    panel = ready(qtbot, make_panel(find_device=found_made_up_device, run_timing=slow))
    panel.show()
    panel.run()
    assert started.wait(5)
    qtbot.waitUntil(lambda: label(panel, Names.STATUS).text() == (
        "Timing on made-up device (display test): naive at 512: timed launch"), timeout=5_000)
    assert panel.progress.value() == 100  # 0.1 of 1000
    assert panel.cancel_button.isEnabled()
    assert not panel.run_button.isEnabled() and not panel.size_box.isEnabled()
    assert panel.progress.isVisible()
    with qtbot.waitSignal(panel.worker.cancelled, timeout=5_000):
        qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    assert label(panel, Names.STATUS).text() == "Cancelled."
    assert panel.run_button.isEnabled() and not panel.cancel_button.isEnabled()
    assert panel.worker.wait(5_000)
    qtbot.waitUntil(lambda: panel.worker.dropped == 1, timeout=5_000)  # the run's own end
    assert panel.result is None
    assert panel.stack.currentIndex() == 0


def test_a_stale_result_is_dropped_and_runs_never_overlap(make_panel, qtbot) -> None:
    started, release = threading.Event(), threading.Event()
    lock = threading.Lock()
    running = [0]
    most = [0]

    def run(dim: int, job: Job) -> TimingResult:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        if dim == 512:
            started.set()
            release.wait(10)  # ignores the cancel: its result arrives late
        with lock:
            running[0] -= 1
        return made_up(dim)

    panel = ready(qtbot, make_panel(find_device=found_made_up_device, run_timing=run))
    pool = panel.worker.findChild(QThreadPool)
    assert pool is not None
    panel.run()
    assert started.wait(5)
    panel.cancel()
    panel.set_dim(2048)
    panel.run()
    # Handed over while the first still runs: a pool free to overlap them takes a thread for it
    # there and then; this one queues it behind the first.
    assert pool.activeThreadCount() == 1
    release.set()
    qtbot.waitUntil(lambda: panel.result is not None, timeout=10_000)
    assert panel.worker.wait(10_000)
    qtbot.waitUntil(lambda: panel.worker.dropped == 1, timeout=5_000)  # the late 512 result
    assert panel.result.dim == 2048
    assert panel.worker.dropped == 1
    assert most[0] == 1  # the second run waited for the cancelled one to return
    assert label(panel, NumberNames.DEVICE).text().endswith("2048 x 2048 x 2048 float32")


def test_a_failure_is_one_line_and_the_last_result_stays(make_panel, qtbot) -> None:
    def broken(dim: int, job: Job) -> TimingResult:
        raise RuntimeError("CUDA_ERROR_LAUNCH_FAILED\n  unspecified launch failure")

    panel = ready(qtbot, make_panel(find_device=found_made_up_device, run_timing=broken))
    panel.show_result(H200_512)
    with qtbot.waitSignal(panel.worker.failed, timeout=10_000):
        panel.run()
    assert label(panel, Names.STATUS).text() == (
        "Timing failed: RuntimeError: CUDA_ERROR_LAUNCH_FAILED unspecified launch failure. "
        "The plot still shows the run at 512 x 512 x 512.")
    assert panel.status_kind == "problem"
    assert panel.result is H200_512
    assert panel.run_button.isEnabled()


# ---------------------------------------------------------------------------- style and layout


def test_projector_mode_is_larger_and_keeps_to_the_medians(make_panel) -> None:
    panel = make_panel()
    panel.show_result(H200_512)
    assert label(panel, Names.STATUS).font().pointSizeF() == Style().points("body")
    panel.set_style(Style(projector=True))
    projector = Style(projector=True)
    assert label(panel, Names.STATUS).font().pointSizeF() == projector.points("body")
    assert label(panel, NumberNames.RATIO).font().pointSizeF() == projector.points("headline")
    assert (label(panel, cell_name("median", "naive")).font().pointSizeF()
            == projector.points("body"))
    assert label(panel, cell_name("min", "naive")).isHidden()
    assert label(panel, cell_name("max", "tiled")).isHidden()
    assert not label(panel, cell_name("median", "tiled")).isHidden()
    pen = panel.plot.median_curves["naive"].opts["pen"]
    assert pen.widthF() == projector.px(2)
    assert panel.plot.getPlotItem().getAxis("left").style["tickFont"].pointSizeF() == (
        projector.points("small"))
    panel.set_style(Style())
    assert not label(panel, cell_name("min", "naive")).isHidden()
    assert panel.plot.median_curves["naive"].opts["pen"].widthF() == Style().px(2)


@pytest.mark.parametrize("projector", [False, True])
def test_at_1280x800_the_numbers_sit_beside_the_plot_unclipped(make_panel, qtbot,
                                                                projector) -> None:
    panel = make_panel(Style(projector))
    panel.resize(1280, 800)
    panel.show()
    qtbot.waitExposed(panel)
    panel.show_result(H200_512)

    def beside_unclipped() -> None:
        assert panel.body.direction() == QBoxLayout.Direction.LeftToRight
        viewport = panel.numbers_scroll.viewport()
        assert viewport.width() >= panel.numbers.minimumSizeHint().width()
        for cells in panel.rows.values():
            for cell in cells.values():
                if cell.isVisible():
                    assert cell.width() >= cell.sizeHint().width(), cell.objectName()
        assert panel.plot.height() >= panel.plot.minimumHeight()

    qtbot.waitUntil(beside_unclipped, timeout=5_000)  # once the layout has settled
    panel.resize(640, 800)
    qtbot.waitUntil(lambda: panel.body.direction() == QBoxLayout.Direction.TopToBottom,
                    timeout=5_000)


# ---------------------------------------------------------------------------- the record


def test_without_a_run_the_recorded_times_are_shown_as_recorded(make_panel) -> None:
    from viewer.analysis.timing_record import load_record, recorded_cells

    record = load_record()
    panel = make_panel()
    assert panel.showing_record and panel.record == record
    heading = label(panel, RecordNames.RECORDED_HEADING).text()
    assert heading.startswith(f"Recorded on {record.gpu}") and record.date in heading
    assert "not run on this machine" in heading
    source = label(panel, RecordNames.RECORDED_PROVENANCE).text()
    assert record.section in source and record.script in source and record.command in source
    for number, row in enumerate(record.at(512), 1):
        shown = tuple(label(panel, recorded_cell_name(c, number)).text()
                      for c in ("implementation", "median", "GFLOP_s", "vs_twin", "rel_error"))
        assert shown == recorded_cells(row)
    panel.set_dim(4096)
    assert (label(panel, recorded_cell_name("median", 1)).text()
            == recorded_cells(record.at(4096)[0])[1])
    assert label(panel, RecordNames.RECORDED_RATIO).text().startswith("naive / tiled: ")
    assert panel.record_button.isHidden()


def test_a_run_here_replaces_the_record_with_a_way_back(make_panel, qtbot) -> None:
    panel = make_panel(find_device=found_made_up_device)
    panel.show()
    panel.worker.done.emit(made_up(512))  # as a run here answers
    assert not panel.showing_record and panel.stack.currentIndex() == 1
    assert not panel.record_button.isHidden()
    assert panel.record_button.text() == "Show the recorded times"
    qtbot.mouseClick(panel.record_button, Qt.MouseButton.LeftButton)
    assert panel.showing_record and label(panel, RecordNames.RECORDED_HEADING).isVisible()
    assert panel.record_button.text() == "Show this machine's run"
    qtbot.mouseClick(panel.record_button, Qt.MouseButton.LeftButton)
    assert not panel.showing_record and panel.plot.isVisible()


def test_without_a_record_nothing_recorded_is_shown(make_panel) -> None:
    panel = make_panel(record=None)
    assert panel.recorded.isHidden()
    panel.show_result(made_up(512))
    assert panel.record_button.isHidden()
