"""Counts, sizes and durations stated as a counter's: the counter's value as written, and never a
number where the report holds none (the missing words there, and only there)."""

from __future__ import annotations

import re

from tests.claims.claim import Claim
from viewer.analysis import launch_grid, reading
from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.core.model import Kernel

NUMBER = r"-?\d+(?:,\d{3})*(?:\.\d+)?"
MISSING_WORDS = rf"(?:{re.escape(fmt.MISSING)}|{re.escape(fmt.NOT_IN_REPORT)})"
_SIZE = rf"{NUMBER} (?:[KMGT]B|B)"
_TIME = rf"{NUMBER} (?:s|ms|us|ns)"
K = metrics.SUMMARY_METRICS


def _value_of(kernel: Kernel, key: str) -> float | None:
    """A summary key's value (sectors_per_request derived), the grid's blocks and SMs as the
    reading takes them, else a metric's."""
    if key in metrics.SUMMARY_KEYS:
        return reading.value(kernel, key)
    if key == launch_grid.GRID_SIZE:
        return launch_grid.grid(kernel).blocks
    if key == launch_grid.SM_COUNT:
        return launch_grid.grid(kernel).sms
    return kernel.metric(key)


def _written(key: str, value: float | None, form: bool | str) -> str:
    """`value` as the words write it: by its unit, or in bytes to the byte ('bytes')."""
    if form == "bytes":
        return f"{fmt.count(value)} B"
    unit = metrics.unit(key) if key in metrics.SUMMARY_KEYS else "count"
    return fmt.by_unit(value, unit)


# (pattern whose one group that matched is the value as written, or the missing words; the
# summary key or metric it is; True: the value as its unit writes it, "bytes": to the byte, False:
# a figure derived from it, which only a report holding it may state)
_VALUES: tuple[tuple[str, str, bool | str], ...] = (
    *((rf"^{re.escape(metrics.row_label(k))}: (.+)$", k, True)
      for k in ("global_load_sectors", "global_load_requests", "sectors_per_request",
                "shared_load_instructions", "l2_read_sectors_from_l1", "dram_bytes_read",
                "dram_bytes_write", "duration_ns")),
    (rf"^shared: ({NUMBER}) shared loads|^shared: shared loads: ({MISSING_WORDS})",
     "shared_load_instructions", True),
    (rf"^global: ({NUMBER}) requests|^global: requests: ({MISSING_WORDS})",
     "global_load_requests", True),
    (rf"^global: .*?({NUMBER}) sectors|^global: .*sectors: ({MISSING_WORDS})",
     "global_load_sectors", True),
    (rf"^global: .*?({NUMBER}) per request", "sectors_per_request", True),
    (rf"^l1_to_l2: ({NUMBER}) sectors|^l1_to_l2: sectors: ({MISSING_WORDS})",
     "l2_read_sectors_from_l1", True),
    (rf"^dram_read: read ({_SIZE})|^dram_read: read: ({MISSING_WORDS})",
     "dram_bytes_read", True),
    (rf"^dram_write: written ({_SIZE})|^dram_write: written: ({MISSING_WORDS})",
     "dram_bytes_write", True),
    (rf"^shared: .* ({NUMBER}) per thread", "shared_load_instructions", False),
    (rf"^global: .* ({NUMBER}) per thread", "global_load_requests", False),
    (rf"({NUMBER}) global loads per thread", "global_load_requests", False),
    (rf"({NUMBER}) global load requests(?=, )", "global_load_requests", True),
    (rf"({NUMBER}) sectors each", "sectors_per_request", True),
    (rf"({NUMBER}) sectors across the grid", "global_load_sectors", True),
    (rf"({NUMBER}) shared loads per thread|shared loads ({MISSING_WORDS})",
     "shared_load_instructions", False),
    (rf"(?<=, )({NUMBER}) shared load instructions\.", "shared_load_instructions", True),
    # the terminal summary's rows
    (rf"Kernel -> Shared memory: shared load instructions ({NUMBER}|{MISSING_WORDS})",
     "shared_load_instructions", True),
    (rf"Kernel -> L1/TEX: global load requests ({NUMBER}|{MISSING_WORDS})",
     "global_load_requests", True),
    (rf"Kernel -> L1/TEX: global load sectors ({NUMBER}|{MISSING_WORDS})",
     "global_load_sectors", True),
    (rf"L1/TEX -> L2: sectors read from L1/TEX ({NUMBER}|{MISSING_WORDS})",
     "l2_read_sectors_from_l1", True),
    (rf"L2 -> DRAM: bytes read ({_SIZE}|{MISSING_WORDS})", "dram_bytes_read", True),
    (rf"L2 -> DRAM: bytes written ({_SIZE}|{MISSING_WORDS})", "dram_bytes_write", True),
    (rf"sectors per request ({NUMBER}|{MISSING_WORDS})(?![\d,.]* /)", "sectors_per_request", True),
    (rf"Duration ({_TIME}|{MISSING_WORDS})", "duration_ns", True),
    *((rf"{re.escape(metrics.label(m))} ({NUMBER}|{MISSING_WORDS})(?! %| blocks)", m, True)
      for m in metrics.BLOCK_LIMITS),
    # the derivation against the card: derived / measured
    *((rf"{words} {NUMBER} / ({NUMBER}|{MISSING_WORDS})", key, True) for words, key in (
        ("global load requests", "global_load_requests"),
        ("global load sectors", "global_load_sectors"),
        ("sectors per request", "sectors_per_request"),
        ("shared load instructions", "shared_load_instructions"))),
    # DRAM's box, the floor note
    (rf"^DRAM: ({_SIZE}) moved|^DRAM: bytes ({MISSING_WORDS})", "dram_bytes_read",
     False),
    (rf"^DRAM: .*?({_SIZE}) moved|^DRAM: bytes ({MISSING_WORDS})", "dram_bytes_write",
     False),
    (rf"^DRAM: ({_SIZE}) read \+ written", "dram__bytes.sum", False),
    (rf"DRAM read ({NUMBER} B) against", "dram_bytes_read", "bytes"),
    (rf"it wrote ({NUMBER} B) against", "dram_bytes_write", "bytes"),
    (rf"DRAM read ({_SIZE}) against", "dram_bytes_read", False),
    (rf"it wrote ({_SIZE}) against", "dram_bytes_write", False),
    # the stalls' words on coalesced loads
    (rf"\(({NUMBER}) global load requests\)", "global_load_requests", True),
    (rf"already executes ({NUMBER}) shared load instructions", "shared_load_instructions",
     True),
    (rf"here the loads are already coalesced: ({NUMBER}) sectors per request",
     "global_load_requests", False),
    # the grid
    (rf"({NUMBER}|{re.escape(fmt.MISSING)}) blocks on (?:{NUMBER}) SMs", launch_grid.GRID_SIZE,
     False),
    (rf"(?:{NUMBER}) blocks on ({NUMBER}) SMs", launch_grid.SM_COUNT, False),
)
VALUES = tuple((re.compile(p, re.M), key, exact) for p, key, exact in _VALUES)


def value_claims(text: str, kernel: Kernel) -> list[Claim]:
    """A value stated as a counter's: is it the counter's value as written (or, for a figure
    derived from it, does the report hold the counter), and is it the missing words exactly
    where the report holds none?"""
    found = []
    for pattern, key, exact in VALUES:
        for match in pattern.finditer(text):
            stated = next(g for g in (match.group(i) for i in range(1, pattern.groups + 1))
                          if g is not None)
            value = _value_of(kernel, key)
            missing = re.fullmatch(MISSING_WORDS, stated) is not None
            if missing or value is None:
                holds, why = missing == (value is None), f"{key} is {value}"
            elif exact:
                want = _written(key, value, exact)
                holds, why = stated == want, f"{key} is {want}"
            else:
                holds, why = True, ""
            found.append(Claim(match.group(0), holds, why))
    return found
