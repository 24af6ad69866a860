"""The capture's client side: the route, the request, the helper's stderr, its exits, a run.

Routes are steered by real files written under tmp_path (driver params, /proc texts, a fake pkexec,
an installed policy); runs go through a fake helper script written there too.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.hostile_disk import (
    FULL,
    NOBODY,
    as_nobody,
    fill_after,
    full_at_fsync,
    public_dir,
    small_disk,
)
from viewer.capture.client import (
    SOURCE_HELPER,
    SOURCE_ROOT,
    CaptureCancelled,
    CaptureError,
    Request,
    RequestError,
    Route,
    StderrLines,
    admin_only,
    choose_route,
    explain,
    progress,
    run_capture,
    stage,
)
from viewer.capture.events import PERMISSION
from viewer.capture.helper import protocol as h
from viewer.capture.provenance import read_provenance
from viewer.capture.store import ReportSink
from viewer.core.jobs import Cancelled, Job
from viewer.readers import read_report
from viewer.terminal import capture_terminal

ROOT = Path(__file__).resolve().parents[2]
NAIVE = ROOT / "profiles" / "naive.ncu-rep"
SHIPPED = "The shipped reports need none of this"
HOST_CAPS = "000001ffffffffff"  # every capability, CAP_SYS_ADMIN (21) and CAP_PERFMON (38) too
DOCKER_CAPS = "00000000a80425fb"  # docker's default set: neither
PERFMON_ONLY = f"{1 << 38:016x}"

# ---------------------------------------------------------------- the route


def policy_xml(helper: Path, action_id: str = h.ACTION_ID) -> str:
    return textwrap.dedent(f"""\
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE policyconfig PUBLIC
         "-//freedesktop//DTD PolicyKit Policy Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/PolicyKit/1/policyconfig.dtd">
        <policyconfig>
          <action id="{action_id}">
            <description>Capture</description>
            <defaults>
              <allow_any>no</allow_any><allow_inactive>no</allow_inactive>
              <allow_active>auth_admin</allow_active>
            </defaults>
            <annotate key="org.freedesktop.policykit.exec.path">{helper}</annotate>
          </action>
        </policyconfig>
        """)


def executable(path: Path, text: str = "#!/bin/sh\nexit 0\n") -> Path:
    path.write_text(text)
    path.chmod(0o755)
    return path


def facts(tmp_path: Path, *, admin: str | None = "1", euid: int = 1000, pkexec: bool = True,
          installed: bool = True, version: str = "Linux version 6.8.0-45-generic (gcc 13.2.0)",
          cap_eff: str = "0000000000000000", cap_bnd: str = HOST_CAPS,
          ncu: str | None = "/usr/local/cuda/bin/ncu") -> dict:
    """choose_route's keyword arguments, every fact a file under tmp_path."""
    params = tmp_path / "params"
    if admin is not None:
        params.write_text(f"ResmanDebugLevel: 4294967295\nRmProfilingAdminOnly: {admin}\n"
                          "RmProfilingAdminOnlyOverride: 0\n")
    actions = tmp_path / "actions"
    actions.mkdir()
    if installed:
        helper = executable(tmp_path / h.HELPER_NAME)
        (actions / f"{h.ACTION_ID}.policy").write_text(policy_xml(helper))
    proc_version = tmp_path / "version"
    proc_version.write_text(version + "\n")
    status = tmp_path / "status"
    status.write_text(f"Name:\tpython3\nUid:\t{euid}\t{euid}\t{euid}\t{euid}\n"
                      f"CapInh:\t0000000000000000\nCapPrm:\t{cap_eff}\nCapEff:\t{cap_eff}\n"
                      f"CapBnd:\t{cap_bnd}\nCapAmb:\t0000000000000000\n")
    pk = executable(tmp_path / "pkexec") if pkexec else tmp_path / "no-pkexec"
    return dict(params=params, pkexec=pk, policy_dir=actions, proc_version=proc_version,
                proc_status=status, euid=euid, which_ncu=lambda: ncu)


def assert_none(route: Route, *words: str) -> None:
    assert route.kind == "none"
    assert route.reason.endswith(SHIPPED + ": they open and read as they are.")
    for word in words:
        assert word in route.reason, (word, route.reason)
    assert "\n" not in route.reason and "Traceback" not in route.reason


@pytest.mark.parametrize(("text", "expected"), [
    ("RmProfilingAdminOnly: 1\n", True),
    ("ResmanDebugLevel: 4294967295\nRmProfilingAdminOnly: 0\nRmMsg: \"\"\n", False),
    ("ResmanDebugLevel: 4294967295\n", None),
    ("RmProfilingAdminOnly: 2\n", None),
])
def test_admin_only_reads_the_driver_setting(tmp_path: Path, text: str, expected) -> None:
    (tmp_path / "params").write_text(text)
    assert admin_only(tmp_path / "params") is expected


def test_admin_only_without_a_driver(tmp_path: Path) -> None:
    assert admin_only(tmp_path / "missing") is None


def test_counters_open_to_everyone_run_the_source_helper_directly(tmp_path: Path) -> None:
    route = choose_route(**facts(tmp_path, admin="0", installed=False, pkexec=False),
                         python="/venv/bin/python3")
    assert route.kind == "direct"
    assert (route.program, route.prefix) == ("/venv/bin/python3",
                                             (*SOURCE_HELPER, str(SOURCE_ROOT)))
    assert route.env == {h.ENV_NCU: "/usr/local/cuda/bin/ncu"}
    assert "RmProfilingAdminOnly: 0" in route.reason
    assert route.argv(Request("naive", 512, "full", "base"))[5:] == [
        "capture", "--target", "naive", "--dim", "512", "--set", "full", "--clock", "base"]


def test_admin_only_goes_through_pkexec_and_the_installed_helper(tmp_path: Path) -> None:
    route = choose_route(**facts(tmp_path))
    assert route.kind == "pkexec"
    assert route.program == str(tmp_path / "pkexec")
    assert route.prefix == (str(tmp_path / h.HELPER_NAME),)
    assert route.env is None
    assert "administrator's password" in route.reason


def test_root_runs_the_installed_helper_without_pkexec(tmp_path: Path) -> None:
    route = choose_route(**facts(tmp_path, euid=0, cap_eff=HOST_CAPS, pkexec=False))
    assert route.kind == "direct"
    assert (route.program, route.prefix, route.env) == (str(tmp_path / h.HELPER_NAME), (), None)


def test_root_with_perfmon_alone_may_capture(tmp_path: Path) -> None:
    route = choose_route(**facts(tmp_path, euid=0, cap_eff=PERFMON_ONLY, cap_bnd=PERFMON_ONLY))
    assert route.kind == "direct"


def test_root_without_the_install_is_told_to_install(tmp_path: Path) -> None:
    assert_none(choose_route(**facts(tmp_path, euid=0, cap_eff=HOST_CAPS, installed=False)),
                "You are root", "sudo make install-capture")


def test_root_without_the_install_where_everyone_may_capture(tmp_path: Path) -> None:
    route = choose_route(**facts(tmp_path, admin="0", euid=0, cap_eff=HOST_CAPS, installed=False))
    assert_none(route, "sudo make install-capture", "as an ordinary user")


def test_wsl(tmp_path: Path) -> None:
    version = "Linux version 5.15.153.1-microsoft-standard-WSL2 (root@941d701f84f1)"
    assert_none(choose_route(**facts(tmp_path, version=version)), "WSL2 does not")


def test_no_driver(tmp_path: Path) -> None:
    assert_none(choose_route(**facts(tmp_path, admin=None)), "No NVIDIA driver",
                "administrator installs the NVIDIA driver")


def test_no_ncu_where_everyone_may_capture(tmp_path: Path) -> None:
    assert_none(choose_route(**facts(tmp_path, admin="0", ncu=None)),
                "Nsight Compute (ncu) is not installed", h.ENV_NCU)


def test_no_pkexec(tmp_path: Path) -> None:
    route = choose_route(**facts(tmp_path, pkexec=False))
    assert_none(route, "RmProfilingAdminOnly: 1", "apt install pkexec")
    assert "install-capture" not in route.reason  # the helper is installed already


def test_no_pkexec_and_no_install(tmp_path: Path) -> None:
    assert_none(choose_route(**facts(tmp_path, pkexec=False, installed=False)),
                "apt install pkexec", "sudo make install-capture")


def test_not_installed(tmp_path: Path) -> None:
    assert_none(choose_route(**facts(tmp_path, installed=False)),
                "not installed", "sudo make install-capture",
                "NVreg_RestrictProfilingToAdminUsers=0")


def test_the_shipped_policy_once_installed_names_the_helper(tmp_path: Path) -> None:
    kwargs = facts(tmp_path)
    shipped = (ROOT / "resources" / f"{h.ACTION_ID}.policy").read_text()
    installed, count = re.subn(r"(exec\.path\">)[^<]*<", rf"\g<1>{tmp_path / h.HELPER_NAME}<",
                               shipped)
    assert count == 1
    (kwargs["policy_dir"] / f"{h.ACTION_ID}.policy").write_text(installed)
    assert choose_route(**kwargs).prefix == (str(tmp_path / h.HELPER_NAME),)


def test_a_policy_naming_a_missing_helper_is_not_an_install(tmp_path: Path) -> None:
    kwargs = facts(tmp_path)
    (tmp_path / h.HELPER_NAME).unlink()
    assert_none(choose_route(**kwargs), "sudo make install-capture")


def test_a_policy_for_another_action_or_garbled_is_not_an_install(tmp_path: Path) -> None:
    kwargs = facts(tmp_path)
    policy = kwargs["policy_dir"] / f"{h.ACTION_ID}.policy"
    policy.write_text(policy_xml(tmp_path / h.HELPER_NAME, "org.example.other"))
    assert_none(choose_route(**kwargs), "not installed")
    policy.write_text("<policyconfig><action id=")
    assert_none(choose_route(**kwargs), "not installed")


def test_container_root_without_the_capability(tmp_path: Path) -> None:
    assert_none(choose_route(**facts(tmp_path, euid=0, cap_eff=DOCKER_CAPS,
                                     cap_bnd=DOCKER_CAPS)),
                "container", "--cap-add=SYS_ADMIN")


def test_container_user_whose_root_would_lack_the_capability(tmp_path: Path) -> None:
    assert_none(choose_route(**facts(tmp_path, cap_bnd=DOCKER_CAPS)), "--cap-add=SYS_ADMIN")


def test_container_without_the_capability_still_captures_where_everyone_may(
        tmp_path: Path) -> None:
    route = choose_route(**facts(tmp_path, admin="0", cap_bnd=DOCKER_CAPS, installed=False))
    assert route.kind == "direct"


def test_a_none_route_refuses_to_build_a_command(tmp_path: Path) -> None:
    route = choose_route(**facts(tmp_path, admin=None))
    with pytest.raises(CaptureError, match="No NVIDIA driver"):
        route.argv(Request("naive", 512, "full", "base"))


# ---------------------------------------------------------------- the request

DIMS = [  # (dim as given, accepted)
    (16, True), (512, True), (8192, True), ("512", True), ("16", True), ("8192", True),
    (15, False), (17, False), (8208, False), (0, False), (-16, False), (8176 + 32, False),
    ("0512", False), ("+512", False), ("-512", False), ("５１２", False), ("٥١٢", False),
    (" 512", False), ("512 ", False), ("5_12", False), ("512.0", False), ("1e3", False),
    ("", False), ("0x200", False), ("@512", False), ("%q{HOME}", False), ("16384", False),
    ("0000000000000000000000000000000000512", False), (True, False), (512.0, False),
]


@pytest.mark.parametrize(("dim", "ok"), DIMS, ids=[repr(d) for d, _ in DIMS])
def test_request_dims(dim, ok: bool) -> None:
    request = Request("tiled", dim, "basic", "none")
    if ok:
        request.validate()
        assert request.args() == ["capture", "--target", "tiled", "--dim", str(int(dim)),
                                  "--set", "basic", "--clock", "none"]
    else:
        with pytest.raises(RequestError):
            request.validate()
        with pytest.raises(RequestError):
            request.args()
    if isinstance(dim, str):  # the same table through the helper's own parser
        try:
            h.parse_dim(dim)
            helper_ok = True
        except h.Refusal:
            helper_ok = False
        assert helper_ok is ok


@pytest.mark.parametrize(("target", "set_name", "clock"), [
    ("NAIVE", "full", "base"), ("naive ", "full", "base"), ("--target", "full", "base"),
    ("all", "full", "base"), ("naive", "all", "base"), ("naive", "basic,full", "base"),
    ("naive", "@full", "base"), ("naive", "full", "reset"), ("naive", "full", "-base"),
    ("naive", "full", ""),
])
def test_request_values_outside_the_lists(target: str, set_name: str, clock: str) -> None:
    with pytest.raises(RequestError):
        Request(target, 512, set_name, clock).validate()


def test_the_real_helper_accepts_the_requests_args() -> None:
    args = Request("naive", "4096", "full", "base").args()
    # from a folder without the checkout, so the helper comes from SOURCE_ROOT alone
    out = subprocess.run([sys.executable, *SOURCE_HELPER, str(SOURCE_ROOT), *args, "--dry-run"],
                         capture_output=True, text=True, timeout=60, check=True,
                         cwd="/").stdout
    argv = json.loads(out)["argv"]
    assert argv[argv.index("--dim") + 1] == "4096"


# ---------------------------------------------------------------- stderr lines


def test_json_lines_fed_a_byte_at_a_time() -> None:
    data = (b'{"started": {"target": "naive", "dim": 512}}\n'
            b'{"ncu": "==PROF== Connected to process 123"}\r\n\n'
            b"not json\n123\n"
            b'{"done": {"bytes": 10}}\n')
    lines = StderrLines()
    events = [e for i in range(len(data)) for e in lines.feed(data[i:i + 1])]
    assert events == [{"started": {"target": "naive", "dim": 512}},
                      {"ncu": "==PROF== Connected to process 123"},
                      {"text": "not json"}, {"text": "123"}, {"done": {"bytes": 10}}]
    assert lines.close() == []


def test_a_split_multibyte_character_is_decoded_whole() -> None:
    data = json.dumps({"ncu": 'Profiling "matmul_é" ✓'}, ensure_ascii=False).encode() + b"\n"
    cut = data.index("é".encode()) + 1
    lines = StderrLines()
    assert lines.feed(data[:cut]) == []
    assert lines.feed(data[cut:]) == [{"ncu": 'Profiling "matmul_é" ✓'}]


@pytest.mark.parametrize("chunk", [1 << 16, 1000, 7])
def test_a_line_over_the_cap_is_cut_once_on_a_character_boundary(chunk: int) -> None:
    long = ("a" + "é" * 5000 + "\n").encode() + b'{"ncu": "next"}\n'  # byte 4096 splits an é
    lines = StderrLines()
    events = [e for i in range(0, len(long), chunk) for e in lines.feed(long[i:i + chunk])]
    assert len(events) == 2
    assert events[0]["cut"] is True
    text = events[0]["text"]
    assert text == "a" + "é" * 2047
    assert events[1] == {"ncu": "next"}


def test_an_unterminated_last_line_comes_out_on_close() -> None:
    lines = StderrLines()
    assert lines.feed(b'{"error": "boom", "kind": "failed", "exit": 11}') == []
    assert lines.close() == [{"error": "boom", "kind": "failed", "exit": 11}]


def test_history_is_bounded_but_keeps_started_and_error() -> None:
    lines = StderrLines(keep=5)
    lines.feed(b'{"started": {"target": "naive"}}\n')
    for i in range(50):
        lines.feed(json.dumps({"ncu": f"line {i}"}).encode() + b"\n")
    lines.feed(b'{"error": "x", "exit": 7}\n')
    history = lines.history()
    assert history[0] == {"started": {"target": "naive"}}
    assert [e["ncu"] for e in history[1:-1]] == [f"line {i}" for i in range(45, 50)]
    assert history[-1] == {"error": "x", "exit": 7}


# ---------------------------------------------------------------- explain and stage

STARTED = {"started": {"target": "naive", "dim": 512, "set": "full", "clock": "base", "uid": 1000}}


def error(code: int, message: str) -> dict:
    return {"error": message, "kind": h.KINDS.get(code, "failed"), "exit": code}


@pytest.mark.parametrize("code", [0, *h.KINDS, 126, 127, 1, 42, 255, -9])
@pytest.mark.parametrize("route_kind", ["direct", "pkexec"])
@pytest.mark.parametrize("started", [False, True])
def test_every_exit_has_one_line(code: int, route_kind: str, started: bool) -> None:
    events = [STARTED] if started else []
    text = explain(code, [*events, error(code, "some detail")] if code else events, route_kind)
    assert text and "\n" not in text and "Traceback" not in text
    assert text.endswith(".")


def test_not_permitted_gives_the_lessons_sentence_and_three_fixes() -> None:
    events = [STARTED, {"ncu": "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to "
                                "access NVIDIA GPU Performance Counters on the target device 0."},
              error(5, "ncu may not read this GPU's performance counters (ERR_NVGPUCTRPERM)")]
    text = explain(h.EXIT_NOT_PERMITTED, events, "direct")
    assert text == PERMISSION
    for part in ("ERR_NVGPUCTRPERM", "RmProfilingAdminOnly: 1", "Use sudo ncu where you have root",
                 "NVreg_RestrictProfilingToAdminUsers=0 where you own the machine",
                 "read the shipped report where you have neither"):
        assert part in text
    assert "--cap-add=SYS_ADMIN" in explain(h.EXIT_NOT_PERMITTED, events, "pkexec")


def test_the_permission_error_is_recognised_under_another_code() -> None:
    events = [STARTED, {"ncu": "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission"}]
    assert explain(h.EXIT_FAILED, events, "direct") == PERMISSION


def test_pkexec_126_is_a_dismissed_dialog() -> None:
    assert explain(126, [], "pkexec") == ("Cancelled: the password dialog was dismissed, so "
                                          "nothing ran.")


def test_pkexec_127_without_started_is_not_authorized() -> None:
    text = explain(127, [{"text": "Error executing command as another user: Not authorized"}],
                   "pkexec")
    assert text.startswith("Not authorized")
    assert "no authentication agent" in text


def test_127_with_started_is_the_helpers_own_exit() -> None:
    text = explain(127, [STARTED, {"ncu": "==ERROR== something broke"}], "pkexec")
    assert "helper itself exited with code 127 after it had started ncu" in text
    assert "not pkexec" in text and "something broke" in text


@pytest.mark.parametrize(("code", "words"), [
    (h.EXIT_BAD_REQUEST, ("refused the request", "DETAIL")),
    (h.EXIT_NCU_MISSING, ("Nsight Compute (ncu) was not found", "install-capture NCU=")),
    (h.EXIT_UNTRUSTED, ("not root's alone", "DETAIL")),
    (h.EXIT_TIMEOUT, ("10 minutes", "smaller size")),
    (h.EXIT_NO_REPORT, ("without a whole report to send", "DETAIL")),
    (h.EXIT_TOO_LARGE, ("256 MiB", "basic set")),
    (h.EXIT_CANCELLED, ("Cancelled", "nothing was saved")),
    (h.EXIT_NOT_INSTALLED, ("sudo make install-capture", "DETAIL")),
    (h.EXIT_FAILED, ("The capture failed", "DETAIL")),
    (42, ("unknown exit code 42", "DETAIL")),
    (-9, ("killed by signal 9",)),
])
def test_each_code_says_what_happened(code: int, words: tuple[str, ...]) -> None:
    text = explain(code, [STARTED, error(code, "DETAIL")], "direct")
    for word in words:
        assert word in text


def test_ncus_last_error_line_stands_in_for_a_missing_message() -> None:
    events = [STARTED, {"ncu": "==ERROR== first"}, {"ncu": "==ERROR== The application returned "
                                                          "an error code (1)."}]
    assert explain(h.EXIT_NO_REPORT, events) == ("ncu ended without a whole report to send "
                                                 "(==ERROR== The application returned an error "
                                                 "code (1)).")


@pytest.mark.parametrize(("event", "words", "fraction"), [
    (STARTED, "starting ncu: naive kernel at 512", 0.02),
    ({"ncu": "==PROF== Connected to process 4321 (/usr/bin/python3.11)"},
     "ncu connected to the kernel program", 0.05),
    ({"ncu": '==PROF== Profiling "matmul_naive" - 0: 0%....50%....100% - 38 passes'},
     "collecting counters for matmul_naive: 0%....50%....100% (38 passes)", 0.9),
    ({"ncu": '==PROF== Profiling "matmul_tiled" - 0: 0%....50%'},
     "collecting counters for matmul_tiled: 0%....50%", 0.5),
    ({"ncu": "==PROF== Disconnected from process 4321"},
     "ncu finished collecting; writing the report", 0.92),
    ({"ncu": "==PROF== Report: /tmp/x/report.ncu-rep"}, "report written", 0.95),
    ({"ncu": "==WARNING== Could not lock clocks"}, "ncu warning: Could not lock clocks", None),
    ({"ncu": "==ERROR== ERR_NVGPUCTRPERM"}, "ncu error: ERR_NVGPUCTRPERM", None),
    ({"done": {"bytes": 1065342, "ncu_version": "x", "driver": None}},
     "report received (1,065,342 bytes)", 1.0),
])
def test_progress_words_and_fraction(event: dict, words: str, fraction) -> None:
    found = progress(event)
    assert found is not None
    assert found[0] == words and stage(event) == words
    assert found[1] == pytest.approx(fraction) if fraction is not None else found[1] is None


@pytest.mark.parametrize("event", [{"ncu": "matmul naive 512: ok"}, {"text": "==PROF== x"},
                                   error(7, "no"), {"ncu": 5}])
def test_other_events_say_nothing_about_progress(event: dict) -> None:
    assert progress(event) is None and stage(event) is None


# ---------------------------------------------------------------- a run, against a fake helper

FAKE = '''\
"""A fake ncu-reader-capture: it stands in for ncu and pkexec, which this machine lacks.

It speaks the helper's protocol (JSON lines on stderr, the report's bytes on stdout, the exit
codes); FAKE_MODE picks the story: ok, short, perm, unauthorized, cancel.
"""
import json, os, select, sys

def say(**event):
    sys.stderr.write(json.dumps(event) + "\\n")
    sys.stderr.flush()

args, mode = sys.argv[1:], os.environ["FAKE_MODE"]
if args[:1] != ["capture"] or len(args) != 9:
    say(error=f"bad arguments {args}", kind="bad_request", exit=2)
    sys.exit(2)
if mode == "unauthorized":  # pkexec's own refusal: no started line
    sys.stderr.write("Error executing command as another user: Not authorized\\n")
    sys.exit(127)
targets = ["naive", "tiled"] if args[2] == "both" else [args[2]]
shots = [(t, int(d)) for d in args[4].split(",") for t in targets]
sent = []
for index, (target, dim) in enumerate(shots):
    say(started={"target": target, "dim": dim, "set": args[6], "clock": args[8],
                 "uid": os.getuid(), "index": index, "count": len(shots)})
    say(ncu="==PROF== Connected to process 4321 (/usr/bin/python3)")
    if mode == "perm":
        say(ncu="==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access "
                "NVIDIA GPU Performance Counters on the target device 0.")
        say(error="ncu may not read this GPU's performance counters (ERR_NVGPUCTRPERM)",
            kind="counters_not_permitted", exit=5)
        sys.exit(5)
    if mode == "cancel":
        if not select.select([sys.stdin], [], [], 60)[0]:  # waits for the client to close stdin
            say(error="stdin was never closed", kind="failed", exit=11)
            sys.exit(11)
        sys.stdin.buffer.read()
        say(error="cancelled: ncu was stopped", kind="cancelled", exit=9)
        sys.exit(9)
    say(ncu='==PROF== Profiling "matmul_naive" - 0: 0%....50%....100% - 38 passes')
    say(ncu="==PROF== Disconnected from process 4321")
    data = open(os.environ["FAKE_REPORT"], "rb").read()
    for i in range(0, len(data), 100_000):
        sys.stdout.buffer.write(data[i:i + 100_000])
    sys.stdout.buffer.flush()
    say(sent={"target": target, "dim": dim, "bytes": len(data)})
    sent.append({"target": target, "dim": dim, "bytes": len(data)})
size = sum(r["bytes"] for r in sent) + (1 if mode == "short" else 0)
say(done={"bytes": size, "reports": sent,
          "ncu_version": "Version 2025.3.1.0 (build 36398880) (public-release)",
          "driver": "580.159.04"})
'''


def fake_route(tmp_path: Path, mode: str, report: Path = NAIVE) -> Route:
    fake = tmp_path / "fake-helper.py"
    fake.write_text(FAKE)
    kind = "pkexec" if mode == "unauthorized" else "direct"
    return Route(kind, sys.executable, (str(fake),),
                 {"FAKE_MODE": mode, "FAKE_REPORT": str(report)}, "a fake helper")


@pytest.fixture
def captures(tmp_path: Path) -> Path:
    folder = tmp_path / "captures"
    folder.mkdir()
    return folder


REQUEST = Request("naive", 512, "full", "base")


def test_a_capture_arrives_whole_with_its_provenance(tmp_path: Path, captures: Path) -> None:
    seen: list[tuple[float, str]] = []
    path = run_capture(fake_route(tmp_path, "ok"), REQUEST,
                       ReportSink(captures, "naive-512-full-20261201-120301"),
                       Job(lambda f, m: seen.append((f, m))))
    assert path == captures / "naive-512-full-20261201-120301.ncu-rep"
    assert path.read_bytes() == NAIVE.read_bytes()
    assert sorted(p.name for p in captures.iterdir()) == [path.name, path.name + ".json"]
    messages = [m for _, m in seen]
    assert messages[0] == "starting ncu: naive kernel at 512"
    assert "collecting counters for matmul_naive: 0%....50%....100% (38 passes)" in messages
    assert seen[-1] == (1.0, f"report received ({NAIVE.stat().st_size:,} bytes)")
    assert [f for f, _ in seen] == sorted(f for f, _ in seen)
    record = read_provenance(path)
    assert record is not None
    assert (record.target, record.dim, record.set, record.clock, record.route) == (
        "naive", 512, "full", "base", "direct")
    assert (record.driver, record.ncu_version) == (
        "580.159.04", "Version 2025.3.1.0 (build 36398880) (public-release)")
    # the GPU the report names, as the window records it (this machine's /proc has none)
    assert record.gpu == read_report(NAIVE).kernels[0].device_name == "NVIDIA H200"


def test_a_stale_sidecar_at_the_chosen_name_is_not_the_new_provenance(tmp_path: Path,
                                                                      captures: Path) -> None:
    stem = "naive-512-full-20261201-120301"
    stale = captures / f"{stem}.ncu-rep.json"
    stale.write_text(json.dumps({"schema": 1, "gpu": "Tesla T4", "driver": "470.1",
                                 "ncu_version": None, "set": "basic", "clock": "none",
                                 "dim": 256, "target": "tiled",
                                 "captured_utc": "2020-01-01T00:00:00+00:00", "route": "direct"}))
    before = stale.read_bytes()
    path = run_capture(fake_route(tmp_path, "ok"), REQUEST, ReportSink(captures, stem))
    assert path == captures / f"{stem}-2.ncu-rep"
    record = read_provenance(path)
    assert record is not None
    assert (record.driver, record.dim, record.target) == ("580.159.04", 512, "naive")
    assert stale.read_bytes() == before
    assert sorted(p.name for p in captures.iterdir()) == sorted(
        [stale.name, path.name, path.name + ".json"])


@pytest.mark.slow
def test_the_streamed_report_reads_with_the_normal_reader(tmp_path: Path, captures: Path) -> None:
    from viewer.readers import read_report

    path = run_capture(fake_route(tmp_path, "ok"), REQUEST, ReportSink(captures, "naive"))
    (kernel,) = read_report(path).kernels
    assert kernel.name == "matmul_naive"


def test_not_permitted_leaves_nothing(tmp_path: Path, captures: Path) -> None:
    with pytest.raises(CaptureError) as caught:
        run_capture(fake_route(tmp_path, "perm"), REQUEST, ReportSink(captures, "naive"))
    assert str(caught.value) == PERMISSION
    assert caught.value.exit_code == h.EXIT_NOT_PERMITTED
    assert list(captures.iterdir()) == []


def test_a_refusal_by_pkexec_leaves_nothing(tmp_path: Path, captures: Path) -> None:
    with pytest.raises(CaptureError, match=r"^Not authorized") as caught:
        run_capture(fake_route(tmp_path, "unauthorized"), REQUEST, ReportSink(captures, "naive"))
    assert caught.value.exit_code == 127
    assert list(captures.iterdir()) == []


def test_cancel_closes_the_helpers_stdin(tmp_path: Path, captures: Path) -> None:
    job = Job(lambda f, m: job.cancel() if "connected" in m else None)
    with pytest.raises(CaptureCancelled) as caught:
        run_capture(fake_route(tmp_path, "cancel"), REQUEST, ReportSink(captures, "naive"), job)
    assert isinstance(caught.value, Cancelled)
    assert caught.value.exit_code == h.EXIT_CANCELLED
    assert str(caught.value) == "Cancelled: ncu was stopped and nothing was saved."
    assert list(captures.iterdir()) == []


def test_a_report_shorter_than_announced_is_not_kept(tmp_path: Path, captures: Path) -> None:
    with pytest.raises(CaptureError, match="whole report"):
        run_capture(fake_route(tmp_path, "short"), REQUEST, ReportSink(captures, "naive"))
    assert list(captures.iterdir()) == []


def test_a_report_over_the_cap_is_not_kept(tmp_path: Path, captures: Path) -> None:
    with pytest.raises(CaptureError, match="grew past 1,000 bytes"):
        run_capture(fake_route(tmp_path, "ok"), REQUEST, ReportSink(captures, "naive", cap=1000))
    assert list(captures.iterdir()) == []


def test_bytes_that_are_not_a_report_are_not_kept(tmp_path: Path, captures: Path) -> None:
    junk = tmp_path / "junk"
    junk.write_bytes(b"PK\3\4" + bytes(5000))
    with pytest.raises(CaptureError, match="not an Nsight Compute report"):
        run_capture(fake_route(tmp_path, "ok", junk), REQUEST, ReportSink(captures, "naive"))
    assert list(captures.iterdir()) == []


def test_no_route_and_a_missing_program_fail_in_one_line(tmp_path: Path, captures: Path) -> None:
    with pytest.raises(CaptureError, match=r"^No driver here"):
        run_capture(Route("none", reason="No driver here."), REQUEST,
                    ReportSink(captures, "naive"))
    with pytest.raises(CaptureError, match=r"^Could not start"):
        run_capture(Route("direct", str(tmp_path / "absent")), REQUEST,
                    ReportSink(captures, "naive"))
    with pytest.raises(CaptureError, match="--dim"):
        run_capture(fake_route(tmp_path, "ok"), Request("naive", "0512", "full", "base"),
                    ReportSink(captures, "naive"))
    assert list(captures.iterdir()) == []


# ---------------------------------------------------------------- the terminal command


def test_terminal_capture_of_both_kernels(tmp_path: Path, capsys,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    status = capture_terminal.cli(["--dim", "256", "--set", "basic", "--clock", "none"],
                          route_fn=lambda: fake_route(tmp_path, "ok"))
    out, err = capsys.readouterr()
    assert status == 0, err
    paths = [Path(line) for line in out.splitlines()]
    assert [p.name.split("-")[:3] for p in paths] == [["naive", "256", "basic"],
                                                      ["tiled", "256", "basic"]]
    assert all(p.parent == tmp_path / "data" / "ncu-reader" / "captures" for p in paths)
    assert "capture: route direct: a fake helper" in err
    assert "  tiled: collecting counters for matmul_naive" in err


def test_terminal_capture_failure_is_one_line(tmp_path: Path, capsys,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert capture_terminal.cli(["--target", "naive"],
                                route_fn=lambda: fake_route(tmp_path, "perm")) == 1
    assert capsys.readouterr().err.splitlines()[-1] == "capture: " + PERMISSION


def terminal_failure(tmp_path: Path, capsys, route: Route | None = None) -> str:
    """Capture the naive kernel from the terminal where it fails: the one line it prints besides
    the route and the progress (indented), which comes last; exit 1, nothing on stdout."""
    status = capture_terminal.cli(["--target", "naive"],
                          route_fn=lambda: route or fake_route(tmp_path, "ok"))
    out, err = capsys.readouterr()
    assert status == 1 and out == ""
    first, *rest = err.splitlines()
    assert first.startswith("capture: route ")
    said = [line for line in rest if not line.startswith("  ")]
    assert said == rest[-1:], err
    return said[0]


ELSEWHERE = " (set XDG_DATA_HOME to keep them elsewhere)."


@pytest.mark.parametrize("in_the_way", [".local/share", ".local/share/ncu-reader",
                                        ".local/share/ncu-reader/captures"])
def test_terminal_capture_with_a_file_in_the_way_of_the_folder(
        tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch, in_the_way: str) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    path = tmp_path / "home" / in_the_way
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("mine")
    captures = tmp_path / "home" / ".local" / "share" / "ncu-reader" / "captures"
    assert terminal_failure(tmp_path, capsys) == (
        f"capture: Cannot keep captures in {captures}: {path} is not a folder{ELSEWHERE}")
    assert path.read_text() == "mine"


def no_helper(tmp_path: Path) -> Route:
    return Route("direct", str(tmp_path / "never-run"), reason="a helper never reached")


def terminal_attempt(tmp_path: Path) -> Callable[[], tuple[int, str]]:
    """`python -m viewer capture --target naive` on a route whose helper is missing: a call
    for as_nobody that returns the exit status and what was printed on stderr."""
    def attempt() -> tuple[int, str]:
        err = io.StringIO()
        return capture_terminal.cli(["--target", "naive"], io.StringIO(), err,
                            lambda: no_helper(tmp_path)), err.getvalue()

    return attempt


def test_terminal_capture_with_xdg_data_home_at_the_root(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """XDG_DATA_HOME=/ for an ordinary user (nobody): one line, exit 1, nothing made."""
    monkeypatch.setenv("XDG_DATA_HOME", "/")
    status, text = as_nobody(terminal_attempt(tmp_path))
    assert (status, text.splitlines()[1:]) == (1, [
        f"capture: Cannot keep captures in /ncu-reader/captures: cannot make /ncu-reader: "
        f"Permission denied{ELSEWHERE}"]), text


def test_terminal_capture_into_a_folder_the_user_may_not_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The captures folder is the user's (nobody's) but read-only (0500), then root's (0755): one
    line each, and nothing written."""
    with public_dir() as data:
        captures = data / "ncu-reader" / "captures"
        captures.mkdir(parents=True, mode=0o700)
        for folder in (captures, captures.parent):
            os.chown(folder, NOBODY, NOBODY)
        captures.chmod(0o500)
        monkeypatch.setenv("XDG_DATA_HOME", str(data))
        status, text = as_nobody(terminal_attempt(tmp_path))
        assert (status, text.splitlines()[1:]) == (1, [
            f"capture: Cannot write in the captures folder {captures}: Permission denied; "
            "nothing was saved."]), text
        assert os.listdir(captures) == []
        for folder in (captures, captures.parent):
            os.chown(folder, 0, 0)
            folder.chmod(0o755)
        status, text = as_nobody(terminal_attempt(tmp_path))
        assert (status, text.splitlines()[1:]) == (1, [
            f"capture: Cannot keep captures in {captures}: {captures.parent} is owned by root "
            f"(uid 0), not by you{ELSEWHERE}"]), text
        assert os.listdir(captures) == []


def test_terminal_capture_onto_a_full_disk(tmp_path: Path, capsys,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A 256 KiB tmpfs holds the captures folder; the report is four times that."""
    with small_disk(tmp_path / "data") as data:
        monkeypatch.setenv("XDG_DATA_HOME", str(data))
        captures = data / "ncu-reader" / "captures"
        assert terminal_failure(tmp_path, capsys) == (
            f"capture: Could not write the report in {captures}: {FULL}; nothing was saved.")
        assert os.listdir(captures) == []


@pytest.mark.parametrize("full", ["while writing", "at the flush"])
def test_terminal_capture_onto_a_disk_that_fills(tmp_path: Path, capsys,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 full: str) -> None:
    """ENOSPC injected at the sink's write or at its commit's fsync: it stands in for a full
    disk."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    route = fake_route(tmp_path, "ok")
    if full == "while writing":
        fill_after(monkeypatch, 300_000)
    else:
        full_at_fsync(monkeypatch)
    captures = tmp_path / "data" / "ncu-reader" / "captures"
    assert terminal_failure(tmp_path, capsys, route) == (
        f"capture: Could not write the report in {captures}: {FULL}; nothing was saved.")
    assert os.listdir(captures) == []


def test_terminal_capture_without_a_route(capsys) -> None:
    route = Route("none", reason="No NVIDIA driver is loaded here.")
    assert capture_terminal.cli([], route_fn=lambda: route) == 1
    assert capsys.readouterr().err == "capture: No NVIDIA driver is loaded here.\n"


def test_python_m_viewer_capture_refuses_a_bad_size() -> None:
    result = subprocess.run([sys.executable, "-m", "viewer", "capture", "--dim", "0512"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.startswith("capture: --dim must be a whole number")


# ---------------------------------------------------------------- the real helper, a fake ncu


def real_helper(tmp_path: Path, behaviour: str) -> Route:
    """The helper itself from a planted install (tests/capture_install.py) whose ncu is a fake."""
    from tests.capture_install import plant

    install = plant(tmp_path / "install", behaviour)
    return Route("direct", str(install.helper), (), None, "the real helper")


def test_the_real_helper_through_the_client(tmp_path: Path, captures: Path) -> None:
    path = run_capture(real_helper(tmp_path, "success"), REQUEST, ReportSink(captures, "naive"))
    assert path.read_bytes() == NAIVE.read_bytes()
    record = read_provenance(path)
    assert record is not None and record.ncu_version.startswith("Version 2099.1.0.0")


def test_the_real_helpers_permission_error(tmp_path: Path, captures: Path) -> None:
    with pytest.raises(CaptureError) as caught:
        run_capture(real_helper(tmp_path, "not_permitted"), REQUEST,
                    ReportSink(captures, "naive"))
    assert (str(caught.value), caught.value.exit_code) == (PERMISSION, h.EXIT_NOT_PERMITTED)
    assert list(captures.iterdir()) == []


def test_cancelling_the_real_helper_stops_a_hung_ncu(tmp_path: Path, captures: Path) -> None:
    job = Job(lambda f, m: job.cancel() if "connected" in m else None)
    with pytest.raises(CaptureCancelled) as caught:
        run_capture(real_helper(tmp_path, "hang"), REQUEST, ReportSink(captures, "naive"), job)
    assert caught.value.exit_code == h.EXIT_CANCELLED
    assert list(captures.iterdir()) == []
