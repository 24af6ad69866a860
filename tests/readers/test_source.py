"""Source counters read from a .ncu-rep equal ncu's own source page export of it, per
instruction, on every report of the corpus and the shipped pair; what a capture lacks is said."""

from __future__ import annotations

from pathlib import Path

import pytest

from viewer.core.jobs import Cancelled, Job
from viewer.core.model import ReportError
from viewer.readers import sniff
from viewer.readers.source import (
    INST_EXECUTED,
    NO_COUNTERS,
    NO_LINE_INFO,
    KernelSource,
    read_source,
)

DATA = Path(__file__).parents[1] / "data"
H200 = DATA / "corpus" / "h200"
SHIPPED = Path(__file__).parents[2] / "profiles"
PAIRS = sorted(
    [(rep, H200 / f"{rep.name.removesuffix('.ncu-rep')}.source.csv")
     for rep in H200.glob("*.ncu-rep")]
    + [(SHIPPED / f"{k}.ncu-rep", H200 / f"numba-{k}-lineinfo.source.csv")
       for k in ("naive", "tiled")])


def _key(kernel: KernelSource) -> int:
    return kernel.instructions[0].address


@pytest.fixture(scope="module")
def read_pairs(source_of) -> dict[Path, tuple[list[KernelSource], list[KernelSource]]]:
    """Each report and its page, read once (the shipped pair shares its pages with the corpus's
    line-info captures)."""
    return {rep: (source_of(rep), source_of(page)) for rep, page in PAIRS}


def test_the_corpus_has_a_source_page_beside_each_report():
    assert len(PAIRS) >= 6
    assert all(page.is_file() for _, page in PAIRS)


@pytest.mark.parametrize(("rep", "page"), PAIRS, ids=lambda p: p.name)
def test_each_instruction_equals_ncus_source_page(read_pairs, rep, page):
    from_report, from_page = read_pairs[rep]
    by_key = {_key(k): k for k in from_report}
    assert from_page
    for printed in from_page:
        read = by_key[_key(printed)]
        assert read.kind is not None or read.function == printed.function
        assert read.held == printed.held
        assert set(printed.stalls) <= set(read.stalls)  # the page leaves warpgroup_arrive out
        assert [i.address for i in read.instructions] == [i.address for i in printed.instructions]
        for ours, ncus in zip(read.instructions, printed.instructions, strict=True):
            assert ours.text == ncus.text
            assert {k: ours.counters[k] for k in ncus.counters} == ncus.counters
            assert {r: v for r, v in ours.stalls.items() if r in printed.stalls} == ncus.stalls


def test_every_kernel_of_the_report_is_read(read_pairs):
    for rep, (from_report, from_page) in read_pairs.items():
        assert {_key(k) for k in from_report} == {_key(k) for k in from_page}, rep.name


def test_a_full_capture_without_line_info_is_sass_only_and_says_so(read_pairs):
    naive = read_pairs[H200 / "numba-naive.ncu-rep"][0][0]
    assert naive.has_counters and not naive.has_line_info
    assert NO_LINE_INFO in naive.notes and NO_COUNTERS not in naive.notes
    assert naive.threads is not None and naive.threads > 0
    loads = [i for i in naive.instructions if i.is_global_load]
    assert loads and all(i.global_loads == i.value(INST_EXECUTED) for i in loads)
    assert all(i.global_loads == 0 for i in naive.instructions if not i.is_global_load)


def test_a_basic_capture_holds_no_counters_and_names_the_option_that_adds_them(read_pairs):
    kernels = read_pairs[H200 / "workloads-kernels-and-graph.ncu-rep"][0]
    assert kernels and all(not k.has_counters for k in kernels)
    for kernel in kernels:
        assert NO_COUNTERS in kernel.notes
        assert all(i.global_loads is None and i.value(INST_EXECUTED) is None
                   for i in kernel.instructions)
    assert "--section SourceCounters" in NO_COUNTERS and "--set full" in NO_COUNTERS
    assert "--import-source yes" in NO_COUNTERS


def test_a_graphs_kernels_are_read_as_its_parts(read_pairs):
    kernels = read_pairs[H200 / "workloads-kernels-and-graph.ncu-rep"][0]
    parts = [k for k in kernels if k.kind == "graph"]
    assert parts and {k.part for k in parts} == {0, 1}
    assert all("one of add, scale" in k.name for k in parts)


def test_the_source_page_is_identified_and_read_through_the_source_reader(source_of):
    page = H200 / "numba-naive-lineinfo.source.csv"
    assert sniff.identify(page) == sniff.SOURCE_PAGE
    assert sniff.SOURCE_PAGE in sniff.SOURCE_FORMATS and sniff.NCU_REP in sniff.SOURCE_FORMATS
    assert source_of(page)[0].has_counters


def test_an_export_without_source_counters_is_refused_saying_which_file_has_them():
    with pytest.raises(ReportError, match="--page source --csv"):
        read_source(H200 / "numba-naive.details.csv")


def test_a_cancelled_read_stops():
    job = Job()
    job.cancel()
    with pytest.raises(Cancelled):
        read_source(SHIPPED / "tiled.ncu-rep", job)


def test_positions_pick_the_results_read():
    rep = H200 / "workloads-kernels-and-graph.ncu-rep"
    assert [k.function for k in read_source(rep, positions=[1])] == ["add"]
