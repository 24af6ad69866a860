"""Numbers and units as ncu prints them, in base units."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from viewer.core import metrics
from viewer.core.units import (
    COUNT,
    FREQUENCY,
    KNOWN_UNITS,
    PERCENT,
    RATE,
    SIZE,
    TIME,
    guess_decimal_comma,
    parse_number,
    scale_for,
    to_base,
    unit_kind,
    unit_scale,
)


@pytest.mark.parametrize(
    ("text", "unit", "expected"),
    [
        ("219.14", "us", 219_140.0),
        ("219.14", "usecond", 219_140.0),
        ("1.18", "ms", 1_180_000.0),
        ("1.18", "msecond", 1_180_000.0),
        ("744.64", "nsecond", 744.64),
        ("2.10", "Mbyte", 2_100_000.0),
        ("4,741,440", "byte", 4_741_440.0),
        ("16,777,216", "sector", 16_777_216.0),
        ("8,388,608", "", 8_388_608.0),
        ("1.98", "Ghz", 1.98e9),
        ("1.59", "cycle/nsecond", 1.59e9),
        ("810.38", "cycle/usecond", 810.38e6),
        ("3.11", "Gbyte/s", 3.11e9),
        ("3.11", "Gbyte/second", 3.11e9),
        ("4,963,609,951.19", "byte/s", 4_963_609_951.19),
        ("21.79", "%", 21.79),
        ("2.82", "inst/cycle", 2.82),
        ("1.02", "Kbyte/block", 1020.0),
        ("2.614", "%/Kbyte", 0.002614),
    ],
)
def test_values_land_in_base_units(text: str, unit: str, expected: float) -> None:
    assert to_base(text, unit) == pytest.approx(expected)


@pytest.mark.parametrize("text", ["(!) nan", "(!) n/a", "n/a", "nan", "", "  "])
def test_unavailable_values_are_missing_not_zero(text: str) -> None:
    assert parse_number(text) is None
    assert to_base(text, "%") is None


def test_comma_decimal_locale() -> None:
    assert parse_number("6,72", decimal_comma=True) == pytest.approx(6.72)
    assert parse_number("13.490.336", decimal_comma=True) == 13_490_336
    assert parse_number("9.420.231,80", decimal_comma=True) == pytest.approx(9_420_231.80)


def test_guess_decimal_comma_from_a_files_values() -> None:
    assert guess_decimal_comma(["6,72", "13.490.336", "1,00", "810"])
    assert not guess_decimal_comma(["16,777,216", "219.14", "8,388,608", "2.10"])
    assert not guess_decimal_comma(["219.14", "0.20"])


def test_not_a_number_raises() -> None:
    with pytest.raises(ValueError):
        parse_number("Ghz")


def test_counts_ncu_prints_are_understood_as_counts() -> None:
    assert unit_scale("register/thread") == (1.0, "register/thread")
    assert unit_scale("warp") == (1.0, "warp")
    assert unit_scale("block") == (1.0, "block")


CORPUS_UNITS = (
    "", "%", "%/Kbyte", "%/register", "%/byte", "Gbyte", "Gbyte/s", "Gbyte/second", "Ghz",
    "Kbyte", "Kbyte/block", "Kbyte/cycle", "Mbyte", "Mbyte/s", "Mbyte/second", "Mhz", "SM",
    "Tbyte", "Tbyte/s", "block", "branches", "byte", "byte/block", "byte/cycle", "byte/s",
    "byte/second", "byte/sector", "cluster", "cycle", "cycle/nsecond", "cycle/second",
    "cycle/usecond", "hz", "inst", "inst/cycle", "ms", "msecond", "ns", "nsecond", "pass",
    "register/thread", "request", "sample", "second", "sector", "sector/cycle", "sector/ns",
    "sector/s", "sector/us", "sectors", "thread", "us", "warp", "warp/cycle", "usecond",
    "sector/request",
)
"""Every unit the corpus, profiles/ and the .ncu-rep files print (and metric-labels.md names)."""


@pytest.mark.parametrize("unit", CORPUS_UNITS)
def test_every_unit_ncu_prints_is_understood(unit: str) -> None:
    assert unit in KNOWN_UNITS
    assert unit_scale(unit) is not None and unit_kind(unit) is not None


@pytest.mark.parametrize("unit", ["zorks", "Mzorks", "byte/zork", "zork/second", "Xbyte",
                                  "bytes/", "/s", "%%", "us/us/us", "Kbyte/"])
def test_a_unit_not_understood_has_no_factor(unit: str) -> None:
    assert unit_scale(unit) is None
    assert unit_kind(unit) is None
    assert scale_for(unit, None) is None
    with pytest.raises(ValueError):
        to_base("2.1", unit)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=16))
def test_any_unit_outside_the_known_set_is_not_understood(unit: str) -> None:
    if unit.strip() not in KNOWN_UNITS:
        assert unit_scale(unit) is None
    else:
        assert unit_scale(unit) is not None


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(KNOWN_UNITS)).map(lambda u: u + "x"))
def test_a_known_unit_with_more_after_it_is_not_understood(unit: str) -> None:
    if unit not in KNOWN_UNITS:
        assert unit_scale(unit) is None


@pytest.mark.parametrize(("unit", "kind", "factor"), [
    ("us", TIME, 1e3), ("Mbyte", SIZE, 1e6), ("Kbyte/block", SIZE, 1e3), ("Gbyte/s", RATE, 1e9),
    ("Ghz", FREQUENCY, 1e9), ("cycle/nsecond", FREQUENCY, 1e9), ("%", PERCENT, 1.0),
    ("block", COUNT, 1.0), ("", COUNT, 1.0), ("inst/cycle", COUNT, 1.0),
])
def test_a_unit_of_its_metrics_kind_is_scaled(unit: str, kind: str, factor: float) -> None:
    assert unit_kind(unit) == kind
    assert scale_for(unit, kind) == pytest.approx(factor)


@pytest.mark.parametrize(("unit", "metric"), [
    ("byte", "gpu__time_duration.sum"),  # Duration in bytes
    ("inst", "sm__throughput.avg.pct_of_peak_sustained_elapsed"),  # a percent in inst
    ("us", "dram__bytes_read.sum"),
    ("Mbyte", "dram__bytes.sum.per_second"),
    ("%", "launch__registers_per_thread"),
])
def test_a_unit_of_the_wrong_kind_is_not_understood_for_its_metric(unit: str,
                                                                    metric: str) -> None:
    assert unit_scale(unit) is not None
    assert scale_for(unit, metrics.kind(metric)) is None


def test_a_metric_the_app_does_not_read_takes_any_unit_understood() -> None:
    assert metrics.kind("smsp__whatever.sum") is None
    assert scale_for("Kbyte", metrics.kind("smsp__whatever.sum")) == 1e3
