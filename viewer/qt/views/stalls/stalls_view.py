"""Warp stalls: why the warps waited, per issued instruction, as sorted bars (W).

Each reason the report holds is a bar of cycles per issued instruction (viewer.analysis.stalls),
with one plain sentence on what it means and what usually fixes it. With two kernels, each reason's
A and B on one scale and the change. Stall metrics the first read left out are read when the view is
shown, off the GUI thread; a report without them is said to lack them, and which set has them.
"""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QVBoxLayout

from viewer.analysis import stalls
from viewer.analysis.stalls import Stall, StallChange, Stalls
from viewer.core import formatting as fmt
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.on_demand import OnDemandTab
from viewer.session import Need


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    BAR = "bar"
    CHANGE = "change"
    MISSING = "missing"
    REASON = "reason"
    SENTENCE = "sentence"
    TOTAL = "total"


READING = "Reading the warp stall metrics from the report…"


def stall_text(stall: Stall) -> str:
    """'15.87 cycles (53.60 %)', or the share and samples when only samples are held."""
    if stall.cycles_per_instruction is not None:
        return f"{fmt.fixed(stall.cycles_per_instruction)} cycles ({fmt.percent(stall.share_pct)})"
    return f"{fmt.percent(stall.share_pct)} of samples"


def value_text(value: float | None, by: str) -> str:
    if value is None:
        return fmt.MISSING
    return f"{fmt.fixed(value)} cycles" if by == "cycles" else fmt.percent(value)


def change_text(change: StallChange) -> str:
    """'+3.20 cycles' or '-4.10 points', what B adds to A ('0.00' where it rounds to none)."""
    if change.change is None:
        return "only in " + ("B" if change.first is None else "A")
    unit = "cycles" if change.by == "cycles" else "points"
    return f"{fmt.fixed(change.change, sign=True)} {unit}"


class StallsView(OnDemandTab):
    """The stall reasons of one kernel as sorted bars, or their change between two."""

    VIEW = "stalls"
    TITLE = "Warp stalls"
    KEY = "W"
    QUESTION = ("Between two of its instructions, what did a warp wait for, and for how many "
                "cycles?")

    READING = READING
    NEED = Need.of(stalls.STALL_METRICS)

    # ------------------------------------------------------------ what is shown

    def stalls_of(self) -> list[Stalls]:
        return [stalls.stalls(k) for k in self.kernels]

    def _build_read(self, layout: QVBoxLayout) -> None:
        found = self.stalls_of()
        lacking = [self.names[c] for c, s in enumerate(found) if s.empty]
        if lacking:
            words = stalls.MISSING_TEXT.replace("`", "")
            if len(lacking) < len(found):
                text = f"{', '.join(lacking)}: {words}."
            else:
                text = f"{words[0].upper()}{words[1:]}."
            layout.addWidget(self.label(text, "heading", wrap=True, name=Names.MISSING))
        held = [s for s in found if not s.empty]
        if len(held) == 2:
            self._compare(layout, found)
        elif held:
            column = next(c for c, s in enumerate(found) if not s.empty)
            self._single(layout, held[0], self.names[column] if self.compare_mode else "")

    def _total_line(self, found: Stalls, name: str) -> QLabel:
        total = found.cycles_per_instruction
        words = ("Warp cycles per issued instruction: "
                 f"{fmt.MISSING if total is None else fmt.fixed(total)}, shared out below")
        return self.label((f"{name}: " if name else "") + words, "heading", bold=True,
                          wrap=True, name=Names.TOTAL)

    def _grid(self) -> QGridLayout:
        grid = QGridLayout()
        grid.setHorizontalSpacing(self.style_.px(12))
        grid.setVerticalSpacing(self.style_.px(2))
        return grid

    def _single(self, layout: QVBoxLayout, found: Stalls, name: str) -> None:
        layout.addWidget(self._total_line(found, name))
        by_cycles = found.stalls[0].cycles_per_instruction is not None
        full = max((s.cycles_per_instruction if by_cycles else s.share_pct) or 0.0
                   for s in found.stalls)
        grid = self._grid()
        grid.setColumnStretch(1, 1)
        row = 0
        for number, stall in enumerate(found.stalls):
            value = stall.cycles_per_instruction if by_cycles else stall.share_pct
            grid.addWidget(self.label(stall.reason.label, bold=number == 0,
                                      name=one_of(Names.REASON, stall.reason.key)), row, 0)
            grid.addWidget(self.bar(one_of(Names.BAR, stall.reason.key), value, full,
                                    stall_text(stall),
                                    color="latency", emphasis=number == 0,
                                    text_sample="100.00 cycles (100.00 %)"), row, 1)
            grid.addWidget(self._sentence(stall.reason.meaning, stall.advice,
                                          stall.reason.key), row + 1, 0, 1, 2)
            row += 2
        layout.addLayout(grid)

    def _compare(self, layout: QVBoxLayout, found: list[Stalls]) -> None:
        totals = [each.cycles_per_instruction for each in found]
        first, second = totals
        moved = "" if first is None or second is None else \
            f" ({fmt.fixed(second - first, sign=True)})"
        layout.addWidget(self.label(
            "Warp cycles per issued instruction: "
            + ", ".join(f"{side} {fmt.MISSING if t is None else fmt.fixed(t)}"
                        for side, t in zip("AB", totals, strict=True)) + moved,
            "heading", bold=True, wrap=True, name=Names.TOTAL))
        changes = stalls.compare(found[0], found[1])
        full = max(max(c.first or 0.0, c.second or 0.0) for c in changes) if changes else 0.0
        grid = self._grid()
        grid.setColumnStretch(1, 1)
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        row = 0
        for change in changes:
            key = change.reason.key
            heading = QHBoxLayout()  # across the grid: its width must not widen column 0
            heading.addWidget(self.label(change.reason.label, bold=True,
                                         name=one_of(Names.REASON, key)), 1)
            heading.addWidget(self.label(change_text(change), bold=True,
                                         highlight=change is changes[0],
                                         name=one_of(Names.CHANGE, key)), 0, right)
            grid.addLayout(heading, row, 0, 1, 3)
            for side, value in enumerate((change.first, change.second)):
                grid.addWidget(self.label("AB"[side], color="secondary"), row + 1 + side, 0)
                grid.addWidget(self.bar(one_of(Names.BAR, key, side + 1), value, full,
                                        value_text(value, change.by),
                                        color="latency" if side else "neutral",
                                        text_sample="100.00 cycles"), row + 1 + side, 1, 1, 2)
            grid.addWidget(self._sentence(change.reason.meaning, change.advice,
                                          key), row + 3, 0, 1, 3)
            row += 4
        layout.addLayout(grid)

    def _sentence(self, meaning: str, advice: str, key: str) -> QLabel:
        text = f"{meaning[0].upper()}{meaning[1:]}. {advice[0].upper()}{advice[1:]}."
        label = self.label(text, "small" if not self.style_.projector else "body",
                           color="secondary", wrap=True, name=one_of(Names.SENTENCE, key))
        label.setContentsMargins(0, 0, 0, self.style_.px(6))
        return label
