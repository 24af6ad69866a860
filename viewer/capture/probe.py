"""The outside facts that decide a capture's route, each read from a path a test can replace.

Nothing here needs privileges: the driver's params and /proc files are readable by anyone, and the
installed polkit policy is world-readable. No Qt.
"""

from __future__ import annotations

import os
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from pathlib import Path

from viewer.capture.helper import protocol as h

PARAMS = Path("/proc/driver/nvidia/params")
PROC_VERSION = Path("/proc/version")
PROC_STATUS = Path("/proc/self/status")
POLICY_DIR = Path("/usr/share/polkit-1/actions")
PKEXEC = Path("/usr/bin/pkexec")
EXEC_PATH_KEY = "org.freedesktop.policykit.exec.path"
CAP_SYS_ADMIN, CAP_PERFMON = 21, 38


def admin_only(params: Path = PARAMS) -> bool | None:
    """RmProfilingAdminOnly from the driver's params (readable by anyone); None when there is no
    NVIDIA driver or the file cannot be read."""
    try:
        text = params.read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "RmProfilingAdminOnly" and value.strip() in ("0", "1"):
            return value.strip() == "1"
    return None


def find_ncu() -> str | None:
    """ncu for the direct route: $NCU_READER_NCU, PATH, then the helper's usual places."""
    found = ncu_source(os.environ)
    return found[0] if found else None


def ncu_source(environ: Mapping[str, str],
               system_ncu: Callable[[], Path | None] = h.find_system_ncu
               ) -> tuple[str, str] | None:
    """(ncu's resolved path, where it was found) in find_ncu's order; None when nowhere."""
    named = environ.get(h.ENV_NCU, "")
    if os.path.isabs(named) and os.access(named, os.X_OK):
        return os.path.realpath(named), f"${h.ENV_NCU}"
    on_path = shutil.which("ncu", path=environ.get("PATH", ""))
    if on_path:
        return os.path.realpath(on_path), "PATH"
    system = system_ncu()
    if system is not None:
        return os.path.realpath(system), "the CUDA toolkit's usual places"
    return None


def installed_helper(policy_dir: Path = POLICY_DIR) -> Path | None:
    """The helper the installed polkit policy names (its exec.path), if it is there to run."""
    try:
        tree = ET.parse(policy_dir / f"{h.ACTION_ID}.policy")
    except (OSError, ET.ParseError):
        return None
    for action in tree.getroot().iter("action"):
        if action.get("id") != h.ACTION_ID:
            continue
        for note in action.iter("annotate"):
            path = (note.text or "").strip()
            if note.get("key") == EXEC_PATH_KEY and os.path.isabs(path):
                return Path(path) if os.path.isfile(path) and os.access(path, os.X_OK) else None
    return None


def has_counter_cap(status: Path, field: str) -> bool:
    """Whether /proc/self/status's `field` (CapEff, CapBnd) holds CAP_SYS_ADMIN or CAP_PERFMON;
    True when it cannot be told."""
    try:
        lines = status.read_text(encoding="ascii", errors="replace").splitlines()
    except OSError:
        return True
    for line in lines:
        name, _, value = line.partition(":")
        if name == field:
            try:
                bits = int(value.strip(), 16)
            except ValueError:
                return True
            return bool(bits & (1 << CAP_SYS_ADMIN | 1 << CAP_PERFMON))
    return True


def is_wsl(proc_version: Path) -> bool:
    try:
        text = proc_version.read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    return "microsoft" in text.lower() or "wsl" in text.lower()
