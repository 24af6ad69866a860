"""viewer.qt.kit.workers: results on the GUI thread, stale ones dropped, every failure one line."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import ClassVar

import pytest

from viewer.core.jobs import Job, one_line
from viewer.core.model import ReportError
from viewer.qt.kit.workers import Worker
from viewer.readers import read_report

H200 = Path(__file__).resolve().parents[2] / "data" / "corpus" / "h200"


@pytest.fixture
def worker(qtbot):
    w = Worker()
    yield w
    w.shutdown(10_000)


def square(x: int, job: Job) -> tuple[int, int]:
    job.progress(0.5, "halfway")
    return x * x, threading.get_ident()


def test_done_arrives_on_the_gui_thread_with_progress(worker, qtbot) -> None:
    progress: list[tuple[float, str]] = []
    worker.progress.connect(lambda f, m: progress.append((f, m)))
    slot_threads: list[int] = []
    worker.done.connect(lambda _r: slot_threads.append(threading.get_ident()))
    with qtbot.waitSignal(worker.done, timeout=10_000) as blocker:
        worker.submit(square, 7)
    value, job_thread = blocker.args[0]
    assert value == 49
    assert job_thread != threading.get_ident()
    assert slot_threads == [threading.get_ident()]
    assert progress == [(0.5, "halfway")]
    assert not worker.busy


def test_a_real_report_loads_off_the_gui_thread(worker, qtbot) -> None:
    def load(path: Path, job: Job):
        return read_report(path), threading.get_ident()

    with qtbot.waitSignal(worker.done, timeout=60_000) as blocker:
        worker.submit(load, H200 / "numba-naive.ncu-rep")
    report, thread = blocker.args[0]
    assert thread != threading.get_ident()
    assert [k.name for k in report.kernels] == ["matmul_naive"]


def test_a_report_error_is_its_own_line(worker, qtbot, tmp_path) -> None:
    empty = tmp_path / "empty.ncu-rep"
    empty.write_bytes(b"")

    def load(path: Path, job: Job):
        return read_report(path)

    with qtbot.waitSignal(worker.failed, timeout=30_000) as blocker:
        worker.submit(load, empty)
    message = blocker.args[0]
    assert "\n" not in message
    assert str(empty) in message


def test_an_unexpected_exception_becomes_a_one_line_failure(worker, qtbot) -> None:
    def broken(job: Job) -> None:
        raise KeyError("first line\n   second line")

    done: list[object] = []
    worker.done.connect(done.append)
    with qtbot.waitSignal(worker.failed, timeout=10_000) as blocker:
        worker.submit(broken)
    assert blocker.args[0] == "KeyError: 'first line\\n second line'"
    assert done == []
    assert not worker.busy


def test_one_line_keeps_a_report_errors_text() -> None:
    error = ReportError("/tmp/x.csv", "not an Nsight Compute export\n(saw: hello)")
    assert one_line(error) == "/tmp/x.csv: not an Nsight Compute export (saw: hello)"
    assert one_line(ValueError()) == "ValueError"


def test_a_stale_result_is_dropped(worker, qtbot) -> None:
    release = threading.Event()

    def slow(job: Job) -> str:
        release.wait(10)
        return "stale"

    def fast(job: Job) -> str:
        return "fresh"

    results: list[str] = []
    worker.done.connect(results.append)
    first = worker.submit(slow)
    with qtbot.waitSignal(worker.done, timeout=10_000):
        second = worker.submit(fast)
    assert second == first + 1
    release.set()
    assert worker.wait(10_000)
    qtbot.waitUntil(lambda: worker.dropped == 1, timeout=5_000)  # the stale result's event
    assert results == ["fresh"]


def test_a_stale_failure_is_dropped_too(worker, qtbot) -> None:
    release = threading.Event()

    def slow_failure(job: Job) -> None:
        release.wait(10)
        raise RuntimeError("old news")

    failures: list[str] = []
    worker.failed.connect(failures.append)
    worker.submit(slow_failure)
    with qtbot.waitSignal(worker.done, timeout=10_000):
        worker.submit(lambda job: "fresh")
    release.set()
    assert worker.wait(10_000)
    qtbot.waitUntil(lambda: worker.dropped == 1, timeout=5_000)  # the stale failure's event
    assert failures == []


def test_cancel_stops_a_job_that_checks_and_drops_its_result(worker, qtbot) -> None:
    started = threading.Event()

    def endless(job: Job) -> str:
        started.set()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            job.progress(0.1, "working")
            time.sleep(0.005)
        return "never"

    results: list[str] = []
    worker.done.connect(results.append)
    worker.submit(endless)
    assert started.wait(5)
    with qtbot.waitSignal(worker.cancelled, timeout=5_000):
        worker.cancel()
    assert not worker.busy
    assert worker.wait(5_000)
    qtbot.waitUntil(lambda: worker.dropped == 1, timeout=5_000)  # the job's own Cancelled
    assert results == []


def test_busy_changes_once_per_stream_of_jobs(worker, qtbot) -> None:
    changes: list[bool] = []
    worker.busy_changed.connect(changes.append)
    release = threading.Event()
    worker.submit(lambda job: release.wait(10))
    worker.submit(lambda job: "second")
    assert worker.busy
    with qtbot.waitSignal(worker.done, timeout=10_000):
        pass
    release.set()
    assert changes == [True, False]


class Cycle:
    """A reference cycle that notes the thread it was collected on."""

    freed_on: ClassVar[list[int]] = []

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        Cycle.freed_on.append(threading.get_ident())


def test_garbage_made_by_a_job_is_collected_on_the_gui_thread(worker, qtbot) -> None:
    import gc

    assert not gc.isenabled()  # automatic collection would run in whichever thread allocates

    def make_garbage(job: Job) -> int:
        for _ in range(20_000):  # far past the youngest generation's threshold
            Cycle()
        return threading.get_ident()

    Cycle.freed_on.clear()
    with qtbot.waitSignal(worker.done, timeout=10_000) as blocker:
        worker.submit(make_garbage)
    assert blocker.args[0] != threading.get_ident()
    qtbot.waitUntil(lambda: len(Cycle.freed_on) == 20_000, timeout=10_000)
    assert set(Cycle.freed_on) == {threading.get_ident()}


# Run alone, in a fresh interpreter: no other test's workers hold the collector there.
GC_SCOPE = textwrap.dedent("""
    import gc, json, time
    import shiboken6
    from PySide6.QtCore import QObject, QTimer
    from PySide6.QtWidgets import QApplication
    from viewer.qt.kit.workers import Worker

    app = QApplication([])
    seen = {"before": gc.isenabled()}
    window = QObject()
    first, second = Worker(window), Worker()
    seen["two workers"] = gc.isenabled()
    shiboken6.delete(second)
    seen["one left"] = gc.isenabled()
    first.submit(lambda job: time.sleep(0.3))
    shiboken6.delete(window)  # its worker goes with it; the pool waits for the job's return
    seen["job not yet returned"] = gc.isenabled()
    app.processEvents()
    seen["all gone"] = gc.isenabled()
    kept = Worker()
    seen["a new worker"] = gc.isenabled()
    QTimer.singleShot(0, app.quit)
    app.exec()
    seen["after quit, a worker alive"] = gc.isenabled()
    Worker()
    seen["a worker after the quit"] = gc.isenabled()
    print(json.dumps(seen))
""")

# An application destroyed without ever running its event loop (a script) takes its workers, and
# so the collector, with it: automatic collection comes back.
GC_WITHOUT_QUIT = textwrap.dedent("""
    import gc
    import shiboken6
    from PySide6.QtWidgets import QApplication
    from viewer.qt.kit.workers import Worker

    app = QApplication([])
    worker = Worker()
    off = not gc.isenabled()
    shiboken6.delete(app)
    print(off, gc.isenabled())
""")


def test_automatic_collection_is_off_only_while_workers_or_their_jobs_live(tmp_path) -> None:
    import json

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run([sys.executable, "-c", GC_SCOPE], capture_output=True, text=True,
                            env=env, timeout=60, cwd=Path(__file__).resolve().parents[3])
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "before": True, "two workers": False, "one left": False,
        "job not yet returned": False, "all gone": True, "a new worker": False,
        "after quit, a worker alive": True, "a worker after the quit": True}


def test_automatic_collection_comes_back_with_an_application_destroyed_unquit() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run([sys.executable, "-c", GC_WITHOUT_QUIT], capture_output=True,
                            text=True, env=env, timeout=60,
                            cwd=Path(__file__).resolve().parents[3])
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True"]


def test_a_job_outliving_its_workers_widget_reports_to_no_one(qtbot) -> None:
    """A view deleted while its job still runs: the job's progress and result are dropped, no
    'Signal source has been deleted' reaches the event loop (pytest-qt would fail the test)."""
    import shiboken6
    from PySide6.QtWidgets import QWidget

    view = QWidget()
    worker = Worker(view)
    finished = threading.Event()

    def slow(job: Job) -> str:
        for i in range(5):
            time.sleep(0.02)
            job.progress(i / 5, "working")
        finished.set()
        return "done"

    worker.submit(slow)
    shiboken6.delete(view)
    assert not shiboken6.isValid(worker)
    qtbot.waitUntil(finished.is_set, timeout=5000)
    # Deleting the worker waited for its pool, so the job's events are queued already; a later
    # job's result, relayed the same way, arrives after them.
    witness = Worker()
    with qtbot.waitSignal(witness.done, timeout=5_000):
        witness.submit(lambda job: None)


APP_GONE_MID_JOB = textwrap.dedent("""
    import sys, threading, time
    import shiboken6
    from PySide6.QtCore import QObject
    from PySide6.QtWidgets import QApplication
    from viewer.qt.kit.workers import Worker
    app = QApplication([])
    first = Worker()  # makes the relay, the application's child
    window = QObject(app)  # a later child: deleted after the relay, its pool waiting on the job
    worker = Worker(window)
    started, stopped, steps = threading.Event(), threading.Event(), []

    def slow(job):
        started.set()
        try:
            for i in range(40):
                time.sleep(0.02)
                job.progress(i / 40, "working")
                steps.append(i)
            return "done"
        finally:
            stopped.set()

    worker.submit(slow)
    started.wait(5)
    shiboken6.delete(app)  # the application ends while the job runs
    assert stopped.wait(30)
    print(len(steps))
""")


def test_a_job_running_when_the_application_ends_stops_quietly() -> None:
    """The relay goes with the application: the job's next progress stops it, and nothing is
    printed ('Signal source has been deleted' from the pool thread before)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run([sys.executable, "-c", APP_GONE_MID_JOB], capture_output=True,
                            text=True, env=env, timeout=60,
                            cwd=Path(__file__).resolve().parents[3])
    assert result.returncode == 0, result.stderr
    assert "Signal source has been deleted" not in result.stderr, result.stderr
    assert int(result.stdout.split()[-1]) < 40  # stopped, not run to its end
