"""A view's reads in the window (viewer.qt.kit.view_reads): asked when its widget is shown and
not before, again for kernels given while it was hidden, and one signal: `changed(True)` once
when the read arrives or fails, `changed(False)` only as the progress of the kernels shown
moves, nothing for what the view calls itself."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QWidget

from viewer.analysis import roofline, stalls
from viewer.qt.kit.session_reads import SessionReads
from viewer.qt.kit.view_reads import STEPS, ViewReads
from viewer.readers import read_report
from viewer.session import Need
from viewer.session.shown import State

ROOT = Path(__file__).resolve().parents[3]
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"


def watched(qtbot, need: Need) -> tuple[QWidget, ViewReads, list[bool], SessionReads]:
    widget = QWidget()
    qtbot.addWidget(widget)
    reads = SessionReads()
    wanted = ViewReads(need, widget, reads)
    said: list[bool] = []
    wanted.changed.connect(said.append)
    return widget, wanted, said, reads


def test_asked_when_shown_and_one_signal_when_the_read_arrives(qtbot) -> None:
    widget, wanted, said, reads = watched(qtbot, Need.of(roofline.ROOFLINE_METRICS))
    report = read_report(NAIVE)
    wanted.show([report], report.kernels[:1])
    assert not wanted.reading and not reads.busy and said == []  # hidden: nothing asked
    widget.show()
    assert wanted.reading and wanted.state is State.READING
    qtbot.waitUntil(lambda: wanted.state is State.READY, timeout=60_000)
    assert said.count(True) == 1 and said[-1] is True  # progress first, then the arrival
    assert all(not whole for whole in said[:-1])
    assert 0 <= wanted.steps <= STEPS and not reads.busy


def test_kernels_given_while_hidden_are_read_once_shown_again(qtbot) -> None:
    widget, wanted, said, reads = watched(qtbot, Need.of(stalls.STALL_METRICS))
    naive, tiled = read_report(NAIVE), read_report(TILED)
    widget.show()
    wanted.show([naive], naive.kernels[:1])
    qtbot.waitUntil(lambda: wanted.state is State.READY, timeout=60_000)
    widget.hide()
    generation = reads.worker.generation
    assert wanted.show([tiled], tiled.kernels[:1])
    assert wanted.state is State.READING and not wanted.reading  # not asked while hidden
    said.clear()
    widget.show()
    assert wanted.reading
    qtbot.waitUntil(lambda: wanted.state is State.READY, timeout=60_000)
    assert reads.worker.generation == generation + 1 and said.count(True) == 1


def test_a_read_for_kernels_no_longer_shown_is_dropped(qtbot) -> None:
    widget, wanted, said, reads = watched(qtbot, Need.of(roofline.ROOFLINE_METRICS))
    naive = read_report(NAIVE)
    export = read_report(ROOT / "profiles" / "naive.raw.csv")
    widget.show()
    wanted.show([naive], naive.kernels[:1])
    assert wanted.reading
    wanted.show([export], export.kernels[:1])  # an export lacks nothing: ready at once
    assert wanted.state is State.READY and said == []
    qtbot.waitUntil(lambda: not reads.busy, timeout=60_000)
    assert said == []  # naive's read and its progress said nothing to this view
