"""The kernel header line of an ncu text export, in every generation seen.

    name(args) (32, 32, 1)x(16, 16, 1), Context 1, Stream 7, Device 0, CC 9.0     (2022+)
    name(args), 2022-Jun-02 19:22:05, Context 1, Stream 7                           (older)
    name(args) (32, 32, 1)x(16, 16, 1), Device 0, CC 9.0, Invocations 1            (summary)
    name(args), Block Size 256, Grid Size 32, Device 0, 1 invocations               (older summary)
    graph (4096, 1, 1)x(256, 1, 1), Context 1, Device 0, CC 9.0                     (not kernels:
    range, Context 1, Device 0, CC 9.0                                               no stream)

Kernel names hold commas, parentheses, brackets and templates, so the header is read from the
right: trailing ", Key value" fields are taken off while they are ones ncu prints, and what is left
is the name, with the launch's grid and block when ncu printed them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from viewer.core.model import Dim3
from viewer.readers._workloads import EXPORT_NAMES, export_kind

_FIELD = re.compile(
    r"(?P<key>Context|Stream|Device|CC|Invocations|Block Size|Grid Size|Green Context)"
    r" (?P<value>\S+)"
    r"|(?P<count>\d+) invocations"
    r"|(?P<time>\d{4}-[A-Za-z]{3}-\d{1,2} \d{1,2}:\d{2}:\d{2})"
)
_LAUNCH = re.compile(
    r"^(?P<name>.*\S) \((?P<g>\d+, \d+, \d+)\)x\((?P<b>\d+, \d+, \d+)\)$"
)


@dataclass(frozen=True)
class KernelHeader:
    """What a kernel header line says about the launch."""

    display_name: str
    grid: Dim3 | None = None
    block: Dim3 | None = None
    device_id: int | None = None
    cc: str | None = None
    kind: str | None = None
    """None for a kernel; "range" or "graph" for a result that is not one."""


_NOT_KERNELS = tuple(f"{name}{end}" for name in EXPORT_NAMES for end in (",", " ("))


def might_be_header(stripped: str) -> bool:
    """A cheap test that lets most lines skip the full parse."""
    return ("Context " in stripped and ("Stream " in stripped or stripped.startswith(_NOT_KERNELS))
            ) or "nvocations" in stripped


def parse_header(stripped: str) -> KernelHeader | None:
    """The header a stripped line holds, or None when the line is not a kernel header."""
    parts = stripped.split(", ")
    fields: dict[str, str] = {}
    while len(parts) > 1:
        m = _FIELD.fullmatch(parts[-1].strip())
        if m is None:
            break
        if m.group("key"):
            fields.setdefault(m.group("key"), m.group("value"))
        elif m.group("count"):
            fields.setdefault("Invocations", m.group("count"))
        parts.pop()
    name = ", ".join(parts).strip()
    m = _LAUNCH.match(name)
    kind = export_kind(m.group("name") if m else name) if "Stream" not in fields else None
    launch = ("Context" in fields and ("Stream" in fields or kind is not None)) or (
        "Invocations" in fields and "Device" in fields
    )
    if not launch or not name:
        return None
    grid = _size(fields.get("Grid Size"))
    block = _size(fields.get("Block Size"))
    if m:
        name = m.group("name")
        grid, block = _dim3(m.group("g")), _dim3(m.group("b"))
    device = fields.get("Device", "")
    return KernelHeader(name, grid, block, int(device) if device.isdigit() else None,
                        fields.get("CC"), kind if "Context" in fields else None)


def _dim3(text: str) -> Dim3:
    x, y, z = (int(v) for v in text.split(", "))
    return x, y, z


def _size(text: str | None) -> Dim3 | None:
    """A 1-D size as printed by the older summary ('256') as (256, 1, 1)."""
    if text is None or not text.isdigit():
        return None
    return int(text), 1, 1
