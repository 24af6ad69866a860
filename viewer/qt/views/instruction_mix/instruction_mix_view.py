"""Instruction mix (I): which SASS instructions each kernel executed, by opcode, largest first.

Each opcode is a row per kernel: how many times it executed it (ncu's inst_executed, warp level),
as a bar of its share of all the kernel's instructions, and with two kernels B's count over
A's (viewer.analysis.instruction_mix), under one sentence computed from the values. The
counters are the source counters (`Need.source`), read when the view is shown, one read per
report for every view that asks; an export, or a capture without them, says so in one line.
"""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtWidgets import QGridLayout, QVBoxLayout

from viewer.analysis import instruction_mix as analysis
from viewer.analysis.instruction_mix import Mix, MixRow
from viewer.core import formatting as fmt
from viewer.core.model import Kernel, Report
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.on_demand import OnDemandTab
from viewer.readers import sniff
from viewer.readers.source import KernelSource
from viewer.session import Need


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    BAR = "bar"
    KERNEL = "kernel"
    MISSING = "missing"
    OPCODE = "opcode"
    RATIO = "ratio"
    SENTENCE = "sentence"


READING = "Reading the source counters from the report…"
EXPORT = ("this file is an export ({format}), which holds no per-instruction counters: open "
          "the .ncu-rep")
NO_COUNTERS = "the report holds no executed-instruction counters for this kernel"
COLORS = {"global": "memory", "shared": "shared", "fp32": "compute", "other": "neutral"}


def count_text(row: MixRow, column: int) -> str:
    """'8,388,608 (34.39 %)', the count of kernel `column` and its share."""
    count = row.counts[column]
    if count is None:
        return fmt.MISSING
    return f"{fmt.count(count)} ({fmt.percent(row.shares[column])})"


def ratio_text(row: MixRow) -> str:
    """B's count over A's: '0.06x', 'only in B' where A executed none, n/a without counts."""
    first, second = row.counts
    if first == 0 and second:
        return "only in B"
    return fmt.ratio(row.ratio)


class InstructionMixView(OnDemandTab):
    """The opcodes one kernel executed, or two kernels' side by side (A first)."""

    VIEW = "instruction_mix"
    TITLE = "Instruction mix"
    KEY = "I"
    QUESTION = "Which instructions did each kernel execute, and how many of them were loads?"

    READING = READING
    NEED = Need.of(source=True)

    # ------------------------------------------------------------ what is shown

    def functions(self) -> list[tuple[KernelSource | None, str]]:
        """Each kernel's function with its counters, or what is said where it has none."""
        return [self._function(r, k) for r, k in self._pairs()]

    def _function(self, report: Report, kernel: Kernel) -> tuple[KernelSource | None, str]:
        if report.format not in sniff.SOURCE_FORMATS:
            return None, EXPORT.format(format=report.format)
        session = self.reads.session
        found = session.source(report, kernel)
        if not found or not found[0].has_counters:
            return None, session.source_error(report) or session.error(report) or NO_COUNTERS
        return found[0], ""

    def mix(self) -> Mix:
        return analysis.mix([f for f, _ in self.functions()])

    def _build_read(self, layout: QVBoxLayout) -> None:
        functions = self.functions()
        lacking = [(c, words) for c, (f, words) in enumerate(functions) if f is None]
        if lacking:
            texts = {words for _, words in lacking}
            lead = "" if len(lacking) == len(functions) or not self.compare_mode else \
                ", ".join("AB"[c] for c, _ in lacking) + ": "
            text = "; ".join(sorted(texts))
            layout.addWidget(self.label(f"{lead}{text[0].upper()}{text[1:]}.", "heading",
                                        wrap=True, name=Names.MISSING))
        found = self.mix()
        if found.empty:
            return
        sentence = analysis.sentence(found)
        if sentence:
            layout.addWidget(self.label(sentence, "heading", bold=True, wrap=True,
                                        name=Names.SENTENCE))
        if self.compare_mode:
            for column, name in enumerate(self.names):
                layout.addWidget(self.label(f"{'AB'[column]}: {name}", "small",
                                            color="secondary", wrap=True,
                                            name=one_of(Names.KERNEL, column + 1)))
        layout.addLayout(self._table(found))

    def _table(self, found: Mix) -> QGridLayout:
        """An opcode's bars one under the other (A, then B), so that the table keeps to the
        width of one bar; B over A under the opcode."""
        grid = QGridLayout()
        grid.setHorizontalSpacing(self.style_.px(12))
        grid.setVerticalSpacing(self.style_.px(3))
        two = len(found.totals) == 2
        grid.addWidget(self.label("Opcode" + (", B / A" if two else ""), "small", bold=True,
                                  color="secondary"), 0, 0)
        grid.addWidget(self.label("Executed (share)", "small", bold=True, color="secondary"),
                       0, 2)
        grid.setColumnStretch(2, 1)
        full = max(s for r in found.rows for s in r.shares if s is not None)
        row = 1
        for number, mix_row in enumerate(found.rows):
            self._rows(grid, row, mix_row, full, first=number == 0)
            row += len(found.totals) + (1 if two else 0)
        return grid

    def _rows(self, grid: QGridLayout, row: int, mix_row: MixRow, full: float, *,
              first: bool) -> None:
        opcode = mix_row.opcode
        two = len(mix_row.counts) == 2
        grid.addWidget(self.label(opcode, bold=first, name=one_of(Names.OPCODE, opcode)), row, 0)
        color = COLORS[analysis.family(opcode)]
        for column, share in enumerate(mix_row.shares):
            if two:
                grid.addWidget(self.label("AB"[column], color="secondary"), row + column, 1)
            grid.addWidget(self.bar(one_of(Names.BAR, opcode, column + 1), share, full,
                                    count_text(mix_row, column), color=color,
                                    text_sample="88,888,888 (100.00 %)"), row + column, 2)
        if two:
            grid.addWidget(self.label(ratio_text(mix_row), bold=first, color="secondary",
                                      name=one_of(Names.RATIO, opcode)), row + 1, 0)
            grid.setRowMinimumHeight(row + 2, self.style_.px(4))
