"""The lesson's misreads, caught next to the number they are misread from.

Each is worded from the values in front of the reader, never a fixed sentence: Memory Throughput
read as DRAM bandwidth (and, where DRAM is itself the busiest unit, the two rows agreeing); a hit
rate above 100 % read as one (under its memory row); a capture of a kernel's first launch (from its
record, else from the profiler command line the report itself records); a request ratio read
without the sector count; two kernels of different sizes (both named: viewer.analysis.launch_size);
two reports from different GPUs, clock controls or ncu versions; a capture whose clocks were not
locked, against the lesson's rule (under Duration, and on the compare line); durations from a
profiled run when bare ones are on offer. A report's clock control and ncu version are read from
the report's own session first (viewer.readers.ncu_session), its capture record second. What
neither says stays unknown: no warning is made from a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from viewer.analysis import memory_traffic, reading
from viewer.analysis.chart_layout import hit_rate_notes
from viewer.analysis.launch_size import size_words
from viewer.analysis.metric_table import SM_FREQUENCY
from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.core.elide import distinct_elisions
from viewer.core.metrics import SUMMARY_METRICS
from viewer.core.model import Kernel, Report
from viewer.core.names import kernel_names
from viewer.lesson import lesson_kernels
from viewer.lesson.capture_facts import capture_facts, ncu_short

# Request and sector ratios within this share of each other tell the same story.
SAME_RATIO = 0.05
DEVICE_KEY = "device"  # where the GPU, clock and ncu warnings sit: the compare line
LOCKED, UNLOCKED = "base", "none"  # --clock-control: the lesson's rule, and clocks left free
_CLOCK_RULE = ("--clock-control base pins the clocks for the collection; without it a card warm "
               "for one capture and cold for the other gives two rooflines rather than one.")

# Where a report holds no per-unit throughput rows, it cannot name the busiest unit; the lesson
# names it for its T4 naive kernel (Solution 1: "on this kernel that unit is L1TEX, not DRAM").
_NO_UNIT_ROWS = ("this report holds no L1/TEX or L2 throughput row to name it; the lesson, of its "
                 "T4 naive kernel: \"that unit is L1TEX, not DRAM\"")

# ncu's --launch-skip (-s) and kernel filters (-k, --kernel-name, --kernel-id) on its command line.
_SKIP = re.compile(r"(?:^|\s)(?:--launch-skip|-s)(?:=|\s+)(\d+)(?=\s|$)")
_FILTER = re.compile(r"(?:^|\s)(?:-k|--kernel-name|--kernel-id|--kernel-regex)(?:=|\s+)(\S+)")
_NAME_CHARS = 40  # a kernel named in a sentence, elided in the middle past this
_REQUESTS = SUMMARY_METRICS["global_load_requests"]
_SECTORS = SUMMARY_METRICS["global_load_sectors"]


@dataclass(frozen=True)
class Known:
    """One fact of a report's capture and where it was read, for people."""

    value: str
    record: str


def known_facts(report: Report) -> dict[str, Known]:
    """The report's "clock_control" and "ncu_version" ('2025.3.1'), where known: from the
    session the report records, else from its capture record."""
    found: dict[str, Known] = {}
    session = report.session
    if session is not None and session.clock_control:
        found["clock_control"] = Known(session.clock_control,
                                       f"{report.file_name}, {session.clock_source}")
    version = ncu_short(session.ncu_version) if session is not None else None
    if version:
        found["ncu_version"] = Known(version, f"{report.file_name}, its session")
    facts = capture_facts(report)
    for field in ("clock_control", "ncu_version"):
        value = getattr(facts, field)
        if field not in found and value is not None:
            found[field] = Known(value, facts.record or "its capture record")
    return found


@dataclass(frozen=True)
class Misread:
    """A warning next to the row `key` (a summary key, or DEVICE_KEY for the compare line)."""

    key: str
    text: str
    kind: str


def misreads(kernel: Kernel, report: Report | None = None) -> list[Misread]:
    """The misreads one kernel's values invite; with its `report`, a first-launch capture too."""
    found = [m for m in (_memory_vs_dram(kernel),) if m is not None]
    found += [Misread(key, note, "hit-rate-over-100")
              for key, note in hit_rate_notes(memory_traffic.memory_chart(kernel))]
    if report is not None:
        found += [m for m in (_first_launch(kernel, report), _clocks_not_locked(kernel, report))
                  if m is not None]
    return found


def _memory_vs_dram(kernel: Kernel) -> Misread | None:
    sol = reading.speed_of_light(kernel)
    memory, dram = sol.memory_pct, sol.dram_pct
    if memory is None or dram is None:
        return None
    m, d = fmt.percent(memory), fmt.percent(dram)
    busiest = sol.busiest_shown
    if reading.agree(memory, dram) and busiest is not None \
            and busiest.name == "DRAM":
        return Misread("memory_throughput_pct", (
            f"Memory Throughput {m} and DRAM Throughput {d} agree here: DRAM is itself the "
            "busiest memory unit, so on this kernel both rows measure DRAM. They still answer "
            "different questions: on a kernel whose working set sits in the caches, Memory "
            "Throughput is another unit's and DRAM Throughput falls away from it."),
            "memory-is-dram")
    if busiest is None or busiest.name == "DRAM":
        unit = f"that unit is not DRAM ({_NO_UNIT_ROWS})"
    elif sol.above_headline and (per := metrics.per_cycle(busiest.metric)) is not None:
        unit = f"the busiest is {busiest.name}, at {fmt.percent(busiest.pct)} of its own peak {per}"
        if busiest.elapsed_metric is not None and busiest.elapsed_metric != busiest.metric:
            unit += (f", {fmt.percent(busiest.elapsed_pct)} per elapsed cycle as Memory "
                     f"Throughput counts ({busiest.elapsed_metric})")
    else:
        unit = f"the busiest is {busiest.name}, at {fmt.percent(busiest.pct)} of its own peak"
    return Misread("memory_throughput_pct", (
        f"Memory Throughput {m} is the busiest memory unit against its own peak, not DRAM "
        f"bandwidth: here {unit}, and DRAM Throughput is {d}."), "memory-not-dram")


def _first_launch(kernel: Kernel, report: Report) -> Misread | None:
    same = [k for k in report.kernels if k.name == kernel.name]
    if not same or same[0] is not kernel:
        return None
    facts = capture_facts(report)
    others = [k.name for k in report.kernels if k.name != kernel.name]
    # a cuBLAS name would widen its tab; cut, it keeps what tells it from its look-alikes
    name = distinct_elisions([kernel.name, *dict.fromkeys(others)], _NAME_CHARS)[0]
    if facts.launch_skip == 0:
        text = (f"This is the first launch of {name}, and the capture skipped none "
                f"({facts.record}): lazy module loading made it pay its own load, a cost you "
                "will never pay again. Skip past the warm-ups.")
    elif facts.launch_skip is None and report.session is not None \
            and report.session.command_line:
        return _skip_on_command_line(name, report.session.command_line, len(same))
    elif facts.launch_skip is None and len(same) > 1:
        text = (f"This is the first of the {len(same)} launches of {name} in this "
                "report. If the capture skipped none (nothing records it), lazy module loading "
                "made this one pay a one-time cost: read a later launch.")
    else:
        return None
    return Misread("duration_ns", text, "first-launch")


def _skip_on_command_line(name: str, command_line: str, launches: int) -> Misread | None:
    """The first launch of `name` in a report whose own profiler command line is known: what
    that line records of the launches skipped."""
    skip = _SKIP.search(command_line)
    picked = _FILTER.search(command_line)
    if skip is not None and int(skip.group(1)) > 0:
        if picked is not None:
            return None  # the skip counts this filter's launches: past the first
        if launches < 2:
            return None
        return Misread("duration_ns", (
            f"This is the first of the {launches} launches of {name} in this report. Its "
            f"profiler command line skips {skip.group(1)} launches (--launch-skip) but names no "
            "kernel filter (-k), so it counted every kernel's launches: whether this one is the "
            f"first launch of {name}, which lazy module loading makes pay its own load, it does "
            "not say."), "first-launch")
    filtered = f" (its filter: -k {picked.group(1)})" if picked is not None else ""
    return Misread("duration_ns", (
        f"This is the first launch of {name}: the report's profiler command line names no "
        f"--launch-skip{filtered}, so the capture skipped none and profiled the kernel's first "
        "launch, which lazy module loading made pay its own load, a cost you will never pay "
        "again. Skip past the warm-ups."), "first-launch")


def _clocks_not_locked(kernel: Kernel, report: Report) -> Misread | None:
    """Under Duration, where the report says its clocks were left free against the rule."""
    clock = known_facts(report).get("clock_control")
    if clock is None or clock.value != UNLOCKED:
        return None
    hz = kernel.metric(SM_FREQUENCY)
    ran = f"the SM clock ran at {hz / 1e9:.2f} GHz here" if hz else "the SM clock is not recorded"
    warning = report.session.warning if report.session is not None else None
    said = f' ncu says so itself: "{warning}"' if warning else ""
    return Misread("duration_ns", (
        f"This capture ran with clocks not locked (--clock-control {clock.value}: "
        f"{clock.record}), while the lesson's rule is to lock them (--clock-control {LOCKED}). "
        f"So this Duration holds at whatever clock the GPU chose, and {ran}: against another "
        "capture it compares only at the same clock, while request, sector and byte counts do "
        f"not depend on it.{said}"), "clocks-not-locked")


def profiled_duration_note(timing_available: bool) -> Misread | None:
    """Where the timing tab offers bare times, the report's Duration is from a profiled run."""
    if not timing_available:
        return None
    return Misread("duration_ns", (
        "Duration comes from the profiled run: Nsight Compute serializes the kernel and replays "
        "it once per collection pass. Take times from the timing tab's bare run and counters "
        "from the report, never both from one run."), "profiled-duration")


def compare_misreads(a: Kernel, b: Kernel, a_report: Report, b_report: Report) -> list[Misread]:
    """The misreads a comparison of kernel `a` (in `a_report`) with `b` invites."""
    names = kernel_names([a, b])
    if names[0] == names[1]:
        names = [f"{names[0]} ({a_report.file_name})", f"{names[1]} ({b_report.file_name})"]
    sizes = size_words([a, b], names)
    found = [Misread(DEVICE_KEY, sizes, "different-size") if sizes else None,
             _request_ratio(a, b, names)]
    found += _devices(a, b, names)
    found += _records(known_facts(a_report), known_facts(b_report), names)
    return [m for m in found if m is not None]


def _request_ratio(a: Kernel, b: Kernel, names: list[str]) -> Misread | None:
    ra, rb = a.metric(_REQUESTS), b.metric(_REQUESTS)
    if ra is None or rb is None or ra == rb or 0 in (ra, rb):
        return None
    big, small = (names[0], names[1]) if ra > rb else (names[1], names[0])
    requests = max(ra, rb) / min(ra, rb)
    sa, sb = a.metric(_SECTORS), b.metric(_SECTORS)
    if sa is None or sb is None or 0 in (sa, sb):
        lacking = " and ".join(n for n, s in zip(names, (sa, sb), strict=True) if s is None)
        return Misread("global_load_requests", (
            f"{big} issues {requests:.2f}x the global load requests of {small}, but the sector "
            f"count is {fmt.NOT_IN_REPORT} for {lacking or 'one of them'}: a request costs as "
            "many sectors as its lanes touch, so the request ratio alone is not the traffic."),
            "request-ratio")
    sectors = (sa / sb) if ra > rb else (sb / sa)
    if abs(sectors - requests) <= SAME_RATIO * requests:
        return None
    spr = [reading.sectors_per_request(k) for k in (a, b)]
    return Misread("global_load_requests", (
        f"{big} issues {requests:.2f}x the global load requests of {small} but moves "
        f"{sectors:.2f}x the sectors: {fmt.sectors_per_request(spr[0])} sectors per request "
        f"for {names[0]} against {fmt.sectors_per_request(spr[1])} for {names[1]}. Read the "
        "request ratio with the sector count beside it."), "request-ratio")


def _devices(a: Kernel, b: Kernel, names: list[str]) -> list[Misread | None]:
    known = all(k.device_name for k in (a, b)) or all(k.cc for k in (a, b))
    same_name = a.device_name == b.device_name or not (a.device_name and b.device_name)
    same_cc = a.cc == b.cc or not (a.cc and b.cc)
    if not known or (same_name and same_cc):
        return []

    def gpu(k: Kernel) -> str:
        return f"{k.device_name or 'an unnamed GPU'} (CC {k.cc or fmt.MISSING})"

    dims = lesson_kernels.lesson_dim(a), lesson_kernels.lesson_dim(b)
    counts = "request and sector counts do"
    if None not in dims and dims[0] != dims[1]:
        counts = (f"request and sector counts do at one size, and these are N = {dims[0]} and "
                  f"N = {dims[1]}, so theirs differ by the size as well")
    return [Misread(DEVICE_KEY, (
        f"Different GPUs: {names[0]} ran on {gpu(a)}, {names[1]} on {gpu(b)}. Durations, hit "
        f"rates and throughput percentages do not carry across GPUs; {counts}."),
        "different-gpu")]


def _records(fa: dict[str, Known], fb: dict[str, Known], names: list[str]
             ) -> list[Misread | None]:
    found: list[Misread | None] = []
    for field, kind, words, why in (
            ("clock_control", "clocks", "clock controls", _CLOCK_RULE),
            ("ncu_version", "ncu", "Nsight Compute versions",
             "versions label and group some rows differently; compare rows by metric name.")):
        ka, kb = fa.get(field), fb.get(field)
        shown = "--clock-control " if field == "clock_control" else "ncu "
        if ka is not None and kb is not None and ka.value != kb.value:
            found.append(Misread(DEVICE_KEY, (
                f"Different {words}: {names[0]} {shown}{ka.value} ({ka.record}), {names[1]} "
                f"{shown}{kb.value} ({kb.record}). {why[:1].upper()}{why[1:]}"),
                f"different-{kind}"))
        elif ka is not None and kb is not None and field == "clock_control" \
                and ka.value == UNLOCKED:
            found.append(Misread(DEVICE_KEY, (
                f"Both captures ran with clocks not locked ({shown}{ka.value}), against the "
                f"lesson's rule to lock them ({shown}{LOCKED}). {_CLOCK_RULE} Compare their "
                "counts; their times only as far as both ran at one clock. As recorded: "
                f"{names[0]} in {ka.record}, {names[1]} in {kb.record}."), "clocks-not-locked"))
        elif (known := kb if ka is None else ka) is not None and (ka is None) != (kb is None):
            unknown = names[0] if ka is None else names[1]
            found.append(Misread(DEVICE_KEY, (
                f"The {words[:-1]} of {unknown} is unknown (neither the report nor a record of "
                f"its capture says), while the other's is {shown}{known.value} ({known.record}): "
                "they may differ."), f"unknown-{kind}"))
    return found
