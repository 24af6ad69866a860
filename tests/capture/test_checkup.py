"""The capture check-up on this machine: no GPU, no NVIDIA driver, no ncu, no pkexec, no
install. The reads are the real /proc, /sys and PATH lookups; where a test needs what this
machine lacks (an ncu on PATH, an install), it writes one: a fake ncu, a planted install
(tests/capture_install.py) named by a policy file.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from tests.capture_install import plant
from viewer.capture import checkup as c
from viewer.capture import helper as h
from viewer.capture.terminal import cli

POLICY = """<?xml version="1.0" encoding="UTF-8"?>
<policyconfig><action id="io.github.ncu-reader.capture">
<annotate key="org.freedesktop.policykit.exec.path">{helper}</annotate>
</action></policyconfig>
"""


def no_driver_here() -> None:
    if c.PARAMS.exists() or c.SYS_PARAM.exists():
        pytest.skip("this machine has an NVIDIA driver")


def no_ncu_here() -> None:
    if shutil.which("ncu") or h.find_system_ncu() or os.environ.get(h.ENV_NCU):
        pytest.skip("this machine has an ncu")


def finding(findings: list[c.Finding], topic: str) -> c.Finding:
    return next(f for f in findings if f.topic == topic)


def test_every_part_of_the_route_is_a_finding_in_order() -> None:
    topics = [f.topic for f in c.checkup()]
    assert topics == ["ncu", "RmProfilingAdminOnly", "capture helper", "pkexec",
                      "authentication agent"]


def test_no_driver_here_is_said_with_the_file_it_read() -> None:
    no_driver_here()
    found = c.driver_finding()
    assert not found.ok
    assert found.seen == "no NVIDIA driver loaded (/proc/driver/nvidia/params cannot be read)"
    assert "installs the NVIDIA driver" in found.fix


def test_the_driver_setting_is_read_and_its_option_explained(tmp_path) -> None:
    params = tmp_path / "params"
    params.write_text("ResmanDebugLevel: 4294967295\nRmProfilingAdminOnly: 1\n")
    found = c.driver_finding(params, tmp_path / "absent")
    assert found.seen.startswith(f"1 (read from {params})")
    assert "options nvidia NVreg_RestrictProfilingToAdminUsers=0" in found.fix
    assert "/etc/modprobe.d" in found.fix and "CVE-2018-6260" in found.fix
    params.write_text("RmProfilingAdminOnly: 0\n")
    assert c.driver_finding(params, tmp_path / "absent").seen.startswith("0 (read from")


def test_the_modules_parameter_stands_in_where_params_is_absent(tmp_path) -> None:
    param = tmp_path / "NVreg_RestrictProfilingToAdminUsers"
    param.write_text("1\n")
    found = c.driver_finding(tmp_path / "no-params", param)
    assert found.ok and found.seen.startswith(f"1 (read from {param})")


def test_no_ncu_here_names_every_place_it_looked() -> None:
    no_ncu_here()
    found = c.ncu_finding(os.environ)
    assert not found.ok
    assert found.seen.startswith("none found; looked in $NCU_READER_NCU (not set), PATH (")
    for place in (*h.SYSTEM_NCU, "/opt/nvidia/nsight-compute/*/ncu"):
        assert place in found.seen
    assert h.ENV_NCU in found.fix


def test_an_ncu_on_path_is_the_one_named(tmp_path) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    ncu = tools / "ncu"
    ncu.write_text("#!/bin/sh\necho fake ncu\n")
    ncu.chmod(0o755)
    found = c.ncu_finding({"PATH": f"{tools}{os.pathsep}{os.environ.get('PATH', '')}"})
    assert found.ok
    assert found.seen.startswith(f"{ncu} (found through PATH)")


def test_an_ncu_named_in_the_environment_comes_first(tmp_path) -> None:
    ncu = tmp_path / "ncu"
    ncu.write_text("#!/bin/sh\n")
    ncu.chmod(0o755)
    found = c.ncu_finding({h.ENV_NCU: str(ncu), "PATH": ""})
    assert found.seen.startswith(f"{ncu} (found through ${h.ENV_NCU})")


def test_no_helper_and_no_pkexec_here_say_what_to_run() -> None:
    if c.POLICY_DIR.joinpath(f"{h.ACTION_ID}.policy").exists() or c.PKEXEC.exists():
        pytest.skip("this machine has the helper or pkexec installed")
    helper = c.helper_finding()
    assert not helper.ok and helper.seen.startswith("not installed (no io.github.ncu-reader")
    assert "sudo make install-capture" in helper.fix
    pkexec = c.pkexec_finding()
    assert not pkexec.ok and "sudo apt install pkexec" in pkexec.fix


def test_an_install_that_passes_the_helpers_trust_checks(tmp_path) -> None:
    if os.geteuid() != 0:
        pytest.skip("the planted install is root's only when root runs the tests")
    install = plant(tmp_path / "install")
    actions = tmp_path / "actions"
    actions.mkdir()
    (actions / f"{h.ACTION_ID}.policy").write_text(POLICY.format(helper=install.helper))
    found = c.helper_finding(actions)
    assert found.ok, found.seen
    assert found.seen.startswith(f"installed at {install.helper}, running {install.ncu}")


def test_an_install_writable_by_others_is_refused_in_the_helpers_words(tmp_path) -> None:
    install = plant(tmp_path / "install")
    install.ncu.chmod(0o777)
    actions = tmp_path / "actions"
    actions.mkdir()
    (actions / f"{h.ACTION_ID}.policy").write_text(POLICY.format(helper=install.helper))
    found = c.helper_finding(actions)
    assert not found.ok
    assert "its trust checks refuse it" in found.seen
    if os.geteuid() == 0:
        assert f"{install.ncu} is writable by group or others" in found.seen
    assert "sudo make install-capture" in found.fix


def test_a_helper_whose_interpreter_is_not_roots_never_runs(tmp_path) -> None:
    helper = tmp_path / "ncu-reader-capture"
    helper.write_text(f"#!{tmp_path / 'python3'} -IS\n")
    (tmp_path / "python3").write_text("#!/bin/sh\ntouch ran\n")
    (tmp_path / "python3").chmod(0o777)
    passed, said = c.trust_check(helper)
    assert not passed and "python3" in said
    assert not (tmp_path / "ran").exists()


def test_the_agent_search_reads_the_real_proc() -> None:
    mine = c.polkit_agents(c.PROC, os.getuid())
    found = c.agent_finding()
    assert found.ok == bool(mine)
    if not mine:
        assert "exits 127" in found.seen and found.fix


def test_an_agent_among_the_users_processes_is_found(tmp_path) -> None:
    proc = tmp_path / "proc"
    (proc / "4242").mkdir(parents=True)
    (proc / "4242" / "cmdline").write_bytes(b"/usr/lib/x/lxpolkit\0--flag\0")
    (proc / "self").mkdir()
    found = c.agent_finding(proc, os.stat(proc / "4242").st_uid)
    assert found.ok and found.seen.startswith("lxpolkit (pid 4242)")
    assert not c.agent_finding(proc, os.stat(proc / "4242").st_uid + 1).ok


def test_the_terminal_prints_the_checkup_and_exits_by_what_it_found(capsys) -> None:
    no_driver_here()
    code = cli(["--check"], out=sys.stdout, err=sys.stderr)
    out = capsys.readouterr().out
    assert code == 1
    assert "no  RmProfilingAdminOnly: no NVIDIA driver loaded" in out
    assert out.count("what to do:") >= 1
    assert [line.split(":")[0] for line in out.splitlines() if not line.startswith(" ")] == [
        f"{'ok ' if f.ok else 'no '} {f.topic}" for f in c.checkup()]


def test_the_helper_is_left_as_it_was(tmp_path) -> None:
    """The check-up loads the installed helper as a module: it must write no bytecode beside it."""
    install = plant(tmp_path / "install")
    before = sorted(p.name for p in install.root.iterdir())
    c.trust_check(install.helper)
    assert sorted(p.name for p in install.root.iterdir()) == before
    assert not any(Path(install.root).rglob("ncu-reader-capture*.pyc"))
