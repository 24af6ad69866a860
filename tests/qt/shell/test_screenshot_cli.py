"""`python -m viewer --screenshot OUT.png`: the course build's way to picture the window."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
NAIVE, TILED = H200 / "numba-naive.ncu-rep", H200 / "numba-tiled.ncu-rep"


def viewer(tmp_path: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    return subprocess.run([sys.executable, "-m", "viewer", *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180)


def picture(path: Path):
    """The PNG decoded (QImage): a test looks at what was drawn, not at the file's header."""
    from PySide6.QtGui import QImage

    image = QImage(str(path))
    assert not image.isNull(), f"{path} is not a PNG"
    return image


def dark_pixels(image, left: int, top: int, width: int, height: int) -> int:
    """How many pixels of the rectangle are dark enough to be text."""
    from PySide6.QtGui import QColor

    return sum(QColor(image.pixel(x, y)).lightness() < 110
               for x in range(left, left + width) for y in range(top, top + height))


def corners(image) -> set[str]:
    """The colours of the four corners, '#rrggbb'."""
    from PySide6.QtGui import QColor

    w, h = image.width() - 1, image.height() - 1
    return {QColor(image.pixel(x, y)).name() for x, y in ((0, 0), (w, 0), (0, h), (w, h))}


@pytest.mark.slow
def test_a_desk_screenshot_is_1280_by_800_with_its_menu_and_status_line(tmp_path) -> None:
    from viewer.qt.kit.style import Style

    out = tmp_path / "memory.png"
    result = viewer(tmp_path, "--screenshot", out, "--tab", "memory", NAIVE, TILED)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    image = picture(out)
    assert (image.width(), image.height()) == (1280, 800)
    assert dark_pixels(image, 0, 0, 160, 20) > 20  # File, View, Help
    assert dark_pixels(image, 0, 780, 640, 20) > 50  # the status line's words, on the picture
    colours = Style(projector=False).colors
    assert colour_counts(out).get(colours.shared, 0) > 500  # the memory tab: the shared arrow
    assert not (tmp_path / "config").exists()  # a screenshot leaves no recent-files entry


@pytest.mark.slow
def test_a_projector_screenshot_is_1920_by_1080_without_menu_or_status_line(tmp_path) -> None:
    from viewer.qt.kit.style import Style

    out = tmp_path / "projector.png"
    result = viewer(tmp_path, "--screenshot", out, "--projector", "--tab", "occupancy", NAIVE,
                    TILED)
    assert result.returncode == 0, result.stderr
    image = picture(out)
    assert (image.width(), image.height()) == (1920, 1080)
    # the reading page reaches every corner: no menu bar above it, no status line below
    assert corners(image) == {Style(projector=True).colors.background}
    assert dark_pixels(image, 0, 0, 300, 50) > 200  # the tabs' large type


@pytest.mark.slow
def test_a_bad_file_beside_a_good_one_is_refused_in_the_banner(tmp_path) -> None:
    from viewer.qt.kit.banner import BACKGROUND
    from viewer.qt.kit.style import Style

    bad = tmp_path / "bad.ncu-rep"
    bad.write_bytes(b"")
    out = tmp_path / "refused.png"
    result = viewer(tmp_path, "--screenshot", out, bad, NAIVE)
    assert result.returncode == 1  # the build notices
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"ncu-reader: {bad}: ")
    counts = colour_counts(out)  # the good file opened, the refusal over it
    assert counts.get(BACKGROUND, 0) > 20_000  # the banner, a line across the window
    assert counts.get(Style(projector=False).colors.compute, 0) > 500  # naive's compute bar


@pytest.mark.slow
def test_when_no_file_can_be_read_there_is_no_picture(tmp_path) -> None:
    bad = tmp_path / "bad.ncu-rep"
    bad.write_bytes(b"")
    out = tmp_path / "never.png"
    result = viewer(tmp_path, "--screenshot", out, bad, tmp_path / "missing.ncu-rep")
    assert result.returncode == 1
    assert [line.split(": ")[1] for line in result.stderr.splitlines()] == [
        str(bad), str(tmp_path / "missing.ncu-rep")]
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
    from viewer.qt.kit.style import Style

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


def test_a_failure_while_showing_the_files_ends_a_screenshot(tmp_path):
    """An exception in a slot: Qt prints it and waits on; a screenshot says so and exits 1."""
    out = tmp_path / "never.png"
    code = ("import sys\n"
            "from viewer.qt.shell import main_window\n"
            "def boom(*args):\n"
            "    raise RuntimeError('planted failure')\n"
            "main_window.MainWindow.show_entries = boom\n"
            "from viewer.__main__ import main\n"
            f"sys.exit(main(['--screenshot', {str(out)!r}]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 1
    assert "planted failure" in done.stderr
    assert "the window failed while showing the files" in done.stderr
    assert not out.exists()


EXISTS = "exists; name a new file (a screenshot never writes over one)"


@pytest.mark.parametrize("kind", ["file", "link", "dangling link"])
def test_a_screenshot_never_writes_over_a_file_and_refuses_before_rendering(tmp_path,
                                                                           kind: str) -> None:
    """An existing OUT.png, a link to a file, a link to nothing: one line, exit 1, nothing read
    (the missing report is not even looked at) and nothing written anywhere."""
    out, elsewhere = tmp_path / "out.png", tmp_path / "elsewhere.png"
    if kind == "file":
        out.write_bytes(b"the slide's picture")
    else:
        out.symlink_to(elsewhere)
        if kind == "link":
            elsewhere.write_bytes(b"the slide's picture")
    result = viewer(tmp_path, "--screenshot", out, tmp_path / "missing.ncu-rep")
    assert result.returncode == 1
    assert result.stderr == f"ncu-reader: {out} {EXISTS}\n"
    assert os.path.islink(out) == (kind != "file")
    if kind == "dangling link":
        assert not elsewhere.exists()
    else:
        assert Path(out).read_bytes() == b"the slide's picture"


@pytest.mark.slow
def test_a_link_that_appears_while_rendering_is_not_written_through(tmp_path) -> None:
    """The picture is written beside OUT.png and linked into place: a symlink put at OUT.png
    while the window renders is neither followed nor replaced, and no temporary file stays."""
    folder = tmp_path / "slides"
    folder.mkdir()
    out, elsewhere = folder / "out.png", tmp_path / "elsewhere.png"
    elsewhere.write_bytes(b"precious")
    code = ("import os, sys\n"
            "from viewer.qt.shell import main_window\n"
            "grab = main_window.MainWindow.grab\n"
            "def planted(self, *args):\n"
            f"    if not os.path.lexists({str(out)!r}):\n"
            f"        os.symlink({str(elsewhere)!r}, {str(out)!r})\n"
            "    return grab(self, *args)\n"
            "main_window.MainWindow.grab = planted\n"
            "from viewer.__main__ import main\n"
            f"sys.exit(main(['--screenshot', {str(out)!r}, {str(NAIVE)!r}]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen",
                               "HOME": str(tmp_path)})
    assert done.returncode == 1
    assert done.stderr == f"ncu-reader: {out} {EXISTS}\n"
    assert elsewhere.read_bytes() == b"precious"
    assert os.listdir(folder) == ["out.png"] and os.path.islink(out)


@pytest.mark.slow
def test_a_screenshot_into_a_missing_folder_is_one_line(tmp_path) -> None:
    out = tmp_path / "no-such-folder" / "out.png"
    result = viewer(tmp_path, "--screenshot", out, NAIVE)
    assert result.returncode == 1
    assert result.stderr == (f"ncu-reader: {out}: could not write the PNG: No such file or "
                             "directory\n")
    assert not out.parent.exists()


@pytest.mark.parametrize(
    ("files", "picks", "line"),
    [([], ["--kernels", "999,1000"], "--kernels 999,1000: no kernel #999 in the files opened"),
     ([], ["-k", "regex:nosuch"], "-k 'regex:nosuch': no kernel in the files opened matches it"),
     ([NAIVE, TILED], ["--kernels", "0,1"], "--kernels 0,1: no kernel #1 in the files opened")],
)
def test_a_refused_kernel_pick_writes_no_picture(tmp_path, files, picks, line) -> None:
    """Kernels the files do not hold: one line naming the request, exit 1, and no file at all
    (a picture of the first picks under a banner would pass for the one asked for)."""
    out = tmp_path / "k.png"
    result = viewer(tmp_path, *files, *picks, "--screenshot", out)
    assert os.listdir(tmp_path) == []
    assert result.returncode == 1
    assert result.stderr == f"ncu-reader: {line}\n"
