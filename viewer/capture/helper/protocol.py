"""The helper's protocol: its grammar, its exit codes, its names and the facts a client needs.

    ncu-reader-capture capture --target naive|tiled|both --dim N[,N...] --set basic|full
                               --clock base|none [--dry-run]
    ncu-reader-capture --check-install [--before-venv] [--owner UID] [--home DIR]

One run captures every size of the list (at most MAX_DIMS, no repeats, their work bounded) for
each target, size by size (naive then tiled at each size): `Request.shots`. stdout carries the
reports' bytes one after another in that order, and nothing else; with stdout or stderr not open
for writing, it exits 2 before anything runs. stderr carries JSON lines: `started` right before
each ncu run (with its `index` and `count` in the run), `ncu` for each line ncu printed, `sent`
after each report was sent (its target, dim and bytes), `done` after the last one (`bytes` in
all, and `reports`: each one's target, dim and bytes, in order), `error` (with its `kind` and
`exit`) before any failing exit. The exit codes are EXIT_* below; 126 and 127 are pkexec's own.

`--check-install` checks an install as a capture as root checks it, and says in plain lines what
it found; it runs nothing, and is refused under pkexec (the install script and the check-up run
it, never a client). The only module of the helper that the app imports (with `trust`'s
check_chain, which the check-up uses before it runs an installed helper); standard library only.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

HELPER_NAME = "ncu-reader-capture"
CONFIG_NAME = "capture.json"
ACTION_ID = "io.github.ncu-reader.capture"
ENV_NCU = "NCU_READER_NCU"
CHECK_INSTALL = "--check-install"

TARGETS = ("naive", "tiled")
BOTH = "both"
TARGET_WORDS = (*TARGETS, BOTH)
SETS = ("basic", "full")
CLOCKS = ("base", "none")
DIM_MIN, DIM_MAX, TILE = 16, 8192, 16
LAUNCH_SKIP = 4
"""The runner's correctness and warm-up launches: the capture takes the first timed launch (a
copy of the app's constant: root must not import the app; a test checks them against
viewer.kernels)."""

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
EXIT_NCU_FAILED = 12
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
    EXIT_NCU_FAILED: "ncu_failed",
}

ERR_NVGPUCTRPERM = "ERR_NVGPUCTRPERM"
REPORT_MAGIC = b"NVR\0"
MAX_REPORT_BYTES = 256 << 20
TIMEOUT_S = 600.0
"""The longest one ncu run (one report) may take."""
MAX_RUN_S = 3600.0
"""The longest a whole run (every report of a list) may take, however long its list."""
MAX_DIMS = 8
"""Sizes in one run's list; with both targets, 16 reports at most."""
MAX_WORK = 2 * DIM_MAX**3
"""The work one run may ask for: the sum of N cubed over its reports (a matmul's work grows as
N^3), at most that of both kernels at the largest size, which one run could always capture."""
KILL_GRACE_S = 5.0
MAX_ARG_CHARS = 40
"""The longest argument: a list of MAX_DIMS four-digit sizes and their commas is 39."""
MAX_ARGS = 10
MAX_PATH_CHARS = 1024
"""Of `--check-install`'s --home, which no ncu ever sees."""
MAX_TEXT_CHARS = 600
"""An ncu line or message is cut to this many characters, so each JSON line stays short."""

# Where an uninstalled helper finds ncu (and the check-up says it looked); as root, ncu's path
# comes only from the install's capture.json.
SAFE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
SYSTEM_NCU = (
    "/usr/local/cuda/bin/ncu",
    "/usr/local/bin/ncu",
    "/usr/bin/ncu",
)
NSIGHT_COMPUTE_DIR = "/opt/nvidia/nsight-compute"

_FLAGS = {"--target": TARGET_WORDS, "--dim": None, "--set": SETS, "--clock": CLOCKS}
_DIM = re.compile(r"[1-9][0-9]*", re.ASCII)


class Refusal(Exception):
    """The helper stops: exit `code` with one sentence."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Shot:
    """One report of a run: one target at one size."""

    target: str
    dim: int


@dataclass(frozen=True)
class Request:
    """One run: each of `targets` at each of `dims`, with one section set and clock control."""

    targets: tuple[str, ...]
    dims: tuple[int, ...]
    set: str
    clock: str
    dry_run: bool = False

    @property
    def shots(self) -> list[Shot]:
        """The reports in the order they are captured and sent: size by size, the targets in
        TARGETS' order at each."""
        return [Shot(target, dim) for dim in self.dims for target in self.targets]

    @property
    def limit_s(self) -> float:
        """The whole run's time limit: TIMEOUT_S a report, at most MAX_RUN_S."""
        return min(MAX_RUN_S, TIMEOUT_S * len(self.shots))


@dataclass(frozen=True)
class CheckRequest:
    """`--check-install`: the install (or, `before_venv`, everything but its venv, before the
    install makes it) checked with `owner`'s files taken for root's, against `home`'s rule
    files (None: the home of `owner`)."""

    before_venv: bool = False
    owner: int = 0
    home: Path | None = None


def cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT_CHARS else text[:MAX_TEXT_CHARS] + "..."


def _bad(message: str) -> Refusal:
    return Refusal(EXIT_BAD_REQUEST, message)


def _check_words(args: list[str], longest: int = MAX_ARG_CHARS) -> None:
    if len(args) > MAX_ARGS:
        raise _bad(f"too many arguments ({len(args)})")
    for arg in args:
        if len(arg) > longest:
            raise _bad(f"an argument is longer than {longest} characters")
        if not arg.isascii() or not arg.isprintable() or any(c.isspace() for c in arg):
            raise _bad(f"argument {arg!r} holds a character outside printable ASCII")
        if "@" in arg or "%" in arg:
            raise _bad(f"argument {arg!r} holds '@' or '%', which ncu would expand")


def parse_request(args: list[str]) -> Request:
    """The one capture this helper serves; Refusal(EXIT_BAD_REQUEST) for anything else."""
    if not args:
        raise _bad("no arguments; usage: capture --target T --dim N --set S --clock C [--dry-run]")
    _check_words(args)
    if args[0] != "capture":
        raise _bad(f"unknown command {args[0]!r}; the only command is 'capture'")
    values: dict[str, str] = {}
    dry_run = False
    rest = args[1:]
    i = 0
    while i < len(rest):
        flag = rest[i]
        if flag == "--dry-run":
            if dry_run:
                raise _bad("--dry-run given twice")
            dry_run = True
            i += 1
            continue
        if flag not in _FLAGS:
            raise _bad(f"unknown option {flag!r}")
        if flag in values:
            raise _bad(f"{flag} given twice")
        if i + 1 >= len(rest):
            raise _bad(f"{flag} needs a value")
        value = rest[i + 1]
        if value.startswith("-"):
            raise _bad(f"{flag} needs a value, got {value!r}")
        allowed = _FLAGS[flag]
        if allowed is not None and value not in allowed:
            raise _bad(f"{flag} must be one of {', '.join(allowed)}, got {value!r}")
        values[flag] = value
        i += 2
    missing = [f for f in _FLAGS if f not in values]
    if missing:
        raise _bad(f"missing {', '.join(missing)}")
    target = values["--target"]
    targets = TARGETS if target == BOTH else (target,)
    dims = parse_dims(values["--dim"])
    work = len(targets) * sum(dim**3 for dim in dims)
    if work > MAX_WORK:
        raise _bad(f"--dim {values['--dim']} asks for too much work in one run: the sum of N "
                   f"cubed over its reports may be at most {MAX_WORK:,} (both kernels at "
                   f"{DIM_MAX}), got {work:,}")
    return Request(targets, dims, values["--set"], values["--clock"], dry_run)


def parse_dims(text: str) -> tuple[int, ...]:
    """A list of sizes, `N` or `N,N,...`: at most MAX_DIMS, each as parse_dim says, no repeats."""
    if len(text) > MAX_DIMS * 5:
        raise _bad(f"--dim is longer than a list of {MAX_DIMS} sizes can be "
                   f"({len(text)} characters)")
    words = text.split(",")
    if len(words) > MAX_DIMS:
        raise _bad(f"--dim lists {len(words)} sizes; one run captures at most {MAX_DIMS}")
    dims = tuple(parse_dim(word) for word in words)
    repeated = sorted({dim for dim in dims if dims.count(dim) > 1})
    if repeated:
        raise _bad(f"--dim lists {', '.join(map(str, repeated))} more than once")
    return dims


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


def parse_check(args: list[str]) -> CheckRequest:
    """`--check-install [--before-venv] [--owner UID] [--home DIR]`; Refusal otherwise."""
    _check_words(args, MAX_PATH_CHARS)
    if not args or args[0] != CHECK_INSTALL:
        raise _bad(f"unknown command {args[0] if args else ''!r}")
    before_venv, values = False, {}
    rest = args[1:]
    i = 0
    while i < len(rest):
        flag = rest[i]
        if flag == "--before-venv" and not before_venv:
            before_venv, i = True, i + 1
            continue
        if flag not in ("--owner", "--home") or flag in values or i + 1 >= len(rest):
            raise _bad(f"{CHECK_INSTALL}: unexpected {flag!r}")
        values[flag] = rest[i + 1]
        i += 2
    owner = values.get("--owner", "0")
    if not (owner.isascii() and owner.isdigit() and len(owner) <= 10):
        raise _bad(f"--owner must be a user id, got {owner!r}")
    home = values.get("--home")
    if home is not None and not os.path.isabs(home):
        raise _bad(f"--home must be an absolute path, got {home!r}")
    return CheckRequest(before_venv, int(owner), Path(home) if home else None)


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
