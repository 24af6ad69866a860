"""The wheel carries its data: built from a copy of the checkout and installed into a fresh venv
outside the repository, it prints and opens the shipped comparison as the checkout does.

The venv gets the wheel alone (no dependencies, no index); a .pth line lends it this environment's
site-packages for PySide6, ncu_report and the rest. A plain path line processes no .pth file there,
so the editable install of the checkout stays out of reach: the venv sees only the wheel's viewer.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What the build needs: the names resources/install-capture.sh stages for root's install.
BUILD_INPUTS = ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", "setup.py", "setup.cfg",
                "viewer", "profiles", "resources")
DATA_PACKAGES = {"profiles": "viewer/profiles", "resources": "viewer/resources"}
SHIPPED = [ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"]

pytestmark = pytest.mark.slow


def quiet_env(home: Path, **extra: str) -> dict[str, str]:
    """This environment less anything that points Python at the checkout, with a home of its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"),
               XDG_DATA_HOME=str(home / "data"), PIP_DISABLE_PIP_VERSION_CHECK="1", **extra)
    return env


def run(argv: list[str | Path], cwd: Path, home: Path | None = None,
        **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in argv], cwd=cwd, env=quiet_env(home or cwd, **extra),
                          capture_output=True, text=True, timeout=180)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def shipped_files(folder: Path, prefix: str) -> dict[str, str]:
    """Each file of a data folder and its subfolders (resources/exercises/), by its name in the
    wheel, with its content's digest."""
    return {f"{prefix}/{p.relative_to(folder).as_posix()}": digest(p.read_bytes())
            for p in sorted(folder.rglob("*"))
            if p.is_file() and p.suffix != ".pyc" and "__pycache__" not in p.parts}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built with this environment's setuptools from a copy (the build writes build/
    and *.egg-info beside its source)."""
    source = tmp_path_factory.mktemp("source")
    for name in BUILD_INPUTS:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        elif path.is_file():
            shutil.copy2(path, source / name)
    out = tmp_path_factory.mktemp("dist")
    done = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                "--no-index", "--no-cache-dir", "--quiet", "--wheel-dir", out, source], cwd=out)
    assert done.returncode == 0, done.stderr
    (built,) = out.glob("ncu_reader-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv outside the repository with the wheel installed."""
    home = tmp_path_factory.mktemp("venv") / "env"
    done = run([sys.executable, "-m", "venv", "--without-pip", home], cwd=home.parent)
    assert done.returncode == 0, done.stderr
    python = home / "bin" / "python"
    done = run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps",
                "--no-index", "--no-cache-dir", "--quiet", wheel], cwd=home.parent)
    assert done.returncode == 0, done.stderr
    purelib = run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                  cwd=home.parent).stdout.strip()
    Path(purelib, "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return home


def test_the_wheel_holds_every_package_and_the_shipped_data(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        data = {n: digest(zf.read(n)) for n in names
                if n.startswith(tuple(f"{p}/" for p in DATA_PACKAGES.values()))}
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "viewer").rglob("*.py")
               if "__pycache__" not in p.parts}
    assert sources - names == set()  # a package under viewer/ that setup.py did not find
    assert "viewer/py.typed" in names
    expected: dict[str, str] = {}
    for folder, prefix in DATA_PACKAGES.items():
        expected |= shipped_files(ROOT / folder, prefix)
    assert data == expected
    assert {"viewer/profiles/naive.ncu-rep", "viewer/profiles/tiled.ncu-rep",
            "viewer/profiles/metadata.json", "viewer/profiles/t4-reference.toml",
            "viewer/resources/ncu-reader.desktop",
            "viewer/resources/exercises/day42.toml"} <= set(data)


WHEEL_MB = 25
"""The most the wheel may weigh: the shipped sweep (profiles/sweep/) is gzipped to keep it so."""


def test_the_wheel_stays_small_with_the_sweep_in_it(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        sweep = [n for n in zf.namelist() if n.startswith("viewer/profiles/sweep/")]
    assert len([n for n in sweep if n.endswith(".ncu-rep.gz")]) == 10, sweep
    assert wheel.stat().st_size < WHEEL_MB << 20, f"{wheel.stat().st_size:,} bytes"


def test_the_wheel_carries_the_license_and_says_which(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        (metadata,) = (n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        fields = [line.partition(": ") for line in zf.read(metadata).decode().splitlines()]
        dist_info = metadata.removesuffix("METADATA")
        carried = zf.read(f"{dist_info}licenses/LICENSE")
    assert [v for k, _, v in fields if k == "License-Expression"] == ["MIT"]
    assert [v for k, _, v in fields if k == "License-File"] == ["LICENSE"]
    assert carried == (ROOT / "LICENSE").read_bytes()


def test_from_a_fresh_venv_summary_prints_the_shipped_comparison(venv: Path,
                                                                 tmp_path: Path) -> None:
    python = venv / "bin" / "python"
    where = run([python, "-c", "import viewer, viewer.core.shipped as s; print(viewer.__file__); "
                               "print(s.profiles_dir())"], cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    module, profiles = map(Path, where.stdout.split())
    assert module.is_relative_to(venv) and profiles.is_relative_to(venv)

    done = run([python, "-m", "viewer", "summary"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # The same text as the checkout prints for its profiles/, naming the venv's copies.
    checkout = run([sys.executable, "-m", "viewer", "summary", *SHIPPED], cwd=ROOT,
                   home=tmp_path)
    assert checkout.returncode == 0, checkout.stderr
    assert done.stdout.count(str(profiles)) == 2
    assert done.stdout.replace(str(profiles), "P") == checkout.stdout.replace(
        str(ROOT / "profiles"), "P")
    assert "Comparison:" in done.stdout

    script = run([venv / "bin" / "ncu-reader-summary", "--json"], cwd=tmp_path)
    assert script.returncode == 0, script.stderr
    sources = [json.loads(line)["source"] for line in script.stdout.splitlines()]
    assert sources == [str(profiles / p.name) for p in SHIPPED]


def test_from_a_fresh_venv_the_window_opens_the_shipped_comparison(venv: Path,
                                                                   tmp_path: Path) -> None:
    """The gui script with no file draws exactly what it draws for the checkout's pair."""
    pictures = []
    for name, files in (("default", []), ("named", SHIPPED)):
        folder = tmp_path / name
        folder.mkdir()
        done = run([venv / "bin" / "ncu-reader", "--screenshot", folder / "out.png", *files],
                   cwd=folder, QT_QPA_PLATFORM="offscreen")
        assert done.returncode == 0, done.stderr
        pictures.append((folder / "out.png").read_bytes())
    default, named = pictures
    assert default[:8] == b"\x89PNG\r\n\x1a\n"
    assert default == named


def test_from_a_fresh_venv_lesson_reads_the_reference_and_the_exercise(venv: Path,
                                                                       tmp_path: Path) -> None:
    """The T4 table and the exercise travel in the wheel: `lesson` finds both in the venv."""
    python = venv / "bin" / "python"
    done = run([python, "-m", "viewer", "lesson", "--json"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = json.loads(done.stdout)
    assert Path(page["reference"]["source"]).is_relative_to(venv)
    assert page["reference"]["source"].endswith("profiles/t4-reference.toml")
    assert [q["id"] for q in page["exercise"]["questions"]] == ["1", "2", "3", "4"]


def readme_wheel_command() -> list[str]:
    """README's line that builds the wheel, as argv."""
    lines = [line.partition("#")[0].strip()
             for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()]
    (line,) = (line for line in lines if line.startswith(".venv/bin/pip wheel "))
    return shlex.split(line)


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="needs git and a git checkout")
def test_readmes_wheel_command_builds_the_wheel_and_git_ignores_what_it_leaves(
        tmp_path: Path) -> None:
    """README's command run in a copy of the checkout (what git would clone, working tree as it
    is), offline: the wheel lands in dist/, and the checkout's .gitignore covers every file the
    build left (build/, dist/, the .egg-info)."""
    argv = readme_wheel_command()
    assert argv[:2] == [".venv/bin/pip", "wheel"]
    listed = subprocess.run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], capture_output=True, check=True).stdout
    copy = tmp_path / "checkout"
    for name in filter(None, listed.decode().split("\0")):
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    before = {p for p in copy.rglob("*") if p.is_file()}
    # This environment's setuptools and no index: the tests reach no network.
    done = run([sys.executable, "-m", "pip", *argv[1:], "--no-build-isolation", "--no-index",
                "--no-cache-dir", "--quiet"], cwd=copy, home=tmp_path / "home")
    assert done.returncode == 0, done.stderr
    assert [p.name for p in (copy / "dist").glob("*.whl")] == ["ncu_reader-0.1.0-py3-none-any.whl"]
    left = sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*")
                  if p.is_file() and p not in before)
    assert any(name.startswith("build/") for name in left)
    ignored = subprocess.run(["git", "-C", ROOT, "check-ignore", "--no-index", "--stdin"],
                             input="\n".join(left) + "\n", capture_output=True, text=True,
                             check=False).stdout.splitlines()
    assert [name for name in left if name not in ignored] == []
