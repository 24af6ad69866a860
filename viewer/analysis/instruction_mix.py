"""The Instruction mix view's plain half: which SASS instructions a kernel executed, by opcode,
and naive against tiled side by side.

Counts are ncu's inst_executed (warp level) of each SASS instruction, summed by its base opcode
(LDG of 'LDG.E.128'), as the source counters hold them (viewer.readers.source). A kernel whose
report holds no counters has no count (None), never zero; an opcode missing from the whole SASS
of a kernel that has counters it executed none of (0). The shares are of all the instructions
the kernel executed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from viewer.core import formatting as fmt
from viewer.readers.source import INST_EXECUTED, KernelSource

GLOBAL_LOAD = "LDG"
SHARED_LOAD = "LDS"

Family = Literal["global", "shared", "fp32", "other"]
_FAMILIES: dict[str, Family] = {
    "LDG": "global", "STG": "global", "LDGSTS": "global",
    "LDS": "shared", "STS": "shared", "LDSM": "shared",
    "FFMA": "fp32", "FADD": "fp32", "FMUL": "fp32",
}


def family(opcode: str) -> Family:
    """What an opcode works on: global or shared memory, FP32 arithmetic, or other."""
    return _FAMILIES.get(opcode, "other")


def counts(kernel: KernelSource | None) -> dict[str, float] | None:
    """Executed instructions by base opcode; None where the report holds no counters (or the
    SASS is cut short, so an opcode left out may have run)."""
    if kernel is None or not kernel.has_counters or kernel.cut:
        return None
    found: dict[str, float] = {}
    for instruction in kernel.instructions:
        executed = instruction.value(INST_EXECUTED)
        if executed is not None and instruction.base_opcode:
            opcode = instruction.base_opcode
            found[opcode] = found.get(opcode, 0.0) + executed
    return found


@dataclass(frozen=True)
class MixRow:
    """One opcode: its executed `counts` per kernel and their `shares` of each kernel's
    instructions (percent); None where a kernel has no counts."""

    opcode: str
    counts: tuple[float | None, ...]
    shares: tuple[float | None, ...]

    @property
    def ratio(self) -> float | None:
        """The second kernel's count over the first's; None where either lacks it or the
        first executed none."""
        if len(self.counts) != 2:
            return None
        first, second = self.counts
        return None if first is None or second is None or first == 0 else second / first

    @property
    def largest(self) -> float:
        return max((c for c in self.counts if c is not None), default=0.0)


@dataclass(frozen=True)
class Mix:
    """The instruction mix of one kernel or two: `totals` (all instructions executed, None
    without counts) and `rows`, the largest count first."""

    totals: tuple[float | None, ...]
    rows: tuple[MixRow, ...]

    @property
    def empty(self) -> bool:
        return not self.rows

    def row(self, opcode: str) -> MixRow | None:
        return next((r for r in self.rows if r.opcode == opcode), None)


def _share(count: float | None, total: float | None) -> float | None:
    if count is None or not total:
        return None
    return 100.0 * count / total


def mix(kernels: Sequence[KernelSource | None]) -> Mix:
    """The mix of `kernels` (one, or two side by side), every opcode any of them executed."""
    found = [counts(k) for k in kernels]
    totals = tuple(None if c is None else sum(c.values()) for c in found)
    opcodes = sorted({op for c in found if c is not None for op in c})
    rows = []
    for opcode in opcodes:
        each = tuple(None if c is None else c.get(opcode, 0.0) for c in found)
        rows.append(MixRow(opcode, each, tuple(_share(n, t) for n, t in zip(each, totals,
                                                                               strict=True))))
    rows.sort(key=lambda r: (-r.largest, r.opcode))
    return Mix(totals, tuple(rows))


def _millions(value: float) -> str:
    return f"{value / 1e6:.2f} M"


def sentence(found: Mix) -> str:
    """One line on the mix, computed from its values: the kernel's most executed opcode and
    its global loads; of two, B's instructions and global loads against A's, and its shared
    loads."""
    held = [t for t in found.totals if t is not None]
    if found.empty or not held:
        return ""
    if len(found.totals) == 1:
        top = found.rows[0]
        text = (f"{top.opcode} is the most executed instruction: {fmt.percent(top.shares[0])}"
                f" of {_millions(held[0])}")
        loads = found.row(GLOBAL_LOAD)
        if loads is not None and top is not loads:
            text += f"; global loads ({GLOBAL_LOAD}) are {fmt.percent(loads.shares[0])}"
        return text + "."
    first, second = found.totals
    if first is None or second is None:
        return ""
    text = (f"B executed {fmt.ratio(second / first if first else None)} A's instructions"
            f" ({_millions(second)} against {_millions(first)})")
    a_global, b_global = _pair(found, GLOBAL_LOAD)
    a_shared, b_shared = _pair(found, SHARED_LOAD)
    if a_global and b_global is not None:
        text += (f"; its global loads ({GLOBAL_LOAD}) {fmt.ratio(b_global / a_global)} A's"
                 f" ({_millions(b_global)} against {_millions(a_global)})")
    if b_shared:
        against, words = ((a_shared, "shared loads") if a_shared
                          else (a_global, f"global loads ({GLOBAL_LOAD})"))
        text += f"; its shared loads ({SHARED_LOAD}, {_millions(b_shared)})"
        text += f" {fmt.ratio(b_shared / against)} A's {words}" if against else ""
    return text + "."


def _pair(found: Mix, opcode: str) -> tuple[float | None, float | None]:
    """The two kernels' counts of `opcode` (0 where one executed none; None: no counts)."""
    row = found.row(opcode)
    first, second = found.totals if row is None else row.counts
    if row is None:  # neither executed it
        return (None if first is None else 0.0), (None if second is None else 0.0)
    return first, second
