"""A made-up machine for the capture check-up: every place it reads (PATH, the CUDA toolkit's
places, the driver's files, the polkit policy folder, pkexec, /proc) lies under one scratch folder,
so a test says what is installed whatever this machine has. An install is planted
(tests/capture_install.py) and named by a policy file there; its files are the tests' own, so the
check-up takes the tests' uid for root's (its `root` parameter, which the helper never reads).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path

from tests.capture_install import Install, plant
from viewer.capture import checkup as c
from viewer.capture.helper import protocol as h

POLICY = """<?xml version="1.0" encoding="UTF-8"?>
<policyconfig><action id="io.github.ncu-reader.capture">
<annotate key="org.freedesktop.policykit.exec.path">{helper}</annotate>
</action></policyconfig>
"""


def made_up_machine(base: Path, *, install: Install | None = None, ncu: bool = False,
                    admin_only: int | None = None, pkexec: bool = False,
                    agent: bool = False) -> dict[str, object]:
    """checkup()'s keyword arguments for a machine with `install` (named by its policy) or none,
    an ncu on PATH or none (nor in the toolkit's places), the driver's RmProfilingAdminOnly or
    no driver, pkexec or not, a polkit agent among the user's processes or not."""
    actions, tools, proc = base / "actions", base / "bin", base / "proc"
    for folder in (actions, tools, proc):
        folder.mkdir(parents=True)
    if install is not None:
        (actions / f"{h.ACTION_ID}.policy").write_text(POLICY.format(helper=install.helper))
    if ncu:
        _executable(tools / "ncu", "#!/bin/sh\necho fake ncu\n")
    params = base / "params"
    if admin_only is not None:
        params.write_text(f"RmProfilingAdminOnly: {admin_only}\n")
    if pkexec:
        _executable(base / "pkexec", "#!/bin/sh\nexit 127\n")
    if agent:
        (proc / "4242").mkdir()
        (proc / "4242" / "cmdline").write_bytes(b"/usr/lib/x/lxpolkit\0")
    return {"environ": {"PATH": str(tools)}, "params": params, "sys_param": base / "sys-param",
            "policy_dir": actions, "pkexec": base / "pkexec", "proc": proc, "uid": os.getuid(),
            "system_ncu": lambda: None, "root": os.geteuid()}


def machine_checkup(base: Path, *, installed: bool = False, **parts: bool | int | None
                    ) -> Callable[[], list[c.Finding]]:
    """The check-up of made_up_machine(base, ...), with a planted install when `installed`."""
    install = plant(base / "install") if installed else None
    return functools.partial(c.checkup, **made_up_machine(base / "machine", install=install,
                                                          **parts))


def _executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)
