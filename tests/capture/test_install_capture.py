"""`make install-capture` / `uninstall-capture` into a temporary prefix.

The venv (numba from PyPI: minutes and a network) is left out with the script's test-only
NCU_READER_INSTALL_SKIP_VENV=1; `make test-system` installs it for real. Everything else is checked:
the helper's copy and its shebang, capture.json, the policy's canonical exec.path, owners and
modes, idempotence, exact removal, and the refusals. Installing needs root (CI runs tests as root);
the refusal as an ordinary user runs under setpriv.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from viewer.capture.helper import bundle, protocol

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "resources" / "install-capture.sh"
POLICY = REPO / "resources" / f"{protocol.ACTION_ID}.policy"
EXEC_PATH = "org.freedesktop.policykit.exec.path"
MAKE = shutil.which("make")
NOBODY = 65534

pytestmark = pytest.mark.skipif(MAKE is None or shutil.which("bash") is None,
                                reason="needs make and bash")
as_root = pytest.mark.skipif(os.geteuid() != 0,
                             reason="installs root:root files (CI runs the tests as root)")


@dataclass(frozen=True)
class Target:
    prefix: Path
    actions: Path
    ncu: Path

    @property
    def libexec(self) -> Path:
        return self.prefix / "libexec" / "ncu-reader"

    @property
    def helper(self) -> Path:
        return self.libexec / protocol.HELPER_NAME

    @property
    def policy(self) -> Path:
        return self.actions / f"{protocol.ACTION_ID}.policy"


def new_target(base: Path) -> Target:
    """A prefix and a polkit folder that do not exist yet, and a root-owned fake ncu."""
    tools = base / "nsight"
    tools.mkdir(mode=0o755)
    ncu = tools / "ncu"
    ncu.write_text("#!/bin/sh\necho 'Version 2025.3.1.0 (fake)'\n")
    ncu.chmod(0o755)
    return Target(base / "usr" / "local", base / "polkit-1" / "actions", ncu)


@pytest.fixture
def target(tmp_path: Path) -> Target:
    return new_target(tmp_path)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Target:
    """One plain install, shared by the tests that only read it or add files to its venv's
    site-packages (`site` takes them out again): an install costs several Python runs."""
    t = new_target(tmp_path_factory.mktemp("installed"))
    install(t)
    return t


@pytest.fixture
def site(installed: Target) -> Iterator[Path]:
    """The shared install's site-packages; what the test adds there is removed after it."""
    folder = site_packages(installed)
    before = set(folder.iterdir())
    yield folder
    for path in set(folder.iterdir()) - before:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    assert set(folder.iterdir()) == before


def make(goal: str, t: Target, *, env: dict[str, str] | None = None,
         **variables: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items()
            if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "CUDA_HOME", "NCU")}
    base["NCU_READER_INSTALL_SKIP_VENV"] = "1"
    words = {"PREFIX": str(t.prefix), "POLKIT_ACTIONS": str(t.actions), "NCU": str(t.ncu),
             "PYTHON": sys.executable, **variables}
    assert MAKE is not None
    return subprocess.run([MAKE, "-s", "-C", str(REPO), goal,
                           *(f"{k}={v}" for k, v in words.items())],
                          env={**base, **(env or {})}, capture_output=True, text=True,
                          timeout=120, check=False)


def install(t: Target, **variables: str) -> subprocess.CompletedProcess[str]:
    done = make("install-capture", t, **variables)
    assert done.returncode == 0, done.stderr
    return done


def snapshot(*tops: Path) -> dict[str, tuple]:
    """Every entry under tops: type, mode, owner, group, and content or link target."""
    out: dict[str, tuple] = {}
    for top in tops:
        for path in [top, *sorted(top.rglob("*"))] if top.is_dir() else [top]:
            st = path.lstat()
            if stat.S_ISLNK(st.st_mode):
                body = os.readlink(path)
            elif stat.S_ISREG(st.st_mode):
                body = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                body = ""
            out[str(path)] = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode), st.st_uid,
                              st.st_gid, body)
    return out


def exec_path(policy: Path) -> str:
    notes = ET.parse(policy).getroot().iter("annotate")
    return next((n.text or "").strip() for n in notes if n.get("key") == EXEC_PATH)


@as_root
def test_install_copies_the_helper_under_its_venvs_interpreter(installed):
    target = installed
    data = target.helper.read_bytes()
    first = data.split(b"\n", 1)[0].decode()
    libexec = os.path.realpath(target.libexec)
    # -I -S in one word, as a shebang passes it (the install runs such a line to check it)
    assert first == f"#!{libexec}/venv/bin/python3 -IS"
    # one zipapp of the helper's package: its modules word for word, and a start of its own
    with zipfile.ZipFile(target.helper) as archive:
        names = archive.namelist()
        packed = {n.split("/", 1)[1]: archive.read(n).decode() for n in names if "/" in n}
        assert archive.read("__main__.py").decode() == bundle.BOOT
    assert packed == bundle.sources()
    assert sorted(names) == names and "bundle.py" not in packed and "protocol.py" in packed
    assert not target.helper.is_symlink()  # a copy: root never runs the checkout's file
    assert not (target.libexec / ".install-check").exists()
    # runnable as installed: its own check passes, by its first line (a venv without packages)
    done = subprocess.run([str(target.helper), protocol.CHECK_INSTALL], capture_output=True,
                          text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (0, f"{os.path.realpath(target.ncu)}\n"), done.stderr


@as_root
def test_install_writes_capture_json_with_real_paths(target, tmp_path):
    link = tmp_path / "ncu-link"
    link.symlink_to(target.ncu)
    cuda = tmp_path / "cuda"
    cuda.mkdir(mode=0o755)
    install(target, NCU=str(link))
    config = json.loads((target.libexec / protocol.CONFIG_NAME).read_text(encoding="utf-8"))
    assert config == {"ncu": os.path.realpath(target.ncu), "cuda_home": None,
                      "library_path": None}
    install(target, NCU=str(link), CUDA_HOME=str(cuda), LIBRARY_PATH=f"{cuda}:{tmp_path}")
    config = json.loads((target.libexec / protocol.CONFIG_NAME).read_text(encoding="utf-8"))
    assert config == {"ncu": os.path.realpath(target.ncu), "cuda_home": str(cuda),
                      "library_path": [str(cuda), str(tmp_path)]}


@as_root
def test_install_rewrites_exec_path_to_the_canonical_helper(target, tmp_path):
    real = tmp_path / "real"
    real.mkdir(mode=0o755)
    (tmp_path / "via-link").symlink_to(real)
    t = Target(tmp_path / "via-link" / "local", target.actions, target.ncu)
    install(t)
    assert exec_path(t.policy) == str(real / "local" / "libexec" / "ncu-reader" /
                                      protocol.HELPER_NAME)
    assert exec_path(t.policy) == os.path.realpath(t.helper)
    # The rest of the policy is the shipped one, word for word.
    shipped = POLICY.read_text(encoding="utf-8")
    installed = t.policy.read_text(encoding="utf-8").replace(exec_path(t.policy),
                                                             exec_path(POLICY))
    assert installed == shipped


@as_root
def test_every_installed_file_is_roots_and_writable_by_nobody_else(target):
    target.libexec.mkdir(parents=True)
    stray = target.libexec / "leftover" / "stray.py"  # left by some earlier, careless hand
    stray.parent.mkdir(mode=0o777)
    stray.write_text("")
    stray.chmod(0o666)
    os.chown(stray, NOBODY, NOBODY)
    install(target)
    entries = snapshot(target.libexec, target.policy)
    for path, (kind, mode, uid, gid, _) in entries.items():
        assert (uid, gid) == (0, 0), path
        if kind != stat.S_IFLNK:
            assert mode & 0o022 == 0, path
            assert mode in (0o755, 0o644), path
    assert entries[str(target.libexec)][1] == 0o755
    assert entries[str(target.helper)][1] == 0o755
    assert entries[str(target.libexec / protocol.CONFIG_NAME)][1] == 0o644
    assert entries[str(target.policy)][1] == 0o644
    assert entries[str(stray)][1] == 0o644


@as_root
def test_a_second_install_leaves_the_same_result(target):
    first = install(target)
    before = snapshot(target.prefix, target.actions)
    again = install(target)
    assert snapshot(target.prefix, target.actions) == before
    assert again.stdout == first.stdout


@as_root
def test_uninstall_removes_exactly_what_install_made(target, tmp_path):
    keep = tmp_path / "usr" / "local" / "bin"  # the prefix was there with something in it
    keep.mkdir(parents=True)
    before = snapshot(tmp_path)
    install(target)
    install(target)
    done = make("uninstall-capture", target)
    assert done.returncode == 0, done.stderr
    assert snapshot(tmp_path) == before
    # uninstall twice is fine too
    assert make("uninstall-capture", target).returncode == 0
    assert snapshot(tmp_path) == before


@as_root
def test_uninstall_leaves_the_policy_of_another_prefixs_install(target, tmp_path):
    """Two installs share the polkit folder; the policy names the latest. Uninstalling the other
    (a scratch prefix, as make test-system's) removes its files only, and the policy polkit runs
    stays; the install it names removes it."""
    first = install(target)
    other = Target(tmp_path / "opt" / "scratch", target.actions, target.ncu)
    install(other)
    assert exec_path(target.policy) == os.path.realpath(other.helper)
    policy = target.policy.read_bytes()
    assert first.returncode == 0
    before = snapshot(other.prefix)
    done = make("uninstall-capture", target)
    assert done.returncode == 0, done.stderr
    assert target.policy.read_bytes() == policy
    assert f"left {target.policy}: it names {os.path.realpath(other.helper)}" in done.stdout
    assert not target.libexec.exists()
    assert snapshot(other.prefix) == before
    assert make("uninstall-capture", other).returncode == 0
    assert not target.policy.exists() and not other.libexec.exists()


@as_root
def test_uninstall_leaves_a_folder_without_an_install_alone(target):
    target.libexec.mkdir(parents=True)
    (target.libexec / "someone-elses").write_text("")
    done = make("uninstall-capture", target)
    assert done.returncode != 0
    assert "left it alone" in done.stderr
    assert (target.libexec / "someone-elses").exists()


@as_root
def test_refuses_an_ncu_others_can_change(target):
    target.ncu.parent.chmod(0o775)
    done = make("install-capture", target)
    assert done.returncode != 0
    assert f"{target.ncu.parent} is writable by group or others" in done.stderr
    assert not target.prefix.exists() and not target.actions.exists()


@as_root
def test_without_ncu_it_says_how_to_name_it(target):
    path = "/usr/local/bin:/usr/bin:/bin"
    if shutil.which("ncu", path=path):
        pytest.skip("this machine has ncu on PATH")
    done = make("install-capture", target, env={"PATH": path}, NCU="")
    assert done.returncode != 0
    ours = [line for line in done.stderr.splitlines() if not line.startswith("make")]
    assert len(ours) == 1  # one line from the script; make adds its own
    assert "NCU=/path/to/ncu" in ours[0]
    assert not target.prefix.exists()


def as_nobody() -> list[str] | None:
    """The words that run a command as an ordinary user, or None when this cannot."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv"):
        return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    return None


@pytest.mark.parametrize("verb", ["install", "uninstall"])
def test_refuses_as_an_ordinary_user_with_one_line(verb):
    prefix = as_nobody()
    if prefix is None:
        pytest.skip("no setpriv to drop root")
    # A copy nobody can read: the checkout may sit in a folder only root can enter.
    folder = Path(tempfile.mkdtemp(prefix="install-capture-"))
    try:
        folder.chmod(0o755)
        copy = folder / "install-capture.sh"
        shutil.copy(SCRIPT, copy)
        copy.chmod(0o755)
        done = subprocess.run([*prefix, "bash", str(copy), verb], capture_output=True,
                              text=True, timeout=60, check=False, cwd=folder,
                              env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    finally:
        shutil.rmtree(folder)
    assert done.returncode != 0
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "must run as root" in lines[0] and f"{verb}-capture" in lines[0]


def test_the_venv_gets_pyprojects_numba_numba_cuda_and_numpy():
    import tomllib

    deps = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "dependencies"]
    done = subprocess.run(["bash", str(SCRIPT), "requirements"], capture_output=True, text=True,
                          timeout=60, check=True, env={**os.environ, "PYTHON": sys.executable})
    got = done.stdout.splitlines()
    assert [r.split(">")[0].split("<")[0].split("=")[0] for r in got] == [
        "numba", "numba-cuda", "numpy"]
    assert set(got) <= set(deps)


def refused(t: Target, text: str, **variables: str) -> str:
    """install-capture fails, names `text` in its one line, and installs nothing."""
    done = make("install-capture", t, **variables)
    assert done.returncode != 0, done.stdout
    assert text in done.stderr
    assert not t.helper.exists() and not t.policy.exists()
    return done.stderr


def root_dir(path: Path, mode: int = 0o755) -> Path:
    path.mkdir(parents=True)
    path.chmod(mode)
    return path


@as_root
@pytest.mark.parametrize("how", ["owned by the user", "writable by others"])
def test_refuses_a_library_inside_a_library_path_directory_that_is_not_roots_alone(target,
                                                                                   tmp_path, how):
    libs = root_dir(tmp_path / "driver")
    (libs / "libnvidia-ml.so.1").write_bytes(b"\x7fELF")
    install(target, LIBRARY_PATH=str(libs))  # root's files there are fine
    make("uninstall-capture", target)
    lib = libs / "libcuda.so.1"
    lib.write_bytes(b"\x7fELF")
    if how == "owned by the user":
        os.chown(lib, NOBODY, NOBODY)
        text = f"{lib} is owned by uid {NOBODY}, not by root"
    else:
        lib.chmod(0o666)
        text = f"{lib} is writable by group or others (mode 0666)"
    refused(target, text, LIBRARY_PATH=f"{tmp_path}:{libs}")


@as_root
def test_a_library_link_is_resolved_and_the_directories_above_its_target_checked(target,
                                                                                 tmp_path):
    libs = root_dir(tmp_path / "driver")
    real = root_dir(tmp_path / "elsewhere" / "lib")
    (real / "libcuda.so.590").write_bytes(b"\x7fELF")
    (libs / "libcuda.so.1").symlink_to(real / "libcuda.so.590")
    install(target, LIBRARY_PATH=str(libs))
    make("uninstall-capture", target)
    (tmp_path / "elsewhere").chmod(0o777)  # the user could swap lib/ for one of its own
    refused(target, f"{tmp_path / 'elsewhere'} is writable by group or others",
            LIBRARY_PATH=str(libs))


@as_root
def test_refuses_a_dangling_link_in_a_library_path_directory(target, tmp_path):
    """A link to nothing passes only where nobody but root could create what it names (a
    system folder may hold one a package left)."""
    libs = root_dir(tmp_path / "driver")
    (libs / "libcuda.so.1").symlink_to("/nonexistent/libcuda.so")
    install(target, LIBRARY_PATH=str(libs))
    make("uninstall-capture", target)
    (libs / "libcuda.so.1").unlink()
    (libs / "libcuda.so.1").symlink_to(root_dir(tmp_path / "shared", 0o1777) / "libcuda.so")
    refused(target, f"{tmp_path / 'shared'} is writable by group or others (mode 1777)",
            LIBRARY_PATH=str(libs))


@as_root
def test_refuses_a_library_path_directory_named_through_a_users_link(target, tmp_path):
    libs = root_dir(tmp_path / "driver")
    link = tmp_path / "driver-link"
    link.symlink_to(libs)
    os.lchown(link, NOBODY, NOBODY)
    refused(target, f"{link} is owned by uid {NOBODY}", LIBRARY_PATH=str(link))


@as_root
def test_refuses_a_user_owned_file_deep_in_cuda_home(target, tmp_path):
    cuda = root_dir(tmp_path / "cuda")
    nvvm = root_dir(cuda / "nvvm" / "lib64")
    (nvvm / "libnvvm.so.4").write_bytes(b"\x7fELF")
    (cuda / "lib64").symlink_to(nvvm)
    install(target, CUDA_HOME=str(cuda))
    make("uninstall-capture", target)
    os.chown(nvvm / "libnvvm.so.4", NOBODY, NOBODY)
    refused(target, f"{nvvm / 'libnvvm.so.4'} is owned by uid {NOBODY}",
            CUDA_HOME=str(cuda))


@as_root
def test_a_link_in_cuda_home_is_resolved_and_what_it_leads_to_checked(target, tmp_path):
    cuda = root_dir(tmp_path / "cuda")
    outside = root_dir(tmp_path / "opt" / "outside")
    (outside / "libdevice.10.bc").write_bytes(b"BC")
    (cuda / "nvvm").symlink_to(outside)
    install(target, CUDA_HOME=str(cuda))
    make("uninstall-capture", target)
    os.chown(outside / "libdevice.10.bc", NOBODY, NOBODY)  # inside the linked directory
    refused(target, f"{outside / 'libdevice.10.bc'} is owned by uid {NOBODY}",
            CUDA_HOME=str(cuda))
    os.chown(outside / "libdevice.10.bc", 0, 0)
    (tmp_path / "opt").chmod(0o777)  # above the link's target only
    refused(target, f"{tmp_path / 'opt'} is writable by group or others",
            CUDA_HOME=str(cuda))


@as_root
def test_refuses_a_dangling_link_in_cuda_home(target, tmp_path):
    cuda = root_dir(tmp_path / "cuda")
    (cuda / "bin").mkdir()
    (cuda / "bin" / "ptxas").symlink_to("/nonexistent/ptxas")
    refused(target, f"{cuda / 'bin' / 'ptxas'} is a link to nothing",
            CUDA_HOME=str(cuda))


@as_root
def test_a_sticky_directory_is_accepted_above_but_never_as_the_directory_named(target,
                                                                               tmp_path):
    shared = root_dir(tmp_path / "shared", 0o1777)
    libs = root_dir(shared / "driver")
    install(target, LIBRARY_PATH=str(libs))  # like /tmp above a root-owned directory
    make("uninstall-capture", target)
    libexec = shared / "ncu-reader"  # LIBEXEC itself directly in it: fine too
    install(target, LIBEXEC=str(libexec))
    assert (libexec / protocol.HELPER_NAME).is_file()
    assert make("uninstall-capture", target, LIBEXEC=str(libexec)).returncode == 0
    refused(target, f"{shared} is writable by group or others (mode 1777)",
            LIBRARY_PATH=str(shared))
    refused(target, f"{shared} is writable by group or others (mode 1777)",
            CUDA_HOME=str(shared))


@as_root
def test_a_sticky_directory_inside_cuda_home_is_refused(target, tmp_path):
    cuda = root_dir(tmp_path / "cuda")
    root_dir(cuda / "nvvm" / "cache", 0o1777)
    refused(target, f"{cuda / 'nvvm' / 'cache'} is writable by group or others (mode 1777)",
            CUDA_HOME=str(cuda))


@as_root
def test_refuses_a_python_named_through_a_users_link(target, tmp_path):
    """PYTHON as named and as resolved: the helper's check of the interpreter it runs under."""
    shown = root_dir(tmp_path / "bin") / "python3"
    shown.symlink_to(os.path.realpath(sys.executable))
    install(target, PYTHON=str(shown))
    make("uninstall-capture", target)
    os.lchown(shown, NOBODY, NOBODY)
    refused(target, f"{shown} is owned by uid {NOBODY}", PYTHON=str(shown))
    os.lchown(shown, 0, 0)
    (tmp_path / "bin").chmod(0o777)
    refused(target, f"{tmp_path / 'bin'} is writable by group or others", PYTHON=str(shown))


def refusing_python(folder: Path) -> Path:
    """A root-owned stand-in for an interpreter that makes venvs whose python3 takes no "-IS"
    in one word (as a shebang passes it): it runs this Python, and after `-m venv ... DIR`
    puts a python3 in DIR/bin that refuses "-IS" and runs this Python for the rest."""
    folder.mkdir(parents=True, exist_ok=True)
    python = folder / "python3"
    real = os.path.realpath(sys.executable)
    python.write_text(f"""#!/bin/sh
case " $* " in
    *" -m venv "*)
        for last; do :; done
        '{real}' "$@" || exit $?
        rm -f "$last/bin/python3"
        printf '%s\\n' '#!/bin/sh' \\
            '[ "$1" = -IS ] && {{ echo "Unknown option: $1" >&2; exit 2; }}' \\
            'exec {real} "$@"' > "$last/bin/python3"
        chmod 0755 "$last/bin/python3"
        exit 0 ;;
esac
exec '{real}' "$@"
""")
    python.chmod(0o755)
    return python


@as_root
def test_refuses_an_interpreter_that_does_not_take_dash_is_from_a_shebang(target, tmp_path):
    python = refusing_python(tmp_path / "py" / "bin")
    done = make("install-capture", target, PYTHON=str(python))
    assert done.returncode != 0, done.stdout
    interp = os.path.realpath(target.libexec) + "/venv/bin/python3"
    assert f"a file starting '#!{interp} -IS' does not run Python isolated and without site" in (
        done.stderr)
    assert "Unknown option: -IS" in done.stderr
    assert not target.helper.exists() and not target.policy.exists()
    assert not (target.libexec / ".shebang-probe").exists()


def check_install(t: Target) -> subprocess.CompletedProcess[str]:
    """The installed helper's own check, run by its first line, as a capture runs it."""
    return subprocess.run([str(t.helper), protocol.CHECK_INSTALL], capture_output=True,
                          text=True, timeout=120, check=False)


def site_packages(t: Target) -> Path:
    found = sorted((t.libexec / "venv" / "lib").glob("python3.*/site-packages"))
    assert len(found) == 1, found
    return found[0]


@as_root
@pytest.mark.parametrize(("name", "line"), [
    ("ncu_reader.pth", "{checkout}"),
    ("ncu_reader.pth", "../../../../../../../outside"),
    ("ncu_reader.pth", "via-link\r"),  # a path inside that is a link to the checkout
])
def test_refuses_a_pth_file_in_the_venv_that_leads_outside_libexec(installed, site, name, line):
    target = installed
    (site / "numba_extras").mkdir()
    # what a venv holds: comments, import lines, a path inside
    (site / "distutils-precedence.pth").write_text(
        "# a comment\n\nimport os; os.environ.get('SETUPTOOLS_USE_DISTUTILS')\n")
    (site / "extras.pth").write_text("numba_extras\n")
    assert check_install(target).returncode == 0
    (site / "via-link").symlink_to(REPO)
    pth = site / name
    pth.write_text("import os\n" + line.format(checkout=REPO) + "\n")
    done = check_install(target)
    assert done.returncode == protocol.EXIT_UNTRUSTED, done.stdout
    assert f"{pth} puts " in done.stderr and "outside the install" in done.stderr


@as_root
@pytest.mark.parametrize("name", ["__editable__.ncu_reader-0.1.0.pth",
                                  "__editable___ncu_reader_0_1_0_finder.py",
                                  "ncu-reader.egg-link"])
def test_refuses_an_editable_installs_hook_in_the_venv(installed, site, name):
    target = installed
    # pip's editable install: an import line that maps `viewer` to the checkout
    (site / name).write_text("import __editable___ncu_reader_0_1_0_finder; "
                             "__editable___ncu_reader_0_1_0_finder.install()\n")
    done = check_install(target)
    assert done.returncode == protocol.EXIT_UNTRUSTED, done.stdout
    assert f"{site / name} is an editable install's hook" in done.stderr


@as_root
def test_nsight_computes_own_folder_is_checked_when_ncu_is_the_one_in_it(target):
    folder = target.ncu.parent
    rules = root_dir(folder / "sections")
    (rules / "SpeedOfLight.py").write_text("")  # ncu runs these .py rules
    root_dir(folder / "target" / "linux-desktop-glibc_2_11_3-x64")
    install(target)
    make("uninstall-capture", target)
    os.chown(rules / "SpeedOfLight.py", NOBODY, NOBODY)
    refused(target, f"{rules / 'SpeedOfLight.py'} is owned by uid {NOBODY}")
