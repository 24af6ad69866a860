"""The capture check-up, on machines the tests make up (tests/checkup_machine.py): every place it
reads is a scratch one, so each branch (no driver and a driver, no ncu and one, no install and a
planted one that passes or fails the helper's trust checks, pkexec or not) is tried whatever this
machine has installed. A fake ncu, a planted install (tests/capture_install.py) named by a policy
file, a fake /proc.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from tests.capture_install import plant
from tests.checkup_machine import POLICY, machine_checkup, reachable_folder
from tests.hostile_disk import NOBODY
from viewer.capture import checkup as c
from viewer.capture.helper import protocol as h
from viewer.terminal.capture_terminal import cli

ROOT = os.geteuid()
"""The uid the trust checks take for root's: the tests' own, whose files a planted install is."""


def finding(findings: list[c.Finding], topic: str) -> c.Finding:
    return next(f for f in findings if f.topic == topic)


def test_every_part_of_the_route_is_a_finding_in_order(tmp_path: Path) -> None:
    topics = [f.topic for f in machine_checkup(tmp_path)()]
    assert topics == ["route", "ncu", "RmProfilingAdminOnly", "capture helper", "pkexec",
                      "authentication agent"]


def test_no_driver_is_said_with_the_file_it_read(tmp_path: Path) -> None:
    params = tmp_path / "params"
    found = c.driver_finding(params, tmp_path / "sys-param")
    assert not found.ok
    assert found.seen == f"no NVIDIA driver loaded ({params} cannot be read)"
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


def test_no_ncu_names_every_place_it_looked(tmp_path: Path) -> None:
    found = c.ncu_finding({"PATH": str(tmp_path)}, system_ncu=lambda: None)
    assert not found.ok
    assert found.seen.startswith(f"none found; looked in $NCU_READER_NCU (not set), PATH "
                                 f"({tmp_path}), ")
    for place in (*h.SYSTEM_NCU, "/opt/nvidia/nsight-compute/*/ncu"):
        assert place in found.seen
    assert h.ENV_NCU in found.fix


def test_an_ncu_on_path_is_the_one_named(tmp_path) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    ncu = tools / "ncu"
    ncu.write_text("#!/bin/sh\necho fake ncu\n")
    ncu.chmod(0o755)
    found = c.ncu_finding({"PATH": f"{tools}{os.pathsep}{os.environ.get('PATH', '')}"},
                          system_ncu=lambda: None)
    assert found.ok
    assert found.seen.startswith(f"{ncu} (found through PATH)")


def test_an_ncu_named_in_the_environment_comes_first(tmp_path) -> None:
    ncu = tmp_path / "ncu"
    ncu.write_text("#!/bin/sh\n")
    ncu.chmod(0o755)
    found = c.ncu_finding({h.ENV_NCU: str(ncu), "PATH": ""})
    assert found.seen.startswith(f"{ncu} (found through ${h.ENV_NCU})")


def test_no_helper_and_no_pkexec_say_what_to_run(tmp_path: Path) -> None:
    helper = c.helper_finding(tmp_path)
    assert not helper.ok and helper.seen.startswith("not installed (no io.github.ncu-reader")
    assert "sudo make install-capture" in helper.fix
    (tmp_path / f"{h.ACTION_ID}.policy").write_text(POLICY.format(helper=tmp_path / "gone"))
    helper = c.helper_finding(tmp_path)
    assert not helper.ok and helper.seen.startswith(
        f"not installed (the policy {tmp_path / h.ACTION_ID}.policy names no helper")
    pkexec = c.pkexec_finding(tmp_path / "pkexec")
    assert not pkexec.ok and "sudo apt install pkexec" in pkexec.fix


def test_an_install_that_passes_the_helpers_trust_checks(tmp_path) -> None:
    install = plant(tmp_path / "install")
    actions = tmp_path / "actions"
    actions.mkdir()
    (actions / f"{h.ACTION_ID}.policy").write_text(POLICY.format(helper=install.helper))
    found = c.helper_finding(actions, ROOT)
    assert found.ok, found.seen
    assert found.seen.startswith(f"installed at {install.helper}, running {install.ncu}")
    assert not found.fix


def test_the_uid_taken_for_roots_decides_whose_install_passes(tmp_path) -> None:
    """An install whose files are another uid's (nobody's, given to it where the tests run as
    root; else the tests' own) passes when that uid is taken for root's, never as root runs it."""
    install = plant(tmp_path / "install")
    owner = ROOT
    if ROOT == 0:
        owner = NOBODY
        for path in (tmp_path / "install", *(tmp_path / "install").rglob("*")):
            os.lchown(path, NOBODY, NOBODY)
    actions = tmp_path / "actions"
    actions.mkdir()
    (actions / f"{h.ACTION_ID}.policy").write_text(POLICY.format(helper=install.helper))
    found = c.helper_finding(actions, owner)
    assert found.ok, found.seen
    refused = c.helper_finding(actions)
    assert not refused.ok
    assert f"is owned by uid {owner}, not by root; refusing to run it as root" in refused.seen


def test_an_install_writable_by_others_is_refused_in_the_helpers_words(tmp_path) -> None:
    install = plant(tmp_path / "install")
    install.ncu.chmod(0o777)
    actions = tmp_path / "actions"
    actions.mkdir()
    (actions / f"{h.ACTION_ID}.policy").write_text(POLICY.format(helper=install.helper))
    found = c.helper_finding(actions, ROOT)
    assert not found.ok
    assert "its trust checks refuse it" in found.seen
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


def test_the_terminal_prints_the_checkup_and_exits_1_where_a_part_is_missing(
        tmp_path: Path) -> None:
    checkup = machine_checkup(tmp_path)
    out = io.StringIO()
    assert cli(["--check"], out, io.StringIO(), run_checkup=checkup) == 1
    text = out.getvalue()
    assert "no  RmProfilingAdminOnly: no NVIDIA driver loaded" in text
    assert "no  capture helper: not installed" in text
    assert "sudo make install-capture" in text
    assert [line.split(":")[0] for line in text.splitlines() if not line.startswith(" ")] == [
        f"{'ok ' if f.ok else 'no '} {f.topic}" for f in checkup()]


def test_the_terminal_exits_0_where_every_part_is_there() -> None:
    """ncu on PATH, a driver for admins only, a planted install passing its trust checks, both
    ncus saying they are Nsight Compute, pkexec and a polkit agent: every line ok, the route
    first, and no fix to offer but the driver's option."""
    with reachable_folder() as base:
        checkup = machine_checkup(base, installed=True, ncu=True, admin_only=1, pkexec=True,
                                  agent=True)
        out = io.StringIO()
        assert cli(["--check"], out, io.StringIO(), run_checkup=checkup) == 0, out.getvalue()
    text = out.getvalue()
    assert [line[:3] for line in text.splitlines() if not line.startswith(" ")] == ["ok "] * 8
    assert text.startswith("ok  route: through the installed helper and pkexec; it lacks "
                           "nothing")
    assert "capture helper: installed at " in text
    assert "make install-capture" not in text
    assert text.count("what to do:") == 1  # the driver's option, for captures without a password


def test_the_helper_is_left_as_it_was(tmp_path) -> None:
    """The check-up loads the installed helper as a module: it must write no bytecode beside it."""
    install = plant(tmp_path / "install")
    before = sorted(p.name for p in install.root.iterdir())
    c.trust_check(install.helper)
    assert sorted(p.name for p in install.root.iterdir()) == before
    assert not any(Path(install.root).rglob("ncu-reader-capture*.pyc"))
