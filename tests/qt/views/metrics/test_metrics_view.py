"""The "Every metric" view: every metric with ncu's words, and the full diff of two kernels."""

from __future__ import annotations

import csv
import dataclasses
import io
import math
import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from viewer.analysis import metric_table
from viewer.analysis.metric_table import MetricDiff
from viewer.analysis.metric_words import NO_DESCRIPTIONS, NOT_READ
from viewer.core.model import Report
from viewer.lesson.misreads import compare_misreads
from viewer.qt.kit.style import Style
from viewer.qt.views.metrics.metrics_view import MetricsView
from viewer.readers import read_report

ROOT = Path(__file__).resolve().parents[4]
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
H200 = ROOT / "tests" / "data" / "corpus" / "h200"



def shown_text(label) -> str:
    """A label's words as read: without the zero-width breaks long names may wrap at."""
    return label.text().replace("\u200b", "")

def opened(qtbot, style: Style | None = None) -> MetricsView:
    view = MetricsView(style)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    qtbot.waitExposed(view)
    return view


def show(qtbot, view: MetricsView, reports: list[Report], names: list[str]) -> None:
    view.set_kernels([r.kernels[0] for r in reports], names, reports)
    qtbot.waitUntil(lambda: not view.reading, timeout=120_000)


@pytest.fixture
def pair() -> list[Report]:
    return [read_report(NAIVE), read_report(TILED)]


def test_one_kernel_every_metric_read_off_the_gui_thread(qtbot, pair) -> None:
    view = opened(qtbot)
    report = pair[0]
    first = len(report.kernels[0].metrics)
    view.set_kernels(report.kernels[:1], ["naive"], [report])
    assert view.reading and view.progress.isVisible()  # the rest is read in the background
    qtbot.waitUntil(lambda: not view.reading, timeout=120_000)
    assert not view.progress.isVisible()
    kernel = report.kernels[0]
    assert kernel.read_names is None and len(kernel.metrics) > 2000 > first
    shown = view.model.shown()
    assert [r.name for r in shown] == sorted(kernel.metrics)
    assert sum(1 for r in shown if r.description) > 1500
    assert view.heading.text().startswith(f"{len(shown):,} metrics of naive")
    assert not view.note.isVisible() and not view.warnings.isVisible()
    assert not view.threshold.isVisible()  # a change needs two kernels


def test_search_finds_by_name_label_or_description(qtbot, pair) -> None:
    view = opened(qtbot)
    show(qtbot, view, pair[:1], ["naive"])
    view.search.setText("DRAM bandw")
    names = {r.name for r in view.model.shown()}
    assert "dram__bytes.sum.per_second" in names
    assert view.count.text().endswith(f"of {view.model.total():,} metrics")
    view.search.setText("long_scoreboard")
    assert view.model.rowCount() and all("long_scoreboard" in r.name or "long_scoreboard" in
                                         (r.description or "").lower()
                                         for r in view.model.shown())


def test_the_shipped_pairs_full_diff(qtbot, pair) -> None:
    view = opened(qtbot)
    show(qtbot, view, pair, ["naive", "tiled"])
    a, b = (r.kernels[0] for r in pair)
    expected = metric_table.diff(a, b)
    shown = view.model.shown()
    assert len(shown) == len(expected) == len(set(a.metrics) & set(b.metrics)) > 2000
    assert [d.name for d in shown] == [d.name for d in expected]
    changes = [abs(d.change_pct) for d in shown if isinstance(d, MetricDiff)]
    assert changes == sorted(changes, reverse=True)
    assert view.model.columns[1:3] == ("naive", "tiled")
    by_name = {d.name: d for d in shown if isinstance(d, MetricDiff)}
    duration = by_name["gpu__time_duration.sum"]
    assert duration.higher_is_better is False and duration.verdict == "better"
    row = [d.name for d in shown].index("gpu__time_duration.sum")
    color = view.model.data(view.model.index(row, 0), 9)  # ForegroundRole
    assert color == view.style_.color("shared")
    assert view.threshold.isVisible()
    assert view.heading.text().startswith(f"{len(shown):,} metrics both naive (A) and tiled")


def test_only_what_changed_by_more_than(qtbot, pair) -> None:
    view = opened(qtbot)
    show(qtbot, view, pair, ["naive", "tiled"])
    everything = [d for d in view.model.shown() if isinstance(d, MetricDiff)]
    view.threshold.setValue(50.0)
    kept = view.model.shown()
    assert [d.name for d in kept] == [d.name for d in everything if abs(d.change_pct) > 50.0]
    assert 0 < len(kept) < len(everything)
    assert all(abs(d.change_pct) > 50 for d in kept if isinstance(d, MetricDiff))
    view.search.setText("dram")
    assert all("dram" in d.name for d in view.model.shown())


def test_the_csv_is_written_whole_and_asks_before_replacing(qtbot, pair, tmp_path,
                                                            monkeypatch) -> None:
    view = opened(qtbot)
    show(qtbot, view, pair, ["naive", "tiled"])
    view.threshold.setValue(10.0)
    path = view.export_csv(tmp_path / "diff.csv")
    assert path == tmp_path / "diff.csv"
    back = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    shown = view.model.shown()
    assert [r["metric"] for r in back] == [d.name for d in shown]
    first = shown[0]
    assert isinstance(first, MetricDiff)
    assert float(back[0]["naive"]) == first.first and float(back[0]["tiled"]) == first.second
    change = float(back[0]["change_pct"])
    assert change == first.change_pct or (math.isinf(change) and math.isinf(first.change_pct))

    asked: list[str] = []

    def answer(reply):
        def question(_parent, _title, text, *args, **kwargs):
            asked.append(text)
            return reply
        return question

    view.threshold.setValue(0.0)
    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.No))
    assert view.export_csv(path) is None and len(asked) == 1
    assert len(list(csv.DictReader(io.StringIO(path.read_text())))) == len(back)
    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Yes))
    assert view.export_csv(path) == path
    assert len(list(csv.DictReader(io.StringIO(path.read_text())))) == view.model.total()


def test_one_kernels_rows_as_csv(qtbot, pair, tmp_path) -> None:
    view = opened(qtbot)
    show(qtbot, view, pair[:1], ["naive"])
    view.search.setText("dram__bytes")
    back = list(csv.DictReader(io.StringIO(view.export_csv(tmp_path / "rows.csv")
                                           .read_text(encoding="utf-8"))))
    assert [r["metric"] for r in back] == [r.name for r in view.model.shown()]
    assert any(r["description"] for r in back) and {r["unit"] for r in back} >= {"byte"}


def test_the_gpus_the_compare_line_warns_of_are_not_warned_of_again(qtbot, pair) -> None:
    view = opened(qtbot)
    other = pair[1]
    other.kernels[0] = dataclasses.replace(other.kernels[0], device_name="Tesla T4", cc="7.5")
    show(qtbot, view, pair, ["naive", "tiled"])
    assert "different GPUs" not in shown_text(view.warnings).replace("Different", "different")
    kinds = [m.kind for m in compare_misreads(view.kernels[0], view.kernels[1], *pair)]
    assert "different-gpu" in kinds  # said once, over every tab


def test_different_captures_say_only_what_the_compare_line_does_not(qtbot) -> None:
    view = opened(qtbot)
    reports = [read_report(NAIVE), read_report(H200 / "numba-tiled.ncu-rep")]
    show(qtbot, view, reports, ["naive", "tiled"])
    texts = view.warning_texts()
    assert shown_text(view.warnings) == "\n".join(f"\u26a0 {t}" for t in texts)
    assert view.warnings.isVisible() == bool(texts)
    # each report records its own session: both ran with clocks not locked, which the compare
    # line says; the tab does not repeat it
    assert reports[0].session and reports[1].session
    line = [m.text for m in compare_misreads(view.kernels[0], view.kernels[1], *reports)]
    assert any("clocks not locked (--clock-control none)" in t for t in line)
    assert not any("clock-control" in t for t in texts)
    assert not any("global load requests" in t for t in texts)  # the lesson's, not provenance


def test_an_export_lists_its_metrics_and_says_it_has_no_descriptions(qtbot) -> None:
    view = opened(qtbot)
    report = read_report(H200 / "numba-naive.details.csv")
    show(qtbot, view, [report], ["naive"])
    assert view.model.rowCount() > 10
    assert view.note.isVisible() and view.note.text() == NO_DESCRIPTIONS
    assert all(r.description is None for r in view.model.shown())


def test_a_basic_capture_and_projector_mode(qtbot) -> None:
    view = opened(qtbot, Style(projector=True))
    report = read_report(H200 / "workloads-kernels-and-graph.ncu-rep")
    show(qtbot, view, [report], ["scale"])
    assert view.model.rowCount() > 100
    assert view.search.font().pointSizeF() == Style(projector=True).points("body")
    view.set_style(Style())
    assert view.search.font().pointSizeF() == Style().points("body")


def test_clear_and_reading_waits_until_the_view_is_shown(qtbot, pair) -> None:
    view = MetricsView()
    qtbot.addWidget(view)
    view.set_kernels(pair[0].kernels[:1], ["naive"], pair[:1])
    assert not view.reading  # hidden: nothing read yet
    view.show()
    qtbot.waitUntil(lambda: not view.reading, timeout=120_000)
    assert pair[0].kernels[0].read_names is None
    view.clear()
    assert view.model.rowCount() == 0 and not view.export_button.isEnabled()


def test_the_metrics_held_by_one_kernel_only_can_be_listed(qtbot, pair) -> None:
    view = opened(qtbot)
    show(qtbot, view, pair, ["naive", "tiled"])
    only = metric_table.one_sided(pair[0].kernels[0], pair[1].kernels[0])
    assert len(only) == 21 and "21 metrics are held by one kernel only" in shown_text(view.warnings)
    box = view.one_sided
    assert box.isVisible() and box.text() == "Also the 21 held by one kernel only"
    both = view.model.total()
    box.setChecked(True)
    assert view.model.total() == both + 21
    view.search.setText(only[0].name)
    row = next(r for r, item in enumerate(view.model.shown()) if item.name == only[0].name)
    cells = [view.model.index(row, column).data() for column in range(4)]
    assert cells[3] == f"only in {only[0].side}"
    assert "not in this report" in cells[1:3]
    box.setChecked(False)
    assert view.model.total() == both


def test_a_hit_rate_above_100_percent_is_explained(qtbot) -> None:
    view = opened(qtbot)
    report = read_report(H200 / "numba-naive.ncu-rep")
    show(qtbot, view, [report], ["naive"])
    assert view.warnings.isVisible()
    warned = shown_text(view.warnings)
    assert "lts__t_sector_op_write_hit_rate.pct at 100.04 %, above 100 %" in warned


def test_a_value_in_a_unit_not_understood_is_shown_as_printed(qtbot, tmp_path) -> None:
    text = (H200 / "numba-naive.details.csv").read_text(encoding="utf-8")
    path = tmp_path / "zorks.details.csv"
    path.write_text(text.replace('"dram__bytes_read.sum","Mbyte"',
                                 '"dram__bytes_read.sum","zorks"'), encoding="utf-8")
    view = opened(qtbot)
    show(qtbot, view, [read_report(path)], ["naive"])
    [row] = [i for i, r in enumerate(view.model.shown()) if r.name == "dram__bytes_read.sum"]
    cells = [view.model.data(view.model.index(row, c)) for c in range(4)]
    assert cells[1:] == ["2.10 zorks", "zorks", metric_table.UNIT_NOT_UNDERSTOOD]
    view.model.sort(1)  # a row with no value sorts beside the others
    assert "dram__bytes_read.sum" in [r.name for r in view.model.shown()]


def test_a_read_that_failed_is_still_said_when_the_table_is_drawn_again(qtbot, tmp_path) -> None:
    path = tmp_path / "naive.ncu-rep"
    shutil.copyfile(NAIVE, path)
    report = read_report(path)
    shutil.copyfile(TILED, path)  # the file changed since it was opened
    view = opened(qtbot)
    show(qtbot, view, [report], ["naive"])
    qtbot.waitUntil(lambda: view.note.isVisible(), timeout=10_000)
    said = view.note.text()
    assert said.startswith(NOT_READ) and str(path) in said and not view.progress.isVisible()
    assert view.model.rowCount() == len(report.kernels[0].metrics)  # what the first read holds
    view.set_style(Style(projector=True))  # drawn again: the failure is still said
    assert view.note.isVisible() and view.note.text() == said


def test_the_read_shows_progress_then_the_whole_table_once(qtbot, pair) -> None:
    """The first read of the shipped pair holds about a hundred metrics, the whole read two
    thousand: no table of the first is drawn and rebuilt, and the search box shows once, at
    the place it keeps."""
    view = opened(qtbot)
    filled: list[int] = []
    view.model.modelReset.connect(lambda: filled.append(view.model.total()))
    places: list[int] = []
    view.model.modelReset.connect(
        lambda: places.append(view.search.mapTo(view, view.search.rect().topLeft()).y())
        if view.search.isVisible() else None)
    view.set_kernels([r.kernels[0] for r in pair], ["naive", "tiled"], pair)
    assert view.reading and view.progress.isVisible() and not view.search.isVisible()
    assert view.model.total() == 0
    qtbot.waitUntil(lambda: not view.reading, timeout=120_000)
    assert [n for n in filled if n] == [view.model.total()] and view.model.total() > 1000
    assert view.search.isVisible() and not view.progress.isVisible()
    assert len(set(places)) <= 1
