"""The roofline view's sentences, computed from viewer.analysis.roofline's values (no Qt here).

In compare mode: each level's intensity from A to B, and, where DRAM's holds while a cache
level's moves, what a DRAM-only roofline hides. The day-30 flaw: the hand count against the
measured DRAM bytes, and which side of the DRAM ridge each puts the kernel.
"""

from __future__ import annotations

from collections.abc import Sequence

from viewer.analysis.roofline import LEVELS, SHARED_LOADS, DayThirty, Roofline, intensity_change
from viewer.core import formatting as fmt
from viewer.core.model import Report

SAME_WITHIN = 0.10  # a change under 10 % reads as "the same"
MOVED_BY = 2.0  # a level whose intensity changes by 2x or more has moved
DAY_THIRTY_TITLE = "Day 30: DRAM bytes counted by hand"
NO_DAY_THIRTY = ("The day-30 count is made for the lesson's naive matmul: open it (the app opens "
                 "the shipped pair when no file is named) to set the hand count beside the "
                 "measured DRAM bytes.")


def reading_words(reports: Sequence[Report]) -> str:
    """While the roofline's metrics are read: of which files, each named once."""
    files = ", ".join(dict.fromkeys(r.file_name for r in reports))
    return f"Reading the roofline's metrics from {files}..."


def missing_words(missing_text: str, name: str, compare: bool) -> str:
    """What a kernel's report lacks of the roofline, as a sentence (named in compare mode)."""
    lead = f"{name}: " if compare else ""
    return lead + missing_text[0].upper() + missing_text[1:] + "."


def ceilings_words(name: str) -> str:
    """Whose peaks the ceilings are: the first kernel drawn's, at its measured clocks."""
    return f"Ceilings: {name}'s peaks at its measured clocks."


def fold(ratio: float) -> str:
    """'15.5-fold' (two significant digits under 10: '2.3-fold')."""
    return f"{ratio:.1f}-fold" if ratio < 100 else f"{ratio:,.0f}-fold"


def change_words(ratio: float | None) -> str:
    if ratio is None:
        return f"unknown ({fmt.MISSING})"
    if abs(ratio - 1) < SAME_WITHIN:
        return f"the same (x{ratio:.2f})"
    if ratio > 1:
        return f"rises {fold(ratio)}"
    if ratio <= 0:
        return "falls to 0"  # the second kernel does no FLOP at that level
    return f"falls {fold(1 / ratio)}"


def level_changes(first: Roofline, second: Roofline, names: tuple[str, str]) -> list[str]:
    """One line per level: 'L1: 0.249 -> 3.86 FLOP/byte, rises 15.5-fold'."""
    ratios = intensity_change(first, second)
    return [f"{a.name}: {fmt.intensity(a.intensity)} ({names[0]}) -> "
            f"{fmt.intensity(b.intensity)} ({names[1]}) FLOP/byte, {change_words(ratios[a.key])}"
            for a, b in zip(first.levels, second.levels, strict=True)]


def hidden_words(first: Roofline, second: Roofline, names: tuple[str, str]) -> str | None:
    """What a DRAM-only roofline hides: DRAM's intensity the same for both, a cache level's
    moved; None when that is not what the two show."""
    ratios = intensity_change(first, second)
    dram = ratios.get("dram")
    if dram is None or abs(dram - 1) >= SAME_WITHIN:
        return None
    known = [(lv, r) for lv in first.levels if lv.key != "dram"
             and (r := ratios[lv.key]) is not None]
    moved = [(lv, r) for lv, r in known if max(r, 1 / r) >= MOVED_BY]
    if not moved:
        return None
    level, ratio = max(moved, key=lambda pair: max(pair[1], 1 / pair[1]))
    a, b = first.level(level.key), second.level(level.key)
    return (f"What a DRAM-only roofline hides: at DRAM both kernels sit at the same intensity "
            f"({fmt.intensity(first.level('dram').intensity)} and "
            f"{fmt.intensity(second.level('dram').intensity)} FLOP/byte), yet {level.name} "
            f"intensity {change_words(ratio)} from {names[0]} to {names[1]} "
            f"({fmt.intensity(a.intensity)} -> {fmt.intensity(b.intensity)} FLOP/byte): "
            f"{_delivers(level.key, level.name, (first, second), names)}")


_L1_BYTES = next(lv.traffic for lv in LEVELS if lv.key == "l1").rsplit(".", 1)[0]


def _delivers(key: str, name: str, pair: tuple[Roofline, Roofline], names: tuple[str, str]
              ) -> str:
    """What a level's bytes are, so its intensity is not read as more than it counts."""
    if key != "l1":
        return f"each byte {name} delivers to the SMs feeds that many times the FLOP."
    text = ("each byte of global and local loads L1 hands the SMs feeds that many times the "
            f"FLOP; the L1 point counts only those ({_L1_BYTES}), not shared-memory loads")
    shared = [f"{kernel} executes {fmt.count(rf.shared_load_instructions)} shared load "
              "instructions" for rf, kernel in zip(pair, names, strict=True)
              if rf.shared_load_instructions]
    if not shared:
        return text + "."
    return (f"{text}, and {' and '.join(shared)} ({SHARED_LOADS}), whose bytes reach the "
            "registers through LDS outside that count.")


def kernel_words(rf: Roofline, name: str) -> str:
    """'naive: 4.27 TFLOP/s, 6.5 % of the FP32 peak (65.48 TFLOP/s)'."""
    work, peak = rf.achieved_fp32_flop_per_s, rf.peak_fp32_flop_per_s
    if work is not None and peak:
        return (f"{name}: {fmt.flop_rate(work)} of FP32 work, {fmt.percent(100 * work / peak)}"
                f" of the FP32 peak ({fmt.flop_rate(peak)})")
    return f"{name}: {fmt.flop_rate(work)} of FP32 work; FP32 peak {fmt.flop_rate(peak)}"


def _side(intensity: float | None, ridge: float | None) -> str:
    if intensity is None or ridge is None:
        return "somewhere unknown"
    if intensity < ridge:
        return f"left of the DRAM ridge ({fmt.intensity(ridge)} FLOP/byte): DRAM bound"
    return f"right of the DRAM ridge ({fmt.intensity(ridge)} FLOP/byte): not DRAM bound"


def day_thirty_words(day: DayThirty, rf: Roofline) -> list[str]:
    """The hand count, the measurement, and what the gap between them means."""
    ridge = rf.ridge("dram")
    lines = [
        f"By hand from the source ({day.dim}x{day.dim} matmul: 2 x {day.dim}^3 loads + "
        f"{day.dim}^2 stores, 4 bytes each, every load counted as DRAM traffic): "
        f"{fmt.size(day.hand_bytes)}, {fmt.intensity(day.hand_intensity)} FLOP/byte "
        f"(the hollow marker): {_side(day.hand_intensity, ridge)}.",
        f"Measured (dram__bytes.sum): {fmt.size(day.measured_bytes)}, "
        f"{fmt.intensity(day.measured_intensity)} FLOP/byte (the filled DRAM marker): "
        f"{_side(day.measured_intensity, ridge)}."]
    l1 = rf.level("l1").intensity
    if l1 is not None and abs(day.hand_intensity / l1 - 1) < SAME_WITHIN:
        lines.append(f"The hand count lands on the kernel's L1 point ({fmt.intensity(l1)} "
                     "FLOP/byte): the source's loads are the traffic L1 serves, not DRAM's.")
    times = day.times_measured
    if times is not None:
        lines.append(f"The hand count is {times:,.0f} times what DRAM moved: the caches serve "
                     "the re-reads, so the source's loads are not DRAM's bytes.")
    return lines
