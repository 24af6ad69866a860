"""The timing panel's status line and layout as plain text and numbers."""

from __future__ import annotations

from viewer.analysis.timing_status import SIDE_BY_SIDE_PX, progress_text, side_by_side, status_line


def test_a_status_is_one_line() -> None:
    assert status_line("Timing on\n  NVIDIA H200:\tlaunch 3") == "Timing on NVIDIA H200: launch 3"


def test_the_progress_names_its_gpu_and_step() -> None:
    assert progress_text("H200", "naive, launch 3") == "Timing on H200: naive, launch 3"
    assert progress_text(None, "naive, launch 3") is None
    assert progress_text("NVIDIA H200", "") is None


def test_the_numbers_sit_beside_the_plot_from_its_width_on() -> None:
    assert side_by_side(SIDE_BY_SIDE_PX) and not side_by_side(SIDE_BY_SIDE_PX - 1)
