"""ncu's own advice: the report's rule results, ranked by estimated speedup, their link markup
parsed into plain parts, and what changed between two kernels.

ncu's rules write links into their messages (NvRules' IFrontend.message):
`@section:<section id>:<text>@` (a jump to a section), `@url:<text>:<link>@` (an external page),
`@sass:<address>:<text>@` and `@source:<file>:<line>:<text>@` (places on ncu's Source page). A
view renders `Advice.parts`: Text, ViewLink (a jump to one of our views, VIEWS) and UrlLink;
never the markup. A section or place we have no view for becomes its text.

The rule results come from viewer.readers.extras.read_extras(..., rules=True) for a .ncu-rep,
and from what a details text export prints of them (Kernel.rules: no titles, links or focus
metrics); RULES_MISSING says so for a file that holds none.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from viewer.analysis import memory_traffic
from viewer.analysis.reading import READING_ORDER
from viewer.core import formatting as fmt
from viewer.core.model import Kernel

VIEWS: tuple[str, ...] = (*READING_ORDER, "roofline", "advice", "stalls", "metrics")
"""Our views a link can jump to: the three reading steps, then the views beyond them."""

# ncu section identifier -> the view that shows what the section shows.
SECTION_VIEWS: dict[str, str] = {
    "SpeedOfLight": "sol",
    "MemoryWorkloadAnalysis": "memory",
    "MemoryWorkloadAnalysis_Chart": "memory",
    "MemoryWorkloadAnalysis_Tables": "memory",
    "Occupancy": "occupancy",
    "LaunchStats": "occupancy",
    "WarpStateStats": "stalls",
    "SchedulerStats": "stalls",
    "SpeedOfLight_RooflineChart": "roofline",
    "SpeedOfLight_HierarchicalSingleRooflineChart": "roofline",
    "SpeedOfLight_HierarchicalDoubleRooflineChart": "roofline",
    "SpeedOfLight_HierarchicalHalfRooflineChart": "roofline",
    "SpeedOfLight_HierarchicalTensorRooflineChart": "roofline",
    "ComputeWorkloadAnalysis": "metrics",
    "InstructionStats": "metrics",
    "WorkloadDistribution": "metrics",
}

# ncu_report's MsgType values, in words (ncu's text export prints INF, OPT, WRN, ERR).
KINDS: dict[object, str] = {0: "note", 1: "info", 2: "optimization", 3: "warning", 4: "error"}
_KIND_RANK = {"error": 0, "warning": 1, "optimization": 2, "info": 3, "note": 4}
# ncu_report's SpeedupType values: GLOBAL is a share of the kernel's whole run time; LOCAL a gain
# in how well the hardware unit at fault is used.
SCOPES: dict[object, str] = {1: "local", 2: "global"}
SEVERITIES: dict[object, str] = {0: "default", 1: "low", 2: "high"}
RULES_MISSING = ("ncu's advice is in .ncu-rep reports and details text exports: this file "
                 "holds none of it")

_LINK = re.compile(r"@(section|url|sass|source):([^@]*)@")


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class ViewLink:
    """A jump to our view `view` (one of VIEWS); `section`: the ncu section it names."""

    text: str
    view: str
    section: str


@dataclass(frozen=True)
class UrlLink:
    text: str
    url: str


Part = Text | ViewLink | UrlLink


def parse_message(message: str) -> tuple[Part, ...]:
    """ncu's message as parts, link markup resolved; adjacent text merged."""
    parts: list[Part] = []

    def add_text(text: str) -> None:
        if not text:
            return
        if parts and isinstance(parts[-1], Text):
            parts[-1] = Text(parts[-1].text + text)
        else:
            parts.append(Text(text))

    at = 0
    for match in _LINK.finditer(message):
        add_text(message[at:match.start()])
        at = match.end()
        kind, body = match.group(1), match.group(2)
        if kind == "section":
            section, _, text = body.partition(":")
            view = SECTION_VIEWS.get(section)
            if view is not None and text:
                parts.append(ViewLink(text, view, section))
            else:
                add_text(text or section)
        elif kind == "url":
            text, _, url = body.partition(":")
            if url.startswith(("https://", "http://")):
                parts.append(UrlLink(text or url, url))
            else:
                add_text(text)
        elif kind == "sass":
            add_text(body.partition(":")[2] or body)
        else:  # source: file, line, text; the file may hold ':' itself
            add_text(body.rsplit(":", 1)[-1] if body.count(":") >= 2 else body)
    add_text(message[at:])
    return tuple(parts)


def plain_text(parts: Iterable[Part]) -> str:
    """The parts as one line of text for a terminal or a tooltip (links by their text)."""
    return "".join(p.text for p in parts)


@dataclass(frozen=True)
class Focus:
    """A metric ncu's rule points at: its value, and what to do with it (`info`)."""

    metric: str
    value: float | None
    severity: str  # "low", "default", "high"
    info: str


@dataclass(frozen=True)
class Advice:
    """One message of one of ncu's rules on one kernel."""

    rule: str
    name: str
    section: str
    title: str
    kind: str
    speedup_pct: float | None
    speedup_scope: str | None
    parts: tuple[Part, ...]
    focus: tuple[Focus, ...] = ()

    @property
    def heading(self) -> str:
        """The title, else the rule's name ('Warp Stall')."""
        return self.title or self.name

    @property
    def text(self) -> str:
        return plain_text(self.parts)

    @property
    def key(self) -> tuple[str, str, str]:
        """What names the same advice on two kernels: rule, section and title."""
        return (self.rule, self.section, self.title)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def advice_of(rule: Mapping[str, Any]) -> Advice | None:
    """One rule result (ncu_report's dict) as Advice; None when it carries no message."""
    message = rule.get("rule_message")
    if not isinstance(message, Mapping) or not str(message.get("message") or "").strip():
        return None
    speedup = rule.get("speedup_estimation")
    speedup = speedup if isinstance(speedup, Mapping) else {}
    focus = []
    for item in rule.get("focus_metrics") or ():
        if isinstance(item, Mapping):
            severity = SEVERITIES.get(item.get("severity"), "default")
            focus.append(Focus(str(item.get("name") or ""), _number(item.get("value")), severity,
                               str(item.get("info") or "")))
    return Advice(
        rule=str(rule.get("rule_identifier") or ""),
        name=str(rule.get("name") or rule.get("rule_identifier") or ""),
        section=str(rule.get("section_identifier") or ""),
        title=str(message.get("title") or "").strip(),
        kind=KINDS.get(message.get("type"), "note"),
        speedup_pct=_number(speedup.get("speedup")),
        speedup_scope=SCOPES.get(speedup.get("type")),
        parts=parse_message(str(message["message"]).strip()),
        focus=tuple(focus))


def _rank(item: tuple[int, Advice]) -> tuple[float, int, int]:
    position, advice = item
    speedup = advice.speedup_pct
    return (-speedup if speedup is not None else float("inf"), _KIND_RANK[advice.kind], position)


def ranked(rules: Iterable[Mapping[str, Any]]) -> tuple[Advice, ...]:
    """The rule results as Advice, the largest estimated speedup first; those without an
    estimate after, warnings before optimizations before information; else in ncu's order."""
    found = [a for a in (advice_of(r) for r in rules) if a is not None]
    return tuple(a for _, a in sorted(enumerate(found), key=_rank))


# ---------------------------------------------------------------- ncu against the lesson

ACCESS_PATTERN_RULE = "MemoryCacheAccessPattern"
"""ncu's rule that calls a kernel's global loads uncoalesced ("L1TEX Global Load Access
Pattern")."""
BYTES_PER_SECTOR = "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"
COALESCED_SECTORS_PER_REQUEST = 4.0
"""A warp of 32 lanes reading consecutive 4-byte values touches four 32-byte sectors: at or under
this the loads are coalesced, as the lesson reads its tiled kernel's four and naive kernel's two."""


def lesson_reading(item: Advice, kernel: Kernel) -> str | None:
    """Where ncu's advice on `kernel` calls its global loads uncoalesced and the report's own
    counters say they are not (the lesson's point on the naive matmul): both readings, with the
    numbers that reconcile them; None elsewhere."""
    if item.rule != ACCESS_PATTERN_RULE or "global load" not in item.heading.lower():
        return None
    chart = memory_traffic.memory_chart(kernel)
    spr = chart.sectors_per_request
    if spr is None or spr > COALESCED_SECTORS_PER_REQUEST:
        return None
    parts = [f"ncu and the lesson disagree here. The lesson: these loads are coalesced, and "
             f"the report's counts agree: {fmt.count(chart.global_load_sectors)} global load "
             f"sectors for {fmt.count(chart.global_load_requests)} requests, "
             f"{fmt.sectors_per_request(spr)} sectors per request."]
    l1, l2 = chart.global_load_sectors, chart.l2_read_sectors_from_l1
    if l1 and l2 is not None:
        hit = "" if chart.l1tex_hit_rate_pct is None else \
            f"; L1/TEX Hit Rate {fmt.percent(chart.l1tex_hit_rate_pct)}"
        parts.append(f"Only {fmt.count(l2)} sectors were read from L2 "
                     f"({fmt.percent(100 * l2 / l1)} of them{hit}): the repeated sectors hit "
                     "L1/TEX and never reach L2.")
    used = next((f.value for f in item.focus if f.metric == BYTES_PER_SECTOR), None)
    if chart.problem_dim is not None:
        figure = f"ncu's {fmt.count(used)} bytes used per sector" if used is not None \
            else "ncu's bytes used per sector"
        parts.append(f"{figure} averages the broadcast load a[row * k + p], whose sectors each "
                     "serve one address to a half-warp, with b[p * n + col]'s fully used ones "
                     "(the lesson's reading of the source): fixing the access pattern buys "
                     "nothing, moving fewer sectors (tiling) does.")
    return " ".join(parts)


# ---------------------------------------------------------------- Comparison

APPEARED, WENT_AWAY, CHANGED, SAME = "appeared", "went away", "changed", "same"


@dataclass(frozen=True)
class AdviceChange:
    """One piece of advice across two kernels: `status` is APPEARED (only in the second),
    WENT_AWAY (only in the first), CHANGED (its estimate moved, as shown to two decimals) or
    SAME (equal as shown)."""

    status: str
    first: Advice | None
    second: Advice | None

    @property
    def advice(self) -> Advice:
        """The second kernel's advice, else the first's."""
        found = self.second or self.first
        assert found is not None
        return found

    @property
    def speedup_change(self) -> float | None:
        """The second's estimate minus the first's, in percentage points."""
        if self.first is None or self.second is None:
            return None
        a, b = self.first.speedup_pct, self.second.speedup_pct
        return None if a is None or b is None else b - a


def _keyed(advice: Sequence[Advice]) -> dict[tuple[Any, ...], Advice]:
    seen: Counter[tuple[str, str, str]] = Counter()
    out = {}
    for a in advice:
        out[(*a.key, seen[a.key])] = a
        seen[a.key] += 1
    return out


def _status(a: Advice, b: Advice) -> str:
    """SAME only when both estimates read alike as shown (fmt.percent), else CHANGED."""
    return SAME if fmt.percent(a.speedup_pct) == fmt.percent(b.speedup_pct) else CHANGED


def compare(first: Sequence[Advice], second: Sequence[Advice]) -> tuple[AdviceChange, ...]:
    """Which advice appeared, went away or changed its estimate from `first` to `second`
    (matched by rule, section and title): appeared first, then went away, changed, the same;
    within each, the second's ranking, then the first's."""
    a, b = _keyed(first), _keyed(second)
    changes = [AdviceChange(APPEARED, None, b[k]) for k in b if k not in a]
    changes += [AdviceChange(WENT_AWAY, a[k], None) for k in a if k not in b]
    both = [AdviceChange(_status(a[k], b[k]), a[k], b[k]) for k in b if k in a]
    changes += [c for c in both if c.status == CHANGED]
    changes += [c for c in both if c.status == SAME]
    return tuple(changes)
