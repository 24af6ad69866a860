"""How long the GUI thread stalls while the window loads, sorts, filters and scrolls 10,000 kernels.

A QTimer ticks every 10 ms on the GUI thread and records the gap between ticks; the longest gap
minus the tick is the longest stall a user would feel. Target: no stall over 100 ms.

The input is benchmarks/data/big-10000.details.csv (made by benchmarks/make_big_csv.py) when it is
there, read by the window's own loading job; otherwise a job builds 10,000 kernels from the real
naive and tiled H200 launches in tests/data/corpus/h200/.

    QT_QPA_PLATFORM=offscreen python benchmarks/bench_kernel_list.py [--csv PATH]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The read itself is what is timed: never an answer kept by the cache of what was read (the
# variable reaches the subprocesses too).
os.environ["NCU_READER_NO_CACHE"] = "1"

from PySide6.QtCore import QEventLoop, QObject, Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from viewer.core.jobs import Job  # noqa: E402
from viewer.core.model import Report  # noqa: E402
from viewer.qt.kernel_list.kernel_list import COLUMNS, kernel_entries  # noqa: E402
from viewer.qt.shell.app import quiet_offscreen_noise  # noqa: E402
from viewer.qt.shell.loading import Loaded  # noqa: E402
from viewer.qt.shell.main_window import MainWindow  # noqa: E402

BIG_CSV = ROOT / "benchmarks" / "data" / "big-10000.details.csv"
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
KERNELS = 10_000
TICK_MS = 10
TARGET_MS = 100.0


class StallMonitor(QObject):
    """Records the gaps between ticks of a 10 ms timer on the GUI thread."""

    def __init__(self) -> None:
        super().__init__()
        self.timer = QTimer(self)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self._tick)
        self.gaps: list[float] = []
        self._last = 0.0

    def start(self) -> None:
        self.gaps = []
        self._last = time.perf_counter()
        self.timer.start(TICK_MS)

    def stop(self) -> None:
        self.timer.stop()
        self._tick()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append((now - self._last) * 1000)
        self._last = now

    @property
    def longest_stall_ms(self) -> float:
        return max((gap - TICK_MS for gap in self.gaps), default=0.0)


def wait_until(done: Callable[[], bool], timeout_s: float = 600) -> None:
    deadline = time.perf_counter() + timeout_s
    while not done():
        if time.perf_counter() > deadline:
            raise SystemExit("timed out")
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
        time.sleep(0.001)


def spin(ms: float) -> None:
    end = time.perf_counter() + ms / 1000
    wait_until(lambda: time.perf_counter() >= end)


def replicated(job: Job) -> Loaded:
    """10,000 kernels from the real naive and tiled launches, as the loading job would hand back."""
    from viewer.readers import read_report

    pair = [read_report(H200 / f"numba-{name}.ncu-rep").kernels[0] for name in ("naive", "tiled")]
    kernels = [dataclasses.replace(pair[i % 2], index=i) for i in range(KERNELS)]
    report = Report(str(H200 / "replicated-10000.ncu-rep"), "ncu-rep", kernels)
    job.progress(0.5, "Listing kernels")
    return Loaded((Path(report.source),), (report,), tuple(kernel_entries([report])))


def measure(monitor: StallMonitor, name: str, action: Callable[[], None],
            settle: Callable[[], bool] = lambda: True) -> tuple[str, float, float]:
    monitor.start()
    start = time.perf_counter()
    action()
    wait_until(settle)
    spin(50)
    wall = (time.perf_counter() - start) * 1000
    monitor.stop()
    return name, wall, monitor.longest_stall_ms


def scroll_through(window: MainWindow,
                   steps: int = 200) -> tuple[Callable[[], None], Callable[[], bool]]:
    """Start and done-check for scrolling the kernel list top to bottom, one step per turn of
    the event loop, as a wheel would."""
    bar = window.kernel_list.view.verticalScrollBar()
    state = {"step": steps}

    def step() -> None:
        state["step"] += 1
        bar.setValue(round(bar.maximum() * state["step"] / steps))
        if state["step"] < steps:
            QTimer.singleShot(5, step)

    def start() -> None:
        bar.setValue(0)
        state["step"] = 0
        QTimer.singleShot(0, step)

    return start, lambda: state["step"] >= steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv", type=Path, default=BIG_CSV,
                        help="a 10,000-kernel details CSV (default: %(default)s)")
    args = parser.parse_args(argv)

    quiet_offscreen_noise()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = MainWindow(record_recent=False)
    window.resize(1280, 800)
    window.show()
    monitor = StallMonitor()
    rows: list[tuple[str, float, float]] = []

    if args.csv.is_file():
        source = f"{args.csv.name} ({args.csv.stat().st_size / 1e6:,.0f} MB), read by the window"
        rows.append(measure(monitor, "load: read, list, apply",
                            lambda: window.open_paths([args.csv]), lambda: not window.busy))
    else:
        source = "10,000 kernels replicated from the H200 naive/tiled .ncu-rep (no big CSV)"
        rows.append(measure(monitor, "load: build, list, apply",
                            lambda: window.worker.submit(replicated), lambda: not window.busy))
    if window.last_error or len(window.kernel_list.entries()) != KERNELS:
        print(f"loading failed: {window.last_error or len(window.kernel_list.entries())}",
              file=sys.stderr)
        return 1

    view = window.kernel_list.view
    start_scroll, scrolled = scroll_through(window)
    rows.append(measure(monitor, "scroll the list top to bottom", start_scroll, scrolled))
    rows.append(measure(monitor, "sort by duration",
                        lambda: view.sortByColumn(COLUMNS.index("Duration"),
                                                  Qt.SortOrder.DescendingOrder)))
    rows.append(measure(monitor, "sort by name",
                        lambda: view.sortByColumn(COLUMNS.index("Kernel"),
                                                  Qt.SortOrder.AscendingOrder)))
    rows.append(measure(monitor, "filter 'tiled' (5,000 rows)",
                        lambda: window.kernel_list.filter_box.setText("tiled")))
    rows.append(measure(monitor, "scroll the filtered list", start_scroll, scrolled))
    rows.append(measure(monitor, "clear the filter",
                        lambda: window.kernel_list.filter_box.clear()))
    entries = window.kernel_list.entries()
    rows.append(measure(monitor, "pick two kernels (tabs redraw)",
                        lambda: window.kernel_list.picked.emit([entries[0], entries[-1]])))
    rows.append(measure(monitor, "step to the memory chart", lambda: window.set_tab(1)))
    rows.append(measure(monitor, "swap A and B", window.swap))
    kernel_list = window.kernel_list
    rows.append(measure(monitor, "group by name (G)", lambda: kernel_list.set_grouped(True),
                        lambda: kernel_list.group_view.isVisible()))
    rows.append(measure(monitor, "pick a group: its longest launch (tabs redraw)",
                        lambda: kernel_list.group_view.selectRow(0)))
    rows.append(measure(monitor, "filter the groups 'naive'",
                        lambda: kernel_list.filter_box.setText("naive")))
    rows.append(measure(monitor, "back to one row a launch",
                        lambda: (kernel_list.filter_box.clear(),
                                 kernel_list.set_grouped(False))))

    print(f"ncu-reader window, {KERNELS:,} kernels: {source}")
    print(f"GUI-thread stall = longest gap between {TICK_MS} ms timer ticks, minus the tick; "
          f"target under {TARGET_MS:.0f} ms\n")
    width = max(len(r[0]) for r in rows)
    print(f"{'step':<{width}}  {'wall ms':>9}  {'longest stall ms':>16}  ok")
    for name, wall, stall in rows:
        print(f"{name:<{width}}  {wall:>9.0f}  {stall:>16.1f}  "
              f"{'yes' if stall <= TARGET_MS else 'NO'}")
    worst = max(r[2] for r in rows)
    print(f"\nlongest stall overall: {worst:.1f} ms "
          f"({'within' if worst <= TARGET_MS else 'over'} the {TARGET_MS:.0f} ms target)")
    window.worker.shutdown()
    window.close()
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
