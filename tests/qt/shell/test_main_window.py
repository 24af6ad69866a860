"""The reading window: the H200 pair in compare mode, bad files, keys, projector mode, export,
drag and drop, recent files and the kernel list.

Values by eye from tests/data/corpus/h200/numba-{naive,tiled}.details.txt (Duration 219.14 us
and 47.78 us; global load requests 8,388,608 and 524,288) and from
tests/data/corpus/ncu-public/mid-spelling-2022-multikernel-rowsums-colsums-details.txt (two
kernels, row_sums and column_sums).
"""

from __future__ import annotations

import csv
import io
import re
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QMimeData, QPoint, QPointF, QSettings, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QImage
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QMessageBox, QScrollArea

from viewer.qt.shell import exporting
from viewer.qt.shell.main_window import MainWindow, default_tabs
from viewer.qt.shell.recent import KEY, LIMIT, RecentFiles
from viewer.qt.shell.tab_titles import whole_title
from viewer.qt.views.sol.sol_tab import Names as SolNames

CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"
NAIVE = CORPUS / "h200" / "numba-naive.ncu-rep"
TILED = CORPUS / "h200" / "numba-tiled.ncu-rep"
SUMS = CORPUS / "ncu-public" / "mid-spelling-2022-multikernel-rowsums-colsums-details.txt"
THREE_MM = CORPUS / "ncu-public" / "new-2025-details-3mm-multikernel-cc86.txt"


@pytest.fixture
def settings(tmp_path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot, settings) -> MainWindow:
    win = MainWindow(settings=settings, tabs=default_tabs())
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    yield win
    win.worker.shutdown(30_000)


def load(window: MainWindow, qtbot, *paths: Path) -> None:
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        window.open_paths(list(paths))


def fail(window: MainWindow, qtbot, path: Path) -> str:
    with qtbot.waitSignal(window.load_failed, timeout=60_000) as blocker:
        window.open_paths([path])
    return blocker.args[0]


@pytest.fixture
def pair_window(window, qtbot) -> MainWindow:
    load(window, qtbot, NAIVE, TILED)
    return window


def tab_kernel_names(window: MainWindow) -> list[list[str]]:
    return [[k.name for k in page.kernels] for page in window.tab_pages]


def test_the_h200_pair_opens_in_compare_mode(pair_window) -> None:
    w = pair_window
    assert w.compare_mode
    assert w.names == ["matmul_naive", "matmul_tiled"]
    assert tab_kernel_names(w) == [["matmul_naive", "matmul_tiled"]] * 3
    assert all(page.names == ["matmul_naive", "matmul_tiled"] for page in w.tab_pages)
    assert w.centralWidget().currentIndex() == 1
    assert not w.kernel_dock.isVisible()  # two kernels: nothing to pick from
    status = w.status_text.text()
    assert status == ("numba-naive.ncu-rep + numba-tiled.ncu-rep: 2 kernels, comparing "
                      "A matmul_naive with B matmul_tiled")
    line = w.compare_line.text()
    assert line.index("matmul_naive") < line.index("against") < line.index("matmul_tiled")
    assert "numba-tiled.ncu-rep" in line
    assert w.windowTitle() == "numba-naive.ncu-rep + numba-tiled.ncu-rep - ncu-reader"
    assert not w.status_line.progress.isVisible()


def test_the_tabs_follow_the_reading_order(pair_window) -> None:
    w = pair_window
    titles = [whole_title(w.tabs, i) for i in range(w.tabs.count())]
    # Predict before step 1; Timing, the T4 and the views beyond the three numbers after the
    # reading order, not part of it
    lesson = ["P", "1", "2", "3", "T", "R"]  # each tab's key, then its words
    assert [t.split()[0] for t in titles[:6]] == lesson
    assert titles[0] == "P  Predict" and titles[4] == "T  Timing"
    assert titles[5] == "R  T4 vs this report"
    assert titles[6:] == [f"{page.KEY}  {page.TITLE}" for page in w.analysis_pages]
    assert {"O  Roofline", "A  ncu's advice", "W  Warp stalls"} <= set(titles[6:])
    assert "Speed Of Light" in titles[1]
    assert "emory" in titles[2]
    assert "ccupancy" in titles[3]
    assert all(w.tabs.tabToolTip(w.tabs.indexOf(page)) == page.QUESTION
               for page in w.tab_pages)


def test_one_file_with_two_kernels_opens_in_compare_mode(window, qtbot) -> None:
    load(window, qtbot, SUMS)
    assert window.names == ["row_sums", "column_sums"]
    assert tab_kernel_names(window)[0] == ["row_sums", "column_sums"]


def test_one_file_with_three_kernels_shows_the_first_and_the_list(window, qtbot) -> None:
    load(window, qtbot, THREE_MM)
    assert not window.compare_mode
    assert tab_kernel_names(window) == [["mm3_kernel1"]] * 3
    assert window.kernel_dock.isVisible()
    assert "reading #0 mm3_kernel1" in window.status_text.text()


def test_picking_two_rows_compares_them(window, qtbot) -> None:
    load(window, qtbot, THREE_MM)
    entries = window.kernel_list.entries()
    window.kernel_list.picked.emit([entries[2], entries[0]])
    assert tab_kernel_names(window) == [["mm3_kernel3", "mm3_kernel1"]] * 3
    assert "comparing A mm3_kernel3 with B mm3_kernel1" in window.status_text.text()


@pytest.mark.parametrize("content", [b"", bytes(range(256)) * 64], ids=["empty", "noise"])
def test_a_bad_file_shows_its_error_and_keeps_what_was_open(pair_window, qtbot, tmp_path,
                                                           capsys, content) -> None:
    w = pair_window
    bad = tmp_path / "bad.ncu-rep"
    bad.write_bytes(content)
    message = fail(w, qtbot, bad)
    assert "\n" not in message
    assert str(bad) in message
    assert w.reading.banner.isVisible()
    assert w.reading.banner.text.text() == message
    assert capsys.readouterr().err == f"ncu-reader: {message}\n"
    assert w.names == ["matmul_naive", "matmul_tiled"]
    assert tab_kernel_names(w) == [["matmul_naive", "matmul_tiled"]] * 3
    # the line fits again once the loading bar has left it its room (a resize later)
    qtbot.waitUntil(lambda: w.status_text.text().startswith(
        "numba-naive.ncu-rep + numba-tiled.ncu-rep"), timeout=5000)
    load(w, qtbot, SUMS)  # the next good file clears the error
    assert not w.reading.banner.isVisible()


def bad_file(folder: Path, name: str = "bad.ncu-rep") -> Path:
    bad = folder / name
    bad.write_bytes(b"")
    return bad


def assert_refused_beside(window: MainWindow, bad: Path, good: list[str], err: str) -> None:
    """`bad` refused in one line naming it (banner and stderr); the kernels in `good` read."""
    assert [k.name for k in window.kernels] == good
    assert window.centralWidget().currentIndex() == 1
    assert window.reading.banner.isVisible()
    line = window.reading.banner.text.text()
    assert "\n" not in line and line.startswith(f"{bad}: ")
    assert err == f"ncu-reader: {line}\n"
    assert window.last_error == line
    assert bad.name not in window.status_text.text()


def test_an_export_that_looks_cut_short_opens_and_says_so(pair_window, qtbot, tmp_path,
                                                         capsys) -> None:
    text = (CORPUS / "h200" / "numba-naive.details.txt").read_text(encoding="utf-8")
    cut = tmp_path / "cut.details.txt"
    cut.write_text(text[: len(text) // 2].rstrip("\n"), encoding="utf-8")
    capsys.readouterr()
    load(pair_window, qtbot, cut)
    assert [k.name for k in pair_window.kernels] == ["matmul_naive"]
    line = pair_window.reading.banner.text.text()
    assert pair_window.reading.banner.isVisible()
    assert line.startswith(f"{cut}: warning: the file looks cut short") and "\n" not in line
    assert capsys.readouterr().err == f"ncu-reader: {line}\n"


def test_an_export_cut_at_a_line_boundary_opens_and_its_banner_says_cut_short(
        pair_window, qtbot, tmp_path, capsys) -> None:
    """Before, a details CSV cut at a line's end (its last line ended) opened as whole."""
    lines = (CORPUS / "h200" / "numba-naive.details.csv").read_text(encoding="utf-8")
    kept = lines.splitlines(True)
    cut = tmp_path / "cut.details.csv"
    cut.write_text("".join(kept[: len(kept) // 2]), encoding="utf-8")
    capsys.readouterr()
    load(pair_window, qtbot, cut)
    assert [k.name for k in pair_window.kernels] == ["matmul_naive"]
    assert pair_window.reading.banner.isVisible()
    assert "cut short" in pair_window.reading.banner.text.text()


def test_one_bad_file_of_two_opens_the_good_one(pair_window, qtbot, tmp_path, capsys) -> None:
    bad = bad_file(tmp_path)
    capsys.readouterr()
    load(pair_window, qtbot, bad, SUMS)
    assert_refused_beside(pair_window, bad, ["row_sums", "column_sums"], capsys.readouterr().err)
    assert pair_window.paths == [SUMS]
    assert pair_window.recent.entries()[0] == [SUMS.resolve()]  # what opened, not what failed
    load(pair_window, qtbot, NAIVE)  # the next clean open clears the refusal
    assert not pair_window.reading.banner.isVisible() and pair_window.last_error == ""


def test_two_bad_files_open_nothing_and_name_both(pair_window, qtbot, tmp_path, capsys) -> None:
    bad, missing = bad_file(tmp_path), tmp_path / "missing.ncu-rep"
    capsys.readouterr()
    with qtbot.waitSignal(pair_window.load_failed, timeout=60_000) as blocker:
        pair_window.open_paths([bad, missing])
    lines = blocker.args[0].splitlines()
    assert [line.split(": ")[0] for line in lines] == [str(bad), str(missing)]
    assert pair_window.reading.banner.text.text() == blocker.args[0]
    assert capsys.readouterr().err.splitlines() == [f"ncu-reader: {line}" for line in lines]
    assert pair_window.names == ["matmul_naive", "matmul_tiled"]


def test_file_open_opens_what_it_can(window, qtbot, tmp_path, capsys, monkeypatch) -> None:
    bad = bad_file(tmp_path)
    # the dialog stands in for a person picking two files and pressing Open
    monkeypatch.setattr(QFileDialog, "exec", lambda self: QFileDialog.DialogCode.Accepted)
    monkeypatch.setattr(QFileDialog, "selectedFiles", lambda self: [str(NAIVE), str(bad)])
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        window.window_actions.open.trigger()
    assert_refused_beside(window, bad, ["matmul_naive"], capsys.readouterr().err)


def test_a_drop_opens_what_it_can(window, qtbot, tmp_path, capsys) -> None:
    bad = bad_file(tmp_path)
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        assert drop(window, [bad, TILED]) == (True, True)
    assert_refused_beside(window, bad, ["matmul_tiled"], capsys.readouterr().err)


def test_a_bad_file_with_nothing_open_shows_on_the_empty_page(window, qtbot, tmp_path) -> None:
    assert window.centralWidget().currentIndex() == 0
    assert "No report open" in window.empty_page.text.text()
    assert "Ctrl+O" in window.empty_page.text.text()
    bad = tmp_path / "notes.txt"
    bad.write_text("hello, this is not a report\n")
    message = fail(window, qtbot, bad)
    assert window.empty_page.banner.isVisible()
    assert window.empty_page.banner.text.text() == message
    assert window.centralWidget().currentIndex() == 0


def step(window: MainWindow) -> int | str:
    """The reading step shown (0 is step 1), or 'predict', 'timing', 'reference'."""
    current = window.tabs.currentWidget()
    if current in window.tab_pages:
        return window.tab_pages.index(current)
    return {window.predict_tab: "predict", window.timing_scroll: "timing",
            window.reference_tab: "reference"}[current]


def key(window: MainWindow, qtbot, k: Qt.Key,
        modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    target = QApplication.focusWidget() or window
    qtbot.keyClick(target, k, modifier)


def test_number_keys_and_arrows_step_through_the_reading_order(pair_window, qtbot) -> None:
    w = pair_window
    assert step(w) == 0
    key(w, qtbot, Qt.Key.Key_3)
    assert step(w) == 2
    key(w, qtbot, Qt.Key.Key_2)
    assert step(w) == 1
    key(w, qtbot, Qt.Key.Key_Right)
    assert step(w) == 2
    key(w, qtbot, Qt.Key.Key_Right)  # round, through Predict
    assert step(w) == "predict"
    key(w, qtbot, Qt.Key.Key_Right)
    assert step(w) == 0
    key(w, qtbot, Qt.Key.Key_Left)
    assert step(w) == "predict"
    key(w, qtbot, Qt.Key.Key_Left)
    assert step(w) == 2
    key(w, qtbot, Qt.Key.Key_1)
    assert step(w) == 0
    key(w, qtbot, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    assert step(w) == 1


def test_typing_in_the_filter_box_is_not_a_shortcut(window, qtbot) -> None:
    load(window, qtbot, THREE_MM)
    key(window, qtbot, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert window.kernel_list.filter_box.hasFocus()
    qtbot.keyClicks(window.kernel_list.filter_box, "2s")
    assert window.kernel_list.filter_box.text() == "2s"
    assert step(window) == 0
    assert window.names == ["mm3_kernel1"]


def test_projector_mode_keys_and_swap(pair_window, qtbot) -> None:
    w = pair_window
    key(w, qtbot, Qt.Key.Key_F5)
    assert w.projector
    assert w.isFullScreen()
    assert not w.menuBar().isVisible()
    assert not w.statusBar().isVisible()
    assert "numba-naive.ncu-rep" not in w.compare_line.text()
    assert all(page.style_.projector for page in w.tab_pages)
    assert w.tabs.tabBar().font().pointSizeF() > 20
    key(w, qtbot, Qt.Key.Key_S)
    assert w.names == ["matmul_tiled", "matmul_naive"]
    assert tab_kernel_names(w) == [["matmul_tiled", "matmul_naive"]] * 3
    assert [e.kernel.name for e in w.kernel_list.picks()] == ["matmul_tiled", "matmul_naive"]
    key(w, qtbot, Qt.Key.Key_2)
    assert step(w) == 1
    key(w, qtbot, Qt.Key.Key_Right)
    assert step(w) == 2
    key(w, qtbot, Qt.Key.Key_Escape)
    assert not w.projector
    assert not w.isFullScreen()
    assert w.menuBar().isVisible()
    assert w.statusBar().isVisible()
    assert w.tabs.cornerWidget(Qt.Corner.TopRightCorner) is None
    assert w.compare_line.isVisible()
    assert "numba-naive.ncu-rep" in w.compare_line.text()
    assert not any(page.style_.projector for page in w.tab_pages)
    key(w, qtbot, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert w.projector
    key(w, qtbot, Qt.Key.Key_S)
    assert w.names == ["matmul_naive", "matmul_tiled"]
    w.projector_action.trigger()
    assert not w.projector


def test_swap_does_nothing_with_one_kernel(window, qtbot) -> None:
    load(window, qtbot, NAIVE)
    assert not window.window_actions.swap.isEnabled()
    key(window, qtbot, Qt.Key.Key_S)
    assert window.names == ["matmul_naive"]


def test_export_png_and_svg_of_the_current_tab(pair_window, tmp_path) -> None:
    w = pair_window
    w.set_tab(1)
    png = w.export(tmp_path / "memory.png")
    image = QImage(str(png))
    page = w.current_tab()
    assert image.width() == page.width()
    assert image.height() >= page.height()
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7)
               for y in range(0, image.height(), 7)}
    assert len(colours) > 3  # drawn, not blank
    svg = w.export(tmp_path / "memory.svg")
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert root.attrib["viewBox"] == f"0 0 {image.width()} {image.height()}"
    text = svg.read_text(encoding="utf-8")
    assert "matmul_naive against matmul_tiled" in text  # the title
    assert page.QUESTION.split(":")[0] in text


def test_export_shows_the_whole_reading_not_the_part_that_fits(window, qtbot, tmp_path) -> None:
    load(window, qtbot, NAIVE, TILED)
    window.set_projector(True, full_screen=False)  # projector type: the memory chart scrolls
    window.set_tab(1)
    # The tab is drawn when shown: the layouts it asked for are done, as for a person.
    QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    page = window.current_tab()
    scroll = page.findChild(QScrollArea)
    assert scroll.verticalScrollBar().maximum() > 0
    size = page.size()
    image = QImage(str(window.export(tmp_path / "memory.png")))
    assert image.width() == size.width()
    assert image.height() >= size.height() + scroll.verticalScrollBar().maximum()
    assert page.size() == size
    assert scroll.verticalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAsNeeded


def test_export_csv_and_markdown_of_the_comparison(pair_window, tmp_path) -> None:
    w = pair_window
    rows = {r["row"]: r for r in csv.DictReader(io.StringIO(
        w.export(tmp_path / "pair.csv").read_text(encoding="utf-8")))}
    assert rows["Global load requests"]["matmul_naive"] == "8388608"
    assert rows["Global load requests"]["matmul_tiled"] == "524288"
    markdown = w.export(tmp_path / "pair.md").read_text(encoding="utf-8")
    assert markdown.startswith("## matmul_naive against matmul_tiled\n")
    assert "Files: `numba-naive.ncu-rep`, `numba-tiled.ncu-rep`" in markdown
    assert ("| Duration | 219.14 us | 47.78 us | matmul_naive 4.59x matmul_tiled |"
            in markdown)
    w.swap()
    markdown = w.export(tmp_path / "swapped.md").read_text(encoding="utf-8")
    # A against B reversed: the same words, never a bare '0.22x'
    assert ("| Duration | 47.78 us | 219.14 us | matmul_naive 4.59x matmul_tiled |"
            in markdown)
    assert "0.22x" not in markdown


def test_export_refuses_what_it_cannot_write(window, qtbot, tmp_path) -> None:
    with pytest.raises(ValueError, match="nothing to export"):
        window.export(tmp_path / "x.csv")
    load(window, qtbot, NAIVE)
    with pytest.raises(ValueError, match=re.escape("use .png, .svg, .csv or .md")):
        window.export(tmp_path / "x.pdf")


def readable(path: Path) -> bool:
    """Whether `path` holds a whole export of its kind."""
    suffix = path.suffix
    if suffix == ".png":
        return not QImage(str(path)).isNull()
    if suffix == ".svg":
        return ET.parse(path).getroot().tag.endswith("svg")
    text = path.read_text(encoding="utf-8")
    return text.startswith("row,") if suffix == ".csv" else text.startswith("## ")


@pytest.fixture
def slides(tmp_path) -> Path:
    """A folder that holds only what an export writes."""
    folder = tmp_path / "slides"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("suffix", list(exporting.EXPORT_FILTERS))
def test_an_export_never_replaces_a_file_unasked(pair_window, slides, suffix) -> None:
    target = slides / f"slide{suffix}"
    target.write_bytes(b"the lecture's copy")
    with pytest.raises(FileExistsError):
        pair_window.export(target)
    assert target.read_bytes() == b"the lecture's copy"
    assert list(slides.iterdir()) == [target]  # no temporary file left behind
    assert pair_window.export(target, replace=True) == target
    assert readable(target)
    assert list(slides.iterdir()) == [target]


def test_a_picture_is_drawn_beside_the_target_then_renamed(pair_window, slides,
                                                           monkeypatch) -> None:
    drawn: list[tuple[Path, bool]] = []
    save_png = exporting.pictures.save_png

    def spy(page, path: Path, header=None) -> None:
        drawn.append((path, target.exists()))
        save_png(page, path, header)

    monkeypatch.setattr(exporting.pictures, "save_png", spy)
    target = slides / "memory.png"
    pair_window.export(target)
    [(temporary, target_existed)] = drawn
    assert temporary.parent == slides and temporary != target
    assert not target_existed and not temporary.exists()
    assert readable(target)


@pytest.mark.parametrize("answer", [QMessageBox.StandardButton.Yes,
                                    QMessageBox.StandardButton.No])
def test_the_export_dialog_asks_before_replacing(pair_window, slides, monkeypatch,
                                                answer) -> None:
    target = slides / "pair.md"
    target.write_text("old notes\n", encoding="utf-8")
    # typed without a suffix: the Markdown filter adds it, and the question is about pair.md
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (
        str(slides / "pair"), exporting.EXPORT_FILTERS[".md"]))
    asked = []

    def question(parent, title, text, buttons, default):
        asked.append((title, text, default))
        return answer

    monkeypatch.setattr(QMessageBox, "question", question)
    pair_window.window_actions.export.trigger()
    assert asked == [("Replace file?", f"pair.md already exists in {slides}.\nReplace it?",
                      QMessageBox.StandardButton.No)]
    replaced = answer == QMessageBox.StandardButton.Yes
    assert (target.read_text(encoding="utf-8") == "old notes\n") != replaced
    assert readable(target) == replaced
    assert list(slides.iterdir()) == [target]


def test_the_export_dialog_does_not_ask_about_a_new_file(pair_window, slides,
                                                         monkeypatch) -> None:
    target = slides / "pair.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (
        str(target), exporting.EXPORT_FILTERS[".png"]))
    monkeypatch.setattr(QMessageBox, "question", lambda *a: pytest.fail("asked"))
    pair_window.window_actions.export.trigger()
    assert readable(target)


def drag_enter(mime: QMimeData) -> QDragEnterEvent:
    """A drag entering at (10, 10); Qt 6.12 deprecates the QPoint form that 6.11 alone has."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return QDragEnterEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime,
                               Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)


def drop(window: MainWindow, paths: list[Path]) -> tuple[bool, bool]:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    actions = Qt.DropAction.CopyAction
    enter = drag_enter(mime)
    QApplication.sendEvent(window, enter)
    dropped = QDropEvent(QPointF(10, 10), actions, mime, Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, dropped)
    return enter.isAccepted(), dropped.isAccepted()


def test_dropping_files_opens_them(window, qtbot) -> None:
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        assert drop(window, [NAIVE, TILED]) == (True, True)
    assert window.names == ["matmul_naive", "matmul_tiled"]


def test_dropping_something_that_is_not_a_file_is_refused(window) -> None:
    mime = QMimeData()
    mime.setText("hello")
    enter = drag_enter(mime)
    QApplication.sendEvent(window, enter)
    assert not enter.isAccepted()
    assert not window.busy


def test_recent_files_remember_what_opened_together(window, qtbot) -> None:
    load(window, qtbot, NAIVE, TILED)
    load(window, qtbot, SUMS)
    assert window.recent.entries() == [[SUMS.resolve()], [NAIVE.resolve(), TILED.resolve()]]
    window.window_actions.recent.aboutToShow.emit()
    texts = [a.text() for a in window.window_actions.recent.actions()]
    assert texts[:2] == [f"&1 {SUMS.name}", "&2 numba-naive.ncu-rep + numba-tiled.ncu-rep"]
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        window.window_actions.recent.actions()[1].trigger()
    assert window.names == ["matmul_naive", "matmul_tiled"]
    assert window.recent.entries()[0] == [NAIVE.resolve(), TILED.resolve()]


def test_recent_files_survive_a_new_window(window, qtbot, settings) -> None:
    load(window, qtbot, NAIVE)
    other = MainWindow(settings=settings, tabs=default_tabs())
    qtbot.addWidget(other)
    assert other.recent.entries() == [[NAIVE.resolve()]]


def test_progress_shows_while_loading_and_cancel_keeps_what_was_open(pair_window, qtbot,
                                                                     real_reads) -> None:
    # real_reads: a read the cache answered would end before the cancel could stop it
    w = pair_window
    dropped = w.worker.dropped
    w.open_paths([SUMS])
    assert w.status_line.progress.isVisible()
    assert w.status_line.cancel_button.isVisible()
    with qtbot.waitSignal(w.worker.cancelled, timeout=5_000):
        w.status_line.cancel_button.click()
    assert not w.status_line.progress.isVisible()
    assert w.worker.wait(30_000)
    qtbot.waitUntil(lambda: w.worker.dropped == dropped + 1, timeout=5_000)  # the read's end
    assert w.names == ["matmul_naive", "matmul_tiled"]


def test_a_newer_open_wins_over_an_older_one(window, qtbot, real_reads) -> None:
    # real_reads: the older read must still be under way when the newer open comes
    dropped = window.worker.dropped
    window.open_paths([THREE_MM])
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        window.open_paths([SUMS])
    assert window.worker.wait(30_000)
    qtbot.waitUntil(lambda: window.worker.dropped == dropped + 1, timeout=5_000)  # the older
    assert window.names == ["row_sums", "column_sums"]


def test_the_status_bar_states_the_current_tabs_thresholds(pair_window) -> None:
    w = pair_window
    shown, full = [], []
    for i in range(3):
        w.set_tab(i)
        shown.append(w.status_line.thresholds.text())
        full.append(w.status_line.thresholds.toolTip())
    assert full[0] == w.tab_pages[0].findChild(QLabel, SolNames.THRESHOLD).text()
    assert full[2] == w.tab_pages[2].findChild(QLabel, SolNames.THRESHOLD).text()
    assert shown[0] == "High means at or above 60 % of peak (the dashed line)"  # HIGH_PCT
    assert shown[2].startswith("A gap of 5 points or more")  # OCCUPANCY_GAP_PCT
    assert shown[1] != shown[0]


def test_no_arguments_open_the_shipped_comparison_when_it_is_there(monkeypatch, tmp_path) -> None:
    from viewer.qt.shell import app

    shipped = [tmp_path / "naive.ncu-rep", tmp_path / "tiled.ncu-rep"]
    monkeypatch.setattr("viewer.core.shipped.comparison", lambda: shipped)
    assert app.startup_paths([]) == []  # not captured yet: the empty page says how to open one
    shipped[0].write_bytes(NAIVE.read_bytes())
    assert app.startup_paths([]) == []  # half a pair is no comparison
    shipped[1].write_bytes(TILED.read_bytes())
    assert app.startup_paths([]) == shipped
    assert app.startup_paths([SUMS]) == [SUMS]
    sweep = [tmp_path / "naive-128.ncu-rep", tmp_path / "tiled-128.ncu-rep"]
    monkeypatch.setattr("viewer.core.shipped.sweep", lambda: sweep)
    assert app.startup_paths([]) == shipped  # the sweep is the Series view's
    assert app.startup_paths([], series=True) == []  # listed, not there: nothing half-read
    for path in sweep:
        path.write_bytes(NAIVE.read_bytes())
    assert app.startup_paths([], series=True) == sweep
    assert app.startup_paths([SUMS], series=True) == [SUMS]


def test_recent_files_keep_the_newest_ten_without_repeats(settings, tmp_path) -> None:
    recent = RecentFiles(settings)
    paths = [tmp_path / f"k{i}.ncu-rep" for i in range(12)]
    for path in paths:
        recent.add([path])
    recent.add([paths[5]])
    entries = recent.entries()
    assert len(entries) == LIMIT == 10
    assert entries[0] == [paths[5].resolve()]
    assert entries.count([paths[5].resolve()]) == 1
    assert [paths[0].resolve()] not in entries
    recent.clear()
    assert recent.entries() == []


def test_recent_files_ignore_a_damaged_setting(settings) -> None:
    settings.setValue(KEY, "{not json")
    assert RecentFiles(settings).entries() == []
    settings.setValue(KEY, '[["/a.ncu-rep"], 5, [], ["/b.csv", 7]]')
    assert RecentFiles(settings).entries() == [[Path("/a.ncu-rep")]]


def test_the_timing_tab_is_one_key_away_and_outside_the_reading_order(pair_window, qtbot) -> None:
    w = pair_window
    key(w, qtbot, Qt.Key.Key_T)
    assert w.tabs.currentWidget() is w.timing_scroll
    key(w, qtbot, Qt.Key.Key_Right)  # into the steps at the first: Predict
    assert step(w) == "predict"
    key(w, qtbot, Qt.Key.Key_T)
    key(w, qtbot, Qt.Key.Key_Left)
    assert step(w) == 2
    key(w, qtbot, Qt.Key.Key_F5)
    assert w.timing_panel.style_.projector
    key(w, qtbot, Qt.Key.Key_Escape)
    assert not w.timing_panel.style_.projector


@pytest.mark.parametrize("width", [1920, 1024])
def test_projector_mode_fits_the_screen_it_is_given(pair_window, qtbot, width) -> None:
    w = pair_window
    w.set_projector(True, full_screen=False)
    w.resize(width, 768)
    qtbot.waitUntil(lambda: w.width() == width)
    assert w.minimumSizeHint().width() <= 1024  # a 1024-wide projector holds the window
    corner = w.tabs.cornerWidget(Qt.Corner.TopRightCorner)
    # Beside the tabs only where both fit on one line (six tabs and the pair's warning do not).
    beside = w.compare_line.width_beside(w.tabs, w.tab_style) <= width
    assert (corner is w.compare_line) == beside
    assert w.compare_line.isVisible()
    assert w.tabs.tabBar().font().pointSizeF() > 20


def test_f1_lists_the_keys_from_the_windows_own_actions(pair_window, qtbot) -> None:
    w = pair_window
    key(w, qtbot, Qt.Key.Key_F1)
    dialog = w.keys_dialog
    assert dialog is not None and dialog.isVisible()
    rows = dict(dialog.rows)
    assert rows["Swap A and B"] == "S"
    assert rows["Projector mode"] == "F5 or Ctrl+P"
    assert rows["T  Timing"] == "T"
    assert "Keys" in rows
    dialog.close()
    key(w, qtbot, Qt.Key.Key_F5)  # the keys are listed in projector mode too, where no menu shows
    key(w, qtbot, Qt.Key.Key_F1)
    assert w.keys_dialog.isVisible()
    assert w.keys_dialog.findChildren(QLabel)[0].font().pointSizeF() >= 20
    key(w, qtbot, Qt.Key.Key_F1)
    assert not w.keys_dialog.isVisible()
