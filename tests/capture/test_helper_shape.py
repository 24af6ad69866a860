"""The capture helper as a small privileged program: modules by job, no module state, one
zipapp built the same way every time, and `--check-install`, the one copy of its trust rules that
the install and the check-up run."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.capture_install import plant
from viewer.capture.helper import bundle, protocol

PACKAGE = Path(bundle.__file__).parent
MODULES = sorted(PACKAGE.glob("*.py"))
NOBODY = 65534


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_each_module_is_under_400_lines(module):
    assert len(module.read_text(encoding="utf-8").splitlines()) < 400


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_no_module_holds_state(module):
    """Threads (the stderr writer, the watchdog) share nothing through a module: no `global`,
    and every name a module binds at its top is a constant (upper case), a function or a
    class."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    assert not any(isinstance(n, ast.Global) for n in ast.walk(tree))
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign):
            targets = [t for t in node.targets]
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        names = [e.id for t in targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])
                 if isinstance(e, ast.Name)]
        assert all(n.lstrip("_").isupper() for n in names), (module.name, names)


def test_the_zipapp_is_the_same_bytes_from_the_same_source(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    bundle.write(first, "/opt/x/venv/bin/python3", bundle.sources())
    bundle.write(second, "/opt/x/venv/bin/python3", bundle.sources())
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes().startswith(b"#!/opt/x/venv/bin/python3 -IS\n")
    with zipfile.ZipFile(first) as archive:
        assert {i.compress_type for i in archive.infolist()} == {zipfile.ZIP_STORED}
        assert sorted(archive.namelist()) == ["__main__.py", *(
            f"{bundle.PACKAGE}/{p.name}" for p in MODULES if p.name not in bundle.LEFT_OUT)]


@pytest.mark.parametrize("interpreter", ["python3", "/opt/x y/python3", "/opt/x\n/python3",
                                         "/opt/x/python3 -S", ""])
def test_the_zipapp_takes_only_a_plain_absolute_interpreter(tmp_path, interpreter):
    with pytest.raises(ValueError):
        bundle.write(tmp_path / "out", interpreter, bundle.sources())
    assert not (tmp_path / "out").exists()


def test_the_zipapp_runs_by_itself_far_from_the_checkout(tmp_path):
    """Under -I -S, from /: its modules come from the archive alone."""
    helper = tmp_path / "helper"
    bundle.write(helper, os.path.realpath(sys.executable), bundle.sources())
    done = subprocess.run([sys.executable, "-I", "-S", str(helper), *VALID, "--dry-run"],
                          capture_output=True, text=True, timeout=60, check=False, cwd="/")
    assert done.returncode == 0, done.stderr
    assert '"--launch-count", "1"' in done.stdout


VALID = ["capture", "--target", "naive", "--dim", "512", "--set", "full", "--clock", "base"]


def check(install, *words: str, env: dict[str, str] | None = None
          ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(install.command(protocol.CHECK_INSTALL, *words), capture_output=True,
                          text=True, timeout=120, check=False, env=env)


def test_check_install_passes_a_clean_install_and_names_its_ncu(tmp_path):
    install = plant(tmp_path)
    done = check(install, "--owner", str(os.geteuid()))
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{install.ncu}\n", "")
    assert install.runs() == []  # nothing ran: not even ncu --version


def test_check_install_names_what_it_refuses_in_one_line(tmp_path):
    install = plant(tmp_path)
    (install.root / "venv" / "planted.py").write_text("")
    (install.root / "venv" / "planted.py").chmod(0o666)
    done = check(install, "--owner", str(os.geteuid()))
    assert done.returncode == protocol.EXIT_UNTRUSTED
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"{protocol.HELPER_NAME}: {install.root / 'venv' / 'planted.py'} is writable by group "
        "or others (mode 0666); refusing to run it as root"]


def test_check_install_before_the_venv_leaves_the_venv_out(tmp_path):
    """A .pth in the venv naming a folder a user could create: refused as installed (site.py
    would add it once it exists), not looked at before the venv is made."""
    install = plant(tmp_path / "install")
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    site = next((install.root / "venv" / "lib").glob("python3.*/site-packages"))
    (site / "x.pth").write_text(f"{shared / 'not-yet'}\n")
    owner = str(os.geteuid() or 12345)  # as root, the .pth would be refused for leaving it first
    home = ("--home", str(Path.home()))
    refused = check(install, "--owner", owner, *home)
    assert refused.returncode == protocol.EXIT_UNTRUSTED
    assert f"{shared} is writable by group or others" in refused.stderr
    before = check(install, "--owner", owner, *home, "--before-venv")
    assert before.returncode == 0, before.stderr


def test_check_install_without_an_install_says_so(tmp_path):
    install = plant(tmp_path, config=False)
    done = check(install, "--owner", str(os.geteuid()))
    assert done.returncode == protocol.EXIT_NOT_INSTALLED
    assert "no capture.json beside it" in done.stderr


def test_check_install_for_an_owner_without_a_home_asks_for_one(tmp_path):
    install = plant(tmp_path)
    done = check(install, "--owner", "4000000000")
    assert done.returncode == protocol.EXIT_BAD_REQUEST
    assert "--owner 4000000000 names no user: give --home too" in done.stderr


def test_check_install_is_refused_under_pkexec(tmp_path):
    install = plant(tmp_path)
    done = check(install, env={**os.environ, "PKEXEC_UID": str(os.getuid())})
    assert done.returncode == protocol.EXIT_BAD_REQUEST
    assert "not served through pkexec" in done.stderr
    assert install.runs() == []


@pytest.mark.parametrize("words", [
    ["--owner"], ["--owner", "-1"], ["--owner", "root"], ["--owner", "0", "--owner", "0"],
    ["--home", "relative/home"], ["--before-venv", "--before-venv"], ["--nothing"],
    ["--home", "/" + "x" * 2000], ["capture"],
])
def test_check_install_takes_its_own_words_only(tmp_path, words):
    with pytest.raises(protocol.Refusal) as caught:
        protocol.parse_check([protocol.CHECK_INSTALL, *words])
    assert caught.value.code == protocol.EXIT_BAD_REQUEST


def test_a_capture_request_never_reaches_the_install_check():
    with pytest.raises(protocol.Refusal):
        protocol.parse_request([protocol.CHECK_INSTALL])
