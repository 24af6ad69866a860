"""ncu's source page export (`ncu --import R --page source --csv --print-source sass`) read into
viewer.readers.source's KernelSource: one per `"Kernel Name"` block, each instruction's address,
SASS and the counters ncu printed for it.

A capture without source counters prints only "Address" and "Source": its kernels hold no
counter. The export names each kernel by its demangled name and carries no line info, threads or
source text.

A gzip-compressed page is read from a private decompressed copy (viewer.readers._gzip). A line
longer than any ncu prints, a field past the csv module's limit, a row whose fields do not match
its header or whose address is not hex are refused, naming the line.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

from viewer.core.model import ReportError
from viewer.readers import _gzip, _opened
from viewer.readers._csv_lines import check_lines
from viewer.readers._text_lines import unended
from viewer.readers.source_model import (
    INST_EXECUTED,
    L2_SECTORS,
    SAMPLES,
    THREADS_EXECUTED,
    Instruction,
    KernelSource,
)

COLUMNS: dict[str, str] = {
    "Instructions Executed": INST_EXECUTED,
    "Avg. Threads Executed": THREADS_EXECUTED,
    "L2 Theoretical Sectors Global": L2_SECTORS,
    "L2 Theoretical Sectors Global Ideal": "l2_theoretical_sectors_ideal",
    "L2 Theoretical Sectors Global Excessive": "l2_theoretical_sectors_excessive",
    "# Samples": SAMPLES,
}
"""The page's column -> the counter it prints (viewer.readers.source_child.COUNTERS' keys)."""

STALL_COLUMNS: dict[str, str] = {
    "stall_barrier": "barrier", "stall_branch_resolving": "branch_resolving",
    "stall_dispatch": "dispatch_stall", "stall_drain": "drain", "stall_imc": "imc_miss",
    "stall_lg": "lg_throttle", "stall_long_sb": "long_scoreboard",
    "stall_math": "math_pipe_throttle", "stall_membar": "membar", "stall_mio": "mio_throttle",
    "stall_misc": "misc", "stall_no_inst": "no_instructions", "stall_not_selected": "not_selected",
    "stall_selected": "selected", "stall_short_sb": "short_scoreboard", "stall_sleep": "sleeping",
    "stall_tex": "tex_throttle", "stall_wait": "wait",
}
"""The page's sampled stall columns -> the reason as its metric names it
(`smsp__pcsamp_warps_issue_stalled_<reason>`)."""

KERNEL_NAME = "Kernel Name"
MAX_BYTES = 512 << 20


def _number(text: str) -> float | None:
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def read(path: Path) -> list[KernelSource]:
    """Every kernel block of the export at `path` (gzip-compressed or not); ReportError when it
    holds none, or a line or row no ncu source page prints. A last row cut short is left out,
    its kernel marked cut."""
    path = Path(path)
    try:
        with _opened.opened(path) as source, _gzip.readable(source, MAX_BYTES) as (plain, ended):
            try:
                return _read(plain.here, ended and not unended(plain.here))
            except ReportError as exc:
                raise ReportError(path, exc.reason) from None
    except OSError as exc:
        raise ReportError(path, f"cannot be read ({exc.strerror or exc})") from None


def _read(path: Path, ended: bool) -> list[KernelSource]:
    if path.stat().st_size > MAX_BYTES:
        raise ReportError(path, f"is too big for a source page export (over {MAX_BYTES >> 20} MiB)")
    check_lines(path)
    kernels: list[KernelSource] = []
    name: str | None = None
    header: list[str] = []
    rows: list[Instruction] = []
    damage: str | None = None  # why the row just read is damaged: refused unless it is the last

    def close(cut: bool = False) -> None:
        if name is not None:
            held = frozenset(COLUMNS[c] for c in header if c in COLUMNS)
            stalls = tuple(sorted(STALL_COLUMNS[c] for c in header if c in STALL_COLUMNS))
            kernels.append(KernelSource(name=name, instructions=tuple(rows), held=held,
                                        stalls=stalls, from_page=True, cut=cut,
                                        index=len(kernels)))

    with path.open(encoding="utf-8-sig", errors="replace", newline="") as f:
        reader = csv.reader(f)
        try:
            for row in reader:
                if damage is not None:
                    raise ReportError(path, damage)
                if len(row) >= 2 and row[0] == KERNEL_NAME:
                    close()
                    name, header, rows = row[1].strip(), [], []
                elif name is not None and not header:
                    header = [c.strip() for c in row]
                elif name is not None and row and row[0].startswith("0x"):
                    found = _instruction(header, row)
                    if isinstance(found, str):
                        damage = f"line {reader.line_num:,} {found}: the file is damaged"
                    else:
                        rows.append(found)
        except csv.Error as exc:
            raise ReportError(path, f"line {reader.line_num:,} cannot be read as CSV ({exc});"
                              " no ncu source page prints it (a quote left open?)") from None
    if damage is not None and ended:
        raise ReportError(path, damage)
    close(cut=damage is not None or not ended)
    if not kernels:
        raise ReportError(path, "holds no kernel: not a source page export of ncu's")
    return kernels


def _instruction(header: list[str], row: list[str]) -> Instruction | str:
    """The instruction a row prints, or why it is damaged."""
    if len(row) != len(header):
        return f"has {len(row):,} fields where its header has {len(header):,}"
    try:
        address = int(row[0], 16)
    except ValueError:
        return f"holds no instruction address ({row[0][:40]!r})"
    counters: dict[str, float] = {}
    stalls: dict[str, float] = {}
    for column, text in zip(header, row, strict=True):
        key = COLUMNS.get(column)
        reason = STALL_COLUMNS.get(column)
        if key is None and reason is None:
            continue
        value = _number(text)
        if value is None:
            continue
        if key is not None:
            counters[key] = value
        elif reason is not None and value:
            stalls[reason] = value
    source = row[header.index("Source")] if "Source" in header else ""
    return Instruction(address=address, text=source.strip(), counters=counters, stalls=stalls)
