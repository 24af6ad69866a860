"""The check-up's conclusion and its ncu --version checks, on made-up machines
(tests/checkup_machine.py) and fake ncus: each fake is a small shell script standing in for
Nsight Compute's ncu (this machine has none), in a folder nobody may enter, since where the tests
run as root the check runs it as nobody.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from tests.checkup_machine import NCU_SAYS, machine_checkup, reachable_folder
from viewer.capture import checkup as c
from viewer.capture.ncu_version import READ_LIMIT, ncu_version
from viewer.terminal.capture_terminal import cli

AS_WHOM = 65534 if os.geteuid() == 0 else os.getuid()
"""The uid a fake ncu runs as: the tests' own, or nobody's where the tests run as root."""


def fake_ncu(folder: Path, body: str) -> str:
    """A fake standing in for ncu: `body` as a shell script, executable by anyone."""
    path = folder / "ncu"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


def test_nsight_computes_answer_is_taken_and_its_version_said() -> None:
    with reachable_folder() as folder:
        said = ncu_version(fake_ncu(folder, NCU_SAYS.split("\n", 1)[1]))
    assert said.ok
    assert said.said == "Nsight Compute, Version 2025.3.1.0 (build 36398880)"


def test_it_runs_as_the_user_never_as_root_with_a_minimal_environment() -> None:
    body = ('echo "NVIDIA (R) Nsight Compute Command Line Profiler"\n'
            'echo "Version 2025.3.1.0 (build uid=$(id -u),home=${HOME:-none},arg=$1)"\n')
    with reachable_folder() as folder:
        said = ncu_version(fake_ncu(folder, body))
    assert said.ok, said.said
    assert f"(build uid={AS_WHOM},home=none,arg=--version)" in said.said


def test_other_words_are_said_escaped_and_never_trusted() -> None:
    with reachable_folder() as folder:
        other = ncu_version(fake_ncu(folder, 'printf "ncu-alike 1.0\\033[2J\\n"\n'))
        wrong_exit = ncu_version(fake_ncu(folder, NCU_SAYS.split("\n", 1)[1] + "exit 3\n"))
        no_version = ncu_version(fake_ncu(
            folder, 'echo "NVIDIA (R) Nsight Compute Command Line Profiler"\n'))
    assert not other.ok
    assert other.said.startswith("`--version` exited 0 and said 'ncu-alike 1.0\\x1b[2J'")
    assert "\x1b" not in other.said
    assert not wrong_exit.ok and "exited 3" in wrong_exit.said
    assert not no_version.ok and "not Nsight Compute's answer" in no_version.said


def test_one_that_hangs_is_stopped_at_the_timeout_and_killed() -> None:
    with reachable_folder() as folder:
        pid_file = folder / "pid"
        pid_file.touch(0o666)
        pid_file.chmod(0o666)
        said = ncu_version(fake_ncu(folder, f"echo $$ > {pid_file}\nexec sleep 600\n"),
                           timeout=1.0)
        pid = int(pid_file.read_text())
    assert not said.ok
    assert said.said.startswith("`--version` gave no answer within 1 s")
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        pass
    else:
        raise AssertionError(f"the hung fake ncu (pid {pid}) is still running")


def test_one_that_floods_is_read_no_further_than_the_limit() -> None:
    with reachable_folder() as folder:
        said = ncu_version(fake_ncu(folder, "yes 'Version 2025.3.1.0 (build 1)'\n"),
                           timeout=60.0)
    assert not said.ok
    assert said.said.startswith(f"`--version` wrote more than {READ_LIMIT} bytes")


def test_a_file_that_is_not_executable_is_said(tmp_path: Path) -> None:
    path = tmp_path / "ncu"
    path.write_text(NCU_SAYS)
    said = ncu_version(str(path))
    assert not said.ok and said.said == f"{path} is not an executable file"


# ---------------------------------------------------------------- the route line


def route_line(checkup) -> str:
    out = io.StringIO()
    cli(["--check"], out, io.StringIO(), run_checkup=checkup)
    return out.getvalue().splitlines()[0]


def test_admin_only_with_the_helper_goes_through_pkexec_and_says_what_it_lacks() -> None:
    with reachable_folder() as base:
        line = route_line(machine_checkup(base, installed=True, admin_only=1, pkexec=True))
    assert line == ("no  route: through the installed helper and pkexec; it still lacks an "
                    "authentication agent (see below)")


def test_admin_only_0_with_an_ncu_runs_it_directly() -> None:
    with reachable_folder() as base:
        line = route_line(machine_checkup(base, ncu=True, admin_only=0))
    assert line == "ok  route: directly, ncu running as you; it lacks nothing this check-up can see"


def test_a_direct_route_whose_ncu_is_not_nsight_compute_lacks_one(tmp_path: Path) -> None:
    """The ncu found is not Nsight Compute (here: the fake cannot even be run where the check
    runs as nobody, or answers nothing): the route is direct but lacks it."""
    with reachable_folder() as base:
        checkup = machine_checkup(base, ncu=True, admin_only=0)
        (base / "machine" / "bin" / "ncu").write_text("#!/bin/sh\necho hello\n")
        findings = checkup()
    assert findings[0].seen == ("directly, ncu running as you; it still lacks an ncu that says "
                                "it is Nsight Compute (see below)")
    version = next(f for f in findings if f.topic == c.NCU_VERSION)
    assert not version.ok and "said 'hello'" in version.seen


def test_root_goes_through_the_helper_with_no_pkexec() -> None:
    with reachable_folder() as base:
        line = route_line(machine_checkup(base, installed=True, admin_only=1, euid=0))
    assert line.startswith("ok  route: through the installed helper, run directly (you are "
                           "root: no pkexec); it lacks nothing")


def test_no_driver_is_no_route_with_the_apps_own_reason(tmp_path: Path) -> None:
    findings = machine_checkup(tmp_path, ncu=True)()
    route = findings[0]
    assert (route.topic, route.ok) == ("route", False)
    assert route.seen == "none: no NVIDIA driver loaded"
    assert "an administrator installs the NVIDIA driver" in route.fix
    assert c.checkup_lines(findings)[0] == "no  route: none: no NVIDIA driver loaded"


def test_no_helper_under_admin_only_names_the_first_missing_part(tmp_path: Path) -> None:
    assert machine_checkup(tmp_path, admin_only=1, pkexec=True)()[0].seen == (
        "none: no capture helper installed")
    assert machine_checkup(tmp_path / "b", admin_only=1)()[0].seen == "none: no pkexec"
    assert machine_checkup(tmp_path / "c", admin_only=0)()[0].seen == "none: no ncu found"
