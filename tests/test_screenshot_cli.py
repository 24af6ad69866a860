"""`python -m viewer --screenshot OUT.png`: the course build's way to picture the window."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
NAIVE, TILED = H200 / "numba-naive.ncu-rep", H200 / "numba-tiled.ncu-rep"


def viewer(tmp_path: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    return subprocess.run([sys.executable, "-m", "viewer", *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180)


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@pytest.mark.slow
def test_a_screenshot_of_the_memory_tab_is_1280_by_800(tmp_path) -> None:
    out = tmp_path / "memory.png"
    result = viewer(tmp_path, "--screenshot", out, "--tab", "memory", NAIVE, TILED)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert png_size(out) == (1280, 800)
    sol = tmp_path / "sol.png"
    assert viewer(tmp_path, "--screenshot", sol, "--tab", "sol", NAIVE, TILED).returncode == 0
    assert sol.read_bytes() != out.read_bytes()
    assert not (tmp_path / "config").exists()  # a screenshot leaves no recent-files entry


@pytest.mark.slow
def test_a_projector_screenshot_is_larger(tmp_path) -> None:
    out = tmp_path / "projector.png"
    result = viewer(tmp_path, "--screenshot", out, "--projector", "--tab", "occupancy", NAIVE,
                    TILED)
    assert result.returncode == 0, result.stderr
    width, height = png_size(out)
    assert (width, height) == (1920, 1080)


@pytest.mark.slow
def test_a_file_that_fails_exits_non_zero_with_one_line(tmp_path) -> None:
    bad = tmp_path / "bad.ncu-rep"
    bad.write_bytes(b"")
    out = tmp_path / "never.png"
    result = viewer(tmp_path, "--screenshot", out, NAIVE, bad)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("ncu-reader: ")
    assert str(bad) in lines[0]
    assert not out.exists()


def colour_counts(path: Path) -> dict[str, int]:
    """How many pixels of each colour a PNG holds, keyed '#rrggbb'."""
    import numpy as np
    from PySide6.QtGui import QImage

    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(),
                                                               image.bytesPerLine())
    rgb = rows[:, : image.width() * 3].reshape(-1, 3)
    codes = (rgb[:, 0].astype(np.int64) << 16) | (rgb[:, 1].astype(np.int64) << 8) | rgb[:, 2]
    values, counts = np.unique(codes, return_counts=True)
    return {f"#{v:06x}": int(c) for v, c in zip(values, counts, strict=True)}


@pytest.mark.slow
@pytest.mark.parametrize("projector", [False, True])
@pytest.mark.parametrize(
    ("tab", "colour"),
    [("sol", "compute"), ("memory", "shared"), ("occupancy", "highlight")],
)
def test_every_tab_renders_its_reading(tmp_path, tab: str, colour: str, projector: bool) -> None:
    """Each tab's picture carries what only that tab draws: the compute bars, the shared-load
    arrow of the tiled kernel, the highlighted binding limit."""
    from viewer.qt.style import Style

    out = tmp_path / f"{tab}.png"
    args = ["--screenshot", out, "--tab", tab, NAIVE, TILED]
    result = viewer(tmp_path, *args, *(["--projector"] if projector else []))
    assert result.returncode == 0, result.stderr
    counts = colour_counts(out)
    total = sum(counts.values())
    colours = Style(projector=projector).colors
    assert counts.get(colours.background, 0) < 0.97 * total  # not an empty page
    assert counts.get(getattr(colours, colour), 0) > 500
    others = {"sol": "shared", "memory": "compute", "occupancy": "compute"}[tab]
    assert counts.get(getattr(colours, others), 0) < counts[getattr(colours, colour)]
