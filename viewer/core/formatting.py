"""Values in base units, written for people: '219.14 us', '16,777,216', '21.79 %', '4.74 MB'.

A missing value is written as MISSING in a figure ('n/a') and as NOT_IN_REPORT where a view
says in words what the report lacks, never as 0.
"""

from __future__ import annotations

import math

MISSING = "n/a"
NOT_IN_REPORT = "not in this report"


def fixed(value: float, places: int = 2, *, sign: bool = False) -> str:
    """`value` to `places` decimals ('+' before a positive one with `sign`); a value that rounds
    to zero is written as zero, never '-0.00'."""
    text = f"{value:{'+' if sign else ''}.{places}f}"
    if float(text) == 0:
        return f"{0.0:.{places}f}"
    return text


def count(value: float | None) -> str:
    """A count with thousands separators; fractional counts keep two decimals."""
    if value is None:
        return MISSING
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}"


def percent(value: float | None) -> str:
    if value is None:
        return MISSING
    return f"{value:.2f} %"


def duration(ns: float | None) -> str:
    if ns is None:
        return MISSING
    if ns >= 1e9:
        return f"{ns / 1e9:.3f} s"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} us"
    return f"{ns:.0f} ns"


def milliseconds(value: float) -> str:
    """Milliseconds to four significant digits, without an exponent: '0.2200 ms', '41.73 ms'."""
    if value == 0 or not math.isfinite(value):
        return f"{value:.3f} ms"
    decimals = max(0, 3 - math.floor(math.log10(abs(value))))
    return f"{value:,.{decimals}f} ms"


def size(nbytes: float | None) -> str:
    """Bytes with decimal prefixes, as ncu prints them (1 MB = 1,000,000 bytes)."""
    if nbytes is None:
        return MISSING
    for factor, unit in ((1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "KB")):
        if abs(nbytes) >= factor:
            return f"{nbytes / factor:.2f} {unit}"
    return f"{nbytes:,.0f} B"


def rate(bytes_per_s: float | None) -> str:
    if bytes_per_s is None:
        return MISSING
    return size(bytes_per_s) + "/s"


def flop_rate(flop_per_s: float | None) -> str:
    """FLOP per second with decimal prefixes: '4.27 TFLOP/s'."""
    if flop_per_s is None:
        return MISSING
    for factor, unit in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "K")):
        if abs(flop_per_s) >= factor:
            return f"{flop_per_s / factor:.2f} {unit}FLOP/s"
    return f"{flop_per_s:,.0f} FLOP/s"


def intensity(flop_per_byte: float | None) -> str:
    """Arithmetic intensity, FLOP per byte, three significant digits at least: '0.249', '2.00',
    '127.6'."""
    if flop_per_byte is None:
        return MISSING
    return f"{flop_per_byte:#.3g}" if abs(flop_per_byte) < 100 else f"{flop_per_byte:,.1f}"


def sectors_per_request(value: float | None) -> str:
    """A ratio of counts, two decimals as the memory chart prints it: '2.00'."""
    if value is None:
        return MISSING
    return f"{value:,.2f}"


def ratio(value: float | None) -> str:
    if value is None:
        return MISSING
    return f"{value:.2f}x"


def by_unit(value: float | None, unit: str) -> str:
    """Format `value` by the kind of its base unit ('%', 'ns', 'byte', 'byte/s',
    'sector/request'; any other unit is a count)."""
    if unit == "%":
        return percent(value)
    if unit == "ns":
        return duration(value)
    if unit == "byte":
        return size(value)
    if unit == "byte/s":
        return rate(value)
    if unit == "sector/request":
        return sectors_per_request(value)
    return count(value)
