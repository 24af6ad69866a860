"""Kernels of one name on the compare line: two launches of one long cuBLAS name in a file, and
two files of one name in different folders. Each is named as its own, whole or elided, never
with the other's name or number written into it, and two files are never shown as one."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

from PySide6.QtWidgets import QApplication

from viewer.core import shipped
from viewer.core.elide import elide_middle
from viewer.qt.shell.main_window import MainWindow
from viewer.qt.shell.opening import StartPicks

TORCH = (Path(__file__).resolve().parents[2] / "data" / "corpus" / "h200"
         / "torch-transformer-400.details.txt.gz")
NAIVE = shipped.comparison()[0]
CUBLAS = ("sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_"
          "aligna4_alignc4_execute_kernel__5x_cublas")


def plain(rich: str) -> str:
    """The compare line's words as a reader sees them: no tags, no break hints, one space."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", rich.replace("<br>", "\n")))
    return re.sub(r"[ \u00a0]+", " ", text.replace("\u200b", ""))


def opened(window: MainWindow, qtbot, paths: list[Path], picks: StartPicks | None = None) -> str:
    """Open `paths` (with `picks`), its warnings whole: the compare line's words."""
    with qtbot.waitSignal(window.loaded, timeout=120_000):
        window.start_picks = picks
        window.open_paths(paths)
    line = window.reading.compare_line
    if line.folded:
        line.toggle_notes()
    for _ in range(3):
        QApplication.processEvents()
    assert not line.folded
    return plain(line.text())


def test_two_launches_of_one_long_name_keep_their_own_numbers(shown_window, qtbot) -> None:
    text = opened(shown_window, qtbot, [TORCH], StartPicks((2, 11)))
    assert [e.kernel.name for e in shown_window.picks] == [CUBLAS] * 2
    short = elide_middle(CUBLAS, 40)
    assert f"#2 {short} with 24,576 threads" in text  # the size warning, each its own number
    assert f"#11 {short} with " in text
    assert "#2 #" not in text and "#11 #" not in text


def test_files_of_one_name_in_two_folders_are_told_apart(shown_window, qtbot, tmp_path) -> None:
    (tmp_path / "other").mkdir()
    copy = tmp_path / "other" / NAIVE.name
    shutil.copyfile(NAIVE, copy)
    text = opened(shown_window, qtbot, [NAIVE, copy])
    head, *warnings = text.split("\n")
    assert head.count("profiles/naive.ncu-rep") == 1 and head.count("other/naive.ncu-rep") == 1
    assert head.index("profiles/naive.ncu-rep") < head.index(" against ") < head.index(
        "other/naive.ncu-rep")
    said = " ".join(warnings)
    misreads = shown_window.reading.compare_line.misreads
    assert misreads and all(" ".join(m.text.split()) in said for m in misreads)  # as worded
    assert "#0 #0" not in said
    assert shown_window.status_message().startswith(
        "profiles/naive.ncu-rep + other/naive.ncu-rep: 2 kernels, comparing A ")


def test_a_file_named_twice_opens_once_and_the_line_says_so(shown_window, qtbot) -> None:
    text = opened(shown_window, qtbot, [NAIVE, NAIVE])
    assert len(shown_window.reports) == 1 and len(shown_window.picks) == 1
    assert " against " not in text and "#0 #0" not in text
    assert shown_window.status_message() == (
        f"naive.ncu-rep: 1 kernel, reading #0 matmul_naive; {NAIVE} named twice: read once")
    assert not shown_window.last_error  # a note, not a refusal
    assert text.strip() == f"matmul_naive naive.ncu-rep {NAIVE} named twice: read once"
    shown_window.set_projector(True, full_screen=False)  # no status line: the room reads it here
    assert plain(shown_window.reading.compare_line.text()).strip() == (
        f"matmul_naive {NAIVE} named twice: read once")
