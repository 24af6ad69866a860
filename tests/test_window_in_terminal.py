"""The window's command line where no window can open: the reading-order summary in the
terminal, of the kernels the window would open with, and a word on the flags only the window
has. Each case runs `python -m viewer` as a user would, with no display in its environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.x_displays import unused_display
from viewer.core import shipped
from viewer.core.display import xcb_plugin, xcb_problem

ROOT = Path(__file__).resolve().parent.parent
NAIVE, TILED = (str(p) for p in shipped.comparison())
HEAD = "  (ncu-rep, 1 kernel)"
TORCH = ROOT / "tests" / "data" / "corpus" / "h200" / "torch-transformer-400.details.txt.gz"
CUBLAS = ("sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_"
          "aligna4_alignc4_execute_kernel__5x_cublas")


def without_display(*args: str, display: str | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m viewer ARGS` with no display, or with DISPLAY=`display`."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    if display is not None:
        env["DISPLAY"] = display
    return subprocess.run([sys.executable, "-m", "viewer", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def heads(out: str) -> list[str]:
    """The files whose kernels were printed, as their head lines name them."""
    return [line.removesuffix(HEAD) for line in out.splitlines() if line.endswith(HEAD)]


@pytest.mark.parametrize(
    ("args", "line"),
    [(["--kernels", "999,1000"], "--kernels 999,1000: no kernel #999 in the files opened"),
     (["-k", "regex:nosuch"], "-k 'regex:nosuch': no kernel in the files opened matches it"),
     ([NAIVE, TILED, "--kernels", "0,1"], "--kernels 0,1: no kernel #1 in the files opened"),
     ([NAIVE, "--kernels", "0,0"], "--kernels 0,0: no second kernel #0 in the files opened")],
)
def test_what_the_window_would_refuse_is_refused_in_one_line(args, line) -> None:
    result = without_display(*args)
    assert result.stdout == ""
    assert result.returncode == 1
    said = result.stderr.splitlines()
    assert len(said) == 2 and said[0].startswith("ncu-reader: no display found")
    assert said[1] == f"ncu-reader: {line}"


def test_a_kernel_spec_prints_only_the_kernels_it_picks() -> None:
    result = without_display("-k", "regex:tiled")
    assert result.returncode == 0, result.stderr
    assert heads(result.stdout) == [TILED]
    assert "matmul_naive" not in result.stdout and "Comparison" not in result.stdout


def test_two_kernel_numbers_print_that_pair_in_the_order_asked() -> None:
    result = without_display(NAIVE, TILED, "--kernels", "0,0")
    assert result.returncode == 0, result.stderr
    assert heads(result.stdout) == [NAIVE, TILED]
    assert "Comparison: matmul_naive against matmul_tiled" in result.stdout
    one = without_display(NAIVE, TILED, "--kernels", "0")
    assert one.returncode == 0, one.stderr
    assert heads(one.stdout) == [NAIVE] and "Comparison" not in one.stdout
    backwards = without_display(str(TORCH), "--kernels", "11,2")  # A is #11, as in the window
    assert backwards.returncode == 0, backwards.stderr
    labels = [line.split()[0] for line in backwards.stdout.splitlines()
              if line.startswith("#") and " grid " in line]
    assert labels == ["#11", "#2"]
    assert f"Comparison: #11 {CUBLAS} against #2 {CUBLAS}" in backwards.stdout


def test_the_window_only_flags_are_said_to_be_ignored() -> None:
    result = without_display("--tab", "memory", "--projector")
    assert result.returncode == 0, result.stderr
    assert ("ncu-reader: --tab memory and --projector are the window's: ignored here, where "
            "every reading step prints in order") in result.stderr.splitlines()
    assert heads(result.stdout) == [NAIVE, TILED]
    plain = without_display()
    assert "ignored" not in plain.stderr and plain.stdout == result.stdout


def test_a_screenshot_needs_no_display_even_with_an_empty_platform(tmp_path) -> None:
    """QT_QPA_PLATFORM set but empty is no platform: the screenshot still renders offscreen,
    never the terminal summary with exit status 0 and no picture."""
    out = tmp_path / "out.png"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    result = subprocess.run([sys.executable, "-m", "viewer", "--screenshot", str(out)],
                            cwd=ROOT, env={**env, "QT_QPA_PLATFORM": "", "HOME": str(tmp_path)},
                            capture_output=True, text=True, timeout=180)
    assert out.is_file(), result.stderr
    assert result.returncode == 0 and result.stdout == ""


def test_a_display_no_x_server_answers_on_is_said_and_read_in_the_terminal() -> None:
    """Qt would abort (status 134) naming xcb-cursor0: the one line says what is wrong (where
    Qt's xcb plugin lacks a library on this machine, that comes first, as the app checks it
    first), and the summary follows, the window's picks honoured as with no display."""
    display = f":{unused_display()}"
    result = without_display(display=display)
    assert result.returncode == 0, result.stderr
    said = result.stderr.splitlines()
    lacking = xcb_problem(xcb_plugin())
    if lacking is None:
        assert said[0].startswith(f"ncu-reader: no X server answers on DISPLAY={display} (")
        assert "xcb-cursor" not in result.stderr
    else:
        assert said[0] == f"ncu-reader: {lacking}"
    assert heads(result.stdout) == [NAIVE, TILED]
    picked = without_display("--kernels", "999,1000", display=display)
    assert picked.returncode == 1 and picked.stdout == ""
    assert picked.stderr.splitlines()[1:] == [
        "ncu-reader: --kernels 999,1000: no kernel #999 in the files opened"]


def test_the_series_tab_with_no_file_prints_the_shipped_sweep_s_series() -> None:
    """`--tab series` asks for the Series view: where no window opens, the series prints, of
    the shipped sweep when no file is named, and --tab is not said to be ignored."""
    result = without_display("--tab", "series")
    assert result.returncode == 0, result.stderr
    said = result.stderr.splitlines()
    assert said[0].startswith("ncu-reader: no display found")
    assert said[1] == "The series instead (python -m viewer series):"
    assert not [line for line in said if "--tab" in line]
    assert result.stdout.startswith("Series: 10 rows by N, baseline row 0 (matmul_naive at N = "
                                    "128)\n")
    named = [p.name for p in shipped.sweep()]
    assert [n for n in named if n in result.stdout] == named
