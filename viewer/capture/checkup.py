"""The capture check-up: what this machine has for a capture, each with what to do about it.

`checkup()` returns its conclusion first, the route a capture would take now (the app's own
decision, viewer.capture.client.choose_route, on the same machine) and what that route still
lacks; then one Finding per part of a route: which ncu would run and whether it says it is Nsight
Compute (viewer.capture.ncu_version), the driver's RmProfilingAdminOnly, the installed capture
helper (whether its install passes the helper's own trust checks, and whether the ncu its
capture.json names says it is Nsight Compute), pkexec, and a polkit authentication agent. Nothing
here needs privileges or runs anything as root: the helper's checks run in its own interpreter as
the user who asks, and each ncu's `--version` as that user (as nobody where that user is root). No
Qt; the dialog and `python -m viewer capture --check` show the same lines (`finding_lines`).

Every place it reads is a parameter, so that a test builds the machine it describes (a scratch
policy folder naming an install it planted, or none) whatever this machine has installed. `root`
is the uid whose files the trust checks take for root's: 0, or in the tests their own uid, for an
install they planted. Only this module reads it, run as the user; the helper, run by pkexec,
never does.
"""

from __future__ import annotations

import os
import pwd
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from viewer.capture.client import Route, choose_route
from viewer.capture.helper import protocol as h
from viewer.capture.helper.trust import check_chain
from viewer.capture.ncu_version import ncu_version
from viewer.capture.probe import (
    PARAMS,
    PKEXEC,
    POLICY_DIR,
    PROC_STATUS,
    PROC_VERSION,
    admin_only,
    installed_helper,
    ncu_source,
)

SYS_PARAM = Path("/sys/module/nvidia/parameters/NVreg_RestrictProfilingToAdminUsers")
PROC = Path("/proc")
CHECK_TIMEOUT_S = 60.0
POLKIT_AGENTS = frozenset({
    "polkit-gnome-authentication-agent-1", "polkit-kde-authentication-agent-1",
    "polkit-mate-authentication-agent-1", "lxpolkit", "lxqt-policykit-agent", "xfce-polkit",
    "mate-polkit", "polkit-efl-authentication-agent-1", "cinnamon-polkit-agent", "gnome-shell",
    "cinnamon", "budgie-polkit-dialog", "hyprpolkitagent", "soteria", "pkttyagent",
})
"""Programs known to register as a polkit authentication agent (GNOME Shell and Cinnamon carry
their own)."""

DRIVER_OPTION = "NVreg_RestrictProfilingToAdminUsers=0"
SECURITY = ("the stock driver has let only administrators read counters since 418.43, after "
            "the 2018 GPU side-channel notice (CVE-2018-6260): with the option every user's "
            "programs may read them, a side channel on other users' GPU work")
ADMIN_SECTION = "README.md, 'For admins: capture'"

@dataclass(frozen=True)
class Finding:
    """One part of the route: what was seen, whether it serves a capture, and what to do."""

    topic: str
    seen: str
    ok: bool
    fix: str = ""
    program: str = ""
    """The ncu this finding names (the direct route's, or the one the helper runs), if any."""


ROUTE, NCU, NCU_VERSION, HELPER, HELPER_VERSION, AGENT = (
    "route", "ncu", "ncu --version", "capture helper", "helper's ncu --version",
    "authentication agent")
LACKS = {HELPER: "a helper install that passes its trust checks",
         NCU_VERSION: "an ncu that says it is Nsight Compute",
         HELPER_VERSION: "a helper ncu that says it is Nsight Compute",
         AGENT: "an authentication agent"}
"""What a route lacks where the finding of that topic is not ok."""


SystemNcu = Callable[[], "Path | None"]


def checkup(*, environ: Mapping[str, str] | None = None, params: Path = PARAMS,
            sys_param: Path = SYS_PARAM, policy_dir: Path = POLICY_DIR, pkexec: Path = PKEXEC,
            proc: Path = PROC, proc_version: Path = PROC_VERSION,
            proc_status: Path = PROC_STATUS, uid: int | None = None, euid: int | None = None,
            system_ncu: SystemNcu = h.find_system_ncu, root: int = 0) -> list[Finding]:
    """The route a capture would take, then every finding in the order a capture needs them.
    `system_ncu` looks in the CUDA toolkit's usual places; `euid` is whom choose_route decides
    for (this process's); `root` is the uid the trust checks take for root's (0)."""
    environ = os.environ if environ is None else environ
    uid = os.getuid() if uid is None else uid
    ncu, helper = ncu_finding(environ, system_ncu), helper_finding(policy_dir, root)
    route = choose_route(params=params, pkexec=pkexec, policy_dir=policy_dir,
                         proc_version=proc_version, proc_status=proc_status, euid=euid,
                         which_ncu=lambda: ncu.program or None)
    findings = [ncu, *version_finding(NCU_VERSION, ncu.program),
                driver_finding(params, sys_param),
                helper, *version_finding(HELPER_VERSION, helper.program),
                pkexec_finding(pkexec), agent_finding(proc, uid)]
    return [route_finding(route, findings), *findings]


def route_finding(route: Route, findings: list[Finding]) -> Finding:
    """The route choose_route decided, and what it still lacks among `findings`."""
    if route.kind == "none":
        return Finding(ROUTE, f"none: {route.missing}", False, route.reason)
    needs: tuple[str, ...]
    if route.kind == "pkexec":
        way, needs = "through the installed helper and pkexec", (HELPER, HELPER_VERSION, AGENT)
    elif not route.prefix:
        way, needs = ("through the installed helper, run directly (you are root: no pkexec)",
                      (HELPER, HELPER_VERSION))
    else:
        way, needs = "directly, ncu running as you", (NCU_VERSION,)
    lacking = [LACKS[f.topic] for f in findings if f.topic in needs and not f.ok]
    if lacking:
        return Finding(ROUTE, f"{way}; it still lacks {', '.join(lacking)} (see below)", False)
    return Finding(ROUTE, f"{way}; it lacks nothing this check-up can see", True)


def version_finding(topic: str, program: str) -> list[Finding]:
    """Whether `program` says it is Nsight Compute; none when there is no program."""
    if not program:
        return []
    said = ncu_version(program)
    fix = "" if said.ok else (
        f"Set {h.ENV_NCU} to Nsight Compute's ncu (it comes with the CUDA toolkit)."
        if topic == NCU_VERSION else
        "An administrator runs `sudo make install-capture NCU=/path/to/ncu` again with Nsight "
        f"Compute's ncu ({ADMIN_SECTION}).")
    return [Finding(topic, f"{program}: {said.said}", said.ok, fix)]


# ---------------------------------------------------------------- ncu


def ncu_places(environ: Mapping[str, str]) -> list[str]:
    """Where the direct route looks for ncu, in its order (viewer.capture.probe.find_ncu)."""
    named = environ.get(h.ENV_NCU, "")
    path = environ.get("PATH", "")
    return [f"${h.ENV_NCU} ({named or 'not set'})", f"PATH ({path or 'empty'})",
            *h.SYSTEM_NCU, f"{h.NSIGHT_COMPUTE_DIR}/*/ncu"]


def ncu_finding(environ: Mapping[str, str], system_ncu: SystemNcu = h.find_system_ncu
                ) -> Finding:
    found = ncu_source(environ, system_ncu)
    if found is not None:
        path, where = found
        return Finding("ncu", f"{path} (found through {where}); a capture that runs ncu as "
                       "you runs this one, the installed helper the one its capture.json names",
                       True, program=path)
    return Finding("ncu", "none found; looked in " + ", ".join(ncu_places(environ)), False,
                   "An administrator installs Nsight Compute (it comes with the CUDA toolkit), or "
                   f"you set {h.ENV_NCU} to its absolute path.")


# ---------------------------------------------------------------- the driver


def driver_finding(params: Path = PARAMS, sys_param: Path = SYS_PARAM) -> Finding:
    """RmProfilingAdminOnly from the driver's params, else the module's parameter in /sys."""
    topic = "RmProfilingAdminOnly"
    admin, source = admin_only(params), params
    if admin is None:
        admin, source = _restrict_param(sys_param), sys_param
    if admin is None:
        return Finding(topic, f"no NVIDIA driver loaded ({params} cannot be read)", False,
                       "Capturing needs a machine with an NVIDIA GPU and its driver: an "
                       "administrator installs the NVIDIA driver. The shipped reports need none "
                       "of this.")
    if not admin:
        return Finding(topic, f"0 (read from {source}): every user may read the GPU's "
                       "counters, so a capture runs ncu as you, with no password", True)
    return Finding(topic, f"1 (read from {source}): only administrators may read the GPU's "
                   "counters, so a capture runs through the installed helper (pkexec asks for an "
                   "administrator's password each time)", True,
                   "To let every user capture without a password instead, an administrator puts "
                   f"`options nvidia {DRIVER_OPTION}` in a file under /etc/modprobe.d, rebuilds "
                   f"the initramfs and reboots; mind that {SECURITY}.")


def _restrict_param(path: Path) -> bool | None:
    try:
        value = path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    return {"0": False, "1": True}.get(value)


# ---------------------------------------------------------------- the helper


def helper_finding(policy_dir: Path = POLICY_DIR, root: int = 0) -> Finding:
    topic = "capture helper"
    policy = policy_dir / f"{h.ACTION_ID}.policy"
    helper = installed_helper(policy_dir)
    install = (f"An administrator runs `sudo make install-capture NCU=/path/to/ncu` in "
               f"ncu-reader's folder ({ADMIN_SECTION}).")
    if helper is None:
        why = (f"the policy {policy} names no helper that is there to run"
               if policy.is_file() else f"no {policy.name} in {policy_dir}")
        return Finding(topic, f"not installed ({why}); needed only where the driver lets only "
                       "administrators read counters, or for root", False, install)
    passed, said = trust_check(helper, root)
    if passed:
        return Finding(topic, f"installed at {helper}, running {said}; its install passes the "
                       "helper's own trust checks (everything root would run is root's alone)",
                       True, program=said)
    return Finding(topic, f"installed at {helper}, but its trust checks refuse it: {said}",
                   False, "An administrator runs `sudo make install-capture` again (after moving "
                   "or updating ncu, the CUDA toolkit or the driver's libraries it must be run "
                   f"again), and fixes what it names ({ADMIN_SECTION}).")


def helper_interpreter(helper: Path) -> Path | None:
    """The interpreter the helper's first line names (`#!/abs/python3 -IS`), or None."""
    try:
        with open(helper, "rb") as f:
            first = f.readline(4096).decode("utf-8", "replace")
    except OSError:
        return None
    words = first[2:].split() if first.startswith("#!") else []
    return Path(words[0]) if words and os.path.isabs(words[0]) else None


def trust_check(helper: Path, root: int = 0) -> tuple[bool, str]:
    """(True, the ncu it runs) when the install passes the helper's trust checks as root would
    run them, else (False, the helper's own sentence). The helper file and its interpreter are
    checked here first, so nothing that is not root's alone ever runs; then the install's own
    helper runs its `--check-install` in its own interpreter, as this user (no pkexec), against
    root's home. `root`: the uid taken for root's (0; a test's own uid for the install it
    planted)."""
    python = helper_interpreter(helper)
    if python is None:
        return False, f"{helper}'s first line names no interpreter"
    for path in (helper, python):
        try:
            check_chain(path, frozenset({0, root}))
        except h.Refusal as refusal:
            return False, refusal.message
    argv = [str(python), "-IS", "-B", str(helper), h.CHECK_INSTALL, "--owner", str(root),
            "--home", pwd.getpwuid(0).pw_dir]
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=CHECK_TIMEOUT_S, env={"PATH": h.SAFE_PATH}, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, f"its checks could not run ({exc})"
    said = (done.stdout.strip() or done.stderr.strip() or "no reason given").splitlines()[-1]
    return done.returncode == 0, said.removeprefix(f"{h.HELPER_NAME}: ")


# ---------------------------------------------------------------- pkexec and the agent


def pkexec_finding(pkexec: Path = PKEXEC) -> Finding:
    if pkexec.is_file() and os.access(pkexec, os.X_OK):
        return Finding("pkexec", f"{pkexec} is installed", True)
    return Finding("pkexec", f"not installed ({pkexec} is not there); needed where the driver "
                   "lets only administrators read counters", False,
                   "An administrator runs `sudo apt install pkexec` (Debian ships it as its own "
                   "package).")


def polkit_agents(proc: Path, uid: int) -> list[str]:
    """The known polkit agents among `uid`'s processes (by their program's name)."""
    found = []
    try:
        entries = [p for p in proc.iterdir() if p.name.isdigit()]
    except OSError:
        return []
    for entry in entries:
        try:
            if entry.stat().st_uid != uid:
                continue
            argv0 = (entry / "cmdline").read_bytes().split(b"\0", 1)[0].decode("utf-8",
                                                                                "replace")
        except OSError:
            continue
        name = os.path.basename(argv0.split(" ", 1)[0])
        if name in POLKIT_AGENTS:
            found.append(f"{name} (pid {entry.name})")
    return sorted(found)


def agent_finding(proc: Path = PROC, uid: int | None = None) -> Finding:
    uid = os.getuid() if uid is None else uid
    topic = "authentication agent"
    agents = polkit_agents(proc, uid)
    if agents:
        return Finding(topic, f"{', '.join(agents)} is running as you, as far as {proc} tells",
                       True)
    return Finding(topic, f"no polkit authentication agent found among your processes in "
                   f"{proc}; without one pkexec cannot ask for the password and exits 127", False,
                   "Log in to a desktop that starts one (GNOME, KDE and most desktops do), or "
                   "start your desktop's polkit agent (polkit-gnome-authentication-agent-1, "
                   "lxpolkit, ...). Needed only for the pkexec route.")


def finding_lines(finding: Finding) -> list[str]:
    """One finding as the terminal and the dialog show it: its line, then its fix (if any)."""
    lines = [f"{'ok ' if finding.ok else 'no '} {finding.topic}: {finding.seen}"]
    if finding.fix:
        lines.append(f"     what to do: {finding.fix}")
    return lines


def checkup_lines(findings: list[Finding]) -> list[str]:
    """The findings as text: one line a finding, its fix indented below it."""
    return [line for finding in findings for line in finding_lines(finding)]
