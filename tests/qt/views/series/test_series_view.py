"""The Series view (X) on real captures: the shipped pair, the H200 corpus's pairs (the numba pair
and its -lineinfo twin) and the N = 1024 pair made from the shipped exports. Its cells are the
reports' own values, ordered by N read from the launch, with the derivation and the ratios
against the baseline picked; bad series say what they show and cannot; the plot holds the points
and the derivation's lines; the window hands it every file opened."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, QSettings
from PySide6.QtWidgets import QComboBox, QLabel

from tests.pair_1024 import write_pair_1024
from tests.qt.windows import close_window, open_and_wait
from viewer.analysis import series
from viewer.analysis.predict import derive
from viewer.core import formatting as fmt
from viewer.core.model import Report
from viewer.qt.kit.style import Style
from viewer.qt.shell.main_window import MainWindow, default_tabs
from viewer.qt.views.series.series_answer import Names as AnswerNames
from viewer.qt.views.series.series_plot import HOVER_HINT
from viewer.qt.views.series.series_table import BASELINE, Names
from viewer.qt.views.series.series_view import Names as ViewNames
from viewer.qt.views.series.series_view import SeriesView
from viewer.readers import read_report

ROOT = Path(__file__).resolve().parents[4]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
SHIPPED = [ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"]
NUMBA = [H200 / "numba-naive.ncu-rep", H200 / "numba-tiled.ncu-rep"]
LINEINFO = [H200 / "numba-naive-lineinfo.ncu-rep", H200 / "numba-tiled-lineinfo.ncu-rep"]
WORKLOADS = H200 / "workloads-kernels-and-graph.ncu-rep"
MEASURED = [ln for ln in series.LINES
            if ln.key not in (series.SECTORS_PER_REQUEST, series.SHARED_PER_THREAD,
                              series.DRAM_TOTAL)]


@pytest.fixture(scope="module")
def pair_1024(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return write_pair_1024(tmp_path_factory.mktemp("pair"))


def shown(qtbot, paths: list[Path], projector: bool = False) -> SeriesView:
    view = SeriesView(Style(projector))
    qtbot.addWidget(view)
    view.resize(1366, 768)
    view.show()
    view.set_reports([read_report(p) for p in paths])
    return view


def text(view: SeriesView, family: str, row: int, key: str) -> str:
    label = view.cell(family, row, key)
    assert label is not None, (family, row, key)
    return label.text()


def kernel_of(report: Report, view: SeriesView, row: int) -> bool:
    assert view.series is not None
    return view.series.rows[row].kernel in report.kernels


@pytest.mark.parametrize("paths", [SHIPPED, NUMBA, LINEINFO], ids=lambda p: p[0].name)
def test_each_cell_is_the_report_s_own_value(qtbot, paths: list[Path]) -> None:
    view = shown(qtbot, paths)
    assert view.series is not None and len(view.series.rows) == 2
    for i, report in enumerate(view.reports):
        kernel = report.kernels[0]
        assert view.series.rows[i].kernel is kernel
        for line in MEASURED:
            value = kernel.metric(line.key)
            assert value is not None, line.key
            assert text(view, Names.VALUE, i, line.key) == fmt.by_unit(value, line.unit)
    assert text(view, Names.RATIO, 0, series.SECTORS) == BASELINE
    assert text(view, Names.RATIO, 1, series.SECTORS) == "8.00x fewer"
    assert text(view, Names.DERIVED, 1, series.SECTORS) == "2,097,152 (exact)"


def test_rows_go_by_n_with_the_derivation_exact_at_each(qtbot, pair_1024: list[Path]) -> None:
    view = shown(qtbot, [pair_1024[0], *SHIPPED, pair_1024[1]])
    assert view.series is not None
    assert [r.dim for r in view.series.rows] == [512, 512, 1024, 1024]
    assert [r.file for r in view.series.rows] == [str(p) for p in [*SHIPPED, *pair_1024]]
    for i, r in enumerate(view.series.rows):
        for key in (series.REQUESTS, series.SECTORS):
            value = r.kernel.metric(key)
            assert value == r.derived[key], (r.file, key)
            assert text(view, Names.DERIVED, i, key) == f"{fmt.count(value)} (exact)"
        assert text(view, Names.DERIVED, i, series.DRAM_TOTAL) == \
            f"floor {fmt.size(3 * r.dim**2 * 4)}"  # type: ignore[operator]
    # the 1024 pair is details CSVs without the shared-load count: missing, never zero
    missing = view.cell(Names.VALUE, 2, series.SHARED_PER_THREAD)
    assert missing is not None and missing.text() == fmt.MISSING
    assert text(view, Names.RATIO, 2, series.SHARED_PER_THREAD) == "not in both reports"


def test_the_derived_line_says_where_it_and_the_report_differ(qtbot) -> None:
    view = shown(qtbot, NUMBA)
    assert view.series is not None
    tiled = view.series.rows[1]
    assert text(view, Names.VALUE, 1, series.SHARED_PER_THREAD) == "640"
    assert text(view, Names.DERIVED, 1, series.SHARED_PER_THREAD) == \
        "1,024 derived loads; the report counts 640 instructions"
    assert text(view, Names.DERIVED, 0, series.SHARED_PER_THREAD) == "0 (exact)"
    assert text(view, Names.RATIO, 1, series.SHARED_PER_THREAD) == "640 where row 0 has 0"
    total = tiled.kernel.metric(series.DRAM_READ) + tiled.kernel.metric(series.DRAM_WRITE)  # type: ignore[operator]
    assert text(view, Names.VALUE, 1, series.DRAM_TOTAL) == fmt.size(total)
    assert text(view, Names.DERIVED, 1, series.DRAM_TOTAL) == "floor 3.15 MB"
    assert text(view, Names.VALUE, 1, series.DRAM_WRITE) == "0 B"
    said = notes(view)
    assert ("Rows 0 and 1 (matmul_naive and matmul_tiled at N = 512): DRAM traffic (read + "
            "write) 2.10 MB is under the lesson's floor of 3.15 MB") in said
    assert "it wrote 0 B" in said
    assert "the report counts 640 shared-load instructions per thread" in said
    assert "merged a thread's" not in said  # no claim the report's SASS is not here to back


def test_picking_a_baseline_changes_the_ratios(qtbot, pair_1024: list[Path]) -> None:
    view = shown(qtbot, [*SHIPPED, *pair_1024])
    box = view.findChild(QComboBox, ViewNames.BASELINE)
    assert box is view.baseline_box and box.count() == 4 and box.currentIndex() == 0
    assert text(view, Names.RATIO, 1, series.SECTORS) == "8.00x fewer"
    assert text(view, Names.RATIO, 2, series.SECTORS) == "8.00x more"
    box.setCurrentIndex(1)
    assert view.series is not None and view.series.baseline == 1
    assert text(view, Names.RATIO, 1, series.SECTORS) == BASELINE
    assert text(view, Names.RATIO, 0, series.SECTORS) == "8.00x more"
    assert text(view, Names.RATIO, 2, series.SECTORS) == "64.00x more"
    heading = view.findChild(QLabel, AnswerNames.HEADING)
    assert heading is not None and "baseline row 1 (matmul_tiled at N = 512)" in heading.text()


def notes(view: SeriesView) -> str:
    label = view.findChild(QLabel, AnswerNames.NOTES)
    return label.text() if label is not None else ""


def test_bad_series_say_what_they_show_and_cannot(qtbot) -> None:
    one = shown(qtbot, SHIPPED[:1])
    assert "One row (matmul_naive at N = 512" in notes(one) and "cannot show a series" in \
        notes(one)
    assert not one.baseline_box.isEnabled()
    workloads = shown(qtbot, [WORKLOADS])
    said = notes(workloads)
    assert "Unrelated kernels" in said and "lacks Global load requests" in said
    assert workloads.series is not None
    for i, r in enumerate(workloads.series.rows):
        assert text(workloads, Names.VALUE, i, series.REQUESTS) == fmt.MISSING
        assert r.kernel.metric(series.REQUESTS) is None
    assert not workloads.plot.count_points and not workloads.plot.lines
    lesson = shown(qtbot, SHIPPED)
    assert "One row" not in notes(lesson) and "Unrelated" not in notes(lesson)


def test_the_plot_holds_the_points_and_the_derivation_s_lines(qtbot,
                                                               pair_1024: list[Path]) -> None:
    view = shown(qtbot, [*SHIPPED, *pair_1024])
    plot, s = view.plot, view.series
    assert s is not None
    drawn = {(p.row, p.key): (p.dim, p.value) for p in plot.count_points}
    assert drawn == {(i, key): (r.dim, r.kernel.metric(key)) for i, r in enumerate(s.rows)
                     for key in (series.REQUESTS, series.SECTORS)}
    lines = {(ln.role, ln.key): dict(zip(ln.dims, ln.values, strict=True)) for ln in plot.lines}
    assert set(lines) == {(role, key) for role in ("naive", "tiled")
                          for key in (series.REQUESTS, series.SECTORS)}
    for (role, key), by_n in lines.items():
        assert {256, 512, 1024, 2048} == set(by_n)  # through the rows, half and twice beyond
        for n, value in by_n.items():
            part = getattr(derive(n, 16), role)
            assert value == (part.global_load_requests if key == series.REQUESTS
                             else part.global_load_sectors)
    sectors = [p.value for p in plot.ratio_points if p.key == series.SECTORS]
    durations = [p.value for p in plot.ratio_points if p.key == series.DURATION]
    assert sectors == [8.0, 8.0]
    naive, tiled = SHIPPED[0], SHIPPED[1]
    assert math.isclose(durations[0], read_report(naive).kernels[0].metric(series.DURATION)
                        / read_report(tiled).kernels[0].metric(series.DURATION))  # type: ignore[operator]
    scatter = plot.scatters[("counts", "naive", series.SECTORS)]
    spots = scatter.points()
    assert math.isclose(10 ** spots[0].pos().y(), drawn[(0, series.SECTORS)][1])
    words = [str(s_.data()) for s_ in spots]
    assert "naive.ncu-rep" in words[0] and "16,777,216 (derived 16,777,216, exact)" in words[0]
    assert scatter.opts["tip"](x=0, y=0, data=words[0]) == words[0]
    assert plot.hover_label.text() == HOVER_HINT
    scatter.sigHovered.emit(scatter, [spots[0]], None)
    assert plot.hover_label.text() == words[0]


def test_projector_mode_sets_the_view_in_large_type(qtbot) -> None:
    view = shown(qtbot, SHIPPED)
    heading = view.findChild(QLabel, AnswerNames.HEADING)
    assert heading is not None and heading.font().pointSizeF() == Style().points("heading")
    view.set_style(Style(projector=True))
    heading = view.findChild(QLabel, AnswerNames.HEADING)
    assert heading is not None
    assert heading.font().pointSizeF() == Style(projector=True).points("heading")
    value = view.cell(Names.VALUE, 0, series.SECTORS)
    assert value is not None and value.font().pointSizeF() == Style(True).points("small")


def test_the_window_hands_every_file_opened_to_the_series(qtbot, tmp_path: Path,
                                                         pair_1024: list[Path]) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, tabs=default_tabs(), record_recent=False)
    qtbot.addWidget(win)
    win.show()
    try:
        open_and_wait(win, [*SHIPPED, *pair_1024])
        view = next(v for v in win.reading.views if isinstance(v, SeriesView))
        assert view.reports == win.reports and len(view.reports) == 4
        assert win.compare_mode and [e.report_index for e in win.picks] == [0, 1]
        win.show_entries(win.picks[:1])  # another pick: the series stays every file
        assert view.reports == win.reports
        assert win.reading.go_to(SeriesView.VIEW) is view
    finally:
        close_window(win)


def test_a_series_screenshot_pictures_the_series_tab(qtbot, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """`python -m viewer --tab series --screenshot OUT.png` on the shipped pair: the Series
    view is the tab shown, filled with both reports, and the picture written holds it."""
    from PySide6.QtCore import QPoint

    from viewer import cli
    from viewer.qt.shell import app

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr(app, "quiet_offscreen_noise", lambda: None)  # pytest-qt's handler stays
    seen: list[MainWindow] = []
    save = app.save_screenshot

    def saving(window: MainWindow, out: Path) -> None:
        seen.append(window)
        save(window, out)

    monkeypatch.setattr(app, "save_screenshot", saving)
    out = tmp_path / "series.png"
    status = app.run(cli.parse(["--tab", "series", "--screenshot", str(out),
                                *map(str, SHIPPED)]))
    [win] = seen
    try:
        assert status == 0 and out.is_file()
        view = next(v for v in win.reading.views if isinstance(v, SeriesView))
        assert win.reading.tabs.currentWidget() is view and view.isVisible()
        assert view.series is not None and [r.file for r in view.series.rows] == \
            [str(p) for p in SHIPPED]
        from PySide6.QtGui import QImage

        picture = QImage(str(out))
        assert (picture.width(), picture.height()) == (1280, 800)
        corner = view.mapTo(win, QPoint(0, 0))
        drawn = view.grab().toImage().convertToFormat(picture.format())
        shown = picture.copy(corner.x(), corner.y(), drawn.width(), drawn.height())
        assert shown == drawn  # the picture holds the Series view as it is drawn
    finally:
        close_window(win)


@pytest.mark.parametrize("projector", [False, True], ids=["desk", "projector"])
@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)], ids=["1366", "1920"])
def test_no_legend_covers_a_point_of_the_shipped_sweep(qtbot, projector: bool,
                                                        size: tuple[int, int]) -> None:
    """Every point of both charts lies outside its legend's box, in desk and projector type,
    once each chart's range holds all its points."""
    from viewer.core import shipped

    view = SeriesView(Style(projector))
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    view.set_reports([read_report(p) for p in shipped.sweep()])
    plot = view.plot
    assert plot.scatters

    def placed() -> list[tuple[str, object, QRect, QPoint]]:
        found = []
        for (chart_name, *_), scatter in plot.scatters.items():
            chart = plot.counts if chart_name == "counts" else plot.ratios
            box = chart.getPlotItem().legend
            legend = chart.mapFromScene(box.mapRectToScene(box.boundingRect())).boundingRect()
            vb = chart.getPlotItem().getViewBox()
            for spot in scatter.points():
                at = chart.mapFromScene(vb.mapViewToScene(spot.pos()))
                found.append((chart_name, spot.data(), legend, at))
        return found

    qtbot.waitUntil(lambda: all(  # each point inside its chart: the ranges have settled
        at.x() >= 0 and 0 <= at.y() < plot.counts.height()
        for *_, at in placed()))
    covered = [(name, data) for name, data, legend, at in placed() if legend.contains(at)]
    assert not covered
