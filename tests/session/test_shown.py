"""What a view shown needs read, without Qt: asked for only while the view is shown (and once
shown, for kernels given while hidden), NONE / READING / READY / ERROR from what the session
holds, the read's progress kept only for the kernels shown, and a read of kernels no longer shown
changing nothing of what is shown."""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

from viewer.analysis import roofline, stalls
from viewer.readers import read_report
from viewer.session import Answer, Ask, Need, ReportSession, read
from viewer.session.shown import ShownReads, State, Status, Want

ROOT = Path(__file__).resolve().parents[2]
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
EXPORT = ROOT / "profiles" / "naive.raw.csv"
ROOFLINE = Need.of(roofline.ROOFLINE_METRICS)


class Reader:
    """The session's own plan, read and take, in the order a worker runs them: `ask` plans,
    `finish` reads what was planned and takes the answers in."""

    def __init__(self) -> None:
        self.session = ReportSession()
        self.planned: list[Ask] = []
        self.asked = 0

    def ask(self, wants: Iterable[Want]) -> bool:
        asks = self.session.plan(wants)
        self.planned += asks
        self.asked += bool(asks)
        return bool(asks)

    def finish(self, answers: list[Answer] | None = None) -> None:
        planned, self.planned = self.planned, []
        self.session.take(planned, answers if answers is not None else read(planned))


def shown(reader: Reader, need: Need = ROOFLINE) -> ShownReads:
    return ShownReads(reader.session, need, reader.ask)


def test_nothing_shown_is_none_and_asks_nothing() -> None:
    reader = Reader()
    view = shown(reader)
    view.set_visible(True)
    assert view.state is State.NONE and view.status == Status(State.NONE)
    report = read_report(NAIVE)
    view.show([], report.kernels[:1])  # no report for the kernel: nothing can be read
    assert view.state is State.NONE and reader.asked == 0


def test_asked_only_once_shown_then_ready_when_the_read_is_taken_in() -> None:
    reader = Reader()
    report = read_report(NAIVE)
    view = shown(reader)
    view.show([report], report.kernels[:1])
    assert reader.asked == 0 and not view.reading  # hidden: nothing asked
    assert view.state is State.READING  # but still unread
    view.set_visible(True)
    assert reader.asked == 1 and view.reading and view.state is State.READING
    view.set_visible(True)
    view.arrived()
    assert reader.asked == 1  # being read: not asked twice
    reader.finish()
    view.arrived()
    assert view.state is State.READY and view.status == Status(State.READY)
    assert not report.kernels[0].unread(roofline.ROOFLINE_METRICS)
    assert reader.asked == 1


def test_kernels_changed_while_hidden_are_asked_for_once_shown() -> None:
    reader = Reader()
    naive, tiled = read_report(NAIVE), read_report(TILED)
    view = shown(reader, Need.of(stalls.STALL_METRICS))
    view.set_visible(True)
    view.show([naive], naive.kernels[:1])
    assert reader.asked == 1
    view.set_visible(False)
    assert view.show([tiled], tiled.kernels[:1])
    assert reader.asked == 1  # hidden
    assert not view.show([tiled], tiled.kernels[:1])  # the same kernels: no change
    view.set_visible(True)
    assert reader.asked == 2
    assert [(a.report, a.indices) for a in reader.planned] == [(naive, (0,)), (tiled, (0,))]


def test_progress_is_kept_only_while_the_kernels_shown_are_read() -> None:
    reader = Reader()
    naive, tiled = read_report(NAIVE), read_report(TILED)
    view = shown(reader)
    assert not view.moved(0.5, "elsewhere")  # nothing shown is read: another view's read
    view.set_visible(True)
    view.show([naive], naive.kernels[:1])
    assert view.moved(0.25, "reading naive.ncu-rep")
    assert view.status == Status(State.READING, "", 0.25, "reading naive.ncu-rep")
    assert view.moved(1.5, "past the end") and view.status.fraction == 1.0
    view.show([tiled], tiled.kernels[:1])  # new kernels: asked, and their progress starts at 0
    assert view.status == Status(State.READING)


def test_a_read_of_kernels_no_longer_shown_changes_nothing_shown() -> None:
    reader = Reader()
    naive, tiled = read_report(NAIVE), read_report(TILED)
    view = shown(reader)
    view.set_visible(True)
    view.show([naive], naive.kernels[:1])
    first = reader.planned
    view.set_visible(False)
    view.show([tiled], tiled.kernels[:1])
    reader.planned = []
    reader.session.take(first, read(first))  # naive's read arrives after the change
    view.arrived()
    assert not view.moved(0.9, "naive's read")
    assert view.pairs == [(tiled, tiled.kernels[0])] and view.state is State.READING
    assert not naive.kernels[0].unread(roofline.ROOFLINE_METRICS)  # taken in all the same


def test_a_read_that_failed_is_an_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "naive.ncu-rep"
    shutil.copyfile(NAIVE, path)
    report = read_report(path)
    shutil.copyfile(TILED, path)  # the file changed since it was opened
    reader = Reader()
    view = shown(reader)
    view.set_visible(True)
    view.show([report], report.kernels[:1])
    reader.finish()
    view.arrived()
    assert view.state is State.ERROR and str(path) in view.error
    assert view.status == Status(State.ERROR, view.error)
    assert reader.asked == 1  # a report that failed is not asked again


def test_an_error_waits_for_the_other_report_of_the_pair() -> None:
    reader = Reader()
    naive, tiled = read_report(NAIVE), read_report(TILED)
    view = shown(reader)
    view.set_visible(True)
    view.show([naive, tiled], [naive.kernels[0], tiled.kernels[0]])
    [of_naive, of_tiled] = reader.planned
    reader.planned = []
    reader.session.take([of_naive], [Answer(error="naive.ncu-rep: changed since it was opened")])
    view.arrived()
    assert view.state is State.READING and view.error  # tiled is still read
    reader.session.take([of_tiled], read([of_tiled]))
    view.arrived()
    assert view.state is State.ERROR and view.error.startswith("naive.ncu-rep")


def test_an_export_is_ready_at_once_and_never_asked() -> None:
    reader = Reader()
    report = read_report(EXPORT)
    view = shown(reader, Need.of(None, about=True))
    view.set_visible(True)
    view.show([report], report.kernels[:1])
    assert view.state is State.READY and reader.asked == 0
