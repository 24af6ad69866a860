"""Values the comparisons state of each of two kernels, by name: the memory chart's ratio rows,
the summary's comparison, the T4 table's rows, Predict's measured cells, the roofline's changes
and the exercise's counts. Each is the kernel's own value as written, and a number only where
the report holds one."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from tests.claims.claim import Claim
from tests.claims.sentences import Said
from tests.claims.values import NUMBER
from viewer.analysis import chart_layout, comparison, reading, roofline
from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.core.model import Kernel
from viewer.lesson import lesson_kernels, predict_text, t4_reference
from viewer.readers.reference_toml import PublishedKernel

NOT_BOTH = "not in both reports"
_LABELS = {metrics.row_label(key): key for key, _ in comparison.COMPARED}
_LABEL = "|".join(re.escape(label) for label in _LABELS)
_COMPARED = re.compile(rf"(?<![\w/])({_LABEL}): (.*?)(?= (?:{_LABEL}): |$)")


def _figure(key: str, value: float | None) -> str:
    return chart_layout.value_text(key, value)


def memory_ratio_claims(said: Said) -> list[Claim]:
    """'label: A's value (a), B's value (b): direction': each value its kernel's, the direction
    a number only where both hold one."""
    (a, b), (na, nb) = said.kernels, said.names
    found = []
    for label, key in _LABELS.items():
        prefix = f"{label}: "
        if not said.text.startswith(prefix):
            continue
        va, vb = reading.value(a, key), reading.value(b, key)
        want = f"{prefix}{_figure(key, va)} ({na}), {_figure(key, vb)} ({nb}): "
        found.append(Claim(said.text, said.text.startswith(want), want))
        found.append(_direction(said.text.removeprefix(want), va, vb, (na, nb), said.text))
    return found


def _direction(words: str, va: float | None, vb: float | None, names: tuple[str, str],
               context: str) -> Claim:
    """'b 8.00x a', 'equal', 'a has some, b none', NOT_BOTH: as the two values say."""
    if va is None or vb is None:
        return Claim(context, words == NOT_BOTH, f"one value missing: {NOT_BOTH}")
    if va == vb:
        return Claim(context, words == "equal", "equal")
    (big, hi), (small, lo) = sorted(zip(names, (va, vb), strict=True), key=lambda p: -p[1])
    want = f"{big} has some, {small} none" if lo == 0 else f"{big} {hi / lo:.2f}x {small}"
    return Claim(context, words == want, want)


def comparison_claims(said: Said) -> list[Claim]:
    """The summary's comparison: 'label: direction' for each of the lesson's rows."""
    (a, b), names = said.kernels, (said.names[0], said.names[1])
    found = []
    for match in _COMPARED.finditer(said.text):
        key = _LABELS[match.group(1)]
        found.append(_direction(match.group(2), reading.value(a, key), reading.value(b, key),
                                names, match.group(0)))
    return found


def _t4_value(kernel: Kernel, metric: str) -> float | None:
    if metric == "sectors_per_request":
        return reading.sectors_per_request(kernel)
    if metric == lesson_kernels.DRAM_BYTES:
        return lesson_kernels.dram_bytes(kernel)
    return kernel.metric(metric)


def _t4_unit(metric: str) -> str:
    if metric == lesson_kernels.DRAM_BYTES:
        return "byte"
    key = next((k for k, m in metrics.SUMMARY_METRICS.items() if m == metric), metric)
    return metrics.unit(key)


# The T4's figure scaled to this size, as a T4 row may write it after the T4's own: ' x 4 = 8.4e6'
# or ' x 4 = 8.4 MB'. Each token runs to the next space, so these are the only ends it can take.
_SCALED = (re.compile(r" x \S+ = \S+"), re.compile(r" x \S+ = \S+ \S+"))


def _scale_ends(text: str, at: int) -> set[int]:
    """Where the words may go on after an optional scaling at `at`: at it, or past it."""
    return {at, *(m.end() for m in (p.match(text, at) for p in _SCALED) if m is not None)}


def _cells_in(text: str, fig: Sequence[str]) -> bool:
    """Whether `text` holds 'naive T4 [scaled] -> A, tiled T4 [scaled] -> B' and then ' (' or
    ';', the cells `fig` (the T4's naive, A, the T4's tiled, B) as written."""
    head, middle, tail = f"naive {fig[0]}", f" -> {fig[1]}, tiled {fig[2]}", f" -> {fig[3]}"
    at = text.find(head)
    while at >= 0:
        for end in _scale_ends(text, at + len(head)):
            if not text.startswith(middle, end):
                continue
            for last in _scale_ends(text, end + len(middle)):
                if text.startswith(tail, last) and \
                        text.startswith((" (", ";"), last + len(tail)):
                    return True
        at = text.find(head, at + 1)
    return False


def t4_row_claims(said: Said) -> list[Claim]:
    """A T4 row: 'label: verdict: naive T4's -> here's, tiled T4's -> here's', each value the
    kernel's own (the T4's, where scaled, before its scaling)."""
    t4_naive, t4_tiled, a, b = said.kernels
    assert isinstance(t4_naive, PublishedKernel) and t4_naive.published is not None
    found = []
    for row in t4_naive.published.rows:
        if not said.text.startswith(f"{row.label}: "):
            continue
        metric = row.metric or row.derived or ""
        fig = [fmt.by_unit(_t4_value(k, metric), _t4_unit(metric))
               for k in (t4_naive, a, t4_tiled, b)]
        found.append(Claim(said.text, _cells_in(said.text, fig),
                           f"naive {fig[0]} -> {fig[1]}, tiled {fig[2]} -> {fig[3]}"))
    return found


_MEASURED = re.compile(r"^(?P<role>naive|tiled)\.(?P<q>\w+): typed .*?: derived .*?, "
                       r"measured (?P<m>.*?), verdict (?P<v>.*?); (?P<reading>.*)$")


def predict_claims(said: Said) -> list[Claim]:
    """Predict's measured cell: the kernel's counter as the row writes it, and no verdict where
    the report holds none."""
    match = _MEASURED.match(said.text)
    if match is None:
        return []
    kernel = said.kernels[0] if match.group("role") == "naive" else said.kernels[1]
    q = match.group("q")
    value = {"requests": kernel.metric(metrics.SUMMARY_METRICS["global_load_requests"]),
             "sectors": kernel.metric(metrics.SUMMARY_METRICS["global_load_sectors"]),
             "sectors_per_request": reading.sectors_per_request(kernel),
             "dram_bytes": lesson_kernels.dram_bytes(kernel)}[q]
    want = predict_text.figure(q, value)
    holds = match.group("m") == want and (value is not None or (
        match.group("v") == "" and fmt.NOT_IN_REPORT in match.group("reading")))
    return [Claim(said.text, holds, f"measured {want}")]


_LEVEL_CHANGES = tuple(
    (level, re.compile(rf"{level.name}: (\S+) \(.*\) -> (\S+) \(.*\) FLOP/byte"))
    for level in roofline.LEVELS)


def roofline_change_claims(said: Said) -> list[Claim]:
    """'DRAM: 127.6 (a) -> n/a (b) FLOP/byte': an intensity only where the kernel holds the
    level's traffic and the FP32 work it is taken of."""
    found = []
    for level, pattern in _LEVEL_CHANGES:
        match = pattern.match(said.text)
        if match is None:
            continue
        for stated, kernel in zip(match.groups(), said.kernels, strict=True):
            held = kernel.metric(level.traffic) is not None and \
                roofline.achieved_fp32(kernel) is not None
            found.append(Claim(match.group(0), (stated != fmt.MISSING) == held,
                               f"{level.traffic} held: {held}"))
    return found


def _limits(kernel: Kernel) -> list[float]:
    keys = ("block_limit_sm", "block_limit_registers", "block_limit_shared_mem",
            "block_limit_warps")
    return [v for v in (reading.value(kernel, k) for k in keys) if v is not None]


@functools.lru_cache(maxsize=4096)
def _exercise_patterns(nn: str, tn: str) -> tuple[re.Pattern[str], ...]:
    """The exercise's counts as worded of naive `nn` and tiled `tn`: the shared-memory block
    limits, each one's lowest limit, the sectors, the loads per thread."""
    n, t = re.escape(nn), re.escape(tn)
    return tuple(re.compile(p) for p in (
        rf"Block Limit Shared Mem is ({NUMBER}) blocks for {t} against ({NUMBER}) for {n}",
        rf"(?<!\w){n}'s lowest limit is ({NUMBER}) blocks",
        rf"(?<!\w){t}'s lowest limit is ({NUMBER}) blocks",
        rf"pulls ({NUMBER}) sectors through L1TEX against (?<!\w){n}'s ({NUMBER})",
        rf"In this report, {n} issues {NUMBER} global loads per thread|"
        rf"(?<!\w){n} issues {NUMBER} SASS load"))


def exercise_claims(said: Said) -> list[Claim]:
    """The exercise's counts of the open pair: block limits and sectors each kernel's own, loads
    per thread only where the report holds the counter."""
    (naive, tiled), (nn, tn) = said.kernels, said.names
    text, found = said.text, []
    if not any(w in text for w in ("Block Limit Shared Mem is ", "'s lowest limit is ",
                                   " sectors through L1TEX against ", " issues ")):
        return found
    limits, lowest_n, lowest_t, pulls, issues = _exercise_patterns(nn, tn)
    shared = metrics.SUMMARY_METRICS["block_limit_shared_mem"]
    for match in limits.finditer(text):
        want = (fmt.count(tiled.metric(shared)), fmt.count(naive.metric(shared)))
        found.append(Claim(match.group(0), match.groups() == want, str(want)))
    for lowest, kernel in ((lowest_n, naive), (lowest_t, tiled)):
        for match in lowest.finditer(text):
            want = fmt.count(min(_limits(kernel)))
            found.append(Claim(match.group(0), match.group(1) == want, want))
    sectors = metrics.SUMMARY_METRICS["global_load_sectors"]
    for match in pulls.finditer(text):
        want = (fmt.count(tiled.metric(sectors)), fmt.count(naive.metric(sectors)))
        found.append(Claim(match.group(0), match.groups() == want, str(want)))
    requests = metrics.SUMMARY_METRICS["global_load_requests"]
    for match in issues.finditer(text):
        held = naive.metric(requests) is not None and tiled.metric(requests) is not None
        found.append(Claim(match.group(0), held, "requests held by both"))
    return found


PAIR_FINDERS = {
    "chart_layout.memory_ratios": memory_ratio_claims,
    "summary_terminal.comparison_text": comparison_claims,
    "summary.comparison": comparison_claims,
    "t4_reference.cross_gpu": t4_row_claims,
    "predict_text.results": predict_claims,
    "roofline_words.level_changes": roofline_change_claims,
    "exercise_report": exercise_claims,
}


def pair_claims(said: Sequence[Said]) -> dict[str, list[Claim]]:
    """Every finder's claims over `said`, by the source it reads."""
    found: dict[str, list[Claim]] = {source: [] for source in PAIR_FINDERS}
    for one in said:
        finder = PAIR_FINDERS.get(one.source)
        if finder is not None:
            found[one.source] += finder(one)
    return found


def lesson_table_claims(page: str, t4: Sequence[Kernel], here: Sequence[Kernel]) -> list[Claim]:
    """`lesson`'s T4 table: each row's four cells (the T4's naive and tiled as the lesson prints
    them, this pair's) the kernels' own values."""
    first = t4[0]
    assert isinstance(first, PublishedKernel) and first.published is not None
    found = []
    for row in first.published.rows:
        metric = row.metric or row.derived or ""
        decimals = t4_reference.LESSON_DECIMALS.get(metric)
        cells = [fmt.by_unit(v, _t4_unit(metric)) if decimals is None or v is None
                 else f"{v:.{decimals}f}" for v in (_t4_value(k, metric) for k in t4)]
        cells += [fmt.by_unit(_t4_value(k, metric), _t4_unit(metric)) for k in here]
        want = " ".join((row.label, *cells))
        found.append(Claim(want, f" {want} " in page, "the row as the kernels hold it"))
    return found
