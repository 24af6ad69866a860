"""Two different kernels never read alike where the window paints their names: the kernel
list, the group view and the tabs' A/B headings, at 1366x768 and 1920x1080, desk and
projector, on the shipped pair and on the PyTorch capture's `tn` and `nn` cuBLAS gemms (#2 and
#44, 121 characters that differ in one). What is painted is computed as Qt paints it: an item
view's text through its delegate, elided by the font to the cell less the style's margins; an
ElidedName's own `shown_text`. The list's header row is in the list's type.

One window per size, mode and pair (module-scoped)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem, QTableView

from viewer.core import shipped
from viewer.qt.kernel_list.name_delegate import text_width
from viewer.qt.kit.elided_name import ElidedName
from viewer.qt.shell.main_window import MainWindow, default_tabs

ROOT = Path(__file__).resolve().parents[3]
TORCH = ROOT / "tests/data/corpus/h200/torch-transformer-400.details.txt.gz"
SIZES = [(1366, 768), (1920, 1080)]
TN, NN = 2, 44  # sm80_xmma_gemm_..._tn_n_tilesize64x64x8_... and its _nn_n_ twin


def settle() -> None:
    for _ in range(6):
        QApplication.processEvents()


@pytest.fixture(scope="module", params=[(size, projector, pair) for size in SIZES
                                        for projector in (False, True)
                                        for pair in ("shipped", "torch")],
                ids=lambda p: f"{p[0][0]}x{p[0][1]}-{'projector' if p[1] else 'desk'}-{p[2]}")
def window(request, qapp, tmp_path_factory) -> Iterator[MainWindow]:
    size, projector, pair = request.param
    tmp = tmp_path_factory.mktemp("apart")
    settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, tabs=default_tabs(), record_recent=False)
    win.resize(*size)
    win.show()
    loaded: list[bool] = []
    win.loaded.connect(lambda: loaded.append(True))
    win.open_paths([TORCH] if pair == "torch" else shipped.comparison())
    while not loaded:
        QApplication.processEvents()
    if pair == "torch":
        entries = {e.kernel.index: e for e in win.kernel_list.entries()}
        win.show_entries([entries[TN], entries[NN]])
        win.kernel_list.set_picks(win.picks)
    win.set_projector(projector, full_screen=False)
    win.resize(*size)
    win.kernel_dock.show()
    settle()
    yield win
    win.worker.shutdown(30_000)
    win.close()
    win.deleteLater()
    settle()


def painted(view: QTableView, column: int) -> dict[str, set[str]]:
    """Each whole name of `column` (the model's text) -> the texts painted for it."""
    model = view.model()
    delegate = view.itemDelegateForColumn(column) or view.itemDelegate()
    out: dict[str, set[str]] = {}
    for row in range(model.rowCount()):
        index = model.index(row, column)
        option = QStyleOptionViewItem()
        option.initFrom(view)
        option.font = view.font()
        option.fontMetrics = view.fontMetrics()
        option.rect = view.visualRect(index)
        option.rect.setWidth(view.columnWidth(column))
        option.textElideMode = view.textElideMode()
        option.widget = view
        delegate.initStyleOption(option, index)
        text = option.fontMetrics.elidedText(option.text, option.textElideMode,
                                             text_width(option, view))
        out.setdefault(str(model.data(index)), set()).add(text)
    return out


def alike(shown: dict[str, set[str]]) -> list[str]:
    """The texts painted for more than one name."""
    seen: dict[str, set[str]] = {}
    for name, texts in shown.items():
        for text in texts:
            seen.setdefault(text, set()).add(name)
    return [f"{text!r}: {sorted(names)}" for text, names in seen.items() if len(names) > 1]


def test_the_kernel_list_paints_no_two_names_alike(window) -> None:
    kernels = window.kernel_list
    kernels.set_grouped(False)
    settle()
    assert kernels.view.isVisible()
    shown = painted(kernels.view, 1)
    assert len(shown) > 1
    assert not alike(shown)


def test_the_group_view_paints_no_two_names_alike(window) -> None:
    kernels = window.kernel_list
    kernels.set_grouped(True)
    settle()
    try:
        shown = painted(kernels.group_view, 0)
        assert len(shown) > 1
        assert not alike(shown)
    finally:
        kernels.set_grouped(False)
        settle()


def test_the_list_and_the_headings_never_show_two_kernels_alike(window) -> None:
    """The headings of every tab, and the list's rows, one set of texts per kernel."""
    kernels = window.kernel_list
    shown = painted(kernels.view, 1)
    names = [e.kernel.name for e in window.picks]
    assert len(set(names)) == 2
    for view in window.reading.views:
        window.navigate(view.VIEW, "")
        settle()
        page = window.reading.tabs.currentWidget()
        for heading in page.findChildren(ElidedName):
            if heading.isVisible() and heading.text() in names:
                shown.setdefault(heading.text(), set()).add(heading.shown_text())
    assert not alike(shown)


def test_the_lists_header_row_is_in_the_lists_type(window) -> None:
    view = window.kernel_list.view
    header = view.horizontalHeader()
    assert header.font().pointSizeF() == view.font().pointSizeF()


def test_the_status_line_paints_both_names_apart(window) -> None:
    """What the line paints (its text, clipped to its width) names A and B apart."""
    line = window.status_line.text
    if not line.isVisible():
        pytest.skip("no status line at this size and mode: nothing painted")
    text, width = line.text(), line.contentsRect().width()
    advance = line.fontMetrics().horizontalAdvance
    painted = next(text[:n] for n in range(len(text), -1, -1) if advance(text[:n]) <= width)
    said = re.search(r"\bA (.+?)(?: with|,) B (.+?)(;|$)", painted)
    assert said is not None, f"{painted!r} of {text!r}"
    assert said.group(1) != said.group(2)
