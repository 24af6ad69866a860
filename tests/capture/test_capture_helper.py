"""The privileged capture helper: its grammar, its argv, and its runs against a fake ncu.

The helper runs here unprivileged (or as root in CI) from a planted install whose ncu is a fake
(tests/capture_install.py): this machine has no GPU and no Nsight Compute.
"""

from __future__ import annotations

import ast
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.capture_install import REPORT, events, plant
from tests.polling import wait_for
from viewer.capture.helper import bundle, protocol, report
from viewer.capture.helper import command as ncu_cmd
from viewer.capture.helper import layout as where
from viewer.capture.helper import trust as rules

HELPER_PACKAGE = Path(bundle.__file__).parent

VALID = ["capture", "--target", "naive", "--dim", "512", "--set", "full", "--clock", "base"]

HOSTILE = {
    "no arguments": [],
    "unknown command": ["profile", "--target", "naive"],
    "unknown flag": [*VALID, "--log-file", "x"],
    "abbreviated flag": ["capture", "--tar", "naive", "--dim", "512", "--set", "full",
                         "--clock", "base"],
    "flag=value form": ["capture", "--target=naive", "--dim", "512", "--set", "full",
                        "--clock", "base"],
    "repeated flag": [*VALID, "--dim", "256"],
    "repeated dry-run": [*VALID, "--dry-run", "--dry-run"],
    "double dash": ["capture", "--", *VALID[1:]],
    "missing flag": VALID[:-2],
    "flag without value": [*VALID[:-1]],
    "value starting with -": ["capture", "--target", "--dim", "512", "--set", "full",
                              "--clock", "base"],
    "unknown target": ["capture", "--target", "naive2", *VALID[3:]],
    "response file": ["capture", "--target", "@args.txt", *VALID[3:]],
    "percent expansion": ["capture", "--target", "%q{HOME}", *VALID[3:]],
    "unknown set": [*VALID[:5], "--set", "roofline", *VALID[7:]],
    "unknown clock": [*VALID[:7], "--clock", "reset"],
    "dim below range": [*VALID[:3], "--dim", "0", *VALID[5:]],
    "dim not a multiple of the tile": [*VALID[:3], "--dim", "520", *VALID[5:]],
    "dim above range": [*VALID[:3], "--dim", "8208", *VALID[5:]],
    "dim 15": [*VALID[:3], "--dim", "15", *VALID[5:]],
    "dim with leading zero": [*VALID[:3], "--dim", "0512", *VALID[5:]],
    "dim with sign": [*VALID[:3], "--dim", "+512", *VALID[5:]],
    "negative dim": [*VALID[:3], "--dim", "-512", *VALID[5:]],
    "fullwidth digits": [*VALID[:3], "--dim", "５１２", *VALID[5:]],
    "arabic-indic digits": [*VALID[:3], "--dim", "٥١٢", *VALID[5:]],
    "dim with space": [*VALID[:3], "--dim", " 512", *VALID[5:]],
    "dim hex": [*VALID[:3], "--dim", "0x200", *VALID[5:]],
    "dim with underscore": [*VALID[:3], "--dim", "5_12", *VALID[5:]],
    "very long argument": [*VALID[:3], "--dim", "1" * 5000, *VALID[5:]],
    "newline in value": ["capture", "--target", "naive\n", *VALID[3:]],
    "nul-free control character": ["capture", "--target", "nai\x1bve", *VALID[3:]],
    "too many arguments": [*VALID, *(["--dry-run"] * 20)],
    "uppercase value": ["capture", "--target", "NAIVE", *VALID[3:]],
}


@pytest.mark.parametrize("args", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_requests_are_refused(args):
    with pytest.raises(protocol.Refusal) as caught:
        protocol.parse_request(args)
    assert caught.value.code == protocol.EXIT_BAD_REQUEST


def test_a_valid_request_in_any_order():
    request = protocol.parse_request(["capture", "--clock", "none", "--dry-run", "--set", "basic",
                                    "--dim", "8192", "--target", "tiled"])
    assert request == protocol.Request(("tiled",), (8192,), "basic", "none", dry_run=True)
    assert protocol.parse_request(VALID).dims == (512,)


@pytest.mark.parametrize("name", ["unknown flag", "response file", "very long argument"])
def test_a_refused_request_exits_2_with_one_json_line_and_runs_nothing(tmp_path, name):
    install = plant(tmp_path)
    done = install.run(*HOSTILE[name])
    assert done.returncode == protocol.EXIT_BAD_REQUEST
    (line,) = done.stderr.decode().splitlines()
    assert set(json.loads(line)) >= {"error"}
    assert done.stdout == b""
    assert install.runs() == []


def test_constants_match_the_app():
    from viewer.kernels.matmul import KERNEL_FUNCTIONS, TILE_DIM
    from viewer.kernels.ncu_command import LESSON_METRICS, launch_skip

    assert ncu_cmd.KERNEL_FUNCTIONS == KERNEL_FUNCTIONS
    assert tuple(KERNEL_FUNCTIONS) == protocol.TARGETS
    assert launch_skip() == protocol.LAUNCH_SKIP
    assert ncu_cmd.LESSON_METRICS == LESSON_METRICS
    assert protocol.TILE == TILE_DIM
    assert REPORT.read_bytes()[:4] == protocol.REPORT_MAGIC


def test_the_report_check_matches_the_apps_container_walk():
    """The helper's copy of viewer/readers/ncu_container.py's facts and caps."""
    from viewer.readers import ncu_container as c

    assert protocol.REPORT_MAGIC == c.MAGIC
    assert report.REPORT_KNOWN_VERSIONS == c.KNOWN_VERSIONS
    assert report.REPORT_MAX_FILE_HEADER == c.MAX_FILE_HEADER
    assert report.REPORT_MAX_HEADER == c.MAX_HEADER
    assert report.REPORT_MAX_FIELDS == c.MAX_FIELDS
    assert report.REPORT_MAX_PART == c.MAX_PART
    assert (report.BLOCK_RESULTS, report.BLOCK_SESSION_DETAILS, report.BLOCK_PAYLOAD_SIZE) == (
        c.RESULTS, c.SESSION_DETAILS, c.PAYLOAD_SIZE)
    assert report.SESSION_COMMAND_LINE == c.COMMAND_LINE
    argv = ncu_cmd.ncu_argv(protocol.Request(("naive",), (512,), "full", "base"),
                           protocol.Shot("naive", 512),
                           where.Layout(Path("ncu"), Path("python3"), Path("/"), None, None), "/r")
    assert argv[argv.index("--launch-count") + 1] == str(report.REPORT_RESULTS)


def test_the_helper_imports_only_the_standard_library_and_itself():
    """Every module of the helper's package: the standard library, or a sibling (relative)."""
    modules = sorted(HELPER_PACKAGE.glob("*.py"))
    assert len(modules) >= 10
    for module in modules:
        tree = ast.parse(module.read_text(encoding="utf-8"))
        names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                 for a in n.names}
        names |= {n.module.split(".")[0] for n in ast.walk(tree)
                  if isinstance(n, ast.ImportFrom) and n.module and not n.level}
        assert names - {"__future__"} <= set(sys.stdlib_module_names), module.name


def test_dry_run_prints_the_argv_and_never_a_forbidden_option(tmp_path):
    install = plant(tmp_path)
    done = install.run(*VALID, "--dry-run")
    assert done.returncode == 0, done.stderr
    argv = json.loads(done.stdout)["argv"]
    assert argv[0] == str(install.ncu)
    ncu_part = argv[:argv.index(str(install.python))]
    for word in ("--config-file", "--target-processes", "--clock-control", "--set", "-k",
                 "--launch-skip", "--launch-count", "-o", "--import-source"):
        assert ncu_part.count(word) == 1, word
    assert ncu_part[ncu_part.index("--config-file") + 1] == "off"
    assert ncu_part[ncu_part.index("--target-processes") + 1] == "application-only"
    assert ncu_part[ncu_part.index("--clock-control") + 1] == "base"
    assert ncu_part[ncu_part.index("--import-source") + 1] == "yes"
    for forbidden in ("-f", "--force-overwrite", "--log-file", "--section-folder",
                      "--source-folders", "--preload-library", "--injection-path-64", "--mode",
                      "--port"):
        assert forbidden not in argv
    assert argv[argv.index(str(install.python)):] == [
        str(install.python), "-I", "-B", "-m", "viewer.kernels", "profile-target",
        "--kernel", "naive", "--dim", "512"]
    assert install.runs() == []


def test_a_capture_streams_the_report_and_says_each_step(tmp_path):
    install = plant(tmp_path)
    done = install.run(*VALID)
    assert done.returncode == 0, done.stderr
    assert done.stdout == REPORT.read_bytes()
    said = events(done.stderr)
    assert said[0] == {"started": {"target": "naive", "dim": 512, "set": "full",
                                   "clock": "base", "uid": os.geteuid(), "index": 0,
                                   "count": 1}}
    assert {"ncu": '==PROF== Profiling "matmul_naive" - 0: 0%....50%....100% - 38 passes'} in said
    assert said[-1]["done"]["bytes"] == REPORT.stat().st_size
    assert said[-1]["done"]["ncu_version"].startswith("Version 2099.1.0.0")
    (run,) = install.captures()
    dry = json.loads(install.run(*VALID, "--dry-run").stdout)["argv"]
    out = run["argv"][run["argv"].index("-o") + 1]
    assert run["argv"] == [w.replace("<temporary directory>/report", out) for w in dry[1:]]
    assert not Path(out).parent.exists(), "the temporary directory outlived the capture"
    assert run["cwd"] == str(Path(out).parent)
    assert run["pgid"] == run["pid"], "ncu runs in a process group of its own"


def test_ncu_gets_an_allow_listed_environment(tmp_path):
    install = plant(tmp_path)
    env = {**os.environ, "LD_PRELOAD": "/tmp/evil.so", "PYTHONPATH": "/tmp/evil",
           "NUMBA_CUDA_DRIVER": "/tmp/evil.so", "CUDA_VISIBLE_DEVICES": "0",
           "LANG": "en_US.UTF-8", "LC_ALL": "$(reboot)"}
    assert install.run(*VALID, env=env).returncode == 0
    (run,) = install.captures()
    child = {k: v for k, v in run["env"].items() if k not in ("PWD", "SHLVL", "_", "LC_CTYPE")}
    assert set(child) <= {"PATH", "HOME", "LANG", "CUDA_VISIBLE_DEVICES", "TMPDIR", "TMP",
                          "TEMP"}, child
    assert "LD_PRELOAD" not in child and "LD_LIBRARY_PATH" not in child
    assert child["PATH"] == protocol.SAFE_PATH
    assert child["CUDA_VISIBLE_DEVICES"] == "0"
    assert child["LANG"] == "en_US.UTF-8"


def test_the_install_may_name_the_driver_libraries(tmp_path):
    libs = tmp_path / "driver-libs"
    libs.mkdir(mode=0o755)
    install = plant(tmp_path / "install", library_path=[str(libs)])
    env = {**os.environ, "LD_LIBRARY_PATH": "/tmp/evil"}
    assert install.run(*VALID, env=env).returncode == 0
    assert install.runs()[0]["env"]["LD_LIBRARY_PATH"] == str(libs)
    libs.chmod(0o777)
    done = install.run(*VALID)
    assert done.returncode == protocol.EXIT_UNTRUSTED
    assert str(libs) in events(done.stderr)[-1]["error"]


def test_err_nvgpuctrperm_is_its_own_exit(tmp_path):
    done = plant(tmp_path, "not_permitted").run(*VALID)
    assert done.returncode == protocol.EXIT_NOT_PERMITTED
    said = events(done.stderr)
    assert any("ERR_NVGPUCTRPERM" in e.get("ncu", "") for e in said)
    assert said[-1]["kind"] == "counters_not_permitted"
    assert done.stdout == b""


@pytest.mark.parametrize(("behaviour", "code", "words"), [
    ("none", protocol.EXIT_NO_REPORT, "No kernels were profiled"),
    ("huge", protocol.EXIT_TOO_LARGE, "over the"),
    ("symlink", protocol.EXIT_UNTRUSTED, "not a plain file"),
    ("not_a_report", protocol.EXIT_NO_REPORT, "not an Nsight Compute report"),
])
def test_a_bad_report_is_refused_and_removed(tmp_path, behaviour, code, words):
    install = plant(tmp_path, behaviour)
    done = install.run(*VALID)
    assert done.returncode == code, done.stderr
    assert words in events(done.stderr)[-1]["error"]
    assert done.stdout == b""
    (run,) = install.captures()
    assert not Path(run["argv"][run["argv"].index("-o") + 1]).parent.exists()


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # A zombie that its parent (the test's pytest, for an orphan: init) has not reaped yet.
    status = Path(f"/proc/{pid}/status")
    return not status.exists() or "\nState:\tZ" in status.read_text()


def _group_gone(pgid: int, timeout: float = 10.0) -> bool:
    def gone() -> bool:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        return not [p for p in Path("/proc").iterdir() if p.name.isdigit()
                    and _pgid(p) == pgid and not _gone(int(p.name))]

    return wait_for(gone, timeout, interval=0.1)


def _pgid(proc: Path) -> int | None:
    try:
        return int(proc.joinpath("stat").read_text().rsplit(")", 1)[1].split()[2])
    except (OSError, IndexError, ValueError):
        return None


def test_a_hang_is_killed_with_its_whole_group(tmp_path):
    install = plant(tmp_path, "hang", {"TIMEOUT_S = 600.0": "TIMEOUT_S = 2.0",
                                       "KILL_GRACE_S = 5.0": "KILL_GRACE_S = 1.0"})
    started = time.monotonic()
    done = install.run(*VALID)
    assert done.returncode == protocol.EXIT_TIMEOUT, done.stderr
    assert time.monotonic() - started < 20
    run = install.runs()[0]  # then the clock reset
    assert _group_gone(run["pgid"]), "ncu's process group outlived the timeout"
    assert not Path(run["argv"][run["argv"].index("-o") + 1]).parent.exists()


def test_a_killed_ncu_gives_locked_clocks_back(tmp_path):
    install = plant(tmp_path, "hang", {"TIMEOUT_S = 600.0": "TIMEOUT_S = 2.0"})
    assert install.run(*VALID).returncode == protocol.EXIT_TIMEOUT
    capture, reset = install.runs()
    assert capture["argv"][capture["argv"].index("--clock-control") + 1] == "base"
    assert reset["argv"] == ["--config-file", "off", "--clock-control", "reset"]
    unlocked = plant(tmp_path / "none", "hang", {"TIMEOUT_S = 600.0": "TIMEOUT_S = 2.0"})
    none = [w if w != "base" else "none" for w in VALID]
    assert unlocked.run(*none).returncode == protocol.EXIT_TIMEOUT
    assert len(unlocked.runs()) == 1, "clocks left alone need no reset"


def test_closing_stdin_cancels(tmp_path):
    install = plant(tmp_path, "hang")
    proc = subprocess.Popen(install.command(*VALID), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stderr.readline()
    assert "started" in json.loads(first)
    assert "ncu" in json.loads(proc.stderr.readline())  # ncu is running now
    proc.stdin.close()
    proc.wait(30)
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.stdout.close()
    proc.stderr.close()
    assert proc.returncode == protocol.EXIT_CANCELLED
    assert events(err)[-1]["kind"] == "cancelled"
    assert out == b""
    run = install.runs()[0]  # then the clock reset
    assert _group_gone(run["pgid"])
    assert not Path(run["argv"][run["argv"].index("-o") + 1]).parent.exists()


def test_sigterm_cancels_and_kills_ncu(tmp_path):
    install = plant(tmp_path, "hang")
    proc = subprocess.Popen(install.command(*VALID), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stderr.readline()
    proc.stderr.readline()
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=30)
    assert proc.returncode == protocol.EXIT_CANCELLED
    run = install.runs()[0]  # then the clock reset
    assert _group_gone(run["pgid"])


def test_a_malicious_ncu_first_on_path_never_runs(tmp_path):
    install = plant(tmp_path / "install")
    evil_bin = tmp_path / "evil"
    evil_bin.mkdir()
    marker = tmp_path / "evil-ran"
    evil = evil_bin / "ncu"
    evil.write_text(f"#!/bin/sh\ntouch {marker}\n")
    evil.chmod(0o755)
    env = {**os.environ, "PATH": f"{evil_bin}:{os.environ['PATH']}"}
    env.pop(protocol.ENV_NCU, None)
    assert install.run(*VALID, env=env).returncode == 0
    # With the install's capture.json, not even NCU_READER_NCU is heard.
    assert install.run(*VALID, env={**env, protocol.ENV_NCU: str(evil)}).returncode == 0
    assert not marker.exists()
    assert len(install.captures()) == 2


def test_root_without_an_install_refuses(tmp_path):
    install = plant(tmp_path, config=False)
    layout_error = None
    try:
        where.load_layout(0, {protocol.ENV_NCU: "/tmp/evil"}, here=install.helper)
    except protocol.Refusal as refusal:
        layout_error = refusal
    assert layout_error is not None and layout_error.code == protocol.EXIT_NOT_INSTALLED
    unprivileged = where.load_layout(12345, {protocol.ENV_NCU: str(install.ncu)},
                                      here=install.helper)
    assert unprivileged.ncu == install.ncu
    if os.geteuid() == 0:
        done = install.run(*VALID)
        assert done.returncode == protocol.EXIT_NOT_INSTALLED
        assert install.runs() == []


@pytest.mark.parametrize("what", ["helper", "install dir", "ncu", "config", "tools dir"])
@pytest.mark.parametrize("bits", [0o020, 0o002], ids=["group", "others"])
def test_writable_files_are_refused(tmp_path, what, bits):
    install = plant(tmp_path)
    target = {"helper": install.helper, "install dir": install.root, "ncu": install.ncu,
              "config": install.root / "capture.json", "tools dir": install.ncu.parent}[what]
    target.chmod(target.stat().st_mode | bits)
    done = install.run(*VALID)
    assert done.returncode == protocol.EXIT_UNTRUSTED, done.stderr
    assert str(target) in events(done.stderr)[-1]["error"]
    assert install.runs() == []


def test_a_writable_file_deep_in_the_install_is_refused(tmp_path):
    install = plant(tmp_path)
    deep = install.root / "venv" / "lib" / "site-packages"
    deep.mkdir(parents=True)
    module = deep / "numba.py"
    module.write_text("")
    module.chmod(0o666)
    done = install.run(*VALID)
    assert done.returncode == protocol.EXIT_UNTRUSTED
    assert str(module) in events(done.stderr)[-1]["error"]


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root (CI)")
@pytest.mark.parametrize("what", ["helper", "ncu", "install dir"])
def test_files_owned_by_another_user_are_refused(tmp_path, what):
    install = plant(tmp_path)
    target = {"helper": install.helper, "ncu": install.ncu, "install dir": install.root}[what]
    os.chown(target, 65534, 65534)
    done = install.run(*VALID)
    assert done.returncode == protocol.EXIT_UNTRUSTED, done.stderr
    assert "not by root" in events(done.stderr)[-1]["error"]
    assert install.runs() == []


def test_a_root_owned_sticky_directory_passes_only_above_what_is_checked():
    owners = rules.trusted_owners(os.geteuid())
    sticky = os.stat("/tmp")
    assert sticky.st_mode & 0o1002 == 0o1002
    rules.check_entry(Path("/tmp"), sticky, owners, ancestor=True)
    with pytest.raises(protocol.Refusal):
        rules.check_entry(Path("/tmp"), sticky, owners)


def test_pkexec_uid_must_name_a_user():
    assert ncu_cmd.requesting_uid(0, {"PKEXEC_UID": "0"}) == 0
    assert ncu_cmd.requesting_uid(0, {}) == 0
    for bad in ("", "-1", "1e3", "abc", "99999999999", "4294967294"):
        with pytest.raises(protocol.Refusal):
            ncu_cmd.requesting_uid(0, {"PKEXEC_UID": bad})
