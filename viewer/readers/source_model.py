"""The source counters' model: one Instruction per SASS instruction, one KernelSource per
function, and what a capture lacks in words (viewer.readers.source reads them)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from viewer.core.model import function_name

INST_EXECUTED = "inst_executed"
THREADS_EXECUTED = "threads_executed"
L2_SECTORS = "l2_theoretical_sectors"
SAMPLES = "samples"

CAPTURE_COUNTERS = ("`--set full` (or `--section SourceCounters`) adds them; "
                    "`--import-source yes` keeps the source text in the report")
NO_COUNTERS = f"this capture holds no source counters: {CAPTURE_COUNTERS}"
NO_LINE_INFO = ("SASS only: the kernel was compiled without line info (nvcc -lineinfo, numba "
                "lineinfo=True), so no instruction maps to a source line")
PAGE_NO_LINES = ("SASS only: ncu's `--print-source sass` export carries no source lines; the"
                 " .ncu-rep has them where the kernel was compiled with line info")
NO_SOURCE_TEXT = ("the report holds no source text (`--import-source yes` keeps it); the lines "
                  "are shown by number")

GLOBAL_LOADS = ("LDG", "LDGSTS")
SHARED_LOADS = ("LDS", "LDSM")
"""The SASS opcodes (before the first '.') counted as global and as shared loads."""

_PREDICATE = re.compile(r"^@!?U?P\w*\s+")
_LABEL = re.compile(r"`\(\.L_x_\d+\)\s*")  # ncu_report's branch labels, which the page drops


def clean_sass(text: str) -> str:
    """An instruction's SASS as ncu's Source page prints it."""
    return _LABEL.sub("", text).strip()


@dataclass(frozen=True)
class Instruction:
    """One SASS instruction: its address, its text as ncu prints it, its source file and line
    (None without line info), ncu's counters on it (COUNTERS' keys; a counter the report lacks is
    absent) and its sampled stall reasons (reason -> samples, where any)."""

    address: int
    text: str
    file: str | None = None
    line: int | None = None
    counters: Mapping[str, float] = field(default_factory=dict)
    stalls: Mapping[str, float] = field(default_factory=dict)

    @property
    def opcode(self) -> str:
        """'LDG.E.128' of '@P0 LDG.E.128 R4, desc[UR4][R2.64]'."""
        words = _PREDICATE.sub("", self.text.strip()).split()
        return words[0] if words else ""

    @property
    def base_opcode(self) -> str:
        return self.opcode.split(".", 1)[0]

    @property
    def width_bits(self) -> int:
        """The access width an opcode names (LDS.128: 128), else 32."""
        for part in self.opcode.split(".")[1:]:
            if part.lstrip("U").isdigit():
                return int(part.lstrip("U"))
            if part == "64":
                return 64
        return 32

    @property
    def is_global_load(self) -> bool:
        return self.base_opcode in GLOBAL_LOADS

    @property
    def is_shared_load(self) -> bool:
        return self.base_opcode in SHARED_LOADS

    def value(self, counter: str) -> float | None:
        return self.counters.get(counter)

    @property
    def global_loads(self) -> float | None:
        """Its executed count if it is a global load, else 0; None without inst_executed."""
        executed = self.value(INST_EXECUTED)
        return None if executed is None else (executed if self.is_global_load else 0.0)

    @property
    def shared_loads(self) -> float | None:
        executed = self.value(INST_EXECUTED)
        return None if executed is None else (executed if self.is_shared_load else 0.0)


@dataclass
class KernelSource:
    """One function's instructions and what the report holds of them. `name` is its demangled
    name (else its function name), `kind` None for a kernel, else the result it ran in ('graph',
    'range') with `part` its node; `index` a kernel's number as the report readers number it
    (`Kernel.index`: a .ncu-rep's kernel results in order, when it was read whole; a source page
    export's kernel blocks in order), None for a graph's or range's function, which no report
    reader lists; `threads` the threads it launched (None where unsaid);
    `files` each source file and its text ('' where the report holds none); `held` the counters
    the report holds; `stalls` the sampled stall reasons it holds."""

    name: str
    instructions: tuple[Instruction, ...]
    position: int | None = None
    index: int | None = None
    kind: str | None = None
    part: int = 0
    threads: int | None = None
    files: dict[str, str] = field(default_factory=dict)
    held: frozenset[str] = frozenset()
    stalls: tuple[str, ...] = ()
    cut: bool = False
    from_page: bool = False

    @property
    def function(self) -> str:
        return function_name(self.name)

    @property
    def has_counters(self) -> bool:
        return INST_EXECUTED in self.held

    @property
    def has_line_info(self) -> bool:
        return any(i.line is not None for i in self.instructions)

    @property
    def has_source_text(self) -> bool:
        return any(self.files.values())

    @property
    def notes(self) -> list[str]:
        """What this capture lacks, in words: counters, line info, source text."""
        said = []
        if not self.has_counters:
            said.append(NO_COUNTERS)
        if not self.has_line_info:
            said.append(PAGE_NO_LINES if self.from_page else NO_LINE_INFO)
        elif not self.has_source_text:
            said.append(NO_SOURCE_TEXT)
        if self.cut:
            said.append(f"cut at {len(self.instructions):,} instructions")
        return said
