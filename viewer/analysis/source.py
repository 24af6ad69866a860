"""The Source view's plain half: a kernel's source lines and SASS with ncu's counters, per-thread
counts, the hottest lines, and naive against tiled beside the lesson's derivation.

API (everything takes viewer.readers.source.KernelSource, read by `read_source`):

- `table(kernel) -> SourceTable`: `lines` (one Row per source line, the sums over its
  instructions; empty without line info) and `sass` (one Row per instruction), `notes` (what the
  capture lacks), `per_thread_note` (how per-thread counts were made).
- `Row`: `file`, `line`, `address` (None for a line), `text` (the source line or the SASS; None
  where the report holds no text), `value(column)` for COLUMNS (None: the report lacks the
  counter, never zero) and `per_thread(column)` (executed counts per thread).
- `L2_EXCESSIVE` (ncu's excess over the ideal sectors) is a value too, beside COLUMNS;
  `stall_reasons(row, n)`: its sampled stall reasons with the most samples.
- `sort_rows(rows, column, descending)`: any column, missing values last; `hottest(rows, n)`:
  the rows with the most warp stall samples, else the most executed.
- `compare(naive, tiled) -> Comparison`: the rows that issue global and shared loads lined up
  side by side (lines, else SASS), their per-thread counts against viewer.analysis.predict's
  derivation where the kernel is the lesson's at the lesson's layout
  (viewer.analysis.source_layout; `Comparison.lesson(role)`), and `sentences`, each computed from
  the reports (which loads are vector loads, which kernel is not the lesson's and why).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from viewer.analysis import predict, source_layout
from viewer.analysis.predict import WARP_SIZE
from viewer.analysis.reading import lesson_role
from viewer.readers.source import (
    INST_EXECUTED,
    L2_SECTORS,
    SAMPLES,
    THREADS_EXECUTED,
    Instruction,
    KernelSource,
)

GLOBAL_LOADS = "global_loads"
SHARED_LOADS = "shared_loads"
COLUMNS: tuple[str, ...] = (INST_EXECUTED, GLOBAL_LOADS, SHARED_LOADS, L2_SECTORS, SAMPLES)
"""A row's values: ncu's inst_executed (warp level), the executed count of its global (LDG) and
shared (LDS) loads, memory_l2_theoretical_sectors_global, smsp__pcsamp_sample_count."""

L2_EXCESSIVE = "l2_theoretical_sectors_excessive"
"""derived__memory_l2_theoretical_sectors_global_excessive: the sectors beyond the ideal."""

_PICK: dict[str, Callable[[Instruction], float | None]] = {
    INST_EXECUTED: lambda i: i.value(INST_EXECUTED),
    GLOBAL_LOADS: lambda i: i.global_loads,
    SHARED_LOADS: lambda i: i.shared_loads,
    L2_SECTORS: lambda i: i.value(L2_SECTORS),
    SAMPLES: lambda i: i.value(SAMPLES),
    L2_EXCESSIVE: lambda i: i.value(L2_EXCESSIVE),
}
_EXECUTED = {INST_EXECUTED, GLOBAL_LOADS, SHARED_LOADS}


def _sum(values: Iterable[float | None]) -> float | None:
    got = list(values)
    return None if not got or any(v is None for v in got) else math.fsum(v or 0.0 for v in got)


@dataclass(frozen=True)
class Row:
    """One source line (`address` None) or one SASS instruction, and its instructions."""

    file: str | None
    line: int | None
    address: int | None
    text: str | None
    instructions: tuple[Instruction, ...]
    threads: int | None = None

    def value(self, column: str) -> float | None:
        """The sum over its instructions; None where the report lacks the counter."""
        return _sum(_PICK[column](i) for i in self.instructions)

    def per_thread(self, column: str = INST_EXECUTED) -> float | None:
        """An executed count per thread: each instruction's warp-level count times the threads
        a warp executed it with (32 where the report does not say), over the kernel's
        threads; None without the count or the threads."""
        if column not in _EXECUTED or not self.threads:
            return None
        parts = []
        for i in self.instructions:
            executed = _PICK[column](i)
            lanes = i.value(THREADS_EXECUTED)
            parts.append(None if executed is None else
                         executed * (WARP_SIZE if lanes is None else lanes) / self.threads)
        return _sum(parts)

    @property
    def opcodes(self) -> tuple[str, ...]:
        return tuple(i.opcode for i in self.instructions)


def row_key(row: Row) -> str:
    """'file:line' for a source line, '0x7fcb2b7a0f00' for an instruction: how a row is named
    to the Source view."""
    if row.address is None:
        return f"{row.file}:{row.line}"
    return f"0x{row.address:x}"


def stall_reasons(row: Row, n: int = 3) -> list[tuple[str, float]]:
    """The row's `n` sampled stall reasons (as their metric names them) with the most samples,
    most first; [] where it has none."""
    totals: dict[str, float] = {}
    for i in row.instructions:
        for reason, samples in i.stalls.items():
            totals[reason] = totals.get(reason, 0.0) + samples
    return sorted(((r, v) for r, v in totals.items() if v), key=lambda rv: (-rv[1], rv[0]))[:n]


@dataclass(frozen=True)
class SourceTable:
    kernel: KernelSource
    lines: tuple[Row, ...]
    sass: tuple[Row, ...]
    notes: tuple[str, ...]
    per_thread_note: str


def _line_text(kernel: KernelSource, file: str, line: int) -> str | None:
    text = kernel.files.get(file) or ""
    lines = text.splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else None


def table(kernel: KernelSource) -> SourceTable:
    """The kernel's source lines (sums over their instructions) and its SASS, with notes."""
    sass = tuple(Row(i.file, i.line, i.address, i.text, (i,), kernel.threads)
                 for i in kernel.instructions)
    grouped: dict[tuple[str, int], list[Instruction]] = {}
    for i in kernel.instructions:
        if i.file is not None and i.line is not None:
            grouped.setdefault((i.file, i.line), []).append(i)
    lines = tuple(Row(f, n, None, _line_text(kernel, f, n), tuple(grouped[(f, n)]),
                      kernel.threads) for f, n in sorted(grouped))
    return SourceTable(kernel, lines, sass, tuple(kernel.notes), per_thread_note(kernel))


def per_thread_note(kernel: KernelSource) -> str:
    """How this kernel's per-thread counts are made, in words."""
    if not kernel.has_counters:
        return "no per-thread counts: the report holds no executed counts"
    if not kernel.threads:
        return "no per-thread counts: the report does not say how many threads ran"
    lanes = ("the threads a warp executed each with (ncu's derived__avg_thread_executed)"
             if THREADS_EXECUTED in kernel.held else
             f"{WARP_SIZE} threads a warp (the report does not say how many executed)")
    return (f"per thread: each instruction's warp-level count times {lanes}, over the"
            f" {kernel.threads:,} threads launched")


def per_thread_totals(t: SourceTable) -> dict[str, float | None]:
    """The whole kernel's executed counts per thread (instructions, global and shared loads):
    the sums of its instructions' per-thread counts; None where they cannot be made."""
    return {c: _sum(r.per_thread(c) for r in t.sass) if t.sass else None
            for c in (INST_EXECUTED, GLOBAL_LOADS, SHARED_LOADS)}


def sort_rows(rows: Sequence[Row], column: str, descending: bool = True) -> list[Row]:
    """The rows by `column`, missing values last whichever the direction; ties in their order."""
    present = [r for r in rows if r.value(column) is not None]
    missing = [r for r in rows if r.value(column) is None]
    return sorted(present, key=lambda r: r.value(column) or 0.0, reverse=descending) + missing


def hottest(rows: Sequence[Row], n: int = 5) -> list[Row]:
    """The `n` rows with the most warp stall samples (else the most executed), none at zero."""
    column = SAMPLES if any(r.value(SAMPLES) for r in rows) else INST_EXECUTED
    return [r for r in sort_rows(rows, column)[:n] if r.value(column)]


@dataclass(frozen=True)
class LoadGroup:
    """One kernel's load instructions of one kind and width: 'LDS.128', executed per thread,
    the floats (32-bit words) each brings."""

    opcode: str
    per_thread: float
    words: int


@dataclass(frozen=True)
class Comparison:
    """Naive and tiled side by side: the rows that issue loads (`by_line`: source lines, else
    SASS), each kernel's loads per thread against the lesson's, and the sentences."""

    naive_global: tuple[Row, ...]
    tiled_global: tuple[Row, ...]
    tiled_shared: tuple[Row, ...]
    by_line: bool
    naive_global_per_thread: float | None
    tiled_global_per_thread: float | None
    tiled_shared_per_thread: float | None
    tiled_shared_groups: tuple[LoadGroup, ...]
    prediction: predict.Prediction | None
    sentences: tuple[str, ...] = field(default_factory=tuple)
    lesson_naive: bool = False  # the first kernel is the lesson's naive at the lesson's layout
    lesson_tiled: bool = False

    def lesson(self, role: str) -> predict.KernelPrediction | None:
        """The derivation of the `role` kernel ('naive', 'tiled'), where that kernel is the
        lesson's at the lesson's layout; else None: nothing of the lesson stands beside it."""
        if self.prediction is None or not (self.lesson_naive if role == "naive"
                                           else self.lesson_tiled):
            return None
        return self.prediction.naive if role == "naive" else self.prediction.tiled


def _rows(kernel: KernelSource, column: str) -> tuple[tuple[Row, ...], bool]:
    t = table(kernel)
    rows = t.lines if t.lines else t.sass
    return tuple(r for r in rows if r.value(column)), bool(t.lines)


def _total(rows: Iterable[Row], column: str) -> float | None:
    return _sum(r.per_thread(column) for r in rows) if rows else None


def load_groups(kernel: KernelSource, shared: bool) -> tuple[LoadGroup, ...]:
    """The kernel's global or shared loads by opcode, executed per thread, widest first."""
    column = SHARED_LOADS if shared else GLOBAL_LOADS
    counts: dict[str, tuple[float, int]] = {}
    for i in kernel.instructions:
        if (i.is_shared_load if shared else i.is_global_load):
            each = Row(None, None, i.address, i.text, (i,), kernel.threads).per_thread(column)
            if each is None:
                continue
            so_far = counts.get(i.opcode, (0.0, i.width_bits // 32))
            counts[i.opcode] = (so_far[0] + each, so_far[1])
    return tuple(sorted((LoadGroup(op, n, w) for op, (n, w) in counts.items() if n),
                        key=lambda g: (-g.words, g.opcode)))


def square_dim(kernel: KernelSource) -> int | None:
    """The lesson's size, where the kernel ran one thread per element of a square c."""
    if not kernel.threads:
        return None
    dim = math.isqrt(kernel.threads)
    return dim if dim * dim == kernel.threads else None


def _n(value: float) -> str:
    return f"{value:,.0f}" if abs(value - round(value)) < 0.005 else f"{value:,.2f}"


def compare(naive: KernelSource, tiled: KernelSource, dim: int | None = None) -> Comparison:
    """The lesson's comparison read from the two kernels' SASS and counters."""
    naive_global, by_line_n = _rows(naive, GLOBAL_LOADS)
    tiled_global, by_line_t = _rows(tiled, GLOBAL_LOADS)
    tiled_shared, _ = _rows(tiled, SHARED_LOADS)
    dim = dim or square_dim(naive) or square_dim(tiled)
    prediction = None
    if dim is not None:
        try:
            prediction = predict.derive(dim)
        except predict.DerivationError:
            prediction = None
    groups = load_groups(tiled, shared=True)
    gaps = {role: None if prediction is None else source_layout.not_the_lessons(k, role,
                                                                                prediction)
            for role, k in (("naive", naive), ("tiled", tiled))}
    result = Comparison(
        naive_global, tiled_global, tiled_shared, by_line_n and by_line_t,
        _total(naive_global, GLOBAL_LOADS), _total(tiled_global, GLOBAL_LOADS),
        _total(tiled_shared, SHARED_LOADS), groups, prediction,
        lesson_naive=prediction is not None and gaps["naive"] is None,
        lesson_tiled=prediction is not None and gaps["tiled"] is None)
    said = _sentences(naive, tiled, result, [g for g in gaps.values() if g is not None])
    return replace(result, sentences=tuple(said))


def _against(what: str, got: float | None, lesson: int | None) -> str:
    if got is None:
        return f"{what}: the report holds no executed counts"
    said = f"{what}: {_n(got)} per thread"
    if lesson is None:
        return said
    return said + (", as the lesson derives" if round(got) == lesson
                   else f", against the lesson's {lesson:,}")


def _whose(kernel: KernelSource, role: str) -> str:
    """'The naive kernel's' for the app's matmul_naive, else 'gemm's'."""
    return (f"The {role} kernel's" if lesson_role(kernel.function) == role
            else f"{kernel.function}'s")


def _sentences(naive: KernelSource, tiled: KernelSource, c: Comparison,
               not_the_lessons: list[str]) -> list[str]:
    said = []
    n, t = c.lesson("naive"), c.lesson("tiled")
    def where(count: int) -> str:
        """'8 source lines', '1 source line', '3 SASS instructions (no line info)'."""
        noun = ("source line" if c.by_line else "SASS instruction") + ("" if count == 1 else "s")
        return f"{count} {noun}" + ("" if c.by_line else " (no line info)")

    said.append(_against(f"{_whose(naive, 'naive')} global loads", c.naive_global_per_thread,
                         n.global_loads_per_thread if n else None)
                + f", issued from {where(len(c.naive_global))}.")
    said.append(_against(f"{_whose(tiled, 'tiled')} global loads", c.tiled_global_per_thread,
                         t.global_loads_per_thread if t else None)
                + f", from {where(len(c.tiled_global))}.")
    shared = _against("Its shared loads", c.tiled_shared_per_thread,
                      t.shared_loads_per_thread if t else None)
    said.append(shared + f", from {where(len(c.tiled_shared))}.")
    if c.tiled_shared_groups:
        words = math.fsum(g.per_thread * g.words for g in c.tiled_shared_groups)
        parts = ", ".join(f"{_n(g.per_thread)} {g.opcode} ({g.words} float"
                          f"{'s' if g.words != 1 else ''} each)" for g in c.tiled_shared_groups)
        vector = [g for g in c.tiled_shared_groups if g.words > 1]
        sentence = f"In the SASS those are {parts}: {_n(words)} floats per thread"
        if t is not None:
            lesson = t.shared_loads_per_thread
            sentence += (f", as many as the lesson's {lesson:,} one-float loads"
                         if round(words) == lesson else f", against the lesson's {lesson:,}")
        if vector:
            sentence += (f"; the compiler made {' and '.join(g.opcode for g in vector)} vector"
                         " loads, so fewer instructions carry the floats")
        said.append(sentence + ".")
    if c.prediction is None:
        said.append("The lesson's derivation needs the size: the kernels' threads are not one"
                    " per element of a square matrix.")
    said.extend(not_the_lessons)
    for kernel in (naive, tiled):
        for note in kernel.notes:
            said.append(f"{kernel.function}: {note}.")
    return said
