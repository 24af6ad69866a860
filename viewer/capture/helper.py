#!/usr/bin/env python3
"""ncu-reader's capture helper: one Nsight Compute capture of one of the app's matmul kernels.

    ncu-reader-capture capture --target naive|tiled --dim N --set basic|full --clock base|none
                               [--dry-run]

pkexec runs this file as root (installed, its first line is `#!.../venv/bin/python3 -IS`: no
site, no .pth file runs before the checks), and ncu runs the kernel program as root, so it is
written like a setuid program (docs/capture.md has the facts behind each rule):

- a fixed grammar, allow-list only: anything else exits 2 and runs nothing;
- ncu's argv is built here, never by a shell: ncu by absolute path, `--config-file off`,
  `--target-processes application-only`, no `-f`, the report into a directory made here;
- root runs only root-owned code: ncu, the interpreter and its standard library, the kernel
  program's site-packages (found from its venv, as its site.py finds them; none found is a
  refusal) and the paths their .pth files add, the install, CUDA_HOME's tree, every file in
  each LIBRARY_PATH directory and in each folder the loader finds libraries in by itself
  (ld.so.conf, its cache, ld.so.preload), and every directory above each, as named and with links
  resolved, must be owned by root (or by the user running this, when that is not root) and
  writable by nobody else, else exit 4 naming the path;
- the environment is built from an allow-list; as root, ncu's path comes only from the install's
  capture.json beside this file, never from PATH or the environment; TMPDIR, TMP and TEMP name a
  root-owned 0700 directory made here, so nothing ncu writes lands in a directory a user shares;
- root writes nothing the user controls: the report is streamed on stdout, and the client writes it;
- resource limits, niceness and CPU affinity passed through pkexec are reset before ncu runs;
- a wall-clock limit that holds whatever the client does (progress lines are dropped, never
  waited for; a watchdog thread ends everything if the main thread is stuck); the client's cancel
  (it closes stdin), SIGTERM, SIGHUP, SIGINT and SIGQUIT end ncu and every process below it (the
  helper is their child subreaper), and only the main thread takes them, so that any number of
  them never cut that ending short; SIGTSTP and the terminal's other stop signals are ignored;
- after `--clock base`, `ncu --clock-control reset` runs on every exit;
- ncu's exit status counts: a non-zero exit or a signal is a failure, and nothing is streamed;
  nor is a report that is not whole (its container walked: cut short, or not one result).

stdout carries the report's bytes and nothing else; with stdout or stderr not open for writing,
it exits 2 before anything runs. stderr carries JSON lines: `started` right before ncu starts,
`ncu` for each line ncu printed, `done` after the report was sent, `error` (with its `kind` and
`exit`) before any failing exit. The exit codes are EXIT_* below; 126 and 127 are
pkexec's own. Standard library only, and nothing from viewer: root must not import the user's code;
and one file, because the install copies it alone beside its capture.json.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import glob
import json
import os
import pwd
import re
import resource
import selectors
import shutil
import signal
import site
import stat
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
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

# Copies of the app's own constants (root must not import the app);
# tests/capture/test_capture_helper.py checks them against viewer.kernels.
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
REPORT_RESULTS = 1
"""The results a capture's report holds: one kernel launch (`--launch-count 1`)."""
# A .ncu-rep's container (viewer/readers/ncu_container.py has what its bytes show; that module
# is the user's code here, so the few facts the helper needs are copied and checked against it):
# the magic, u32 LE n, a file header of n bytes (protobuf, 1 = version); then blocks to the
# file's end, each u32 LE n, a block header of n bytes (protobuf: 2 NumResults, 3 SessionDetails,
# 5 PayloadSize), then PayloadSize bytes. The session's last block holds the profiler's command
# line (SessionDetails field 11), in the file versions whose blocks are known.
REPORT_KNOWN_VERSIONS = frozenset({7})
REPORT_MAX_FILE_HEADER = 1 << 10
REPORT_MAX_HEADER = 1 << 24
"""Bytes of one block header; real ones are at most 135,453."""
REPORT_MAX_BLOCKS = 1 << 16
"""A capture of one launch has about ten blocks, one per source file and result."""
REPORT_MAX_FIELDS = 1 << 8
REPORT_MAX_PART = 1 << 16
"""A SessionDetails larger than this is passed over, not parsed (real ones are at most 8,425)."""
BLOCK_RESULTS, BLOCK_SESSION_DETAILS, BLOCK_PAYLOAD_SIZE = 2, 3, 5
SESSION_COMMAND_LINE = 11
TIMEOUT_S = 600.0
KILL_GRACE_S = 5.0
WATCHDOG_GRACE_S = 30.0
"""Past the time limit by this much, the watchdog thread ends everything without the main thread."""
MAX_QUEUED_LINES = 256
"""JSON lines waiting for a client that does not read stderr; further progress lines are dropped."""
APP_FAILED = "The application returned an error code"
"""ncu's words when the kernel program exits non-zero."""
PROGRAM_LINES = 3
"""The kernel program's own last lines shown when it fails under ncu (a traceback's header left
out)."""
TRACEBACK = "Traceback (most recent call last):"
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
PR_SET_CHILD_SUBREAPER = 36
NCU_INSTALL_DIRS = ("target", "sections")
"""Beside ncu in Nsight Compute's own folder: its binaries and libraries, its sections and rules."""
NCU_DOCUMENTS = Path("Documents", "NVIDIA Nsight Compute")
"""Below HOME: ncu copies its sections and rule files (.py) there and reads them back."""
LD_SO_CONF = "/etc/ld.so.conf"
LD_SO_CACHE = "/etc/ld.so.cache"
LD_SO_PRELOAD = "/etc/ld.so.preload"
LD_SYSTEM_DIRS = ("/lib", "/usr/lib", "/lib64", "/usr/lib64")
"""The folders glibc's loader searches after its cache (with the multiarch ones on Debian)."""
LD_CONF_MAX_FILES = 256
LD_CONF_MAX_DEPTH = 8
LD_MAX_BYTES = 1 << 16
"""Of one ld.so.conf file or ld.so.preload; a longer one is refused, not read in part."""
LD_CACHE_MAX_BYTES = 16 << 20
LD_CACHE_MAGIC = b"glibc-ld.so.cache1.1"
LD_CACHE_OLD_MAGIC = b"ld.so-1.7.0"
LD_CACHE_HEADER, LD_CACHE_ENTRY = 48, 24
"""glibc's struct cache_file_new and struct file_entry_new, in bytes (its sysdeps/generic/
dl-cache.h); the old format's header and entry are 16 and 12 bytes."""
SITE_DIRS = ("site-packages", "dist-packages")
"""Not the standard library's: a venv without system site-packages never imports from them."""
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGQUIT)

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


def check_entry(path: Path, st: os.stat_result, owners: frozenset[int],
                ancestor: bool = False) -> None:
    """One file or directory: a trusted owner, and no write bit for group or others. A
    root-owned sticky directory such as /tmp passes only as an `ancestor` of what is checked
    (nobody else can swap what it holds), never as the thing itself or inside a checked tree."""
    if st.st_uid not in owners:
        raise Refusal(EXIT_UNTRUSTED, f"{path} is owned by uid {st.st_uid}, not by root; "
                      "refusing to run it as root")
    if stat.S_ISLNK(st.st_mode):
        return
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        if (ancestor and stat.S_ISDIR(st.st_mode) and st.st_mode & stat.S_ISVTX
                and st.st_uid == 0):
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
            check_entry(entry, st, owners, ancestor=entry != p)


class Trust:
    """The trust checks of one capture; each tree is walked once."""

    def __init__(self, owners: frozenset[int]) -> None:
        self.owners = owners
        self.walked: dict[str, tuple[str, ...]] = {}
        self.seen: set[tuple[str, bool]] = set()

    def chain(self, path: Path) -> None:
        """As check_chain, looking at each entry once per capture: (entry, as an ancestor)
        seen means every directory above it was seen too."""
        for p in dict.fromkeys((os.path.abspath(path), os.path.realpath(path))):
            entry, ancestor = p, False
            while (entry, False) not in self.seen and (entry, ancestor) not in self.seen:
                try:
                    st = os.lstat(entry)
                except OSError as exc:
                    raise Refusal(EXIT_UNTRUSTED, f"{entry}: {exc.strerror}") from None
                check_entry(Path(entry), st, self.owners, ancestor=ancestor)
                self.seen.add((entry, ancestor))
                parent = os.path.dirname(entry)
                if parent == entry:
                    break
                entry, ancestor = parent, True

    def tree(self, root: Path, skip: tuple[str, ...] = ()) -> None:
        """`root`, those above it, and everything below it; a link's target is checked with
        everything above it (and walked, when it is a directory); a link to nothing is refused.
        `skip` names directories directly below `root` that are not walked."""
        real = os.path.realpath(root)
        if any(_covers(w, skipped, real) for w, skipped in self.walked.items()):
            return
        self.chain(root)
        self.walked[real] = skip
        for top, dirs, files in os.walk(real, onerror=_walk_error):
            if top == real and skip:
                dirs[:] = [d for d in dirs if d not in skip]
            for name in (*dirs, *files):
                path = Path(top, name)
                try:
                    st = os.lstat(path)
                except OSError as exc:
                    raise Refusal(EXIT_UNTRUSTED, f"{path}: {exc.strerror}") from None
                check_entry(path, st, self.owners)
                if stat.S_ISLNK(st.st_mode):
                    self.link(path)

    def entries(self, directory: Path) -> None:
        """`directory` (a library directory: what the loader may load), those above it, each
        entry directly in it, links resolved, and the tree below its `glibc-hwcaps/`, which
        the loader searches too. A link to nothing (a system folder may hold one a package
        left) must lead where only root can create its target."""
        self.chain(directory)
        if os.path.isdir(directory / "glibc-hwcaps"):
            self.tree(directory / "glibc-hwcaps")
        try:
            names = sorted(os.listdir(directory))
        except OSError as exc:
            raise Refusal(EXIT_UNTRUSTED, f"{directory}: {exc.strerror}") from None
        for name in names:
            path = Path(directory, name)
            try:
                st = os.lstat(path)
            except OSError as exc:
                raise Refusal(EXIT_UNTRUSTED, f"{path}: {exc.strerror}") from None
            check_entry(path, st, self.owners)
            if stat.S_ISLNK(st.st_mode):
                target = Path(os.path.realpath(path))
                if os.path.lexists(target):
                    self.chain(target)
                else:
                    self.absent(target)

    def link(self, path: Path) -> None:
        target = self._target(path)
        if os.path.isdir(target):
            self.tree(target)
        else:
            self.chain(target)

    @staticmethod
    def _target(path: Path) -> Path:
        target = Path(os.path.realpath(path))
        if not os.path.lexists(target):
            raise Refusal(EXIT_UNTRUSTED, f"{path} is a link to nothing ({target}), which "
                          "someone could create; refusing to run it as root")
        return target

    def site(self, site_dir: Path) -> None:
        """A site-packages directory the kernel program imports from, and whatever its .pth
        files add to the import path; as root, an editable install (root would import a
        checkout) is refused. One that does not exist must stay so: see `absent`."""
        if not os.path.lexists(site_dir):
            self.absent(site_dir)
            return
        self.tree(site_dir)
        for name in sorted(os.listdir(site_dir)):
            if not name.endswith(".pth"):
                continue
            pth = Path(site_dir, name)
            if name.startswith("__editable__") and self.owners == {0}:
                raise Refusal(EXIT_UNTRUSTED, f"{pth} is an editable install: root would import "
                              "a checkout; install the project as a copy")
            for added in pth_paths(pth):
                if os.path.exists(added):
                    self.tree(added)

    def absent(self, path: Path) -> None:
        """A path that does not exist and that root would use if it did: the nearest directory
        above it that exists, and those above that, are checked, so that nobody but root can
        create it."""
        above = Path(os.path.abspath(path))
        while not os.path.lexists(above):
            above = above.parent
        self.chain(above)


def _covers(walked: str, skipped: tuple[str, ...], path: str) -> bool:
    """Whether walking `walked` (less the directories `skipped` directly below it) saw `path`."""
    if path == walked:
        return not skipped
    below = os.path.relpath(path, walked)
    return not below.startswith("..") and below.split(os.sep)[0] not in skipped


def pth_paths(pth: Path) -> list[Path]:
    """The directories a .pth file adds to the import path (its `import` lines are code in a
    file already checked)."""
    try:
        with open(pth, encoding="utf-8", errors="replace") as f:
            lines = f.read(1 << 16).splitlines()
    except OSError as exc:
        raise Refusal(EXIT_UNTRUSTED, f"{pth}: {exc.strerror}") from None
    return [Path(pth.parent, line.rstrip()) for line in lines
            if line.strip() and not line.startswith(("#", "import ", "import\t"))]


def _walk_error(exc: OSError) -> None:
    raise Refusal(EXIT_UNTRUSTED, f"{exc.filename}: {exc.strerror}")


def venv_site_dirs(python: Path) -> list[Path]:
    """The site-packages the kernel program (`python -I`, with site) imports from, found as its
    site.py finds them, from the venv itself: the venv's (Refusal where the venv has none), and
    the base interpreter's too where the venv includes them; those that do not exist included.

    Never from this interpreter's sysconfig: under -S, sys.prefix stays the base prefix, and
    Debian's default scheme then names venv/local/lib/pythonX.Y/dist-packages, which a venv
    does not have, while its site.py imports from venv/lib/pythonX.Y/site-packages."""
    venv, cfg = venv_of(python)
    if cfg is None:
        dirs = prefix_site_dirs(Path(sys.base_prefix))
        if not any(os.path.isdir(d) for d in dirs):
            raise Refusal(EXIT_UNTRUSTED, f"{python} has no site-packages in "
                          f"{sys.base_prefix}; refusing to run a program whose imports cannot "
                          "be checked")
        return dirs
    own = venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    if not os.path.isdir(own):
        raise Refusal(EXIT_UNTRUSTED, f"the venv {venv} has no {own.relative_to(venv)}, where "
                      "its Python imports from; refusing to run a program whose imports "
                      "cannot be checked")
    dirs = [own, *prefix_site_dirs(venv)]
    if venv_includes_system_site(cfg):
        dirs += prefix_site_dirs(Path(sys.base_prefix))
    return list(dict.fromkeys(dirs))


def venv_of(python: Path) -> tuple[Path, Path | None]:
    """(the venv's directory, its pyvenv.cfg) as site.py finds them from the interpreter's
    path as named: pyvenv.cfg beside it, else one level up; None where neither exists."""
    exe_dir = Path(os.path.abspath(python)).parent
    for cfg in (exe_dir / "pyvenv.cfg", exe_dir.parent / "pyvenv.cfg"):
        if os.path.isfile(cfg):
            return exe_dir.parent, cfg
    return exe_dir.parent, None


def venv_includes_system_site(cfg: Path) -> bool:
    """Whether site.py adds the base interpreter's site-packages: as it reads pyvenv.cfg, the
    last include-system-site-packages line counts, and none at all means true."""
    try:
        with open(cfg, encoding="utf-8", errors="replace") as f:
            text = f.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise Refusal(EXIT_UNTRUSTED, f"{cfg}: {exc.strerror}") from None
    if len(text) > MAX_CONFIG_BYTES:
        raise Refusal(EXIT_UNTRUSTED, f"{cfg} is longer than {MAX_CONFIG_BYTES} characters: "
                      "not a venv's pyvenv.cfg")
    value = "true"
    lines = text.splitlines()
    for line in lines:
        key, sep, rest = line.partition("=")
        if sep and key.strip().lower() == "include-system-site-packages":
            value = rest.strip().lower()
    return value == "true"


def prefix_site_dirs(prefix: Path) -> list[Path]:
    """Every site directory site.py may add for `prefix`: lib/pythonX.Y/site-packages (also
    below sys.platlibdir) and whatever this interpreter's site.getsitepackages names (Debian's
    dist-packages), existing or not. (`import site` under -S runs nothing: no .pth file.)"""
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    dirs = [prefix / lib / version / "site-packages"
            for lib in dict.fromkeys(("lib", sys.platlibdir))]
    dirs += [Path(d) for d in site.getsitepackages([str(prefix)])]
    return list(dict.fromkeys(dirs))


def stdlib_dirs() -> list[Path]:
    """The interpreter's standard library (its zip, its tree with lib-dynload): what root
    imports under -I -S here, and in the kernel program before its site-packages."""
    found = [Path(p) for p in sys.path if p.endswith(".zip") and os.path.exists(p)]
    paths = sysconfig.get_paths(vars={"base": sys.base_prefix, "platbase": sys.base_prefix})
    for key in ("stdlib", "platstdlib"):
        if os.path.isdir(paths[key]):
            found.append(Path(paths[key]))
    return list(dict.fromkeys(found))


@dataclass(frozen=True)
class Loader:
    """The dynamic loader's own files: where it finds libraries by itself (not through
    LD_LIBRARY_PATH, which only the install's LIBRARY_PATH sets)."""

    conf: Path = Path(LD_SO_CONF)
    cache: Path = Path(LD_SO_CACHE)
    preload: Path = Path(LD_SO_PRELOAD)
    system_dirs: tuple[str, ...] = LD_SYSTEM_DIRS


def check_loader(trust: Trust, loader: Loader) -> None:
    """What the loader may load into root's programs: each folder ld.so.conf and the files it
    includes list (ldconfig puts what lies in them in the cache) and each folder it searches
    after the cache (every entry directly in each, as for LIBRARY_PATH), each library the cache
    names, and each one ld.so.preload names, with the files themselves and everything above
    them; one that does not exist must stay so (`Trust.absent`)."""
    multiarch = getattr(sys.implementation, "_multiarch", "")
    system = [*loader.system_dirs,
              *(f"{d}/{multiarch}" for d in loader.system_dirs[:2] if multiarch)]
    for directory in dict.fromkeys([*ld_conf_dirs(loader.conf, trust), *map(Path, system)]):
        if os.path.lexists(directory):
            trust.entries(directory)
        else:
            trust.absent(directory)
    for path in (loader.cache, loader.preload):
        if os.path.lexists(path):
            trust.chain(path)
        else:
            trust.absent(path)
    libraries = ld_cache_libraries(loader.cache) if os.path.lexists(loader.cache) else []
    if os.path.lexists(loader.preload):
        libraries += preload_libraries(loader.preload)
    for library in dict.fromkeys(libraries):
        if os.path.lexists(library):
            trust.chain(Path(library))
        else:
            trust.absent(Path(library))


def preload_libraries(preload: Path) -> list[str]:
    """The absolute paths ld.so.preload names (split at white space and colons; a bare name is
    searched like any other library); one holding `$` (the loader expands $LIB, $PLATFORM and
    $ORIGIN there) is refused: what it names cannot be checked here."""
    names = _read_ld_file(preload).replace(":", " ").split()
    for name in names:
        if "$" in name:
            raise Refusal(EXIT_UNTRUSTED, f"{preload} names {name!r}, which the loader expands; "
                          "refusing a preloaded library that cannot be checked")
    return [name for name in names if os.path.isabs(name)]


def ld_conf_dirs(conf: Path, trust: Trust) -> list[Path]:
    """The folders `conf` lists, with those of the files its `include` lines name (as ldconfig
    reads them: `#` to the line's end a comment, `include PATTERN...` globbed, a relative
    pattern from the including file's folder, `hwcap` lines ignored, each other line a folder).
    Each file read, and the folder of each include pattern, is checked: whoever can change one
    can list a folder of theirs. A relative folder, too many files or too deep an include is
    refused."""
    found: list[Path] = []
    files = 0

    def read(path: Path, depth: int) -> None:
        nonlocal files
        files += 1
        if depth > LD_CONF_MAX_DEPTH or files > LD_CONF_MAX_FILES:
            raise Refusal(EXIT_UNTRUSTED, f"{path}: the loader's configuration includes more "
                          f"than {LD_CONF_MAX_FILES} files or {LD_CONF_MAX_DEPTH} levels; "
                          "refusing what cannot be checked")
        trust.chain(path)
        for line in _read_ld_file(path).splitlines():
            line = line.split("#", 1)[0].strip()
            words = line.split()
            if not words or (words[0].lower() == "hwcap" and len(words) > 1):
                continue
            if words[0] == "include" and len(words) > 1:
                for pattern in words[1:]:
                    for included in ld_conf_include(path, pattern, trust):
                        read(included, depth + 1)
                continue
            folder = line.rstrip("/") or "/"
            for name in dict.fromkeys((folder, folder.split("=", 1)[0].rstrip() or folder)):
                if not os.path.isabs(name):
                    raise Refusal(EXIT_UNTRUSTED, f"{path} lists the folder {name!r}, which is "
                                  "not absolute; refusing a library folder that cannot be "
                                  "checked")
                found.append(Path(name))

    if os.path.lexists(conf):
        read(conf, 0)
    else:
        trust.absent(conf)
    return list(dict.fromkeys(found))


def ld_conf_include(conf: Path, pattern: str, trust: Trust) -> list[Path]:
    """The files an `include` line's pattern names (relative: from `conf`'s folder), sorted
    as glob sorts them; the folders they would lie in are checked, so nobody else can add
    one."""
    if not os.path.isabs(pattern):
        pattern = os.path.join(os.path.dirname(conf), pattern)
    folder = os.path.dirname(pattern)
    for parent in (sorted(glob.glob(folder)) if glob.has_magic(folder) else [folder]):
        if os.path.lexists(parent):
            trust.chain(Path(parent))
        else:
            trust.absent(Path(parent))
    if glob.has_magic(folder):  # a folder that matches nothing yet: its fixed part above
        fixed = folder
        while glob.has_magic(fixed):
            fixed = os.path.dirname(fixed)
        trust.absent(Path(fixed, "*"))
    return [Path(p) for p in sorted(glob.glob(pattern))]


def ld_cache_libraries(cache: Path) -> list[str]:
    """Each library path the loader's cache names, read as glibc's loader reads it (its new
    format, alone or after the old one); Refusal where it cannot be read so."""
    def bad(why: str) -> Refusal:
        return Refusal(EXIT_UNTRUSTED, f"{cache}: {why}; refusing to trust the libraries the "
                       "loader would find through it")

    try:
        with open(cache, "rb") as f:
            data = f.read(LD_CACHE_MAX_BYTES + 1)
    except OSError as exc:
        raise bad(exc.strerror or "unreadable") from None
    if len(data) > LD_CACHE_MAX_BYTES:
        raise bad(f"longer than {LD_CACHE_MAX_BYTES:,} bytes")
    start = 0
    if data.startswith(LD_CACHE_OLD_MAGIC):
        if len(data) < 16:
            raise bad("cut short")
        old = int.from_bytes(data[12:16], "little")
        start = -(-(16 + old * 12) // 8) * 8  # aligned to 8, as glibc's ALIGN_CACHE
    if data[start:start + len(LD_CACHE_MAGIC)] != LD_CACHE_MAGIC:
        raise bad("not in the format glibc's loader reads (glibc-ld.so.cache1.1)")
    count = int.from_bytes(data[start + 20:start + 24], "little")
    if start + LD_CACHE_HEADER + count * LD_CACHE_ENTRY > len(data):
        raise bad("cut short")
    paths = []
    for i in range(count):
        at = start + LD_CACHE_HEADER + i * LD_CACHE_ENTRY + 8  # flags, key, then value
        offset = start + int.from_bytes(data[at:at + 4], "little")
        end = data.find(b"\0", offset)
        if offset >= len(data) or end < 0:
            raise bad("an entry names a path outside it")
        paths.append(os.fsdecode(data[offset:end]))
    return paths


def _read_ld_file(path: Path) -> str:
    try:
        with open(path, "rb") as f:
            data = f.read(LD_MAX_BYTES + 1)
    except OSError as exc:
        raise Refusal(EXIT_UNTRUSTED, f"{path}: {exc.strerror}") from None
    if len(data) > LD_MAX_BYTES:
        raise Refusal(EXIT_UNTRUSTED, f"{path} is longer than {LD_MAX_BYTES:,} bytes; "
                      "refusing what cannot be checked")
    return os.fsdecode(data)


def check_layout(layout: Layout, euid: int, home: Path | None = None,
                 loader: Loader | None = None) -> None:
    """Everything root would run: ncu (and Nsight Compute's whole folder, when ncu is the one
    in it), the interpreter with its standard library and import path, the install, CUDA_HOME,
    the library directories and those the loader finds by itself (`loader`: the system's),
    and the rule files (.py) ncu keeps and runs from the home directory it is given (`home`:
    root's own)."""
    trust = Trust(trusted_owners(euid))
    home = home or Path(pwd.getpwuid(euid).pw_dir)
    trust.chain(home)
    if os.path.lexists(home / NCU_DOCUMENTS):
        trust.tree(home / NCU_DOCUMENTS)
    trust.tree(layout.root)
    for path in (layout.ncu, layout.python, Path(__file__), layout.config):
        if path is not None:
            trust.chain(path)
    ncu_home = Path(os.path.realpath(layout.ncu)).parent
    if all(os.path.isdir(ncu_home / d) for d in NCU_INSTALL_DIRS):
        trust.tree(ncu_home)
    if layout.cuda_home is not None:
        trust.tree(layout.cuda_home)
    for directory in layout.library_path:
        trust.entries(directory)
    check_loader(trust, loader or Loader())
    for entry in stdlib_dirs():
        if os.path.isdir(entry):
            trust.tree(entry, skip=SITE_DIRS)
        else:
            trust.chain(entry)
    _, cfg = venv_of(layout.python)
    if cfg is not None:
        trust.chain(cfg)
    for site_dir in venv_site_dirs(layout.python):
        trust.site(site_dir)


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
        # the kernels' own source (the install's root-owned files, which line info names) is
        # kept in the report, for the Source view
        "--import-source", "yes",
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


def child_env(layout: Layout, euid: int, environ: dict[str, str], tmp: str) -> dict[str, str]:
    """The environment ncu and the kernels get: an allow-list, every value checked; TMPDIR,
    TMP and TEMP are `tmp`, the helper's own private directory."""
    env = {"PATH": SAFE_PATH, "HOME": pwd.getpwuid(euid).pw_dir, "LANG": "C.UTF-8",
           "TMPDIR": tmp, "TMP": tmp, "TEMP": tmp}
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
    """Who asked: PKEXEC_UID when pkexec ran this (it must name a real user, and pkexec must
    have run this as root: `pkexec --user NAME` is refused), else euid."""
    text = environ.get("PKEXEC_UID")
    if text is None:
        return euid
    if euid != 0:
        raise Refusal(EXIT_UNTRUSTED, f"pkexec ran this as uid {euid}, not as root; the helper "
                      "runs under pkexec only as root (no --user)")
    if not (text.isascii() and text.isdigit() and len(text) <= 10):
        raise Refusal(EXIT_BAD_REQUEST, f"PKEXEC_UID is not a user id: {text[:20]!r}")
    try:
        pwd.getpwuid(int(text))
    except KeyError:
        raise Refusal(EXIT_BAD_REQUEST, f"PKEXEC_UID {text} names no user") from None
    return int(text)


# ---------------------------------------------------------------- the process around ncu

LIMITS = {
    "RLIMIT_CPU": (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
    "RLIMIT_FSIZE": (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
    "RLIMIT_DATA": (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
    "RLIMIT_AS": (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
    "RLIMIT_STACK": (8 << 20, resource.RLIM_INFINITY),
    "RLIMIT_CORE": (0, 0),
    "RLIMIT_NOFILE": (4096, 524288),
    "RLIMIT_NPROC": (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
    "RLIMIT_MEMLOCK": (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
    "RLIMIT_MSGQUEUE": (819200, 819200),
    "RLIMIT_RTTIME": (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
}
"""The resource limits ncu runs under, whatever the caller's (`ulimit`) were; a soft limit the
hard one forbids (without root) is lowered to the hard limit."""


def reset_limits() -> None:
    """Resource limits, niceness and CPU affinity back to a fixed start (pkexec passes the
    caller's through); best effort for a user who cannot raise a hard limit."""
    for name, (soft, hard) in LIMITS.items():
        which = getattr(resource, name, None)
        if which is None:
            continue
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(which, (soft, hard))
            continue
        with contextlib.suppress(OSError, ValueError):
            _, cur_hard = resource.getrlimit(which)
            resource.setrlimit(which, (_at_most(soft, cur_hard), cur_hard))
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, 0, 0)
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setaffinity(0, range(os.cpu_count() or 1))


def _at_most(value: int, limit: int) -> int:
    if limit == resource.RLIM_INFINITY:
        return value
    return limit if value == resource.RLIM_INFINITY else min(value, limit)


def become_subreaper() -> bool:
    """Orphans below this process (a child of ncu that called setsid and whose parent died)
    become its children, so that they can be found and ended."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        status: int = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)  # ctypes' default restype
        return status == 0
    except (OSError, AttributeError):
        return False


def unwritable_standard_fds() -> list[str]:
    """"stdout" and "stderr" where they are not open for writing: closed, or open read-only
    (pkexec passes a closed one on as /dev/null opened for reading)."""
    return [name for fd, name in ((1, "stdout"), (2, "stderr")) if not _writable(fd)]


def _writable(fd: int) -> bool:
    try:
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    except OSError:
        return False
    return flags & os.O_ACCMODE in (os.O_WRONLY, os.O_RDWR)


def open_standard_fds() -> None:
    """A closed 0, 1 or 2 becomes /dev/null, so no file this opens takes its number."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


def descendants(pid: int) -> list[int]:
    """Every living process below `pid`, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != b"Z":
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


def end_descendants(rounds: int = 100) -> None:
    """Kill every process below this one and reap those that became its children. Called only
    when no subprocess of this helper is still waited on (reaping would steal its status)."""
    me = os.getpid()
    for _ in range(rounds):
        found = descendants(me)
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        _reap()
        if not found:
            return
        time.sleep(0.02)


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


class Lines:
    """JSON lines on stderr, written by a thread of their own: `emit` never blocks. While
    MAX_QUEUED_LINES wait for a client that does not read, progress lines are dropped; a
    `final` line (done, error) is always queued."""

    def __init__(self, fd: int = 2) -> None:
        self.fd = fd
        self.dropped = 0
        self._queue: list[bytes] = []
        self._cond = threading.Condition()
        self._closed = False
        self._thread = start_thread(self._write, "lines")

    def emit(self, final: bool = False, **event: object) -> None:
        data = (json.dumps(event, ensure_ascii=False) + "\n").encode("utf-8", "replace")
        with self._cond:
            if self._closed:
                return
            if len(self._queue) >= MAX_QUEUED_LINES and not final:
                self.dropped += 1
                return
            self._queue.append(data)
            self._cond.notify()

    def flush(self, timeout: float) -> None:
        """Wait until every queued line is written, at most `timeout` seconds."""
        end = time.monotonic() + timeout
        with self._cond:
            while self._queue and not self._closed:
                left = end - time.monotonic()
                if left <= 0:
                    return
                self._cond.wait(left)

    def _write(self) -> None:
        while True:
            with self._cond:
                while not self._queue:
                    self._cond.wait()
                data = self._queue[0]
            try:
                while data:
                    data = data[os.write(self.fd, data):]
            except OSError:  # the reader is gone: nothing more can be said
                with self._cond:
                    self._closed = True
                    self._queue.clear()
                    self._cond.notify_all()
                return
            with self._cond:
                self._queue.pop(0)
                self._cond.notify_all()


_LINES: Lines | None = None


def emit(final: bool = False, **event: object) -> None:
    """One JSON line on stderr, never blocking (main() starts the writer)."""
    global _LINES
    if _LINES is None:
        _LINES = Lines()
    _LINES.emit(final, **event)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT_CHARS else text[:MAX_TEXT_CHARS] + "..."


class _Stop(Exception):
    """SIGTERM, SIGHUP, SIGINT or SIGQUIT reached the helper."""


class Stops:
    """The stop signals that reached the helper, handled in the main thread alone (every
    thread the helper starts blocks them, see `start_thread`). The first is kept in `signum`;
    the handler raises _Stop only while `raising` (inside `interruptible`), and once at most:
    any later signal is only recorded, so nothing interrupts the ending."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self.raising = False


_STOPS = Stops()


def _on_stop(signum: int, _frame: object) -> None:
    if _STOPS.signum is None:
        _STOPS.signum = signum
    if _STOPS.raising:
        _STOPS.raising = False
        raise _Stop(signum)


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """A block that a stop signal ends with _Stop (at once, when one came before it); outside
    such blocks a stop is recorded, never raised, and the code that follows looks at it."""
    _STOPS.raising = True
    if _STOPS.signum is not None:
        _STOPS.raising = False
        raise _Stop(_STOPS.signum)
    try:
        yield
    finally:
        _STOPS.raising = False


def stop_requested() -> int | None:
    """The first stop signal that reached the helper, or None."""
    return _STOPS.signum


@contextlib.contextmanager
def stop_signals_blocked() -> Iterator[None]:
    """The calling thread blocks the stop signals in this block (a thread it starts, or a
    process it forks, keeps them blocked); one that comes meanwhile waits until the end."""
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def start_thread(target: Callable[..., object], name: str, *args: object) -> threading.Thread:
    """A daemon thread that never takes a stop signal: it is started with them blocked and
    keeps its creator's mask, so the kernel hands them to the main thread alone."""
    thread = threading.Thread(target=target, name=name, args=args, daemon=True)
    with stop_signals_blocked():
        thread.start()
    return thread


def _watch_stdin() -> bool:
    """The client's cancel is stdin closing; only a pipe or socket can tell us that."""
    try:
        mode = os.fstat(0).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """ncu and everything in its group: TERM, then KILL after a grace period."""
    for sig, wait_s in ((signal.SIGTERM, KILL_GRACE_S), (signal.SIGKILL, KILL_GRACE_S)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(wait_s)
            return
        except subprocess.TimeoutExpired:
            continue


@dataclass(frozen=True)
class Ended:
    """How ncu ended: its exit status (negative: the signal that killed it) and its lines."""

    status: int
    lines: list[str]


def run_ncu(argv: list[str], env: dict[str, str], cwd: str, deadline: float) -> Ended:
    """Run ncu in its own process group, relaying its lines, until it exits.

    Refusal on timeout or cancel (ncu's group is killed first)."""
    lines: list[str] = []
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, cwd=cwd, env=env, start_new_session=True)
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
                stop = Refusal(EXIT_TIMEOUT, f"ncu ran past {TIMEOUT_S:.0f} s and was stopped")
                break
            for key, _ in selector.select(min(left, 1.0)):
                if key.data == "stdin":
                    if not os.read(0, 4096):
                        stop = Refusal(EXIT_CANCELLED, "cancelled: ncu was stopped")
                    continue
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    selector.unregister(proc.stdout)
                    _relay(pending, lines)
                    return Ended(_wait(proc, deadline), lines)
                pending = _relay_lines(pending + chunk, lines)
    except _Stop:
        stop = Refusal(EXIT_CANCELLED, "cancelled by a signal: ncu was stopped")
    finally:
        selector.close()
        if proc.poll() is None:
            kill_group(proc)
        proc.stdout.close()
    raise stop


def _wait(proc: subprocess.Popen[bytes], deadline: float) -> int:
    """ncu closed its output; its exit status, killing its group if it lingers past the limit."""
    try:
        return proc.wait(max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        raise Refusal(EXIT_TIMEOUT, f"ncu ran past {TIMEOUT_S:.0f} s and was stopped") from None


def _relay_lines(data: bytes, lines: list[str]) -> bytes:
    *whole, rest = data.split(b"\n")
    for raw in whole:
        _relay(raw, lines)
    if len(rest) > 8 * MAX_TEXT_CHARS:  # a line without end: relay it cut
        _relay(rest, lines)
        return b""
    return rest


def _relay(raw: bytes, lines: list[str]) -> None:
    text = raw.decode("utf-8", "replace").rstrip("\r")
    if text.strip():
        lines.append(_cut(text))
        emit(ncu=lines[-1])


def failure(ended: Ended) -> Refusal | None:
    """What ncu's exit says went wrong, or None: no permission, a failed kernel program (with
    its own last lines), ncu killed by a signal or exiting non-zero."""
    lines = ended.lines
    if any(ERR_NVGPUCTRPERM in line for line in lines):
        return Refusal(EXIT_NOT_PERMITTED, "ncu may not read this GPU's performance "
                       f"counters ({ERR_NVGPUCTRPERM})")
    app = next((line for line in reversed(lines) if APP_FAILED in line), None)
    if app is not None:
        own = [line.strip() for line in lines
               if not line.startswith("==") and not line.startswith(TRACEBACK)][-PROGRAM_LINES:]
        said = " | ".join(own) if own else "it printed nothing"
        return Refusal(EXIT_NCU_FAILED, f"the kernel program failed under ncu "
                       f"({app.removeprefix('==ERROR==').strip().rstrip('.')}): {said}")
    if ended.status < 0:
        try:
            name = signal.Signals(-ended.status).name
        except ValueError:
            name = f"signal {-ended.status}"
        return Refusal(EXIT_NCU_FAILED, f"ncu was killed by {name}; its report, if any, "
                       "was dropped")
    if ended.status != 0:
        errors = [line for line in lines if "==ERROR==" in line]
        tail = f": {errors[-1]}" if errors else ""
        return Refusal(EXIT_NCU_FAILED, f"ncu exited with status {ended.status}{tail}; its "
                       "report, if any, was dropped")
    return None


def ncu_version(layout: Layout, env: dict[str, str], cwd: str) -> str | None:
    """`ncu --version`'s last line, or None."""
    try:
        out = subprocess.run([str(layout.ncu), "--version"], stdin=subprocess.DEVNULL,
                             capture_output=True, cwd=cwd, env=env, timeout=60,
                             check=False, start_new_session=True).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = out.decode("utf-8", "replace").strip().splitlines()
    return _cut(lines[-1].strip()) if lines else None


def reset_clocks(layout: Layout, env: dict[str, str], cwd: str) -> None:
    """After `--clock-control base`: `--clock-control reset` gives the clocks back, whether
    ncu ended well or was killed holding them. Started with the stop signals blocked, which it
    keeps (nothing sends it one; a timeout kills it): from its fork to its setsid it is in the
    terminal's process group, where a Ctrl-C would kill it before it ran."""
    argv = [str(layout.ncu), "--config-file", "off", "--clock-control", "reset"]
    with contextlib.suppress(OSError, subprocess.TimeoutExpired), stop_signals_blocked():
        subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd=cwd, env=env, timeout=60, check=False,
                       start_new_session=True)


def driver_version() -> str | None:
    """The NVIDIA kernel module's version, from /proc."""
    try:
        with open(DRIVER_VERSION, encoding="utf-8", errors="replace") as f:
            match = re.search(r"Kernel Module\s+(?:for \S+\s+)?([0-9][0-9.]+)", f.read(4096))
    except OSError:
        return None
    return match.group(1) if match else None


def open_report(report_dir: str) -> tuple[int, int]:
    """The report ncu wrote, opened: no links, a regular file, under the cap, with the report
    magic, whole (`report_problem`). Returns (fd, size)."""
    path = os.path.join(report_dir, REPORT_STEM + ".ncu-rep")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        raise Refusal(EXIT_NO_REPORT, "ncu wrote no report") from None
    except OSError as exc:
        raise Refusal(EXIT_UNTRUSTED, f"the report is not a plain file ncu wrote "
                      f"({exc.strerror}); refused") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refusal(EXIT_UNTRUSTED, "the report is not a regular file; refused")
        if st.st_size > MAX_REPORT_BYTES:
            raise Refusal(EXIT_TOO_LARGE, f"the report is {st.st_size:,} bytes, over the "
                          f"{MAX_REPORT_BYTES:,}-byte cap")
        if os.pread(fd, len(REPORT_MAGIC), 0) != REPORT_MAGIC:
            raise Refusal(EXIT_NO_REPORT, "ncu's output is not an Nsight Compute report")
        problem = report_problem(fd, st.st_size)
        if problem is not None:
            raise Refusal(EXIT_NO_REPORT, f"ncu's report is not whole ({problem}; a full "
                          "disk?): nothing was sent")
    except BaseException:
        os.close(fd)
        raise
    return fd, st.st_size


class _Broken(Exception):
    """What is wrong with a report's container, in words."""


def report_problem(fd: int, size: int) -> str | None:
    """Why the report at `fd` (`size` bytes, at most MAX_REPORT_BYTES, its magic checked) is
    not whole, or None: every block's header and payload inside the file, the file ending at a
    block's end, REPORT_RESULTS results, and, in a known file version, the session's last block
    (the profiler's command line) met. Bounded: REPORT_MAX_BLOCKS headers of at most
    REPORT_MAX_HEADER bytes, each parsed to at most REPORT_MAX_FIELDS fields."""
    try:
        version, results, command_line = _walk_report(fd, size)
    except _Broken as broken:
        return str(broken)
    if results != REPORT_RESULTS:
        return f"it holds {results} results, not the {REPORT_RESULTS} asked for"
    if version in REPORT_KNOWN_VERSIONS and not command_line:
        return "the session's last blocks are missing: it ends after its results"
    return None


def _walk_report(fd: int, size: int) -> tuple[int | None, int, bool]:
    """(the file version, the results the blocks declare, whether the command line was met)."""
    at = len(REPORT_MAGIC)
    length = _report_u32(fd, at, size, "its file header")
    if length > REPORT_MAX_FILE_HEADER:
        raise _Broken(f"its file header would be {length:,} bytes")
    head = _report_read(fd, at + 4, length, size, "its file header")
    version = next((v for n, v in _fields(head) if n == 1 and isinstance(v, int)), None)
    at += 4 + length
    results, command_line = 0, False
    for _ in range(REPORT_MAX_BLOCKS):
        if at == size:
            return version, results, command_line
        length = _report_u32(fd, at, size, "a block")
        if not 0 < length <= REPORT_MAX_HEADER:
            raise _Broken(f"a block header at byte {at:,} would be {length:,} bytes")
        header = _report_read(fd, at + 4, length, size, "a block header")
        payload = 0
        for number, value in _fields(header):
            if number == BLOCK_RESULTS and isinstance(value, int):
                results += value
            elif number == BLOCK_PAYLOAD_SIZE and isinstance(value, int):
                payload = value
            elif number == BLOCK_SESSION_DETAILS and isinstance(value, bytes):
                command_line = command_line or _holds_command_line(value)
        at += 4 + length + payload
        if at > size:
            raise _Broken("its last block is cut short")
    raise _Broken(f"it has more than {REPORT_MAX_BLOCKS:,} blocks")


def _holds_command_line(part: bytes) -> bool:
    """Whether a block's SessionDetails holds the profiler's command line; a part
    past REPORT_MAX_PART bytes, or one that does not parse, does not."""
    if len(part) > REPORT_MAX_PART:
        return False
    try:
        return any(number == SESSION_COMMAND_LINE for number, _ in _fields(part))
    except _Broken:
        return False


def _report_u32(fd: int, at: int, size: int, what: str) -> int:
    return int.from_bytes(_report_read(fd, at, 4, size, what), "little")


def _report_read(fd: int, at: int, length: int, size: int, what: str) -> bytes:
    if at + length > size:
        raise _Broken(f"{what} is cut short")
    data = os.pread(fd, length, at)
    if len(data) < length:
        raise _Broken(f"{what} is cut short")
    return data


def _fields(data: bytes) -> list[tuple[int, int | bytes]]:
    """(field number, value) of a protobuf message, at most REPORT_MAX_FIELDS of them: varints
    as ints, length-delimited fields as bytes, fixed-width ones passed over."""
    found: list[tuple[int, int | bytes]] = []
    i = 0
    while i < len(data):
        if len(found) >= REPORT_MAX_FIELDS:
            raise _Broken(f"a header holds more than {REPORT_MAX_FIELDS} fields")
        key, i = _varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(data, i)
            found.append((number, value))
        elif wire == 2:
            length, i = _varint(data, i)
            if i + length > len(data):
                raise _Broken("a header's field runs past its end")
            found.append((number, data[i:i + length]))
            i += length
        elif wire in (1, 5):
            i += 8 if wire == 1 else 4
            if i > len(data):
                raise _Broken("a header's field runs past its end")
        else:
            raise _Broken("a header is not a protobuf message")
    return found


def _varint(data: bytes, i: int) -> tuple[int, int]:
    value = 0
    for shift in range(0, 70, 7):
        if i >= len(data):
            raise _Broken("a header's number runs past its end")
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, i
    raise _Broken("a header's number is longer than ten bytes")


def send_report(fd: int, size: int) -> int:
    """Stream the opened report to stdout (fd 1, unbuffered); returns the bytes sent."""
    sent = 0
    while sent < size:
        chunk = os.pread(fd, min(size - sent, 1 << 20), sent)
        if not chunk:
            break
        view = memoryview(chunk)
        while view:
            view = view[os.write(1, view):]
        sent += len(chunk)
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


class Run:
    """One capture's private directory (root-owned 0700: `tmp` for ncu's TMPDIR, `report` for
    the report) and its ending: every process below the helper ended, the clocks reset after
    `--clock base`, the directory removed, whatever signals come meanwhile. `end` runs once,
    from the main thread or from the watchdog, whichever comes first; the watchdog then exits
    the process itself."""

    def __init__(self, euid: int, layout: Layout, request: Request) -> None:
        self.layout = layout
        self.request = request
        self.work = tempfile.mkdtemp(prefix="ncu-reader-capture-",
                                     dir="/tmp" if euid == 0 else None)
        self.tmp = os.path.join(self.work, "tmp")
        self.report = os.path.join(self.work, "report")
        os.mkdir(self.tmp, 0o700)
        os.mkdir(self.report, 0o700)
        self.env: dict[str, str] = {}
        self.ncu_started = False
        self._lock = threading.Lock()
        self._ended = False
        self._done = threading.Event()

    def watch(self, deadline: float) -> None:
        """From now on, the time limit holds even if the main thread never comes back."""
        start_thread(self._watchdog, "watchdog", deadline + WATCHDOG_GRACE_S)

    def _watchdog(self, at: float) -> None:
        if not self._done.wait(max(0.0, at - time.monotonic())):
            self.end(exit_code=EXIT_TIMEOUT)

    def end(self, exit_code: int | None = None) -> None:
        """End everything this run started, once: a later call returns at once. Never
        interrupted: it runs outside `interruptible`, so a stop signal meanwhile is only
        recorded, and each step runs whatever the one before it raised. With `exit_code` (the
        watchdog), say so and leave the process from here, still holding the lock, so the main
        thread can say nothing after it."""
        with self._lock:
            if self._ended:
                return
            self._ended = True
            self._done.set()
            try:
                self._end_processes()
            finally:
                shutil.rmtree(self.work, ignore_errors=True)
                if exit_code is not None:
                    _failed(exit_code, f"the capture ran past {TIMEOUT_S:.0f} s and was stopped")
                    if _LINES is not None:
                        _LINES.flush(KILL_GRACE_S)
                    os._exit(exit_code)

    def _end_processes(self) -> None:
        """Every process below the helper ended; after `--clock base` the clocks reset, whether
        ncu ended well or was killed holding them, and whatever the reset left ended too."""
        try:
            end_descendants()
        finally:
            if self.ncu_started and self.request.clock == "base":
                try:
                    reset_clocks(self.layout, self.env, self.report)
                finally:
                    end_descendants()


def capture(request: Request, environ: dict[str, str]) -> int:
    """One capture. A stop signal ends the checks, ncu's run and the report's sending at once;
    from the private directory's making on, it waits for `Run.end`; one that came during the
    ending is a cancel too (the capture is never said done)."""
    with interruptible():  # nothing to end yet
        euid = os.geteuid()
        uid = requesting_uid(euid, environ)
        if request.dry_run:
            _write_stdout(json.dumps({"argv": dry_run_argv(request, euid, environ)}) + "\n")
            return EXIT_OK
        layout = load_layout(euid, environ)
        if not os.access(layout.ncu, os.X_OK):
            raise Refusal(EXIT_NCU_MISSING, f"ncu is not at {layout.ncu}")
        check_layout(layout, euid)
        if os.isatty(1):
            raise Refusal(EXIT_BAD_REQUEST, "stdout is a terminal: redirect it to a file")
        deadline = time.monotonic() + TIMEOUT_S
    run = Run(euid, layout, request)
    try:
        with interruptible():
            run.env = env = child_env(layout, euid, environ, run.tmp)
            run.watch(deadline)
            emit(started={"target": request.target, "dim": request.dim, "set": request.set,
                          "clock": request.clock, "uid": uid})
            run.ncu_started = True
            ended = run_ncu(ncu_argv(request, layout, run.report), env, run.report, deadline)
            refusal = failure(ended)
            if refusal is not None:
                raise refusal
            if not os.path.lexists(os.path.join(run.report, REPORT_STEM + ".ncu-rep")):
                raise Refusal(EXIT_NO_REPORT, _no_report_reason(ended.lines))
            fd, size = open_report(run.report)
            try:
                version = ncu_version(layout, env, run.report)
                sent = send_report(fd, size)
            finally:
                os.close(fd)
    finally:
        run.end()
    signum = stop_requested()
    if signum is not None:
        raise _Stop(signum)
    emit(final=True, done={"bytes": sent, "ncu_version": version, "driver": driver_version()})
    return EXIT_OK


def _write_stdout(text: str) -> None:
    data = text.encode()
    while data:
        data = data[os.write(1, data):]


def main(argv: list[str] | None = None) -> int:
    for sig in STOP_SIGNALS:  # before any thread starts: see start_thread
        signal.signal(sig, _on_stop)
    os.umask(0o077)
    unwritable = unwritable_standard_fds()  # before a closed one becomes a writable /dev/null
    open_standard_fds()
    if unwritable:
        verb = "is" if len(unwritable) == 1 else "are"
        code = _failed(EXIT_BAD_REQUEST, f"{' and '.join(unwritable)} {verb} not open for "
                       "writing (closed, pkexec hands it on as a read-only /dev/null): the "
                       "report or its messages would be lost, so nothing was run")
        if _LINES is not None:
            _LINES.flush(KILL_GRACE_S)
        return code
    for sig in (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU):
        signal.signal(sig, signal.SIG_IGN)  # Ctrl-Z must not stop the time limit
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # a closed stdout is a BrokenPipeError
    reset_limits()
    become_subreaper()
    code = _main(sys.argv[1:] if argv is None else argv)
    if _LINES is not None:
        _LINES.flush(KILL_GRACE_S)
    return code


def _main(args: list[str]) -> int:
    try:
        return capture(parse_request(args), dict(os.environ))
    except Refusal as refusal:
        return _failed(refusal.code, refusal.message)
    except (_Stop, BrokenPipeError):
        return _failed(EXIT_CANCELLED, "cancelled")
    except Exception as exc:  # the client needs a JSON line, never a traceback
        return _failed(EXIT_FAILED, f"{type(exc).__name__}: {exc}")


def _failed(code: int, message: str) -> int:
    emit(final=True, error=_cut(message), kind=KINDS[code], exit=code)
    return code


if __name__ == "__main__":
    status = main()
    # Leaving: a stop signal now (Python restores the default handlers as it finalizes) would
    # end the process by that signal instead of its exit code.
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    # stdout may be a closed pipe: leave without a flush that would print "Exception ignored".
    with contextlib.suppress(OSError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    sys.exit(status)
