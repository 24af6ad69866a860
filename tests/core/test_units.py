"""Numbers and units as ncu prints them, in base units."""

from __future__ import annotations

import pytest

from viewer.core.units import guess_decimal_comma, parse_number, to_base, unit_scale


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


def test_unknown_units_are_counts() -> None:
    assert unit_scale("register/thread") == (1.0, "register/thread")
    assert unit_scale("warp") == (1.0, "warp")
    assert unit_scale("block") == (1.0, "block")
