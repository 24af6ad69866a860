"""What is known of how a report was captured: clock control, ncu version, launches skipped.

These are the records beside a report: the provenance of a capture made by this app
(`<report>.json`, viewer.capture.provenance), profiles/metadata.json for the shipped pair, and a
published reference's own provenance. A report's own record of its session (`Report.session`,
read by viewer.readers.ncu_session) comes first where the misreads weigh them
(viewer.lesson.misreads.known_facts); anything neither says is unknown and stays None: never
guessed.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

from viewer.capture.helper.protocol import LAUNCH_SKIP
from viewer.capture.provenance import read_provenance
from viewer.core import shipped
from viewer.core.model import Report
from viewer.readers.reference_toml import PublishedKernel

_VERSION = re.compile(r"(\d{4}\.\d+(?:\.\d+)?)")
_MAX_METADATA_BYTES = 1 << 20


@dataclass(frozen=True)
class CaptureFacts:
    """A report's capture as its record says it; None where no record says."""

    clock_control: str | None = None  # "base", "none", ...
    ncu_version: str | None = None  # "2025.3.1"
    launch_skip: int | None = None  # launches of the kernel passed over before the capture
    record: str | None = None  # where these came from, for people


def ncu_short(text: str | None) -> str | None:
    """'Version 2025.3.1.0 (build 36398880)' or 'Nsight Compute 2025.3.1' -> '2025.3.1'."""
    if not text:
        return None
    match = _VERSION.search(text)
    return match.group(1) if match else text.strip() or None


def capture_facts(report: Report) -> CaptureFacts:
    """The clock control, ncu version and launch skip of `report`, from its record."""
    first = report.kernels[0] if report.kernels else None
    if isinstance(first, PublishedKernel) and first.published is not None:
        p = first.published
        return CaptureFacts(p.clock_control, ncu_short(p.ncu), p.launch_skip,
                            f"the published provenance in {Path(report.source).name}")
    path = Path(report.source)
    record = read_provenance(path)
    if record is not None:
        # Every capture this app makes passes the helper's --launch-skip.
        return CaptureFacts(record.clock, ncu_short(record.ncu_version), LAUNCH_SKIP,
                            f"the capture record {path.name}.json")
    return _shipped_facts(path) or CaptureFacts()


@functools.cache
def _shipped_metadata() -> dict[str, object] | None:
    """profiles/metadata.json, read once: it ships with the app and does not change."""
    try:
        with shipped.metadata().open("rb") as f:
            data = json.loads(f.read(_MAX_METADATA_BYTES))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


@functools.cache
def _profiles_dir() -> Path:
    """The shipped reports' folder, found once: it ships with the app and does not move."""
    return shipped.profiles_dir()


@functools.cache
def _resolved(folder: Path) -> Path:
    return folder.resolve()


def _shipped_facts(path: Path) -> CaptureFacts | None:
    """profiles/metadata.json's facts for a file the shipped pair's commands wrote."""
    folder = _profiles_dir()
    try:
        if path.resolve().parent != _resolved(folder):
            return None
    except OSError:
        return None
    data = _shipped_metadata()
    if data is None:
        return None
    commands = data.get("commands")
    if not isinstance(commands, list) or not any(
            isinstance(c, str) and f"{folder.name}/{path.name}" in c for c in commands):
        return None
    clock = data.get("clock_control")
    ncu = data.get("ncu")
    order = data.get("launch_order")
    skip = order.get("launch_skip") if isinstance(order, dict) else None
    return CaptureFacts(clock if isinstance(clock, str) else None,
                        ncu_short(ncu) if isinstance(ncu, str) else None,
                        skip if type(skip) is int else None,
                        f"{folder.name}/{shipped.METADATA}")
