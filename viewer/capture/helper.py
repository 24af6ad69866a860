#!/usr/bin/env python3
"""ncu-reader's capture helper: one Nsight Compute capture of one of the app's matmul kernels.

    ncu-reader-capture capture --target naive|tiled --dim N --set basic|full --clock base|none
                               [--dry-run]

pkexec runs this file as root, and ncu runs the kernel program as root, so it is written like a
setuid program (../shared/notes/capture.md has the facts behind each rule):

- a fixed grammar, allow-list only: anything else exits 2 and runs nothing;
- ncu's argv is built here, never by a shell: ncu by absolute path, `--config-file off`,
  `--target-processes application-only`, no `-f`, the report into a directory made here;
- root runs only root-owned code: ncu, the interpreter, this file, the install beside it and every
  directory above each must be owned by root (or by the user running this, when that is not root)
  and writable by nobody else, else exit 4 naming the path;
- the environment is built from an allow-list; as root, ncu's path comes only from the install's
  capture.json beside this file, never from PATH or the environment;
- root writes nothing the user controls: the report is streamed on stdout, and the client writes it;
- a wall-clock limit, and the client's cancel (it closes stdin) kill ncu's whole process group.

stdout carries the report's bytes and nothing else. stderr carries JSON lines: `started` right
before ncu starts, `ncu` for each line ncu printed, `done` after the report was sent, `error` (with
its `kind` and `exit`) before any failing exit. The exit codes are EXIT_* below; 126 and 127 are
pkexec's own. Standard library only, and nothing from viewer: root must not import the user's code;
and one file, because the install copies it alone beside its capture.json.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import re
import selectors
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HELPER_NAME = "ncu-reader-capture"
CONFIG_NAME = "capture.json"
ACTION_ID = "io.github.ncu-reader.capture"
ENV_NCU = "NCU_READER_NCU"

TARGETS = ("naive", "tiled")
SETS = ("basic", "full")
CLOCKS = ("base", "none")
DIM_MIN, DIM_MAX, TILE = 16, 8192, 16

# Copies of the app's own constants (root must not import the app); tests/test_capture_helper.py
# checks them against viewer.kernels.
KERNEL_FUNCTIONS = {"naive": "matmul_naive", "tiled": "matmul_tiled"}
LAUNCH_SKIP = 4
"""The runner's correctness and warm-up launches: the capture takes the first timed launch."""
LESSON_METRICS = (
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
)

EXIT_OK = 0
EXIT_BAD_REQUEST = 2
EXIT_NCU_MISSING = 3
EXIT_UNTRUSTED = 4
EXIT_NOT_PERMITTED = 5
EXIT_TIMEOUT = 6
EXIT_NO_REPORT = 7
EXIT_TOO_LARGE = 8
EXIT_CANCELLED = 9
EXIT_NOT_INSTALLED = 10
EXIT_FAILED = 11
KINDS = {
    EXIT_BAD_REQUEST: "bad_request",
    EXIT_NCU_MISSING: "ncu_missing",
    EXIT_UNTRUSTED: "untrusted",
    EXIT_NOT_PERMITTED: "counters_not_permitted",
    EXIT_TIMEOUT: "timeout",
    EXIT_NO_REPORT: "no_report",
    EXIT_TOO_LARGE: "report_too_large",
    EXIT_CANCELLED: "cancelled",
    EXIT_NOT_INSTALLED: "not_installed",
    EXIT_FAILED: "failed",
}

ERR_NVGPUCTRPERM = "ERR_NVGPUCTRPERM"
REPORT_MAGIC = b"NVR\0"
MAX_REPORT_BYTES = 256 << 20
TIMEOUT_S = 600.0
KILL_GRACE_S = 5.0
MAX_ARG_CHARS = 32
MAX_ARGS = 10
MAX_TEXT_CHARS = 600
"""An ncu line or message is cut to this many characters, so each JSON line stays short."""
MAX_CONFIG_BYTES = 4096
SAFE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
SYSTEM_NCU = (
    "/usr/local/cuda/bin/ncu",
    "/usr/local/bin/ncu",
    "/usr/bin/ncu",
)
NSIGHT_COMPUTE_DIR = "/opt/nvidia/nsight-compute"
DRIVER_VERSION = "/proc/driver/nvidia/version"
REPORT_STEM = "report"

_FLAGS = {"--target": TARGETS, "--dim": None, "--set": SETS, "--clock": CLOCKS}
_DIM = re.compile(r"[1-9][0-9]*", re.ASCII)
_ENV_VALUE = re.compile(r"[A-Za-z0-9_.,@:-]{1,64}", re.ASCII)


class Refusal(Exception):
    """The helper stops: exit `code` with one sentence."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Request:
    target: str
    dim: int
    set: str
    clock: str
    dry_run: bool = False


@dataclass(frozen=True)
class Layout:
    """Where the trusted parts are: ncu, the interpreter that runs the kernels, the install."""

    ncu: Path
    python: Path
    root: Path
    cuda_home: Path | None
    config: Path | None
    library_path: tuple[Path, ...] = ()


# ---------------------------------------------------------------- the grammar


def parse_request(args: list[str]) -> Request:
    """The one request this helper serves; Refusal(EXIT_BAD_REQUEST) for anything else."""

    def bad(message: str) -> Refusal:
        return Refusal(EXIT_BAD_REQUEST, message)

    if not args:
        raise bad("no arguments; usage: capture --target T --dim N --set S --clock C [--dry-run]")
    if len(args) > MAX_ARGS:
        raise bad(f"too many arguments ({len(args)})")
    for arg in args:
        if len(arg) > MAX_ARG_CHARS:
            raise bad(f"an argument is longer than {MAX_ARG_CHARS} characters")
        if not arg.isascii() or not arg.isprintable() or any(c.isspace() for c in arg):
            raise bad(f"argument {arg!r} holds a character outside printable ASCII")
        if "@" in arg or "%" in arg:
            raise bad(f"argument {arg!r} holds '@' or '%', which ncu would expand")
    if args[0] != "capture":
        raise bad(f"unknown command {args[0]!r}; the only command is 'capture'")
    values: dict[str, str] = {}
    dry_run = False
    rest = args[1:]
    i = 0
    while i < len(rest):
        flag = rest[i]
        if flag == "--dry-run":
            if dry_run:
                raise bad("--dry-run given twice")
            dry_run = True
            i += 1
            continue
        if flag not in _FLAGS:
            raise bad(f"unknown option {flag!r}")
        if flag in values:
            raise bad(f"{flag} given twice")
        if i + 1 >= len(rest):
            raise bad(f"{flag} needs a value")
        value = rest[i + 1]
        if value.startswith("-"):
            raise bad(f"{flag} needs a value, got {value!r}")
        allowed = _FLAGS[flag]
        if allowed is not None and value not in allowed:
            raise bad(f"{flag} must be one of {', '.join(allowed)}, got {value!r}")
        values[flag] = value
        i += 2
    missing = [f for f in _FLAGS if f not in values]
    if missing:
        raise bad(f"missing {', '.join(missing)}")
    return Request(values["--target"], parse_dim(values["--dim"]), values["--set"],
                   values["--clock"], dry_run)


def parse_dim(text: str) -> int:
    """N: ASCII digits, no sign, no leading zero, DIM_MIN..DIM_MAX, a multiple of TILE."""
    if not _DIM.fullmatch(text) or len(text) > 4:
        raise Refusal(EXIT_BAD_REQUEST, f"--dim must be a whole number {DIM_MIN} to {DIM_MAX} "
                      f"written in plain digits, got {text!r}")
    dim = int(text)
    if not DIM_MIN <= dim <= DIM_MAX or dim % TILE:
        raise Refusal(EXIT_BAD_REQUEST, f"--dim must lie in {DIM_MIN}..{DIM_MAX} and be a "
                      f"multiple of the tile ({TILE}), got {dim}")
    return dim


# ---------------------------------------------------------------- trust


def trusted_owners(euid: int) -> frozenset[int]:
    """Root, and the user running this when that is not root (who gains nothing by it)."""
    return frozenset({0, euid})


def check_entry(path: Path, st: os.stat_result, owners: frozenset[int]) -> None:
    """One file or directory: a trusted owner, and no write bit for group or others (a
    root-owned sticky directory such as /tmp excepted: nobody else can swap what it holds)."""
    if st.st_uid not in owners:
        raise Refusal(EXIT_UNTRUSTED, f"{path} is owned by uid {st.st_uid}, not by root; "
                      "refusing to run it as root")
    if stat.S_ISLNK(st.st_mode):
        return
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        if stat.S_ISDIR(st.st_mode) and st.st_mode & stat.S_ISVTX and st.st_uid == 0:
            return
        raise Refusal(EXIT_UNTRUSTED, f"{path} is writable by group or others "
                      f"(mode {stat.S_IMODE(st.st_mode):04o}); refusing to run it as root")


def check_chain(path: Path, owners: frozenset[int]) -> None:
    """`path` and every directory above it, as named and as resolved through links."""
    for p in dict.fromkeys((Path(os.path.abspath(path)), Path(os.path.realpath(path)))):
        for entry in (p, *p.parents):
            try:
                st = os.lstat(entry)
            except OSError as exc:
                raise Refusal(EXIT_UNTRUSTED, f"{entry}: {exc.strerror}") from None
            check_entry(entry, st, owners)


def check_tree(root: Path, owners: frozenset[int]) -> None:
    """Everything below `root` (links are checked, not followed)."""
    for top, dirs, files in os.walk(root, onerror=_walk_error):
        for name in (*dirs, *files):
            path = Path(top, name)
            check_entry(path, os.lstat(path), owners)


def _walk_error(exc: OSError) -> None:
    raise Refusal(EXIT_UNTRUSTED, f"{exc.filename}: {exc.strerror}")


def check_layout(layout: Layout, euid: int) -> None:
    """Everything root would run: ncu, the interpreter and its import path, the install."""
    owners = trusted_owners(euid)
    check_chain(layout.root, owners)
    check_tree(layout.root, owners)
    for path in (layout.ncu, layout.python, Path(__file__), layout.cuda_home, layout.config,
                 *layout.library_path):
        if path is not None:
            check_chain(path, owners)
    for entry in sys.path:
        if entry and os.path.exists(entry):
            check_chain(Path(entry), owners)


# ---------------------------------------------------------------- where things are


def load_layout(euid: int, environ: dict[str, str], here: Path | None = None) -> Layout:
    """The install beside this file; unprivileged and uninstalled, ncu from $NCU_READER_NCU or
    the system's usual places. Root never takes a path from the environment or PATH."""
    here = here or Path(os.path.realpath(__file__))
    config = here.with_name(CONFIG_NAME)
    python = Path(sys.executable)
    if os.path.lexists(config):
        ncu, cuda_home, library_path = read_config(config, trusted_owners(euid))
        return Layout(ncu, python, here.parent, cuda_home, config, library_path)
    if euid == 0:
        raise Refusal(EXIT_NOT_INSTALLED, f"{here} has no {CONFIG_NAME} beside it: run as root "
                      "it captures only from an install (sudo make install-capture)")
    named = environ.get(ENV_NCU, "")
    if named:
        if not os.path.isabs(named):
            raise Refusal(EXIT_NCU_MISSING, f"{ENV_NCU} must be an absolute path, got {named!r}")
        return Layout(Path(named), python, here.parent, None, None)
    found = find_system_ncu()
    if found is None:
        raise Refusal(EXIT_NCU_MISSING, "ncu (Nsight Compute) is not installed in "
                      f"{', '.join(SYSTEM_NCU)} or {NSIGHT_COMPUTE_DIR}")
    return Layout(found, python, here.parent, None, None)


def read_config(config: Path, owners: frozenset[int]
                ) -> tuple[Path, Path | None, tuple[Path, ...]]:
    """capture.json, read without following links: {"ncu": "/abs/ncu", "cuda_home": "/abs/dir"
    or null, "library_path": ["/abs/dir", ...] or null (the CUDA driver's libraries where the
    loader's cache lacks them)}."""
    try:
        fd = os.open(config, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise Refusal(EXIT_UNTRUSTED, f"{config}: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        check_entry(config, st, owners)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_CONFIG_BYTES:
            raise Refusal(EXIT_UNTRUSTED, f"{config} is not a small regular file")
        text = f.read(MAX_CONFIG_BYTES + 1)
    try:
        data = json.loads(text)
        ncu, cuda_home = data["ncu"], data.get("cuda_home")
        library_path = list(data.get("library_path") or ())
    except (ValueError, KeyError, TypeError, AttributeError):
        raise Refusal(EXIT_NOT_INSTALLED, f"{config} is not the install's capture.json") from None
    for value in (ncu, cuda_home, *library_path):
        if value is not None and not (isinstance(value, str) and os.path.isabs(value)
                                      and ":" not in value):
            raise Refusal(EXIT_NOT_INSTALLED, f"{config} names a path that is not absolute")
    return (Path(ncu), Path(cuda_home) if cuda_home else None,
            tuple(Path(p) for p in library_path))


def find_system_ncu() -> Path | None:
    """ncu in the system's usual places: the CUDA toolkit, then the newest Nsight Compute."""
    for candidate in SYSTEM_NCU:
        if os.access(candidate, os.X_OK):
            return Path(candidate)
    try:
        versions = sorted(Path(NSIGHT_COMPUTE_DIR).iterdir(), key=_version_key, reverse=True)
    except OSError:
        return None
    return next((v / "ncu" for v in versions if os.access(v / "ncu", os.X_OK)), None)


def _version_key(path: Path) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", path.name))


# ---------------------------------------------------------------- the command


def ncu_argv(request: Request, layout: Layout, report_dir: str) -> list[str]:
    """ncu's argv, every word chosen here; the kernel program's words come last."""
    return [
        str(layout.ncu),
        "--config-file", "off",
        "--target-processes", "application-only",
        "--clock-control", request.clock,
        "--set", request.set,
        "--metrics", ",".join(LESSON_METRICS),
        "-k", f"regex:{KERNEL_FUNCTIONS[request.target]}",
        "--launch-skip", str(LAUNCH_SKIP),
        "--launch-count", "1",
        "-o", os.path.join(report_dir, REPORT_STEM),
        # -B: the kernel program writes no bytecode into the install (-I ignores PYTHON* vars)
        str(layout.python), "-I", "-B", "-m", "viewer.kernels", "profile-target",
        "--kernel", request.target,
        "--dim", str(request.dim),
    ]


def child_env(layout: Layout, euid: int, environ: dict[str, str]) -> dict[str, str]:
    """The environment ncu and the kernels get: an allow-list, every value checked."""
    env = {"PATH": SAFE_PATH, "HOME": pwd.getpwuid(euid).pw_dir, "LANG": "C.UTF-8"}
    for name in ("LANG", "LC_ALL", "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER"):
        value = environ.get(name, "")
        if _ENV_VALUE.fullmatch(value):
            env[name] = value
    if layout.cuda_home is not None:
        env["CUDA_HOME"] = str(layout.cuda_home)
    if layout.library_path:
        env["LD_LIBRARY_PATH"] = ":".join(map(str, layout.library_path))
    return env


def requesting_uid(euid: int, environ: dict[str, str]) -> int:
    """Who asked: PKEXEC_UID when pkexec ran this (it must name a real user), else euid."""
    text = environ.get("PKEXEC_UID")
    if text is None:
        return euid
    if not (text.isascii() and text.isdigit() and len(text) <= 10):
        raise Refusal(EXIT_BAD_REQUEST, f"PKEXEC_UID is not a user id: {text[:20]!r}")
    try:
        pwd.getpwuid(int(text))
    except KeyError:
        raise Refusal(EXIT_BAD_REQUEST, f"PKEXEC_UID {text} names no user") from None
    return int(text)


# ---------------------------------------------------------------- running ncu


def emit(**event: object) -> None:
    """One JSON line on stderr."""
    sys.stderr.write(json.dumps(event, ensure_ascii=False) + "\n")
    sys.stderr.flush()


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT_CHARS else text[:MAX_TEXT_CHARS] + "..."


class _Stop(Exception):
    """SIGTERM, SIGHUP or SIGINT reached the helper."""


def _raise_stop(signum: int, _frame: object) -> None:
    raise _Stop(signum)


def _watch_stdin() -> bool:
    """The client's cancel is stdin closing; only a pipe or socket can tell us that."""
    try:
        mode = os.fstat(0).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def kill_group(proc: subprocess.Popen) -> None:
    """ncu and everything it started: TERM, then KILL after a grace period."""
    for sig, wait_s in ((signal.SIGTERM, KILL_GRACE_S), (signal.SIGKILL, KILL_GRACE_S)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(wait_s)
            return
        except subprocess.TimeoutExpired:
            continue


def run_ncu(argv: list[str], env: dict[str, str], cwd: str, timeout_s: float) -> list[str]:
    """Run ncu in its own process group, relaying its lines; returns them.

    Refusal on timeout or cancel (the group is killed first) and on ERR_NVGPUCTRPERM."""
    lines: list[str] = []
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, cwd=cwd, env=env, start_new_session=True)
    deadline = time.monotonic() + timeout_s
    stop: Refusal | None = None
    selector = selectors.DefaultSelector()
    assert proc.stdout is not None
    selector.register(proc.stdout, selectors.EVENT_READ, "ncu")
    if _watch_stdin():
        selector.register(0, selectors.EVENT_READ, "stdin")
    pending = b""
    try:
        while stop is None:
            left = deadline - time.monotonic()
            if left <= 0:
                stop = Refusal(EXIT_TIMEOUT, f"ncu ran past {timeout_s:.0f} s and was stopped")
                break
            for key, _ in selector.select(min(left, 1.0)):
                if key.data == "stdin":
                    if not os.read(0, 4096):
                        stop = Refusal(EXIT_CANCELLED, "cancelled: ncu was stopped")
                    continue
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    selector.unregister(proc.stdout)
                    proc.wait()
                    return _relay(pending, lines, final=True)
                pending = _relay_lines(pending + chunk, lines)
    except _Stop:
        stop = Refusal(EXIT_CANCELLED, "cancelled by a signal: ncu was stopped")
    finally:
        selector.close()
        if proc.poll() is None:
            kill_group(proc)
        proc.stdout.close()
    raise stop


def _relay_lines(data: bytes, lines: list[str]) -> bytes:
    *whole, rest = data.split(b"\n")
    for raw in whole:
        _relay(raw, lines)
    if len(rest) > 8 * MAX_TEXT_CHARS:  # a line without end: relay it cut
        _relay(rest, lines)
        return b""
    return rest


def _relay(raw: bytes, lines: list[str], final: bool = False) -> list[str]:
    text = raw.decode("utf-8", "replace").rstrip("\r")
    if text.strip():
        lines.append(_cut(text))
        emit(ncu=lines[-1])
    return lines


def ncu_version(layout: Layout, env: dict[str, str]) -> str | None:
    """`ncu --version`'s last line, or None."""
    try:
        out = subprocess.run([str(layout.ncu), "--version"], stdin=subprocess.DEVNULL,
                             capture_output=True, env=env, timeout=60, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = out.decode("utf-8", "replace").strip().splitlines()
    return _cut(lines[-1].strip()) if lines else None


def reset_clocks(layout: Layout, env: dict[str, str], cwd: str) -> None:
    """ncu killed while it held the clocks at base: `--clock-control reset` gives them back."""
    argv = [str(layout.ncu), "--config-file", "off", "--clock-control", "reset"]
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd=cwd, env=env, timeout=60, check=False)


def driver_version() -> str | None:
    """The NVIDIA kernel module's version, from /proc."""
    try:
        with open(DRIVER_VERSION, encoding="utf-8", errors="replace") as f:
            match = re.search(r"Kernel Module\s+(?:for \S+\s+)?([0-9][0-9.]+)", f.read(4096))
    except OSError:
        return None
    return match.group(1) if match else None


def send_report(report_dir: str) -> int:
    """Stream the report ncu wrote to stdout: no links, a regular file, under the cap, with the
    report magic. Returns its size."""
    path = os.path.join(report_dir, REPORT_STEM + ".ncu-rep")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        raise Refusal(EXIT_NO_REPORT, "ncu wrote no report") from None
    except OSError as exc:
        raise Refusal(EXIT_UNTRUSTED, f"the report is not a plain file ncu wrote "
                      f"({exc.strerror}); refused") from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise Refusal(EXIT_UNTRUSTED, "the report is not a regular file; refused")
        if st.st_size > MAX_REPORT_BYTES:
            raise Refusal(EXIT_TOO_LARGE, f"the report is {st.st_size:,} bytes, over the "
                          f"{MAX_REPORT_BYTES:,}-byte cap")
        head = f.read(len(REPORT_MAGIC))
        if head != REPORT_MAGIC:
            raise Refusal(EXIT_NO_REPORT, "ncu's output is not an Nsight Compute report")
        out = sys.stdout.buffer
        out.write(head)
        sent, left = len(head), st.st_size - len(head)
        while left > 0:
            chunk = f.read(min(left, 1 << 20))
            if not chunk:
                break
            out.write(chunk)
            sent += len(chunk)
            left -= len(chunk)
        out.flush()
    return sent


def _no_report_reason(lines: list[str]) -> str:
    errors = [line for line in lines if "==ERROR==" in line or "==WARNING==" in line]
    return f"ncu wrote no report: {errors[-1]}" if errors else "ncu wrote no report"


def dry_run_argv(request: Request, euid: int, environ: dict[str, str]) -> list[str]:
    """The argv a capture would run, checking nothing: where the install is unreadable, ncu
    stands as the bare word `ncu`."""
    try:
        layout = load_layout(euid, environ)
    except Refusal:
        here = Path(os.path.realpath(__file__)).parent
        layout = Layout(Path("ncu"), Path(sys.executable), here, None, None)
    return ncu_argv(request, layout, "<temporary directory>")


def capture(request: Request, environ: dict[str, str]) -> int:
    euid = os.geteuid()
    uid = requesting_uid(euid, environ)
    if request.dry_run:
        print(json.dumps({"argv": dry_run_argv(request, euid, environ)}))
        return EXIT_OK
    layout = load_layout(euid, environ)
    if not os.access(layout.ncu, os.X_OK):
        raise Refusal(EXIT_NCU_MISSING, f"ncu is not at {layout.ncu}")
    check_layout(layout, euid)
    if sys.stdout.isatty():
        raise Refusal(EXIT_BAD_REQUEST, "stdout is a terminal: redirect it to a file")
    env = child_env(layout, euid, environ)
    report_dir = tempfile.mkdtemp(prefix="ncu-reader-capture-", dir="/tmp" if euid == 0 else None)
    try:
        emit(started={"target": request.target, "dim": request.dim, "set": request.set,
                      "clock": request.clock, "uid": uid})
        try:
            lines = run_ncu(ncu_argv(request, layout, report_dir), env, report_dir, TIMEOUT_S)
        except Refusal:
            if request.clock == "base":
                reset_clocks(layout, env, report_dir)
            raise
        if any(ERR_NVGPUCTRPERM in line for line in lines):
            raise Refusal(EXIT_NOT_PERMITTED, "ncu may not read this GPU's performance "
                          f"counters ({ERR_NVGPUCTRPERM})")
        if not os.path.lexists(os.path.join(report_dir, REPORT_STEM + ".ncu-rep")):
            raise Refusal(EXIT_NO_REPORT, _no_report_reason(lines))
        size = send_report(report_dir)
    finally:
        shutil.rmtree(report_dir, ignore_errors=True)
    emit(done={"bytes": size, "ncu_version": ncu_version(layout, env), "driver": driver_version()})
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    os.umask(0o077)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, _raise_stop)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # a closed stdout is a BrokenPipeError
    try:
        return capture(parse_request(sys.argv[1:] if argv is None else argv), dict(os.environ))
    except Refusal as refusal:
        emit(error=_cut(refusal.message), kind=KINDS[refusal.code], exit=refusal.code)
        return refusal.code
    except (_Stop, BrokenPipeError):
        emit(error="cancelled", kind=KINDS[EXIT_CANCELLED], exit=EXIT_CANCELLED)
        return EXIT_CANCELLED
    except Exception as exc:  # the client needs a JSON line, never a traceback
        emit(error=_cut(f"{type(exc).__name__}: {exc}"), kind=KINDS[EXIT_FAILED], exit=EXIT_FAILED)
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
