"""The status bar's words fit as whole parts: a line too long for the bar ends at the end of a
'; ' part, never inside a name or a number; the loading bar is as wide as its words ('kernel 104
of 400') in desk and projector type."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMainWindow

from viewer.qt.kit.style import Style
from viewer.qt.shell.status_line import StatusLine, whole_parts

LINE = ("A sm80_xmma_gemm_f32f32_tn, B sm80_xmma_gemm_f32f32_nn; "
        "torch-transformer-400.details.txt.gz: 400 kernels; kernel 104 of 400")


def test_a_line_too_wide_keeps_its_first_parts_whole() -> None:
    def advance(text: str) -> int:
        return len(text)

    parts = LINE.split("; ")
    for width in range(0, len(LINE) + 2):
        shown = whole_parts(LINE, width, advance)
        kept = shown.split("; ")
        assert kept == parts[:len(kept)] and kept  # whole parts, from the first, at least one
        assert len(shown) <= width or len(kept) == 1
        if len(kept) < len(parts):  # one more part would not have fitted
            assert len("; ".join(parts[:len(kept) + 1])) > width


@pytest.mark.parametrize("projector", [False, True], ids=["desk", "projector"])
def test_the_loading_bar_holds_its_words(qtbot, projector: bool) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    line = StatusLine(window.statusBar(), window)
    window.statusBar().setFont(Style(projector=projector).font("body"))
    line.progress.setFont(Style(projector=projector).font("body"))
    window.resize(1366, 768)
    window.show()
    line.show_busy(True)
    message = "kernel 104 of 400"
    line.show_progress(0.26, message)
    qtbot.waitUntil(lambda: line.progress.width() >= line.progress.minimumWidth())
    assert line.progress.width() > line.progress.fontMetrics().horizontalAdvance(message)
