"""The Instruction mix view's plain half on the real reports: the counts by opcode add up to
the instructions each report says its kernel executed, its global and shared loads are the
report's own, the rows are sorted, and a capture without counters has none (never zero)."""

from __future__ import annotations

from pathlib import Path

import pytest

from viewer.analysis import instruction_mix as mix
from viewer.readers import read_metrics, read_report
from viewer.readers.source import read_source

ROOT = Path(__file__).parents[2]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
CORPUS = H200 / "numba-tiled.ncu-rep"
BASIC = H200 / "workloads-kernels-and-graph.ncu-rep"
TOTAL = "smsp__inst_executed.sum"
GLOBAL = "smsp__sass_inst_executed_op_global_ld.sum"
SHARED = "smsp__sass_inst_executed_op_shared_ld.sum"


def metrics(path: Path) -> dict[str, float]:
    """What the report itself says its first kernel executed: all, global and shared loads."""
    report = read_report(path)
    return dict(read_metrics(report, [0], [TOTAL, GLOBAL, SHARED])[0])


@pytest.fixture(scope="module")
def pair():
    return read_source(NAIVE)[0], read_source(TILED)[0]


@pytest.mark.parametrize("path", [NAIVE, TILED, CORPUS], ids=lambda p: p.name)
def test_the_counts_are_the_reports_own(path: Path) -> None:
    said = metrics(path)
    found = mix.mix([read_source(path)[0]])
    assert found.totals == (pytest.approx(said[TOTAL]),)
    assert sum(r.counts[0] or 0.0 for r in found.rows) == pytest.approx(said[TOTAL])
    ldg, lds = found.row(mix.GLOBAL_LOAD), found.row(mix.SHARED_LOAD)
    assert ldg is not None and ldg.counts[0] == pytest.approx(said[GLOBAL])
    assert (lds.counts[0] if lds is not None else 0.0) == pytest.approx(said[SHARED])
    assert sum(r.shares[0] or 0.0 for r in found.rows) == pytest.approx(100.0)


def test_rows_are_sorted_largest_first_with_the_ratio(pair) -> None:
    found = mix.mix(pair)
    largest = [r.largest for r in found.rows]
    assert largest == sorted(largest, reverse=True) and largest[0] > 0
    lds = found.row(mix.SHARED_LOAD)
    ldg = found.row(mix.GLOBAL_LOAD)
    assert lds is not None and lds.counts[0] == 0.0 and lds.ratio is None  # naive issues none
    assert ldg is not None and ldg.ratio == pytest.approx(ldg.counts[1] / ldg.counts[0])
    naive, tiled = metrics(NAIVE), metrics(TILED)
    assert ldg.ratio == pytest.approx(tiled[GLOBAL] / naive[GLOBAL])
    assert ldg.ratio < 1


def test_the_sentence_is_computed_from_the_values(pair) -> None:
    naive, tiled = metrics(NAIVE), metrics(TILED)
    text = mix.sentence(mix.mix(pair))
    assert f"{tiled[TOTAL] / naive[TOTAL]:.2f}x A's instructions" in text
    assert f"({mix.GLOBAL_LOAD}) {tiled[GLOBAL] / naive[GLOBAL]:.2f}x A's" in text
    assert f"{tiled[SHARED] / 1e6:.2f} M) {tiled[SHARED] / naive[GLOBAL]:.2f}x A's global" in text
    single = mix.sentence(mix.mix(pair[:1]))
    top = mix.mix(pair[:1]).rows[0]
    assert single.startswith(f"{top.opcode} is the most executed instruction: "
                             f"{top.shares[0]:.2f} %")


def test_a_capture_without_counters_has_no_counts() -> None:
    kernel = read_source(BASIC)[0]
    assert not kernel.has_counters
    assert mix.counts(kernel) is None and mix.counts(None) is None
    found = mix.mix([kernel])
    assert found.empty and found.totals == (None,) and mix.sentence(found) == ""


def test_beside_a_kernel_without_counters_the_other_is_missing_not_zero(pair) -> None:
    found = mix.mix([pair[0], read_source(BASIC)[0]])
    assert found.rows and all(r.counts[1] is None and r.shares[1] is None and r.ratio is None
                              for r in found.rows)
    assert mix.sentence(found) == ""


def test_each_opcode_of_the_pair_has_its_family(pair) -> None:
    families = {r.opcode: mix.family(r.opcode) for r in mix.mix(pair).rows}
    assert (families["LDG"], families["LDS"], families["FFMA"]) == ("global", "shared", "fp32")
    assert families["IADD3"] == "other"
