"""The capture helper against a hostile local user: each test is an attack that once worked.

The helper runs from a planted install whose ncu is a fake (tests/capture_install.py), standing in
for the GPU and Nsight Compute this machine lacks; the fake does what the real ncu does where it
matters (docs/capture.md). Where a test needs a second user it needs root (as CI runs).
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import resource
import shutil
import signal
import stat
import struct
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.capture.test_capture_helper import VALID, _gone, _group_gone
from tests.capture_install import REPORT, RESET_CTRL_C, events, plant
from tests.polling import wait_for
from viewer.capture.helper import command as ncu_cmd
from viewer.capture.helper import interpreter, protocol, report, supervision
from viewer.capture.helper import layout as where
from viewer.capture.helper import loader as ld
from viewer.capture.helper import trust as rules
from viewer.readers import ncu_container

NOBODY = 65534
FAST = {"TIMEOUT_S = 600.0": "TIMEOUT_S = 2.0", "KILL_GRACE_S = 5.0": "KILL_GRACE_S = 1.0",
        "WATCHDOG_GRACE_S = 30.0": "WATCHDOG_GRACE_S = 2.0"}
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="a file of another user needs root (CI)")


def _work_dir(run: dict) -> Path:
    """The helper's private directory of one capture: the parent of ncu's -o directory."""
    return Path(run["argv"][run["argv"].index("-o") + 1]).parent.parent


# ---------------------------------------------------------------- ncu's lock directory


def test_a_planted_lock_directory_link_is_never_followed(tmp_path):
    """ncu makes $TMPDIR/nvidia/nsight_compute 0777 through any link: with /tmp shared, a user's
    link there once made a root directory world-writable."""
    install = plant(tmp_path, "lock_dir")
    target = tmp_path / "root-dir"
    target.mkdir(mode=0o755)
    shared = tmp_path / "shared-tmp"  # the fake's stand-in for /tmp
    (shared / "nvidia").mkdir(parents=True)
    (shared / "nvidia" / "nsight_compute").symlink_to(target)
    done = install.run(*VALID)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(target.stat().st_mode) == 0o755
    assert list(target.iterdir()) == []
    (run,) = install.captures()
    tmp = run["env"]["TMPDIR"]
    assert run["env"]["TMP"] == run["env"]["TEMP"] == tmp
    assert not tmp.startswith(str(shared)) and tmp != "/tmp"
    owner_mode = next(json.loads(e["ncu"][len("tmpdir "):]) for e in events(done.stderr)
                      if e.get("ncu", "").startswith("tmpdir "))
    assert owner_mode == [os.geteuid(), 0o700], "ncu's TMPDIR is the helper's own, 0700"
    assert Path(tmp).parent == _work_dir(run)
    assert not _work_dir(run).exists(), "the private directory outlived the capture"


# ---------------------------------------------------------------- ncu's exit status


@pytest.mark.parametrize(("behaviour", "words"), [
    ("crash", "killed by SIGSEGV"),
    ("exit_3", "exited with status 3: ==ERROR== something went wrong"),
    ("program_fails", "No module named 'numba'"),
])
def test_a_failed_ncu_streams_nothing(tmp_path, behaviour, words):
    done = plant(tmp_path, behaviour).run(*VALID)
    assert done.returncode == protocol.EXIT_NCU_FAILED, done.stderr
    last = events(done.stderr)[-1]
    assert last["kind"] == "ncu_failed" and last["exit"] == protocol.EXIT_NCU_FAILED
    assert words in last["error"]
    assert done.stdout == b""


def test_the_callers_file_size_limit_does_not_reach_ncu(tmp_path):
    """`ulimit -f` passes through pkexec; ncu once wrote a cut report under it."""
    install = plant(tmp_path)

    def small_files() -> None:
        _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, hard))

    done = install.run(*VALID, preexec_fn=small_files)
    assert done.returncode == 0, done.stderr
    assert done.stdout == REPORT.read_bytes()


def test_the_clocks_are_reset_after_every_capture_at_base(tmp_path):
    install = plant(tmp_path)
    assert install.run(*VALID).returncode == 0
    assert [r["argv"] for r in install.runs()][-1] == ["--config-file", "off",
                                                        "--clock-control", "reset"]


# ---------------------------------------------------------------- the report ncu wrote


def _blocks(data: bytes) -> list[tuple[int, int, int]]:
    """(start, header end, end) of each block of a whole report, read with the app's reader."""
    at = 8 + int.from_bytes(data[4:8], "little")
    found = []
    while at < len(data):
        length = int.from_bytes(data[at:at + 4], "little")
        header = data[at + 4:at + 4 + length]
        payload = next((v for n, v in ncu_container.fields(header) if n == 5), 0)
        found.append((at, at + 4 + length, at + 4 + length + payload))
        at += 4 + length + payload
    return found


def _cuts() -> list[int]:
    """Where a full disk may cut the shipped report: in its file header, at each block's
    start, in a block's length and its header, in the result's payload, a byte short."""
    data = REPORT.read_bytes()
    blocks = _blocks(data)
    result = next(b for b in blocks if _results(data, b))
    cuts = {5, 9, len(data) - 1, (result[1] + result[2]) // 2}
    for start, header_end, _ in blocks:
        cuts |= {start, start + 2, (start + 4 + header_end) // 2}
    return sorted(cuts)


def _results(data: bytes, block: tuple[int, int, int]) -> int:
    header = data[block[0] + 4:block[1]]
    return sum(v for n, v in ncu_container.fields(header) if n == 2)


def _problem(tmp_path: Path, data: bytes) -> str | None:
    path = tmp_path / "report.ncu-rep"
    path.write_bytes(data)
    fd = os.open(path, os.O_RDONLY)
    try:
        return report.report_problem(fd, len(data))
    finally:
        os.close(fd)


def test_the_shipped_report_is_whole(tmp_path):
    assert _problem(tmp_path, REPORT.read_bytes()) is None
    assert len(_cuts()) > 20


@pytest.mark.parametrize("cut", _cuts())
def test_a_report_cut_short_is_never_whole(tmp_path, cut):
    """The helper's own bounded walk (it may not import the app) and the app's reader agree."""
    data = REPORT.read_bytes()[:cut]
    assert _problem(tmp_path, data) is not None
    walked = ncu_container.walk(tmp_path / "report.ncu-rep")
    assert walked.end != ncu_container.WHOLE or walked.cut_reasons(walked.results)


@pytest.mark.parametrize(("results", "words"), [(0, "holds 0 results"), (2, "holds 2 results")])
def test_a_report_without_the_one_launch_asked_for_is_refused(tmp_path, results, words):
    """A whole container, but not one result (the capture asks for --launch-count 1)."""
    data = REPORT.read_bytes()
    blocks = _blocks(data)
    start, _, end = next(b for b in blocks if _results(data, b))
    spliced = data[:start] + data[start:end] * results + data[end:]
    assert ncu_container.walk(io.BytesIO(spliced)).end == ncu_container.WHOLE
    assert words in _problem(tmp_path, spliced)


@pytest.mark.parametrize("cut", ["in the result", "after the result", "a byte short"])
def test_a_report_cut_short_by_a_full_disk_is_never_sent(tmp_path, cut):
    """ncu exits 0 after writing a report that a full /tmp cut short: once, the helper sent it."""
    data = REPORT.read_bytes()
    result = next(b for b in _blocks(data) if _results(data, b))
    at = {"in the result": (result[1] + result[2]) // 2, "after the result": result[2],
          "a byte short": len(data) - 1}[cut]
    install = plant(tmp_path, "cut_report")
    (tmp_path / "cut").write_text(str(at))
    done = install.run(*VALID)
    assert done.returncode == protocol.EXIT_NO_REPORT, done.stderr
    assert "not whole" in events(done.stderr)[-1]["error"]
    assert done.stdout == b""
    assert not _work_dir(install.captures()[0]).exists()


# ---------------------------------------------------------------- signals and a stuck client


def _started(proc: subprocess.Popen) -> None:
    assert "started" in json.loads(proc.stderr.readline())
    assert "ncu" in json.loads(proc.stderr.readline())


def test_sigquit_ends_ncu_resets_the_clocks_and_leaves_nothing(tmp_path):
    install = plant(tmp_path, "hang")
    proc = subprocess.Popen(install.command(*VALID), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _started(proc)
    proc.send_signal(signal.SIGQUIT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == protocol.EXIT_CANCELLED, err
    assert events(err)[-1]["exit"] == protocol.EXIT_CANCELLED
    capture, reset = install.runs()
    assert _group_gone(capture["pgid"])
    assert reset["argv"][-1] == "reset"
    assert not _work_dir(capture).exists()


def test_ctrl_z_does_not_stop_the_time_limit(tmp_path):
    install = plant(tmp_path, "hang", FAST)
    read_end, write_end = os.pipe()  # stdin held open: no cancel
    proc = subprocess.Popen(install.command(*VALID), stdin=read_end, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        _started(proc)
        proc.send_signal(signal.SIGTSTP)
        _, err = proc.communicate(timeout=20)
    finally:
        os.close(read_end)
        os.close(write_end)
        if proc.poll() is None:
            proc.send_signal(signal.SIGCONT)
            proc.kill()
            proc.communicate()
    assert proc.returncode == protocol.EXIT_TIMEOUT, err


def _blocked(task: Path) -> set[int]:
    """The signals a thread blocks, from /proc."""
    line = next(x for x in (task / "status").read_text().splitlines() if x.startswith("SigBlk:"))
    mask = int(line.split()[1], 16)
    return {n for n in range(1, 65) if mask >> (n - 1) & 1}


def test_only_the_main_thread_takes_the_stop_signals(tmp_path):
    """The kernel hands a process's signal to any thread that does not block it: every thread
    the helper starts blocks the stop signals, and the main thread, which handles them, does
    not."""
    install = plant(tmp_path, "hang")
    proc = subprocess.Popen(install.command(*VALID), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _started(proc)
        tasks = {int(t.name): _blocked(t) for t in Path(f"/proc/{proc.pid}/task").iterdir()}
    finally:
        proc.stdin.close()  # the client's cancel
        proc.wait(30)
        proc.stdout.close()
        proc.stderr.close()
    stops = {int(s) for s in supervision.STOP_SIGNALS}
    assert not tasks.pop(proc.pid) & stops, "the main thread blocks a stop signal"
    assert len(tasks) >= 2, "the lines writer and the watchdog run"
    for tid, blocked in tasks.items():
        assert stops <= blocked, f"thread {tid} may take a stop signal"


PTY_CTRL_C = Path(__file__).with_name("pty_ctrl_c.py")


def _running_from(folder: Path) -> list[int]:
    """Living processes whose command line names something in `folder` (the fake ncu, a
    process it forked, the helper)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            words = (proc / "cmdline").read_bytes().split(b"\0")
            zombie = (proc / "stat").read_bytes().rsplit(b")", 1)[1].split()[0] == b"Z"
        except (OSError, IndexError):  # it ended meanwhile
            continue
        if not zombie and any(str(folder).encode() in word for word in words):
            found.append(int(proc.name))
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_stream_of_ctrl_c_does_not_stop_the_ending(tmp_path, seed):
    """Ctrl-C typed again and again (10-50 ms apart) at the terminal the helper runs in, from
    while ncu runs until the helper has ended: the fake ncu, a sleep it double-forked, the
    private directory and the clocks (the fake's reset lasts until more Ctrl-C are typed) are
    all ended, removed and reset. A second Ctrl-C once interrupted the ending: the threads the
    helper starts took it, and it was raised in the main thread during the ending."""
    install = plant(tmp_path, "double_fork", reset="during_ctrl_c")
    out, err = tmp_path / "stdout", tmp_path / "stderr"
    done = subprocess.run([sys.executable, str(PTY_CTRL_C), str(tmp_path / "running"),
                           str(tmp_path / "ctrl-c-count"), str(out), str(err), "60", str(seed),
                           "--", *install.command(*VALID)],
                          capture_output=True, text=True, timeout=120, check=True)
    result = json.loads(done.stdout)
    said = events(err.read_bytes())
    assert result["exit"] == protocol.EXIT_CANCELLED, (result, said)
    assert said[-1]["kind"] == "cancelled", said
    runs = install.runs()
    assert len(runs) == 2, f"the reset never ran: {json.dumps([result, said])}"
    capture, reset = runs
    assert reset["argv"] == ["--config-file", "off", "--clock-control", "reset"]
    assert (tmp_path / "reset-done").exists(), f"the reset was cut short ({result['sent']} sent)"
    assert int((tmp_path / "reset-done").read_text()) >= RESET_CTRL_C
    for pid in (capture["pid"], int((tmp_path / "sleep-pid").read_text())):
        assert _gone(pid), f"process {pid} outlived the helper"
    assert _running_from(tmp_path) == [], "a process of the capture outlived the helper"
    assert not _work_dir(capture).exists(), "the private directory outlived the helper"
    assert out.read_bytes() == b""


def _never_read(install) -> tuple[int, bytes]:
    """The helper under a client that reads neither its stderr nor its report until it has
    ended (40 s at most, then it is killed): its exit status, and what stderr then holds."""
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(install.command(*VALID), stdin=read_end, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        code = proc.wait(40)
    finally:
        os.close(read_end)
        os.close(write_end)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        err = proc.stderr.read()
        proc.stdout.close()
        proc.stderr.close()
    return code, err


def test_a_client_that_never_reads_stderr_does_not_stop_the_time_limit(tmp_path):
    install = plant(tmp_path, "chatty", FAST)
    code, _ = _never_read(install)
    assert code == protocol.EXIT_TIMEOUT
    assert _group_gone(install.captures()[0]["pgid"])


def test_a_client_that_never_reads_the_report_does_not_stop_the_time_limit(tmp_path):
    install = plant(tmp_path, "big_report", FAST)
    code, err = _never_read(install)
    assert code == protocol.EXIT_TIMEOUT
    assert events(err)[-1]["kind"] == "timeout"
    assert not _work_dir(install.captures()[0]).exists()


def test_a_descendant_that_calls_setsid_is_ended_on_cancel(tmp_path):
    install = plant(tmp_path, "setsid_child")
    proc = subprocess.Popen(install.command(*VALID), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _started(proc)
    child = int((tmp_path / "child-pid").read_text())
    assert not _gone(child)
    proc.stdin.close()
    proc.wait(30)
    proc.stdout.close()
    proc.stderr.close()
    assert proc.returncode == protocol.EXIT_CANCELLED
    assert wait_for(lambda: _gone(child)), "a setsid descendant of ncu outlived the cancel"


def test_a_closed_stdout_gives_json_lines_and_one_exit_code(tmp_path):
    install = plant(tmp_path, "big_report")
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(install.command(*VALID), stdin=read_end, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()  # the client went away
    try:
        _, err = proc.communicate(timeout=60)
    finally:
        os.close(read_end)
        os.close(write_end)
    said = [json.loads(line) for line in err.decode().splitlines()]  # every line is JSON
    assert said[-1]["exit"] == proc.returncode == protocol.EXIT_CANCELLED


def _run_with(install, *, stdout=subprocess.PIPE, stderr=subprocess.PIPE, shell_redirect=""):
    """The helper with stdin a pipe held open, its stdout and stderr as given; with
    `shell_redirect` (such as `>&-`), run through sh, which applies it before the exec."""
    command = install.command(*VALID)
    if shell_redirect:
        command = ["/bin/sh", "-c", f'exec "$0" "$@" {shell_redirect}', *command]
    read_end, write_end = os.pipe()
    try:
        return subprocess.run(command, stdin=read_end, stdout=stdout, stderr=stderr,
                              timeout=60, check=False)
    finally:
        os.close(read_end)
        os.close(write_end)


@pytest.mark.parametrize("how", ["read-only /dev/null", "closed"])
def test_a_stdout_not_open_for_writing_runs_nothing(tmp_path, how):
    """With the client's stdout closed, pkexec hands the helper a read-only /dev/null as fd 1:
    the helper once ran the whole capture as root and then failed to write the report."""
    install = plant(tmp_path)
    if how == "closed":
        done = _run_with(install, stdout=None, shell_redirect=">&-")
    else:
        with open(os.devnull, "rb") as read_only:
            done = _run_with(install, stdout=read_only)
    assert done.returncode == protocol.EXIT_BAD_REQUEST, done.stderr
    assert "stdout" in events(done.stderr)[-1]["error"]
    assert install.runs() == [], "ncu ran for a report with nowhere to go"


@pytest.mark.parametrize("how", ["read-only /dev/null", "closed"])
def test_a_stderr_not_open_for_writing_runs_nothing(tmp_path, how):
    install = plant(tmp_path)
    if how == "closed":
        done = _run_with(install, stderr=None, shell_redirect="2>&-")
    else:
        with open(os.devnull, "rb") as read_only:
            done = _run_with(install, stderr=read_only)
    assert done.returncode == protocol.EXIT_BAD_REQUEST
    assert done.stdout == b""
    assert install.runs() == []


# ---------------------------------------------------------------- who runs it


def test_pkexec_user_runs_nothing():
    """`pkexec --user bob` runs the helper as bob, with PKEXEC_UID set."""
    with pytest.raises(protocol.Refusal) as caught:
        ncu_cmd.requesting_uid(NOBODY, {"PKEXEC_UID": "0"})
    assert caught.value.code == protocol.EXIT_UNTRUSTED
    assert "not as root" in caught.value.message
    assert ncu_cmd.requesting_uid(NOBODY, {}) == NOBODY


# ---------------------------------------------------------------- what root runs


def _refused(install, path: Path) -> None:
    done = install.run(*VALID)
    assert done.returncode == protocol.EXIT_UNTRUSTED, done.stderr
    assert str(path) in events(done.stderr)[-1]["error"]
    assert install.runs() == []


def test_a_writable_library_in_a_library_directory_is_refused(tmp_path):
    libs = tmp_path / "driver-libs"
    libs.mkdir(mode=0o755)
    lib = libs / "libcuda.so.1"
    lib.write_bytes(b"\x7fELF")
    lib.chmod(0o666)
    _refused(plant(tmp_path / "install", library_path=[str(libs)]), lib)


@as_root
def test_a_users_library_in_a_root_library_directory_is_refused(tmp_path):
    libs = tmp_path / "driver-libs"
    libs.mkdir(mode=0o755)
    lib = libs / "libcuda.so.1"
    lib.write_bytes(b"\x7fELF")
    os.chown(lib, NOBODY, NOBODY)
    _refused(plant(tmp_path / "install", library_path=[str(libs)]), lib)


def test_a_writable_library_below_glibc_hwcaps_is_refused(tmp_path):
    libs = tmp_path / "driver-libs"
    hwcaps = libs / "glibc-hwcaps" / "x86-64-v3"
    hwcaps.mkdir(parents=True)
    lib = hwcaps / "libcuda.so.1"
    lib.write_bytes(b"\x7fELF")
    lib.chmod(0o666)
    _refused(plant(tmp_path / "install", library_path=[str(libs)]), lib)


def test_a_library_link_to_a_writable_file_is_refused(tmp_path):
    libs, elsewhere = tmp_path / "driver-libs", tmp_path / "elsewhere"
    for d in (libs, elsewhere):
        d.mkdir(mode=0o755)
    real = elsewhere / "libcuda.so.580"
    real.write_bytes(b"\x7fELF")
    real.chmod(0o664)
    (libs / "libcuda.so.1").symlink_to(real)
    _refused(plant(tmp_path / "install", library_path=[str(libs)]), real)


def _site_packages(install) -> Path:
    (site,) = (install.root / "venv" / "lib").glob("python3*/site-packages")
    return site


@pytest.mark.parametrize("how", ["writable copy", "copy in a writable directory"])
def test_a_root_link_in_site_packages_to_a_users_copy_is_refused(tmp_path, how):
    install = plant(tmp_path / "install")
    user = tmp_path / "user"
    user.mkdir(mode=0o755)
    copy = user / "numba"
    copy.mkdir(mode=0o755)
    (copy / "__init__.py").write_text("")
    bad = copy / "__init__.py" if how == "writable copy" else user
    bad.chmod(0o666 if how == "writable copy" else 0o777)
    (_site_packages(install) / "numba").symlink_to(copy)
    _refused(install, bad)


def test_a_link_to_nothing_in_the_install_is_refused(tmp_path):
    install = plant(tmp_path / "install")
    link = _site_packages(install) / "numba"
    link.symlink_to(tmp_path / "not-yet")
    _refused(install, link)


def test_a_sticky_world_writable_directory_inside_the_install_is_refused(tmp_path):
    install = plant(tmp_path)
    drop = install.root / "venv" / "drop"
    drop.mkdir()
    drop.chmod(0o1777)
    _refused(install, drop)


def test_a_pth_file_never_runs_in_the_helper(tmp_path):
    install = plant(tmp_path)
    marker = tmp_path / "pth-ran"
    (_site_packages(install) / "evil.pth").write_text(f"import os; open({str(marker)!r}, 'w')\n")
    assert install.run(*VALID).returncode == 0
    assert not marker.exists()


def test_a_pth_path_to_a_writable_directory_is_refused(tmp_path):
    install = plant(tmp_path / "install")
    added = tmp_path / "added"
    added.mkdir()
    added.chmod(0o777)
    (_site_packages(install) / "extra.pth").write_text(f"# a path line\n{added}\n")
    _refused(install, added)


def test_a_pth_path_past_what_the_helper_reads_is_refused(tmp_path):
    """site.py reads a .pth whole: a writable directory named after 64 KiB of comments is
    still on the import path, so a .pth that long is refused, not read in part."""
    install = plant(tmp_path / "install")
    added = tmp_path / "added"
    added.mkdir()
    added.chmod(0o777)
    pth = _site_packages(install) / "extra.pth"
    pth.write_text("#" * (1 << 16) + f"\n{added}\n")
    _refused(install, pth)


@as_root
def test_an_editable_install_is_refused(tmp_path):
    install = plant(tmp_path)
    pth = _site_packages(install) / "__editable__.ncu_reader-0.1.pth"
    pth.write_text("import __editable___ncu_reader_finder; "
                   "__editable___ncu_reader_finder.install()\n")
    _refused(install, pth)


# Debian's python3.11 (its sysconfig.py): the scheme it picks where sys.prefix is the base prefix,
# as it is in the helper, which starts as `python3 -IS` (no site, so no venv prefix).
POSIX_LOCAL = {
    "stdlib": "{installed_base}/lib/python{py_version_short}",
    "platstdlib": "{platbase}/lib/python{py_version_short}",
    "purelib": "{base}/local/lib/python{py_version_short}/dist-packages",
    "platlib": "{platbase}/local/lib/python{py_version_short}/dist-packages",
    "include": "{installed_base}/include/python{py_version_short}{abiflags}",
    "platinclude": "{installed_platbase}/include/python{py_version_short}{abiflags}",
    "scripts": "{base}/local/bin",
    "data": "{base}/local",
}
PY_VERSION = f"python{sys.version_info[0]}.{sys.version_info[1]}"


@pytest.fixture
def debian_sysconfig(monkeypatch):
    """This interpreter's sysconfig made Debian's: posix_local is its default scheme."""
    monkeypatch.setitem(sysconfig._INSTALL_SCHEMES, "posix_local", POSIX_LOCAL)
    real = sysconfig.get_paths
    monkeypatch.setattr(sysconfig, "get_paths", lambda scheme="posix_local", vars=None,
                        expand=True: real(scheme, vars, expand))


def _hostile_site(install, tmp_path: Path, how: str) -> Path:
    """What an admin's later `pip install -e` or a package's .pth leaves in the venv."""
    site = _site_packages(install)
    if how == "editable":
        pth = site / "__editable__.ncu_reader-0.1.pth"
        pth.write_text("import __editable___ncu_reader_0_1_finder; "
                       "__editable___ncu_reader_0_1_finder.install()\n")
        return pth
    added = tmp_path / "checkout"
    added.mkdir()
    added.chmod(0o777)
    (site / "extra.pth").write_text(f"{added}\n")
    return added


def test_the_venvs_site_packages_are_found_under_debians_default_scheme(tmp_path,
                                                                       debian_sysconfig):
    install = plant(tmp_path)
    venv = install.root / "venv"
    missed = Path(sysconfig.get_paths(vars={"base": str(venv), "platbase": str(venv)})["purelib"])
    assert missed == venv / "local" / "lib" / PY_VERSION / "dist-packages"
    assert not missed.exists(), "where a lookup by the default scheme looks, the venv has nothing"
    assert _site_packages(install) in interpreter.venv_site_dirs(install.python)


@pytest.mark.parametrize("how", [
    "pth path",
    pytest.param("editable", marks=as_root),  # refused as root only
])
def test_the_venvs_pth_files_are_checked_under_debians_default_scheme(tmp_path, how,
                                                                     debian_sysconfig):
    install = plant(tmp_path / "install")
    bad = _hostile_site(install, tmp_path, how)
    with pytest.raises(protocol.Refusal) as caught:
        where.check_layout(_layout(install), os.geteuid())
    assert caught.value.code == protocol.EXIT_UNTRUSTED
    assert str(bad) in caught.value.message


def _debian_python() -> str | None:
    """A Python whose default scheme under -IS is Debian's posix_local, if this machine has one."""
    for python in ("/usr/bin/python3", "/usr/bin/python3.11", "/usr/bin/python3.12"):
        try:
            done = subprocess.run([python, "-IS", "-c", "import sys, sysconfig; sys.exit("
                                   "sys.version_info < (3, 11) or "
                                   "sysconfig.get_default_scheme() != 'posix_local')"],
                                  capture_output=True, timeout=30, check=False)
        except OSError:
            continue
        if done.returncode == 0:
            return python
    return None


DEBIAN_PYTHON = _debian_python()


@pytest.mark.skipif(DEBIAN_PYTHON is None, reason="needs Debian's own python3 (3.11 or newer)")
@pytest.mark.parametrize("how", [
    "pth path",
    pytest.param("editable", marks=as_root),
])
def test_a_venv_of_debians_python_has_its_pth_files_checked(tmp_path, how):
    """The helper run by a venv of Debian's python3, as install-capture makes it there."""
    install = plant(tmp_path / "install", python=DEBIAN_PYTHON)
    assert install.run(*VALID).returncode == 0, "a clean venv of Debian's Python passes"
    bad = _hostile_site(install, tmp_path, how)
    (install.record).unlink()
    _refused(install, bad)


def test_a_venv_without_its_site_packages_is_refused(tmp_path):
    """Where the venv's own site-packages cannot be found, nothing it imports can be checked."""
    install = plant(tmp_path)
    site = _site_packages(install)
    site.rename(site.with_name("moved-away"))
    with pytest.raises(protocol.Refusal) as caught:
        interpreter.venv_site_dirs(install.python)
    assert caught.value.code == protocol.EXIT_UNTRUSTED
    assert "site-packages" in caught.value.message
    done = install.run(*VALID)
    assert done.returncode == protocol.EXIT_UNTRUSTED, done.stderr
    assert install.runs() == []


def test_a_pyvenv_cfg_without_the_system_site_line_includes_the_systems(tmp_path):
    """site.py reads a missing include-system-site-packages as true: the base interpreter's
    site-packages are then imported from, and checked."""
    install = plant(tmp_path)
    cfg = install.root / "venv" / "pyvenv.cfg"
    base_site = Path(sys.base_prefix, "lib", PY_VERSION, "site-packages")
    assert base_site not in interpreter.venv_site_dirs(install.python)
    cfg.write_text("".join(line for line in cfg.read_text().splitlines(keepends=True)
                           if not line.startswith("include-system-site-packages")))
    assert base_site in interpreter.venv_site_dirs(install.python)


def test_a_pyvenv_cfg_too_long_to_check_is_refused(tmp_path):
    """What is not read cannot be checked: a pyvenv.cfg past its cap is no venv's."""
    cfg = tmp_path / "pyvenv.cfg"
    cfg.write_text("include-system-site-packages = false\n")
    assert not interpreter.venv_includes_system_site(cfg)
    cfg.write_bytes(b"include-system-site-packages = false\n".ljust(
        interpreter.MAX_PYVENV_BYTES + 1, b"#"))
    with pytest.raises(protocol.Refusal) as caught:
        interpreter.venv_includes_system_site(cfg)
    assert caught.value.code == protocol.EXIT_UNTRUSTED
    assert f"{cfg} is longer than 4,096 bytes: not a venv's pyvenv.cfg" == caught.value.message


def test_a_site_directory_a_user_could_create_is_refused(tmp_path):
    """A site directory the kernel program would import from once it exists (here Debian's
    venv/lib/python3/dist-packages, which site.py adds there), below a directory others can
    write: someone could make it after the check."""
    install = plant(tmp_path / "install")
    lib = install.root / "venv" / "lib"
    lib.chmod(0o777)
    missing = lib / "python3" / "dist-packages"
    trust = rules.Trust(rules.trusted_owners(os.geteuid()))
    with pytest.raises(protocol.Refusal) as caught:
        trust.site(missing)
    assert str(lib) in caught.value.message


def test_the_standard_library_tree_is_checked(tmp_path, monkeypatch):
    """The interpreter's own library (here a planted stand-in: the real one is not ours to
    change) is checked like the install."""
    install = plant(tmp_path / "install")
    stdlib = tmp_path / "lib" / "python3.11"
    (stdlib / "json").mkdir(parents=True)
    module = stdlib / "json" / "__init__.py"
    module.write_text("")
    module.chmod(0o666)
    (stdlib / "site-packages").mkdir()
    (stdlib / "site-packages" / "ignored.py").write_text("")
    (stdlib / "site-packages" / "ignored.py").chmod(0o666)
    monkeypatch.setattr(where, "stdlib_dirs", lambda: [stdlib])
    layout = _layout(install)
    with pytest.raises(protocol.Refusal) as caught:
        where.check_layout(layout, os.geteuid())
    assert str(module) in caught.value.message
    module.chmod(0o644)
    where.check_layout(layout, os.geteuid())  # site-packages below it is not the stdlib's


def test_the_real_standard_library_and_install_pass(tmp_path):
    install = plant(tmp_path)
    dirs = interpreter.stdlib_dirs()
    assert dirs, "the interpreter's library was found"
    layout = _layout(install)
    where.check_layout(layout, os.geteuid())


def _layout(install) -> where.Layout:
    """The planted install's layout, seen from this process (whose own interpreter is the
    development venv's): its python is the install's."""
    layout = where.load_layout(os.geteuid(), {}, here=install.helper)
    return dataclasses.replace(layout, python=install.python)


def test_ncus_rule_files_in_the_home_directory_are_checked(tmp_path):
    """ncu copies its sections and .py rules into $HOME/Documents/NVIDIA Nsight Compute/<ver>/
    and runs them from there (seen on the H200, docs/capture.md)."""
    install = plant(tmp_path / "install")
    home = tmp_path / "home"
    sections = home / "Documents" / "NVIDIA Nsight Compute" / "2025.3.1" / "Sections"
    sections.mkdir(parents=True)
    rule = sections / "SpeedOfLight.py"
    rule.write_text("")
    where.check_layout(_layout(install), os.geteuid(), home=home)
    rule.chmod(0o666)
    with pytest.raises(protocol.Refusal) as caught:
        where.check_layout(_layout(install), os.geteuid(), home=home)
    assert str(rule) in caught.value.message


def test_nsight_computes_own_folder_is_checked_when_ncu_is_the_one_in_it(tmp_path):
    install = plant(tmp_path / "install")
    for d in ("target", "sections"):
        (install.ncu.parent / d).mkdir()
    rule = install.ncu.parent / "sections" / "SpeedOfLight.py"
    rule.write_text("")
    rule.chmod(0o666)
    _refused(install, rule)


# ---------------------------------------------------------------- the loader's own files


def _ld_cache(paths: list[str]) -> bytes:
    """A loader's cache in the format glibc's ldconfig writes (glibc-ld.so.cache1.1: a 48-byte
    header, 24-byte entries of flags, key, value, osversion and hwcap, then the strings, each
    offset from the header's start) naming `paths`, each under its file name."""
    strings, entries = b"", b""
    base = ld.LD_CACHE_HEADER + ld.LD_CACHE_ENTRY * len(paths)
    for path in paths:
        key = base + len(strings)
        strings += os.path.basename(path).encode() + b"\0"
        value = base + len(strings)
        strings += path.encode() + b"\0"
        entries += struct.pack("<iIIIQ", 0x0303, key, value, 0, 0)
    header = ld.LD_CACHE_MAGIC + struct.pack("<IIB3xI12x", len(paths), len(strings), 2, 0)
    assert len(header) == ld.LD_CACHE_HEADER
    return header + entries + strings


def _loader(root: Path, conf: str = "", cache: list[str] | None = None,
            preload: str | None = None) -> ld.Loader:
    """An ld.so.conf (with `conf` as its text), an ld.so.cache naming `cache` and an
    ld.so.preload under `root/etc`, each root's alone, and no system folders."""
    etc = root / "etc"
    etc.mkdir(parents=True, exist_ok=True)
    (etc / "ld.so.conf").write_text(conf)
    (etc / "ld.so.cache").write_bytes(_ld_cache(cache or []))
    if preload is not None:
        (etc / "ld.so.preload").write_text(preload)
    return ld.Loader(etc / "ld.so.conf", etc / "ld.so.cache", etc / "ld.so.preload", ())


def _folder(path: Path, mode: int = 0o755, library: int | None = 0o644) -> Path:
    path.mkdir(parents=True)
    path.chmod(mode)
    if library is not None:
        (path / "libcuda.so.1").write_bytes(b"\x7fELF")
        (path / "libcuda.so.1").chmod(library)
    return path


def _check_loader(loader: ld.Loader) -> None:
    ld.check_loader(rules.Trust(rules.trusted_owners(os.geteuid())), loader)


def test_a_clean_loader_configuration_passes(tmp_path):
    libs = _folder(tmp_path / "libs")
    more = _folder(tmp_path / "more")
    loader = _loader(tmp_path, f"# the system's\n{libs}/  # trailing slash\nhwcap 1 nosegneg\n"
                     "include ld.so.conf.d/*.conf\n", cache=[str(libs / "libcuda.so.1")],
                     preload=f"{libs / 'libcuda.so.1'}\n")
    (loader.conf.parent / "ld.so.conf.d").mkdir()
    (loader.conf.parent / "ld.so.conf.d" / "cuda.conf").write_text(f"{more}\n")
    trust = rules.Trust(rules.trusted_owners(os.geteuid()))
    assert ld.ld_conf_dirs(loader.conf, trust) == [libs, more]
    _check_loader(loader)


def test_a_link_to_nothing_in_a_library_folder_passes_where_only_root_could_fill_it(tmp_path):
    """A package may leave a link to nothing in /usr/lib; only a target someone else could
    create is refused (see the attacks below)."""
    libs = _folder(tmp_path / "libs")
    gone = _folder(tmp_path / "removed", library=None)
    (libs / "libnvidia-ml.so.1").symlink_to(gone / "libnvidia-ml.so.580")
    rules.Trust(rules.trusted_owners(os.geteuid())).entries(libs)
    _check_loader(_loader(tmp_path, f"{libs}\n"))


def test_a_loader_file_too_long_to_check_is_refused(tmp_path):
    """ld.so.preload past the loader files' cap: the libraries it names after it go unchecked."""
    preload = tmp_path / "ld.so.preload"
    preload.write_bytes(b"/lib/libfirst.so\n".ljust(ld.LD_MAX_BYTES, b" "))
    assert ld.preload_libraries(preload) == ["/lib/libfirst.so"]
    preload.write_bytes(preload.read_bytes() + b"\n/home/user/libmine.so\n")
    with pytest.raises(protocol.Refusal) as caught:
        ld.preload_libraries(preload)
    assert caught.value.message == (f"{preload} is longer than 65,536 bytes; refusing what cannot "
                                    "be checked")


def test_the_loaders_cache_is_read_as_ldconfig_reads_it(tmp_path):
    paths = ["/usr/lib/x86_64-linux-gnu/libz.so.1", "/opt/cuda/lib64/libcudart.so.12"]
    (tmp_path / "ld.so.cache").write_bytes(_ld_cache(paths))
    assert ld.ld_cache_libraries(tmp_path / "ld.so.cache") == paths
    ldconfig = shutil.which("ldconfig") or shutil.which("ldconfig", path="/sbin:/usr/sbin")
    if ldconfig is None or not os.path.exists(ld.LD_SO_CACHE):
        pytest.skip("no ldconfig or no /etc/ld.so.cache here to compare with")
    listed = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, check=True)
    named = [line.split(" => ", 1)[1] for line in listed.stdout.splitlines() if " => " in line]
    assert sorted(ld.ld_cache_libraries(Path(ld.LD_SO_CACHE))) == sorted(named)


def _writable_folder(tmp_path):
    bad = _folder(tmp_path / "libs", 0o777)
    return _loader(tmp_path, f"{bad}\n"), bad


def _writable_library(tmp_path):
    libs = _folder(tmp_path / "libs", library=0o666)
    return _loader(tmp_path, f"{libs}\n"), libs / "libcuda.so.1"


def _missing_below_writable(tmp_path):
    bad = _folder(tmp_path / "open", 0o777, library=None)
    return _loader(tmp_path, f"{bad / 'libs'}\n"), bad


def _included_writable_folder(tmp_path):
    bad = _folder(tmp_path / "libs", 0o777)
    loader = _loader(tmp_path, "include ld.so.conf.d/*.conf\n")
    (loader.conf.parent / "ld.so.conf.d").mkdir()
    (loader.conf.parent / "ld.so.conf.d" / "x.conf").write_text(f"{bad}\n")
    return loader, bad


def _writable_included_file(tmp_path):
    loader = _loader(tmp_path, f"include {tmp_path}/etc/ld.so.conf.d/*.conf\n")
    (loader.conf.parent / "ld.so.conf.d").mkdir()
    bad = loader.conf.parent / "ld.so.conf.d" / "x.conf"
    bad.write_text("")
    bad.chmod(0o666)
    return loader, bad


def _writable_include_folder(tmp_path):
    loader = _loader(tmp_path, "include ld.so.conf.d/*.conf\n")
    bad = _folder(loader.conf.parent / "ld.so.conf.d", 0o777, library=None)
    return loader, bad


def _writable_conf(tmp_path):
    loader = _loader(tmp_path)
    loader.conf.chmod(0o666)
    return loader, loader.conf


def _relative_folder(tmp_path):
    return _loader(tmp_path, "lib\n"), "'lib'"


def _cache_writable_library(tmp_path):
    libs = _folder(tmp_path / "elsewhere", library=0o666)
    return _loader(tmp_path, cache=[str(libs / "libcuda.so.1")]), libs / "libcuda.so.1"


def _cache_library_a_user_could_make(tmp_path):
    bad = _folder(tmp_path / "open", 0o777, library=None)
    return _loader(tmp_path, cache=[str(bad / "libcuda.so.1")]), bad


def _cache_unreadable(tmp_path):
    loader = _loader(tmp_path)
    loader.cache.write_bytes(b"not a cache glibc writes" * 4)
    return loader, loader.cache


def _preload_writable_library(tmp_path):
    libs = _folder(tmp_path / "elsewhere", library=0o666)
    return _loader(tmp_path, preload=f"{libs / 'libcuda.so.1'}\n"), libs / "libcuda.so.1"


def _preload_expanded(tmp_path):
    return _loader(tmp_path, preload="/usr/$LIB/libfoo.so\n"), "$LIB"


def _dangling_link_a_user_could_fill(tmp_path):
    libs = _folder(tmp_path / "libs")
    bad = _folder(tmp_path / "open", 0o777, library=None)
    (libs / "libnvidia-ml.so.1").symlink_to(bad / "libnvidia-ml.so.580")
    return _loader(tmp_path, f"{libs}\n"), bad


@pytest.mark.parametrize("attack", [
    _writable_folder, _writable_library, _missing_below_writable, _included_writable_folder,
    _writable_included_file, _writable_include_folder, _writable_conf, _relative_folder,
    _cache_writable_library, _cache_library_a_user_could_make, _cache_unreadable,
    _preload_writable_library, _preload_expanded, _dangling_link_a_user_could_fill,
], ids=lambda f: f.__name__.strip("_"))
def test_what_the_loader_finds_by_itself_is_checked(tmp_path, attack):
    """A folder ld.so.conf lists (or a library the cache names) that a user can write would
    load the user's library into root's kernel program."""
    loader, bad = attack(tmp_path)
    with pytest.raises(protocol.Refusal) as caught:
        _check_loader(loader)
    assert caught.value.code == protocol.EXIT_UNTRUSTED
    assert str(bad) in caught.value.message


@as_root
def test_a_users_folder_in_ld_so_conf_is_refused(tmp_path):
    libs = _folder(tmp_path / "libs")
    os.chown(libs, NOBODY, NOBODY)
    with pytest.raises(protocol.Refusal) as caught:
        _check_loader(_loader(tmp_path, f"{libs}\n"))
    assert "not by root" in caught.value.message


def test_a_writable_folder_in_ld_so_conf_stops_the_capture(tmp_path):
    """End to end: the helper's ld.so.conf (its constant) pointed at one listing a folder
    others can write."""
    loader, bad = _writable_folder(tmp_path / "system")
    install = plant(tmp_path / "install", replace={
        'LD_SO_CONF = "/etc/ld.so.conf"': f"LD_SO_CONF = {str(loader.conf)!r}"})
    _refused(install, bad)
