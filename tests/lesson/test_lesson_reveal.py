"""Predict, then reveal: the derivation beside the counters, worded as the lesson reads them, on
the shipped H200 pair and on the lesson's own T4 table."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from viewer.analysis.predict import DerivationError, derive
from viewer.core import shipped
from viewer.core.model import Kernel
from viewer.lesson import reveal
from viewer.lesson.reveal import Guess, SpeedGuess, parse_number
from viewer.readers import read_report


@pytest.fixture(scope="module")
def t4() -> list[Kernel]:
    return read_report(shipped.reference()).kernels


@pytest.fixture(scope="module")
def h200() -> list[Kernel]:
    return [read_report(path).kernels[0] for path in shipped.comparison()]


def rows_by(rows: list[reveal.RevealRow]) -> dict[tuple[str, str], reveal.RevealRow]:
    return {(r.kernel, r.quantity): r for r in rows}


@pytest.mark.parametrize("pair", ["t4", "h200"])
def test_the_predictions_are_the_derivation(pair: str, request: pytest.FixtureRequest) -> None:
    rows = rows_by(reveal.reveal(*request.getfixturevalue(pair)))
    p = derive(512, 16)
    for role, k in (("naive", p.naive), ("tiled", p.tiled)):
        assert rows[(role, "requests")].derived == k.global_load_requests
        assert rows[(role, "sectors")].derived == k.global_load_sectors
        assert rows[(role, "sectors_per_request")].derived == k.sectors_per_request
        assert rows[(role, "dram_bytes")].derived == p.compulsory_dram_bytes == 3_145_728
    assert [(r.kernel, r.quantity) for r in reveal.reveal(*request.getfixturevalue(pair))] == [
        (role, q) for role in ("naive", "tiled") for q in reveal.QUANTITIES]


def test_on_the_t4_the_reveal_reproduces_the_lessons_four_claims(t4: list[Kernel]) -> None:
    rows = rows_by(reveal.reveal(*t4))
    # "8,388,608 and 524,288 requests, to the digit."
    for role, requests in (("naive", 8_388_608), ("tiled", 524_288)):
        row = rows[(role, "requests")]
        assert row.measured == row.derived == requests
        assert row.reading == "to the digit" and row.match is True
    # "16,777,077 against a derived 16,777,216 and 2,083,878 against 2,097,152 ... within 0.7
    # percent ... both a hair under"
    for role, measured, derived in (("naive", 16_777_077, 16_777_216),
                                    ("tiled", 2_083_878, 2_097_152)):
        row = rows[(role, "sectors")]
        assert (row.measured, row.derived) == (measured, derived)
        assert 0 < row.derived_off_pct < 0.7 and row.match is True
        assert row.reading.startswith("a hair under")
        assert "served before they started counting" in row.reading
    assert rows[("naive", "sectors")].reading.startswith("a hair under: 139 sectors (0.00083 %)")
    # "Sectors per request lands on 2.0 and 4.0 as derived."
    assert rows[("naive", "sectors_per_request")].reading == "lands on 2.0 as derived"
    assert rows[("tiled", "sectors_per_request")].reading == "lands on 4.0 as derived"
    # "4.74 MB for the naive kernel and 4.64 MB for the tiled one, within 1.6x of the
    # 3,145,728-byte compulsory floor"
    naive_dram, tiled_dram = rows[("naive", "dram_bytes")], rows[("tiled", "dram_bytes")]
    assert naive_dram.reading.startswith("4.74 MB against the 3,145,728-byte floor: 1.51x")
    assert tiled_dram.reading.startswith("4.64 MB against the 3,145,728-byte floor: 1.48x")
    assert naive_dram.metric == "dram__bytes.sum" and naive_dram.match is None


def test_on_the_shipped_pair_counts_are_exact_and_dram_sits_below_the_floor(
        h200: list[Kernel]) -> None:
    rows = rows_by(reveal.reveal(*h200))
    for role in ("naive", "tiled"):
        for q in ("requests", "sectors"):
            assert rows[(role, q)].reading == "to the digit"
        dram = rows[(role, "dram_bytes")]
        assert dram.metric == "dram__bytes_read.sum"  # the H200 report has no dram__bytes.sum
        assert dram.measured < dram.derived and ", below it" in dram.reading


def test_on_the_t4_duration_differs_by_1_59x_and_sectors_by_8_05x(t4: list[Kernel]) -> None:
    row = reveal.speed(*t4)
    assert row.faster == "tiled"
    assert f"{row.sector_ratio:.2f}" == "8.05"
    # The table prints 1.18 ms: 1.58x from the printed figures, 1.59x within what they allow.
    low, high = row.duration_ratio_range
    assert low <= 1.59 <= high and low <= row.duration_ratio <= high
    assert "Duration differs by 1.58x to 1.59x" in row.reading
    assert "sectors moved by 8.05x" in row.reading
    assert "The memory chart separates the kernels and the duration does not" in row.reading


def test_on_the_shipped_pair_the_speed_is_measured_not_printed(h200: list[Kernel]) -> None:
    row = reveal.speed(*h200)
    assert row.duration_ratio_range is None
    assert row.reading.startswith(f"Duration differs by {row.duration_ratio:.2f}x, sectors moved "
                                  "by 8.00x")


def test_guesses_are_set_against_the_counter(t4: list[Kernel]) -> None:
    rows = rows_by(reveal.reveal(*t4, {"naive": Guess(requests=8e6, sectors=None)}))
    assert rows[("naive", "requests")].guess_off_pct == pytest.approx(
        100 * (8e6 - 8_388_608) / 8_388_608)
    assert rows[("naive", "sectors")].guess is None
    assert rows[("naive", "sectors")].guess_off_pct is None
    right = reveal.speed(*t4, SpeedGuess("tiled", 1.6)).reading
    assert "You named tiled the faster kernel: right" in right
    wrong = reveal.speed(*t4, SpeedGuess("naive", None)).reading
    assert "You named naive the faster kernel: wrong" in wrong


def test_a_missing_counter_stays_missing(h200: list[Kernel]) -> None:
    naive, tiled = h200
    bare = dataclasses.replace(naive, metrics={k: v for k, v in naive.metrics.items()
                                               if "sectors" not in k})
    rows = rows_by(reveal.reveal(bare, tiled))
    assert rows[("naive", "sectors")].measured is None
    assert rows[("naive", "sectors")].match is None
    assert rows[("naive", "sectors")].reading.startswith("not in this report")
    assert rows[("naive", "sectors_per_request")].measured is None


def test_counters_far_from_the_derivation_are_not_a_hair(h200: list[Kernel]) -> None:
    naive, tiled = h200
    rows = rows_by(reveal.reveal(naive, tiled, dim=1024))  # the wrong size, entered by hand
    assert rows[("naive", "requests")].match is False
    assert "not the derived geometry (1024 x 1024 x 1024" in rows[("naive", "requests")].reading


def test_the_size_of_kernels_that_are_not_the_lessons_must_be_entered(h200) -> None:
    naive, tiled = (dataclasses.replace(k, name=f"gemm{i}") for i, k in enumerate(h200))
    with pytest.raises(DerivationError, match="enter the size"):
        reveal.reveal(naive, tiled)
    assert len(reveal.reveal(naive, tiled, dim=512)) == 8


@pytest.mark.parametrize(("text", "value"), [
    ("8,388,608", 8_388_608), ("8388608", 8_388_608), ("8.39e6", 8_390_000),
    ("4.7 MB", 4_700_000), ("4.7MB", 4_700_000), ("2", 2), ("2.0", 2), ("1.6x", 1.6),
    ("  16 777 216 ".replace(" ", "\u202f").strip(), 16_777_216), ("", None), ("   ", None),
])
def test_parse_number_reads_a_typed_guess(text: str, value: float | None) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize("text", ["lots", "8,38,8608", "4.7 parsecs", "1e999", "-5", ".", "e6"])
def test_parse_number_says_what_to_type_for_garbage(text: str) -> None:
    with pytest.raises(ValueError, match="not a"):
        parse_number(text)


def test_a_duration_far_apart_is_never_said_not_to_separate_the_kernels(h200: list[Kernel]
                                                                         ) -> None:
    """layout-naive-rows (threadIdx.x over rows: 8.5 sectors per request) runs 7x as long as
    tiled: the duration separates them too, only less sharply than the sectors."""
    from viewer.readers import read_report

    corpus = Path(__file__).resolve().parents[1] / "data" / "corpus" / "h200"
    (rows,) = read_report(corpus / "layout-naive-rows.ncu-rep").kernels
    row = reveal.speed(rows, h200[1])
    assert row.duration_ratio is not None and row.duration_ratio > reveal.SEPARATES
    assert "the duration does not" not in row.reading
    assert (f"far more sharply than the duration does ({row.duration_ratio:.2f}x apart)"
            in row.reading)
