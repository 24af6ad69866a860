"""Every sentence the app says of the corpus's reports, checked where a program can check it:
percents as their metrics', per active or elapsed cycle as the metric's name says, the busiest
unit the busiest the report shows, 'could have filled the machine' only on a full wave, latency
only where a small grid is ruled out, the sizes named across sizes, and never a number where the
report holds none.

The sentences are the readings, the memory chart, the roofline's and the stalls' words, the
misreads, the comparisons (the compare line, the memory chart's ratios, the T4 table, the
exercise, Predict) and the terminal's `summary` and `lesson`, over every kernel of every report
(tests/claims/corpus.py) and pairs of them. Each finder must find some claims, so none passes
for matching nothing; the words of cycles, latency and percents no finder accounts for fail too.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from tests.claims import corpus, grid_words, pairs, rows, sizes, values
from tests.claims.claim import Claim
from tests.claims.corpus import Corpus, t4
from tests.claims.sentences import Said, pair_sentences
from viewer.core.model import Kernel
from viewer.lesson import lesson_kernels

KernelFinder = Callable[[str, Kernel], list[Claim]]


def _check(found: Iterable[tuple[str, Claim]], at_least: int) -> None:
    """Every claim holds, and there are at least `at_least` of them."""
    claims = list(found)
    false = [f"{where}: {c.words!r} ({c.why})" for where, c in claims if not c.holds]
    assert not false, f"{len(false)} false of {len(claims)}:\n" + "\n".join(false[:20])
    assert len(claims) >= at_least, f"only {len(claims)} claims found"


def _of_kernels(said: list[Said], finder: KernelFinder) -> list[tuple[str, Claim]]:
    """What `finder` finds in the words of one kernel each."""
    return [(s.source, c) for s in said if len(s.kernels) == 1
            for c in finder(s.text, s.kernels[0])]


def _nothing_unread(said: list[Said], finder: Callable[[str], list[str]]) -> None:
    """No words of the kind `finder` looks for are left that no finder reads."""
    unread = sorted({f"{s.source}: ...{words}" for s in said for words in finder(s.text)})
    assert not unread, "words no finder reads:\n" + "\n".join(unread[:20])


def test_every_percent_named_as_a_row_or_metric_is_its_value(kernel_said) -> None:
    _check(_of_kernels(kernel_said, rows.percent_claims), 5000)
    _nothing_unread(kernel_said, rows.unclaimed_percents)


def test_per_active_or_elapsed_cycle_is_what_the_metric_s_name_says(kernel_said) -> None:
    _check(_of_kernels(kernel_said, rows.cycle_claims), 1000)
    _nothing_unread(kernel_said, rows.unclaimed_cycles)


def test_the_busiest_unit_named_is_the_busiest_the_report_shows(kernel_said) -> None:
    _check(_of_kernels(kernel_said, rows.busiest_claims), 1000)


def test_could_have_filled_the_machine_only_on_a_full_wave(kernel_said) -> None:
    _check(_of_kernels(kernel_said, grid_words.filled_claims), 20)
    _check(_of_kernels(kernel_said, grid_words.small_claims), 500)
    _nothing_unread(kernel_said, grid_words.unfilled_words)


def test_latency_only_where_a_small_grid_is_ruled_out(kernel_said) -> None:
    _check(_of_kernels(kernel_said, grid_words.latency_claims), 20)
    _nothing_unread(kernel_said, grid_words.unclaimed_latency)


def test_never_a_number_where_the_report_holds_none(kernel_said) -> None:
    _check(_of_kernels(kernel_said, values.value_claims), 10_000)


def test_the_comparisons_state_each_kernel_s_own_values(kernel_said, pair_said) -> None:
    found = pairs.pair_claims(pair_said + [s for s in kernel_said if len(s.kernels) == 2])
    for source, claims in found.items():
        _check(((source, c) for c in claims), 100)


# ---------------------------------------------------------------- sizes

_COMPARISONS = {"summary_terminal.comparison_text": "summary", "summary.comparison": "summary",
                "misreads.compare_misreads": "the compare line"}
_BESIDE_T4 = ("t4_reference.cross_gpu", "t4_reference.summary_words")


def _size_claims(said: list[Said]) -> list[tuple[str, Claim]]:
    """Per comparison (the summary's, the compare line's, the T4 table's), the sizes named."""
    groups: dict[tuple[str, tuple[int, ...]], list[Said]] = {}
    for s in said:
        where = _COMPARISONS.get(s.source) or ("the T4 table" if s.source in _BESIDE_T4 else "")
        if where:
            groups.setdefault((where, tuple(map(id, s.kernels))), []).append(s)
    found = []
    for (where, _), group in groups.items():
        text, kernels = " ".join(s.text for s in group), group[0].kernels
        if where == "the T4 table":  # the T4's size against each kernel's beside it
            kernels = (kernels[0], *kernels[2:])
        found += [(where, c) for c in sizes.size_claims(text, kernels)]
    return found


def test_a_comparison_across_sizes_names_the_sizes(kernel_said, pair_said) -> None:
    _check(_size_claims(pair_said + kernel_said), 500)


def test_a_comparison_across_sizes_names_them_on_the_lesson_s_pair_too(reports: Corpus,
                                                                       pair_1024_files) -> None:
    """The N = 1024 pair against the shipped N = 512 naive, both ways round, each form."""
    naive = reports.shipped_naive()
    larger = [p for p in reports.picks() if Path(p.report.source) in pair_1024_files]
    said = [s for p in larger for pair in ((naive, p), (p, naive)) for s in pair_sentences(*pair)]
    claims = _size_claims(said)
    _check(claims, 8)
    assert {where for where, _ in claims} == {"summary", "the compare line", "the T4 table"}


# ---------------------------------------------------------------- `python -m viewer lesson`


def _here(files: tuple[Path, ...]) -> tuple[Kernel, Kernel]:
    return lesson_kernels.find_pair([k for f in files for k in corpus.report(f).kernels])


def test_the_lesson_s_page_states_each_kernel_s_own_values(lesson_pages) -> None:
    found = [(str(files[0].name), c) for files, page in lesson_pages
             for c in pairs.lesson_table_claims(page, t4(), _here(files))]
    _check(found, 100)


def test_the_lesson_s_page_names_the_sizes_where_they_differ(lesson_pages) -> None:
    found = [(str(files[0].name), c) for files, page in lesson_pages
             for c in sizes.size_claims(page, (t4()[0], *_here(files)))]
    _check(found, 1)


# The every-launch pass in PARTS, each a test of its own, so that parallel workers share it.
PARTS = 6


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_every_launch_of_a_many_kernel_report_against_each_kind(reports: Corpus,
                                                                part: int) -> None:
    """The 400-kernel PyTorch report: every launch against the first of each kernel and launch
    shape (the default pass sets those shapes pairwise); the pairs `part`, `part + PARTS`, ..."""
    every = itertools.islice(reports.every_launch(), part, None, PARTS)
    said = [s for a, b in every for s in pair_sentences(a, b)]
    sources = {s.source for s in said}
    for source, claims in pairs.pair_claims(said).items():
        if source in sources:
            _check(((source, c) for c in claims), 1000)
    _check(_size_claims(said), 1000)
