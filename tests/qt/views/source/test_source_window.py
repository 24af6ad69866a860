"""The Source view on the real reports: the shipped pair (full set, SASS only today), a basic set,
an export and ncu's source page export; lines opening to their SASS where a report has line
info; the counters per row, sorting, the hottest rows, naive against tiled beside the lesson's
derivation, the row the room is asked about, projector mode, and one read for every view."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from viewer.analysis import source as analysis
from viewer.analysis.source import row_key
from viewer.analysis.source_columns import COLUMNS, HOT, PROJECTOR_HIDDEN, PROJECTOR_OPTIONAL
from viewer.qt.kit.object_names import is_one_of, one_of
from viewer.qt.kit.session_reads import SessionReads
from viewer.qt.kit.style import Style
from viewer.qt.views.source.load_rows import Names
from viewer.qt.views.source.source_view import SourceView
from viewer.qt.views.stalls.stalls_view import StallsView
from viewer.readers import read_report
from viewer.readers.source import INST_EXECUTED, SAMPLES, read_source

ROOT = Path(__file__).resolve().parents[4]
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
SASS_ONLY = ROOT / "tests" / "data" / "corpus" / "h200" / "numba-naive.ncu-rep"
BASIC = ROOT / "tests" / "data" / "corpus" / "h200" / "workloads-kernels-and-graph.ncu-rep"
PAGE = ROOT / "tests" / "data" / "corpus" / "h200" / "numba-naive-lineinfo.source.csv"
EXPORT = ROOT / "profiles" / "naive.raw.csv"
REPORTS = sorted([*BASIC.parent.glob("*.ncu-rep"), *(ROOT / "profiles").glob("*.ncu-rep")])


def column(title: str) -> int:
    return next(n for n, c in enumerate(COLUMNS) if c.title == title)


def shown(qtbot, paths, style: Style | None = None, reads: SessionReads | None = None
          ) -> SourceView:
    reports = [read_report(p) for p in paths]
    view = SourceView(style or Style(), reads=reads or SessionReads())
    qtbot.addWidget(view)
    view.resize(1600, 900)
    view.show()
    view.set_kernels([r.kernels[0] for r in reports], [p.stem for p in paths], reports)
    qtbot.waitUntil(lambda: view.ready, timeout=60_000)
    return view


def cell(view: SourceView, side: int, row: int, title: str, parent=None) -> str:
    model = view.panes[side].model
    index = model.index(row, column(title), parent) if parent is not None else \
        model.index(row, column(title))
    return str(model.data(index))


def test_sass_only_is_said_and_every_instruction_is_a_row_with_its_counters(qtbot) -> None:
    view = shown(qtbot, [SASS_ONLY])
    pane = view.panes[0]
    function = read_source(SASS_ONLY)[0]
    assert "SASS only" in pane.notes.text() and pane.notes.isVisible() and pane.tree.isVisible()
    assert pane.model.rowCount() == len(function.instructions)
    first_load = next(n for n, i in enumerate(function.instructions) if i.is_global_load)
    load = function.instructions[first_load]
    assert cell(view, 0, first_load, "Global loads") == f"{load.global_loads:,.0f}"
    # the source's 2 x 512 global loads per thread, spread over the loop's unrolled LDGs
    unrolled = sum(i.is_global_load and bool(i.value(INST_EXECUTED)) for i in function.instructions)
    assert cell(view, 0, first_load, "global loads / thread") == f"{2 * 512 // unrolled}"
    assert cell(view, 0, first_load, "Source") == load.text
    assert "derived__avg_thread_executed" in pane.per_thread.text()


def test_each_per_thread_column_says_what_it_counts_per_thread(qtbot) -> None:
    """'instructions / thread' is every instruction of the line per thread (the lines sum to
    ncu's thread_inst_executed over the threads launched), the loads have their own; the
    warp-level columns' tips say they count per warp."""
    view = shown(qtbot, [NAIVE])
    model = view.panes[0].model
    per_thread = [c.title for c in COLUMNS if "thread" in c.title]
    assert per_thread == ["global loads / thread", "shared loads / thread",
                          "instructions / thread"]
    raw = (ROOT / "tests" / "data" / "corpus" / "h200" / "numba-naive-lineinfo.raw.txt")
    values = {line.split()[0]: float(line.split()[-1].replace(",", ""))
              for line in raw.read_text(encoding="utf-8").splitlines()
              if line.split()[:1] in (["thread_inst_executed"], ["launch__thread_count"])}
    instructions = sum(float(cell(view, 0, n, "instructions / thread").replace(",", ""))
                       for n in range(model.rowCount()))
    assert instructions == pytest.approx(
        values["thread_inst_executed"] / values["launch__thread_count"], abs=0.01 * len(
            model.rows))
    assert sum(float(cell(view, 0, n, "global loads / thread").replace(",", ""))
               for n in range(model.rowCount())) == 2 * 512

    def tip(title: str) -> str:
        return str(model.headerData(column(title), Qt.Orientation.Horizontal,
                                    Qt.ItemDataRole.ToolTipRole))
    assert "once per warp" in tip("Warp inst.") and "once per warp" in tip("Global loads")
    assert tip("instructions / thread").startswith(
        "Every instruction executed on the row, per thread")


def test_a_row_shows_its_l2_sectors_excess_and_top_stall_reasons(qtbot) -> None:
    view = shown(qtbot, [SASS_ONLY])
    rows = view.panes[0].model.rows
    hot = max(range(len(rows)), key=lambda n: rows[n].value(SAMPLES) or 0)
    assert cell(view, 0, hot, "Top stall reasons").startswith(
        "Not Selected 1,722, Math Pipe Throttle 1,721")
    sectors = next(n for n, r in enumerate(rows) if r.value("l2_theoretical_sectors"))
    assert cell(view, 0, sectors, "L2 sectors") == \
        f"{rows[sectors].value('l2_theoretical_sectors'):,.0f}"
    assert cell(view, 0, sectors, "L2 excess") == \
        f"{rows[sectors].value(analysis.L2_EXCESSIVE):,.0f}"


def test_lines_open_to_their_sass_where_the_report_has_line_info(qtbot) -> None:
    lined = [p for p in REPORTS if any(k.has_line_info for k in read_source(p))]
    if not lined:
        pytest.skip("no report here was compiled with line info yet")
    view = shown(qtbot, lined[:1])
    model = view.panes[0].model
    line = model.rows[-1]
    assert view.mark_row(f"{Path(line.file or '').name}:{line.line}")
    assert model.data(model.index(len(model.rows) - 1, 1), Qt.ItemDataRole.BackgroundRole) \
        == view.style_.color("highlight")
    assert model.rowCount() == len(analysis.table(view.functions()[0]).lines)
    top = model.index(0, 0)
    assert model.rowCount(top) == len(model.rows[0].instructions)
    assert "SASS only" not in view.panes[0].notes.text()


def test_a_basic_set_says_which_capture_option_adds_the_counters(qtbot) -> None:
    view = shown(qtbot, [BASIC])
    notes = view.panes[0].notes.text()
    assert "no source counters" in notes and "--set full" in notes
    assert cell(view, 0, 0, "Warp inst.") == "n/a"
    assert cell(view, 0, 0, "instructions / thread") == "n/a"


def test_an_export_says_what_holds_the_counters(qtbot) -> None:
    view = shown(qtbot, [EXPORT])
    assert "holds no per-instruction counters" in view.panes[0].notes.text()
    assert not view.panes[0].tree.isVisible()


def test_sorting_by_any_column_puts_the_largest_first(qtbot) -> None:
    view = shown(qtbot, [NAIVE])
    tree, model = view.panes[0].tree, view.panes[0].model
    for title, counter in (("Stall samples", SAMPLES), ("Warp inst.", INST_EXECUTED),
                           ("Global loads", analysis.GLOBAL_LOADS)):
        tree.sortByColumn(column(title), Qt.SortOrder.DescendingOrder)
        values = [r.value(counter) or 0 for r in model.rows]
        assert values == sorted(values, reverse=True) and values[0] > values[-1]
    tree.sortByColumn(column("Stall samples"), Qt.SortOrder.AscendingOrder)
    assert model.rows[0].value(SAMPLES) == min(r.value(SAMPLES) or 0 for r in model.rows)


def test_the_hottest_rows_are_marked(qtbot) -> None:
    view = shown(qtbot, [NAIVE])
    model = view.panes[0].model
    hot = {row_key(r) for r in analysis.hottest(model.rows)}
    marked = {row_key(r) for n, r in enumerate(model.rows)
              if cell(view, 0, n, "Line").startswith(HOT)}
    assert marked == hot and hot


def test_compare_lines_up_the_loads_against_the_lessons_derivation(qtbot) -> None:
    view = shown(qtbot, [NAIVE, TILED])
    assert view.loads is not None and view.loads.isVisible()
    comparison = analysis.compare(read_source(NAIVE)[0], read_source(TILED)[0])
    sentences = [view.loads.findChild(type(view.status), one_of(Names.SENTENCE, n)).text()
                 for n in range(len(comparison.sentences))]
    assert sentences == list(comparison.sentences)
    assert any("LDS.128" in s and "vector" in s for s in sentences)
    totals = [view.loads.findChild(type(view.status), one_of(Names.LOADS_TOTAL, n)).text()
              for n in range(3)]
    assert totals[0] == "1,024 global loads / thread (the lesson: 1,024)"
    assert totals[1] == "64 global loads / thread (the lesson: 64)"
    assert totals[2].startswith("640 shared loads / thread")
    assert totals[2].endswith("(the lesson: 1,024)")
    for number, rows in enumerate((comparison.naive_global, comparison.tiled_global,
                                   comparison.tiled_shared)):
        found = [view.loads.findChild(type(view.status), one_of(Names.LOADS, number, n))
                 for n in range(len(rows) + 1)]
        assert all(found[:-1]) and found[-1] is None
        assert all(" loads / thread" in label.text() for label in found[:-1])


def test_a_lines_instructions_and_its_loads_per_thread_are_told_apart(qtbot) -> None:
    """Line 75 of the naive kernel: 322 instructions per thread (every instruction of the
    line) in the table, 128 global loads per thread (its loads) in the comparison; each says
    which it counts, as the report gives them."""
    view = shown(qtbot, [NAIVE, TILED])
    model = view.panes[0].model
    line = next(n for n, r in enumerate(model.rows) if r.line == 75)
    row = model.rows[line]
    instructions = cell(view, 0, line, "instructions / thread")
    loads = cell(view, 0, line, "global loads / thread")
    assert instructions == f"{round(row.per_thread(INST_EXECUTED)):,}"
    assert loads == f"{round(row.per_thread(analysis.GLOBAL_LOADS)):,}" and loads != instructions
    labels = view.loads.row_labels(row_key(row))
    assert labels and all(f"{loads} loads / thread" in lb.text() for lb in labels)
    assert not any(f"{instructions} " in lb.text() for lb in labels)


def test_a_kernel_off_the_lessons_layout_has_no_lesson_figure_beside_it(qtbot) -> None:
    """matmul_naive with a warp over rows (8.5 sectors per request) beside the shipped tiled:
    its total is the report's alone, and a sentence says why; the tiled one keeps the lesson's."""
    rows = ROOT / "tests" / "data" / "corpus" / "h200" / "layout-naive-rows.ncu-rep"
    view = shown(qtbot, [rows, TILED])
    assert view.loads is not None
    totals = [view.loads.findChild(type(view.status), one_of(Names.LOADS_TOTAL, n)).text()
              for n in range(3)]
    assert totals[:2] == ["1,024 global loads / thread",
                          "64 global loads / thread (the lesson: 64)"]
    sentences = [label.text() for label in view.loads.findChildren(type(view.status))
                 if is_one_of(label.objectName(), Names.SENTENCE)]
    assert not any("as the lesson derives" in s for s in sentences if "naive" in s)
    assert any("8.50 sectors per request" in s for s in sentences)


def test_the_hottest_global_load_is_highlighted_and_mark_row_moves_it(qtbot) -> None:
    view = shown(qtbot, [NAIVE])
    model = view.panes[0].model
    loads = [r for r in model.rows if r.value(analysis.GLOBAL_LOADS)]
    assert view.marked_row == row_key(analysis.hottest(loads, 1)[0]) == model.marked
    other = row_key(model.rows[3])
    assert view.mark_row(other) and model.marked == other
    index = model.row_of(other)
    assert model.data(index, Qt.ItemDataRole.BackgroundRole) == view.style_.color("highlight")
    assert not view.mark_row("matmul.py:9999") and view.marked_row == "matmul.py:9999"


def test_projector_mode_has_large_type_and_keeps_the_per_thread_counts(qtbot) -> None:
    desk = shown(qtbot, [NAIVE, TILED])
    projector = shown(qtbot, [NAIVE, TILED], Style(projector=True))
    tree = projector.panes[0].tree
    assert tree.font().pointSizeF() > desk.panes[0].tree.font().pointSizeF() * 1.5
    hidden = {c.title for n, c in enumerate(COLUMNS) if tree.isColumnHidden(n)}
    assert set(PROJECTOR_HIDDEN) <= hidden <= {*PROJECTOR_HIDDEN, *PROJECTOR_OPTIONAL}
    assert not {"Line", "Source", "global loads / thread", "shared loads / thread"} & hidden
    assert not any(desk.panes[0].tree.isColumnHidden(n) for n in range(len(COLUMNS)))


@pytest.mark.parametrize("width", [1326, 1880])  # the view at 1366 and at 1920
def test_projected_tables_fit_their_width_with_the_loads_per_thread(qtbot, width) -> None:
    view = shown(qtbot, [NAIVE, TILED], Style(projector=True))
    view.resize(width, 700)
    qtbot.waitUntil(lambda: all(p.tree.header().length() <= p.tree.viewport().width()
                                for p in view.panes), timeout=5_000)
    for pane in view.panes:
        tree, model = pane.tree, pane.model
        shown_titles = {c.title for n, c in enumerate(COLUMNS) if not tree.isColumnHidden(n)}
        assert {"Line", "Source", "global loads / thread", "shared loads / thread"} <= shown_titles
        assert tree.horizontalScrollBar().maximum() == 0
        title = model.headerData(column("global loads / thread"), Qt.Orientation.Horizontal)
        assert "\n" in str(title)
        loads = next(n for n, r in enumerate(model.rows) if r.value(analysis.GLOBAL_LOADS)
                     or r.value(analysis.SHARED_LOADS))
        line = model.rows[loads]
        text = str(model.data(model.index(loads, column("Source"))))
        assert text.strip() == (line.text or "").strip() and len(text) < len(line.text or "")
        child = model.index(0, 0, model.index(loads, 0))
        assert str(model.data(child)).lstrip("\u25b2 ").startswith("+")  # its offset
    assert view.width() == width  # no label widened it (a progress line's kernel name)
    assert view.loads is not None and view.loads.width() <= view.loads_area.viewport().width()


def test_the_source_page_export_is_read_off_the_gui_thread_and_shown(qtbot) -> None:
    view = SourceView(Style(), reads=SessionReads())
    qtbot.addWidget(view)
    view.show()
    with qtbot.waitSignal(view.page_worker.done, timeout=30_000):
        view.open_source_page(PAGE)
    pane = view.panes[0]
    assert pane.model.rowCount() == len(read_source(PAGE)[0].instructions)
    assert "--print-source sass" in pane.notes.text()
    assert "does not say how many threads" in pane.per_thread.text()
    assert cell(view, 0, 0, "instructions / thread") == "n/a"


def test_one_read_serves_the_source_and_stalls_views_and_none_is_read_twice(qtbot) -> None:
    reads = SessionReads()
    report = read_report(NAIVE)
    before = reads.worker.generation
    source = SourceView(Style(), reads=reads)
    stalls = StallsView(Style(), reads=reads)
    for view in (source, stalls):
        qtbot.addWidget(view)
        view.show()
        view.set_kernels([report.kernels[0]], ["naive"], [report])
    assert source.loading and source.progress_bar.isVisible()
    qtbot.waitUntil(lambda: source.ready and stalls.ready, timeout=60_000)
    assert reads.worker.generation == before + 1
    again = SourceView(Style(), reads=reads)
    qtbot.addWidget(again)
    again.show()
    again.set_kernels([report.kernels[0]], ["naive"], [report])
    assert again.ready and again.panes[0].model.rowCount() == source.panes[0].model.rowCount()
    assert reads.worker.generation == before + 1


def test_its_progress_never_stands_at_0_percent_through_a_read(qtbot) -> None:
    """The shipped pair's counters, read off the GUI thread: the bar is busy while the read has
    said no fraction (one kernel of each report tells none until it ends), else moves."""
    reports = [read_report(p) for p in (NAIVE, TILED)]
    view = SourceView(Style(), reads=SessionReads())
    qtbot.addWidget(view)
    view.resize(1366, 700)
    view.show()
    seen: list[tuple[int, int]] = []
    bar = view.progress_bar
    view.wanted.changed.connect(lambda _whole: seen.append((bar.maximum(), bar.value())))
    view.set_kernels([r.kernels[0] for r in reports], ["naive", "tiled"], reports)
    assert bar.isVisible()
    seen.append((bar.maximum(), bar.value()))
    qtbot.waitUntil(lambda: view.ready, timeout=60_000)
    reading = seen[:-1] if len(seen) > 1 else seen
    assert all(most == 0 or value > 0 for most, value in reading), seen
    assert not bar.isVisible()
