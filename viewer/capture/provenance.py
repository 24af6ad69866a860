"""What a capture made here was: GPU, driver, ncu, section set, clocks, size, time, route.

Kept beside the report as `<report>.json` and shown in the window as one line. The sink takes the
sidecar's name together with the report's by creating it empty (`claim_sidecar`, in the captures
folder the sink opened and checked); the note is then written atomically into that claim, in that
same open folder, never over any other file nor through a link. Reading never raises: a missing,
empty or garbled note is None. No Qt.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import stat
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path

from viewer.capture.folder import Folder
from viewer.core.atomic_write import exists_error, write_atomically

SCHEMA = 1
MAX_BYTES = 64 << 10
GPUS = Path("/proc/driver/nvidia/gpus")
ROUTE_WORDS = {"pkexec": "through pkexec", "direct": "run directly"}


@dataclass(frozen=True)
class Provenance:
    """One capture's circumstances; None where it could not be told."""

    gpu: str | None
    driver: str | None
    ncu_version: str | None
    set: str
    clock: str
    dim: int
    target: str
    captured_utc: str  # ISO 8601, e.g. 2026-12-01T12:03:01+00:00
    route: str


_OPTIONAL = ("gpu", "driver", "ncu_version")


def sidecar(report: Path) -> Path:
    """Where a report's provenance lives: `<report>.json`."""
    return report.with_name(report.name + ".json")


def gpu_name(gpus: Path = GPUS) -> str | None:
    """The first GPU's model from the driver's /proc files (readable by anyone)."""
    try:
        entries = sorted(gpus.iterdir())
    except OSError:
        return None
    for entry in entries:
        try:
            text = (entry / "information").read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for line in text.splitlines():
            name, _, value = line.partition(":")
            if name.strip() == "Model" and value.strip():
                return value.strip()
    return None


def from_capture(target: str, dim: int, set_name: str, clock: str, route: str,
                 done: Mapping[str, object] | None = None, gpu: str | None = None,
                 now: datetime | None = None) -> Provenance:
    """A capture's provenance from its request and the helper's `done` event; the GPU is `gpu`
    (the one the report names: viewer.capture.settle.record_provenance reads it, for the terminal
    and the window alike), else the driver's first GPU."""
    done = done or {}

    def text(key: str) -> str | None:
        value = done.get(key)
        return value if isinstance(value, str) and value else None

    return Provenance(gpu or gpu_name(), text("driver"), text("ncu_version"), set_name, clock,
                      dim, target, (now or datetime.now(UTC)).isoformat(timespec="seconds"),
                      route)


@dataclass(frozen=True)
class Claim:
    """A report's sidecar name, taken by creating the file empty (O_EXCL): only its maker fills
    it. `folder`, when the sink's open folder, is where every later step happens (not `path`)."""

    path: Path
    device: int
    inode: int
    folder: Folder | None = field(default=None, compare=False, repr=False)

    def _lstat(self) -> os.stat_result:
        if self.folder is None:
            return os.lstat(self.path)
        return os.stat(self.path.name, dir_fd=self.folder.fd, follow_symlinks=False)

    def is_ours(self) -> bool:
        """Still the empty file that was made (not replaced, not written)."""
        try:
            st = self._lstat()
        except OSError:
            return False
        return (stat.S_ISREG(st.st_mode) and st.st_size == 0
                and (st.st_dev, st.st_ino) == (self.device, self.inode))

    def release(self) -> None:
        """Give the name back: remove the empty file, if it is still the one made."""
        if self.is_ours():
            with contextlib.suppress(OSError):
                if self.folder is None:
                    os.unlink(self.path)
                else:
                    os.unlink(self.path.name, dir_fd=self.folder.fd)


_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def claim_sidecar(report: Path, folder: Folder | None = None) -> Claim:
    """Take `<report>.json` by creating it empty (0600), in `folder` (the report's open folder)
    when given; FileExistsError if anything, even a dangling link, has the name."""
    path = sidecar(report)
    if folder is None:
        fd = os.open(path, _NEW, 0o600)
    else:
        fd = os.open(path.name, _NEW, 0o600, dir_fd=folder.fd)
    try:
        st = os.fstat(fd)
    finally:
        os.close(fd)
    return Claim(path, st.st_dev, st.st_ino, folder)


def write_provenance(report: Path, record: Provenance, claim: Claim | None = None) -> Path:
    """Write `<report>.json` atomically: onto the empty file `claim` made for it, or (with no
    claim) where nothing is. FileExistsError rather than replace anything else; a failed write
    releases the claim."""
    data = json.dumps({"schema": SCHEMA, **asdict(record)}, indent=1).encode() + b"\n"

    def write(temporary: Path) -> None:
        temporary.chmod(0o600)  # private, like the report beside it
        temporary.write_bytes(data)

    path = sidecar(report)
    if claim is None:
        return write_atomically(path, write)
    if claim.path != path or not claim.is_ours():
        raise exists_error(path)
    try:
        if claim.folder is None:
            return write_atomically(path, write, replace=True)
        _write_claimed(claim, claim.folder, data)
        return path
    except OSError:
        claim.release()
        raise


def _write_claimed(claim: Claim, folder: Folder, data: bytes) -> None:
    """`data` into a new 0600 file in `folder`, flushed, then renamed onto the claim's name while
    that is still the empty file the claim made."""
    name = claim.path.name
    for _ in range(100):
        temporary = f".{name}.{secrets.token_hex(6)}.part"
        try:
            fd = os.open(temporary, _NEW, 0o600, dir_fd=folder.fd)
        except FileExistsError:
            continue
        break
    else:
        raise exists_error(claim.path)
    moved = False
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if not claim.is_ours():
            raise exists_error(claim.path)
        os.replace(temporary, name, src_dir_fd=folder.fd, dst_dir_fd=folder.fd)
        moved = True
    finally:
        if not moved:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary, dir_fd=folder.fd)


def read_provenance(report: Path) -> Provenance | None:
    """The report's provenance, or None when there is none or it is not one of ours."""
    try:
        with open(sidecar(report), "rb") as f:
            raw = f.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            return None
        data = json.loads(raw)
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            return None
        values = {f.name: data[f.name] for f in fields(Provenance)}
    except (OSError, ValueError, KeyError, RecursionError):
        return None
    for name, value in values.items():
        if name == "dim":
            if type(value) is not int:
                return None
        elif not (isinstance(value, str) or (value is None and name in _OPTIONAL)):
            return None
    try:
        datetime.fromisoformat(values["captured_utc"])
    except ValueError:
        return None
    return Provenance(**values)


def _ncu_short(version: str) -> str:
    """`Version 2025.3.1.0 (build 36398880) (public-release)` -> `2025.3.1`."""
    match = re.search(r"(\d+(?:\.\d+)+)", version)
    if not match:
        return version
    parts = match.group(1).split(".")
    return ".".join(parts[:3])


def describe(p: Provenance) -> str:
    """One line, e.g. `Captured here 2026-12-01 12:03 UTC: NVIDIA H200, driver 580.159.04,
    ncu 2025.3.1, full set, clocks base, 512x512x512, through pkexec`."""
    when = p.captured_utc
    with contextlib.suppress(ValueError):
        moment = datetime.fromisoformat(p.captured_utc)
        if moment.tzinfo is not None:
            moment = moment.astimezone(UTC)
        when = f"{moment:%Y-%m-%d %H:%M} UTC"
    parts = [
        p.gpu or "unknown GPU",
        f"driver {p.driver}" if p.driver else "driver unknown",
        f"ncu {_ncu_short(p.ncu_version)}" if p.ncu_version else "ncu version unknown",
        f"{p.set} set",
        f"clocks {p.clock}",
        f"{p.dim}x{p.dim}x{p.dim}",
        ROUTE_WORDS.get(p.route, f"through {p.route}"),
    ]
    return f"Captured here {when}: {', '.join(parts)}"
