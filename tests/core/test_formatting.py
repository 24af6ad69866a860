"""Values written for people (viewer.core.formatting): each kind of value has one way to be
written."""

from __future__ import annotations

import pytest

from viewer.core import formatting as fmt


def test_missing_values_are_words_never_zero() -> None:
    for write in (fmt.count, fmt.percent, fmt.duration, fmt.size, fmt.rate, fmt.ratio,
                  fmt.sectors_per_request):
        assert write(None) == fmt.MISSING
    assert fmt.NOT_IN_REPORT == "not in this report" and fmt.MISSING != "0"


def test_sectors_per_request_keeps_two_decimals() -> None:
    assert fmt.sectors_per_request(2.0) == "2.00"
    assert fmt.sectors_per_request(3.999) == "4.00"
    assert fmt.sectors_per_request(1234.5) == "1,234.50"


@pytest.mark.parametrize(("value", "unit", "text"), [
    (21.79, "%", "21.79 %"),
    (219_140.0, "ns", "219.14 us"),
    (2_100_000.0, "byte", "2.10 MB"),
    (4.8e12, "byte/s", "4.80 TB/s"),
    (4.0, "sector/request", "4.00"),
    (16_777_216.0, "sector", "16,777,216"),
    (8.0, "block", "8"),
    (None, "sector/request", fmt.MISSING),
])
def test_by_unit_picks_the_writer_of_the_unit(value: float | None, unit: str, text: str) -> None:
    assert fmt.by_unit(value, unit) == text
