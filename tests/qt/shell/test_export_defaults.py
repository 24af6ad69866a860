"""Export as an instructor meets it: the dialog opens where the last export went (else beside the
report, else Pictures, Documents or home) with a name of the reports and the tab; a picture
carries the compare line (A, B and its warnings) above the tab; Markdown says which kernel has
more in the memory step's own words. The shipped pair of profiles/, copied where the test may
write."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QStandardPaths
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QFileDialog, QLabel

from tests.hostile_disk import small_disk
from viewer.analysis.comparison import COMPARED
from viewer.qt.kit import pictures
from viewer.qt.kit.object_names import one_of
from viewer.qt.shell import export_place
from viewer.qt.shell.main_window import MainWindow, default_tabs
from viewer.qt.views.memory.memory_tab import Names as MemoryNames

PROFILES = Path(__file__).resolve().parents[3] / "profiles"
PAIR = ("naive.ncu-rep", "tiled.ncu-rep")
MEMORY, SPEED_OF_LIGHT = 1, 0  # the reading steps set_tab takes


@pytest.fixture
def settings(tmp_path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


def copy_pair(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copy(PROFILES / name, folder / name)) for name in PAIR]


def open_window(qtbot, settings: QSettings, paths: list[Path]) -> MainWindow:
    window = MainWindow(settings=settings, tabs=default_tabs())
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        window.open_paths(paths)
    return window


@pytest.fixture
def reports(tmp_path) -> list[Path]:
    return copy_pair(tmp_path / "reports")


@pytest.fixture
def window(qtbot, settings, reports) -> MainWindow:
    win = open_window(qtbot, settings, reports)
    yield win
    win.worker.shutdown(30_000)


class Dialog:
    """QFileDialog.getSaveFileName stood in for: notes the path proposed, answers `answer`."""

    def __init__(self, monkeypatch) -> None:
        self.proposed: list[Path] = []
        self.answer = ("", "")
        monkeypatch.setattr(QFileDialog, "getSaveFileName", self)

    def __call__(self, parent, caption, proposed, filters, **_options):
        self.proposed.append(Path(proposed))
        return self.answer


def proposed(window: MainWindow, dialog: Dialog) -> Path:
    window.window_actions.export.trigger()
    return dialog.proposed[-1]


def test_the_dialog_names_the_reports_and_the_tab_beside_the_reports(window, reports,
                                                                    monkeypatch) -> None:
    dialog = Dialog(monkeypatch)
    window.set_tab(MEMORY)
    assert proposed(window, dialog) == reports[0].parent / "naive-vs-tiled-memory-chart.png"
    window.set_tab(SPEED_OF_LIGHT)
    assert proposed(window, dialog) == reports[0].parent / "naive-vs-tiled-speed-of-light.png"


def test_the_dialog_opens_where_the_last_export_went(window, qtbot, settings, reports, tmp_path,
                                                     monkeypatch) -> None:
    dialog = Dialog(monkeypatch)
    slides = tmp_path / "slides"
    slides.mkdir()
    window.set_tab(MEMORY)
    dialog.answer = (str(slides / "chart.png"), "")
    window.window_actions.export.trigger()
    assert (slides / "chart.png").exists()
    dialog.answer = ("", "")
    assert proposed(window, dialog).parent == slides
    again = open_window(qtbot, settings, reports)  # kept with the recent files
    try:
        assert proposed(again, dialog).parent == slides
        shutil.rmtree(slides)  # gone: beside the reports again
        assert proposed(again, dialog).parent == reports[0].parent
    finally:
        again.worker.shutdown(30_000)


def standard_folder() -> Path:
    """The user's Pictures, else Documents, else home: the first that is there."""
    for location in (QStandardPaths.StandardLocation.PicturesLocation,
                     QStandardPaths.StandardLocation.DocumentsLocation):
        found = QStandardPaths.writableLocation(location)
        if found and Path(found).is_dir():
            return Path(found)
    return Path.home()


def test_without_the_reports_folder_the_dialog_opens_in_the_users_folders(
        window, reports, monkeypatch) -> None:
    dialog = Dialog(monkeypatch)
    shutil.rmtree(reports[0].parent)  # read, then taken away (a stick pulled out)
    assert proposed(window, dialog).parent == standard_folder()


def test_a_read_only_reports_folder_is_not_proposed(qtbot, settings, tmp_path,
                                                    monkeypatch) -> None:
    with small_disk(tmp_path / "stick", "4m") as stick:
        paths = copy_pair(stick)
        if subprocess.run(["mount", "-o", "remount,ro", str(stick)],
                          capture_output=True).returncode != 0:
            pytest.skip("a tmpfs could not be made read-only here")
        window = open_window(qtbot, settings, paths)
        try:
            assert proposed(window, Dialog(monkeypatch)).parent == standard_folder()
        finally:
            window.worker.shutdown(30_000)


def test_a_name_is_safe_in_a_file_name() -> None:
    assert export_place.name_part("void gemm<float, 16>(float*)") == "void-gemm-float-16-float"
    assert export_place.tab_part("advice", "") == "ncus-advice"
    assert export_place.default_name(["/x/run.ncu-rep.gz"] * 2, ["k_a", "k_b"], "sol", "") == (
        "run-k_a-vs-k_b-speed-of-light.png")


def test_a_png_carries_the_compare_line_above_the_tab(window, tmp_path) -> None:
    window.set_tab(MEMORY)
    line = window.reading.compare_line
    assert line.misreads  # the pair's warnings: requests against sectors, clocks not locked
    with_header = QImage(str(window.export(tmp_path / "chart.png")))
    bare_path = tmp_path / "bare.png"
    pictures.save_png(window.current_tab(), bare_path)  # the tab alone
    bare = QImage(str(bare_path))
    assert with_header.width() == bare.width()
    top = with_header.height() - bare.height()
    assert top > 0
    assert with_header.copy(0, top, bare.width(), bare.height()) == bare  # the tab under it
    warning = QColor(window.tab_style.colors.warning).rgb()
    header = with_header.copy(0, 0, bare.width(), top)
    assert any(header.pixel(x, y) == warning  # the warnings' colour, in the header only
               for x in range(header.width()) for y in range(header.height()))


def svg_text(path: Path) -> str:
    """Every text the SVG draws, its spaces taken out (lines wrap where the width says)."""
    texts = "".join(e.text or "" for e in ET.parse(path).getroot().iter()
                    if e.tag.endswith("text"))
    return re.sub(r"\s+", "", texts)


def test_an_svg_carries_which_kernel_is_a_and_b_and_the_warnings(window, tmp_path) -> None:
    window.set_tab(MEMORY)
    text = svg_text(window.export(tmp_path / "chart.svg"))
    assert "Amatmul_naivenaive.ncu-repagainstBmatmul_tiledtiled.ncu-rep" in text
    for misread in window.reading.compare_line.misreads:
        assert "Careful:" + re.sub(r"\s+", "", misread.text)[:60] in text
    assert "swaps" not in text and "(N:" not in text  # no keys in a picture


def test_markdown_says_which_has_more_as_the_memory_tab_does(window, tmp_path) -> None:
    window.set_tab(MEMORY)
    lines = window.export(tmp_path / "pair.md").read_text(encoding="utf-8").splitlines()
    cells = {line.split(" | ")[0].removeprefix("| "): line.split(" | ")[-1].removesuffix(" |")
             for line in lines if line.startswith("| ")}
    page = window.current_tab()
    shown = 0
    for key, label in COMPARED:
        on_screen = page.findChild(QLabel, one_of(MemoryNames.RATIO, key))
        if on_screen is not None:
            assert cells[label] == on_screen.text()
            shown += 1
    assert shown >= 8
    assert cells["Sectors per request"] == "matmul_tiled 2.00x matmul_naive"  # never '0.50x'
