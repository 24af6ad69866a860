"""Run by a Python that lacks the app's packages, `python -m viewer` and `python -m viewer.kernels`
say in one line what to install and which Python this is, with no traceback."""

from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from viewer.core import dependencies

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = [["viewer", "summary"], ["viewer"], ["viewer.kernels", "check"]]


def pypi_name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


def said(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a run said on stderr, having printed nothing else and exited 1."""
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    return line


def named_packages(line: str) -> set[str]:
    return set(re.findall(r"'([^']+)'", line.partition("(")[0]))


def test_the_dependencies_are_pyprojects() -> None:
    with (ROOT / "pyproject.toml").open("rb") as f:
        wanted = {pypi_name(r) for r in tomllib.load(f)["project"]["dependencies"]}
    assert {pypi_name(d) for d in dependencies.DEPENDENCIES.values()} == wanted


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_python_without_site_packages_names_what_to_install(command: list[str],
                                                               tmp_path: Path) -> None:
    """This interpreter with -S: the standard library and the checkout (PYTHONPATH), none of the
    app's packages."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHOME", "PYTHONSTARTUP")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-S", "-m", *command], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    line = said(done)
    assert line.startswith("ncu-reader: needs the Python packages "), line
    needs = dependencies.KERNEL_NEEDS if command[0] == "viewer.kernels" else (
        dependencies.DEPENDENCIES)
    # the kernels need numba and numpy alone (the capture install's venv holds no more)
    assert named_packages(line) == {dependencies.DEPENDENCIES[n] for n in needs}
    assert "`make run`" in line and "`.venv/bin/pip install -e .`" in line
    assert line.endswith(f"; this is {sys.executable}")


def other_python() -> str | None:
    """python3 on PATH where it is 3.11 or newer and lacks pandas, else None."""
    found = shutil.which("python3")
    if found is None:
        return None
    probe = subprocess.run(
        [found, "-c", "import importlib.util, sys; print(sys.version_info >= (3, 11) and "
                      "importlib.util.find_spec('pandas') is None, sys.executable)"],
        capture_output=True, text=True, timeout=60, cwd="/")
    ok, _, executable = probe.stdout.strip().partition(" ")
    return executable if probe.returncode == 0 and ok == "True" else None


@pytest.mark.skipif(other_python() is None,
                    reason="needs a python3 on PATH, 3.11 or newer, without pandas")
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_the_systems_python_in_the_checkout_names_what_to_install(command: list[str]) -> None:
    """What a newcomer types in the checkout with the system's Python instead of .venv's."""
    python = other_python()
    assert python is not None
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    done = subprocess.run([python, "-m", *command], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    line = said(done)
    assert line.startswith("ncu-reader: needs the Python package"), line
    if command[0] == "viewer.kernels":  # it imports no pandas, and names what it lacks of its own
        assert named_packages(line) and named_packages(line) <= {
            dependencies.DEPENDENCIES[n] for n in dependencies.KERNEL_NEEDS}
    else:
        assert "pandas" in named_packages(line)
    assert line.endswith(f"; this is {python}")


def test_another_missing_module_is_not_taken_for_a_missing_package() -> None:
    assert dependencies.missing_message(ModuleNotFoundError(name="viewer.nothing")) is None
    assert dependencies.missing_message(ModuleNotFoundError(name="nothing_at_all")) is None
    assert dependencies.missing_message(ModuleNotFoundError()) is None


def test_a_package_present_without_the_module_named_says_which_module() -> None:
    """numba here, its numba.nothing not: the package is named with the module it lacks."""
    line = dependencies.missing_message(ModuleNotFoundError(name="numba.nothing"))
    assert line is not None
    assert line.startswith("ncu-reader: needs the Python package 'numba' (numba.nothing is ")


def test_the_checkout_run_without_installing_it_says_to_install_it(tmp_path: Path) -> None:
    """Every package there (a fresh venv lent this environment's site-packages by a plain path
    line, which runs none of their .pth files, so the editable install stays out), the checkout
    on PYTHONPATH: the shipped files' package is what is missing."""
    home = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", home], check=True, timeout=120)
    python = home / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    Path(purelib, "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHOME", "PYTHONSTARTUP")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([python, "-m", "viewer", "summary"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    line = said(done)
    assert line == ("ncu-reader: needs ncu-reader installed, not only its checkout on the path "
                    "(viewer.profiles is missing) (run `make run`, or `.venv/bin/pip install -e "
                    f".`); this is {python}")
