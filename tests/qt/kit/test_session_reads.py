"""The one session in the window: views that ask at once are read for in one read, one at a
time on one worker, every view sees what another view's read brought, and a failed read is
said in each view that waited for it."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtWidgets import QLabel

from viewer.analysis import roofline
from viewer.qt.kit.on_demand import Names
from viewer.qt.kit.session_reads import SessionReads
from viewer.qt.kit.style import Style
from viewer.qt.views.metrics.metrics_view import MetricsView
from viewer.qt.views.roofline.roofline_answer import Names as RooflineNames
from viewer.qt.views.roofline.roofline_view import RooflineView
from viewer.qt.views.stalls.stalls_view import StallsView
from viewer.readers import read_report

ROOT = Path(__file__).resolve().parents[3]
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"


def test_two_views_asking_at_once_are_read_for_in_one_read(qtbot) -> None:
    reads = SessionReads()
    report = read_report(NAIVE)
    kernel = report.kernels[0]
    before = reads.worker.generation
    stalls_view = StallsView(Style(), reads=reads)
    roof = RooflineView(Style(), reads=reads)
    for view in (stalls_view, roof):
        qtbot.addWidget(view)
        view.show()
    stalls_view.set_kernels([kernel], ["naive"], [report])
    roof.set_kernels([kernel], ["naive"], [report])
    assert stalls_view.loading and roof.reading
    qtbot.waitUntil(lambda: stalls_view.ready and roof.chart is not None, timeout=60_000)
    assert reads.worker.generation == before + 1  # one read served both
    assert not reads.busy


def test_a_view_sees_what_another_views_read_brought(qtbot) -> None:
    reads = SessionReads()
    report = read_report(NAIVE)
    kernel = report.kernels[0]
    assert kernel.unread(roofline.ROOFLINE_METRICS)
    metrics = MetricsView(Style(), reads=reads)
    qtbot.addWidget(metrics)
    metrics.show()
    metrics.set_kernels([kernel], ["naive"], [report])
    qtbot.waitUntil(lambda: not metrics.reading, timeout=120_000)
    assert not kernel.unread(roofline.ROOFLINE_METRICS)  # every metric includes them
    generation = reads.worker.generation
    roof = RooflineView(Style(), reads=reads)
    qtbot.addWidget(roof)
    roof.set_kernels([kernel], ["naive"], [report])
    roof.show()
    assert roof.chart is not None and not roof.reading
    assert reads.worker.generation == generation  # nothing read again


def test_a_failed_read_is_said_in_every_view_that_waited(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "naive.ncu-rep"
    shutil.copyfile(NAIVE, path)
    report = read_report(path)
    shutil.copyfile(TILED, path)  # the file changed since it was opened
    reads = SessionReads()
    stalls_view = StallsView(Style(), reads=reads)
    roof = RooflineView(Style(), reads=reads)
    for view in (stalls_view, roof):
        qtbot.addWidget(view)
        view.show()
        view.set_kernels([report.kernels[0]], ["naive"], [report])
    qtbot.waitUntil(lambda: not reads.busy, timeout=60_000)
    qtbot.waitUntil(lambda: roof.findChild(QLabel, RooflineNames.ERROR) is not None, timeout=10_000)
    for text in (stalls_view.findChild(QLabel, Names.STATUS).text(),
                 roof.findChild(QLabel, RooflineNames.ERROR).text()):
        assert str(path) in text
