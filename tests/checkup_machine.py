"""A made-up machine for the capture check-up: every place it reads (PATH, the CUDA toolkit's
places, the driver's files, the polkit policy folder, pkexec, /proc) lies under one scratch folder,
so a test says what is installed whatever this machine has. An install is planted
(tests/capture_install.py) and named by a policy file there; its files are the tests' own, so the
check-up takes the tests' uid for root's (its `root` parameter, which the helper never reads).

Each ncu's `--version` runs as the tests' user, or as nobody where the tests run as root: a
machine whose ncu must answer lies in `reachable_folder()`, a folder nobody may enter.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from tests.capture_install import Install, plant
from viewer.capture import checkup as c
from viewer.capture.helper import protocol as h

POLICY = """<?xml version="1.0" encoding="UTF-8"?>
<policyconfig><action id="io.github.ncu-reader.capture">
<annotate key="org.freedesktop.policykit.exec.path">{helper}</annotate>
</action></policyconfig>
"""
NCU_SAYS = """\
#!/bin/sh
# A fake standing in for Nsight Compute's ncu: it answers --version with the words ncu 2025.3.1
# prints, and nothing else.
echo "NVIDIA (R) Nsight Compute Command Line Profiler"
echo "Copyright (c) 2018-2025 NVIDIA Corporation"
echo "Version 2025.3.1.0 (build 36398880) (public-release)"
"""
USER = 4321
"""The euid the route is decided for on a made-up machine: an ordinary user's, not root's."""
FULL_CAPS = "CapEff:\t000001ffffffffff\nCapBnd:\t000001ffffffffff\n"


@contextlib.contextmanager
def reachable_folder() -> Iterator[Path]:
    """A scratch folder under /tmp that any user may enter (0755), removed at the end: where the
    tests run as root, a fake ncu there can be run as nobody."""
    folder = Path(tempfile.mkdtemp(prefix="ncu-reader-checkup-"))
    try:
        folder.chmod(0o755)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def made_up_machine(base: Path, *, install: Install | None = None, ncu: bool = False,
                    admin_only: int | None = None, pkexec: bool = False,
                    agent: bool = False, euid: int = USER) -> dict[str, object]:
    """checkup()'s keyword arguments for a machine with `install` (named by its policy) or none,
    an ncu on PATH or none (nor in the toolkit's places), the driver's RmProfilingAdminOnly or
    no driver, pkexec or not, a polkit agent among the user's processes or not; the route is
    decided for `euid` (an ordinary user's unless a test says root's), on a native Linux with
    every capability."""
    actions, tools, proc = base / "actions", base / "bin", base / "proc"
    for folder in (actions, tools, proc):
        folder.mkdir(parents=True)
    if install is not None:
        (actions / f"{h.ACTION_ID}.policy").write_text(POLICY.format(helper=install.helper))
    if ncu:
        _executable(tools / "ncu", NCU_SAYS)
    params = base / "params"
    if admin_only is not None:
        params.write_text(f"RmProfilingAdminOnly: {admin_only}\n")
    if pkexec:
        _executable(base / "pkexec", "#!/bin/sh\nexit 127\n")
    if agent:
        (proc / "4242").mkdir()
        (proc / "4242" / "cmdline").write_bytes(b"/usr/lib/x/lxpolkit\0")
    (base / "version").write_text("Linux version 6.1.0 (made up)\n")
    (base / "status").write_text(FULL_CAPS)
    return {"environ": {"PATH": str(tools)}, "params": params, "sys_param": base / "sys-param",
            "policy_dir": actions, "pkexec": base / "pkexec", "proc": proc, "uid": os.getuid(),
            "system_ncu": lambda: None, "root": os.geteuid(), "euid": euid,
            "proc_version": base / "version", "proc_status": base / "status"}


def machine_checkup(base: Path, *, installed: bool = False, **parts: bool | int | None
                    ) -> Callable[[], list[c.Finding]]:
    """The check-up of made_up_machine(base, ...), with a planted install when `installed`:
    its ncu is NCU_SAYS (a shell script that nobody may run, where the planted fake's interpreter
    may lie where nobody can reach it), for the check-up runs nothing else of it."""
    install = plant(base / "install") if installed else None
    if install is not None:
        install.ncu.write_text(NCU_SAYS)
    return functools.partial(c.checkup, **made_up_machine(base / "machine", install=install,
                                                          **parts))


def _executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)
