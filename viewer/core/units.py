"""Numbers and units as ncu prints them, turned into base units.

ncu prints values with thousands separators ("16,777,216"), in comma-decimal locales ("6,72",
"13.490.336"), as "(!) nan" when a value is not available, and in units that changed spelling
across generations ("usecond" and "us", "byte/second" and "byte/s", "cycle/nsecond" and "Ghz").
Base units: ns for time, bytes for sizes, bytes/s (or things/s) for rates, hz for frequency,
percent for percentages, plain counts for the rest.
"""

from __future__ import annotations

import math
import re

_TIME_IN_NS = {
    "ns": 1.0, "nsecond": 1.0, "nsec": 1.0,
    "us": 1e3, "usecond": 1e3, "usec": 1e3,
    "ms": 1e6, "msecond": 1e6, "msec": 1e6,
    "s": 1e9, "second": 1e9, "sec": 1e9,
}
_PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
_PREFIXED = re.compile(r"^([kKMGTP]?)(byte|bytes|hz|Hz|HZ|sector|sectors|inst|cycle|cycles)$")
_FREQ = re.compile(r"^([kKMGT]?)hz$", re.IGNORECASE)


def _numerator_factor(unit: str) -> tuple[float, str]:
    """Scale and base name of a count-like unit ('Mbyte' -> (1e6, 'byte'))."""
    m = _FREQ.match(unit)
    if m:
        return _PREFIX[m.group(1).upper() if m.group(1) != "k" else "k"], "hz"
    m = _PREFIXED.match(unit)
    if m:
        base = m.group(2).lower()
        base = {"bytes": "byte", "sectors": "sector", "cycles": "cycle"}.get(base, base)
        return _PREFIX[m.group(1)], base
    return 1.0, unit


def unit_scale(unit: str) -> tuple[float, str]:
    """Factor that turns a value printed in `unit` into base units, and the base unit's name.

    Unknown units are counts ('warp', 'register/thread'): factor 1, kept as printed.
    """
    u = (unit or "").strip()
    if u in ("", "%"):
        return 1.0, u
    if u in _TIME_IN_NS:
        return _TIME_IN_NS[u], "ns"
    if "/" in u:
        num, den = (part.strip() for part in u.split("/", 1))
        if den in _TIME_IN_NS:  # a rate: things per second
            factor, base = _numerator_factor(num)
            per_second = factor * 1e9 / _TIME_IN_NS[den]
            if base == "cycle":
                return per_second, "hz"
            return per_second, f"{base}/s"
        factor, base = _numerator_factor(num)
        den_factor, den_base = _numerator_factor(den)
        return factor / den_factor, f"{base}/{den_base}"
    return _numerator_factor(u)


_NAN = re.compile(r"^(\(!\)\s*)?(nan|n/?a|-?inf)?$", re.IGNORECASE)


def guess_decimal_comma(values: list[str]) -> bool:
    """Whether a file's numbers use ',' as the decimal mark ('6,72', '13.490.336').

    Evidence for a comma decimal: a value with two or more '.' groupings, or a ',' followed by
    other than exactly three digits. Evidence against: '1,234.5' style values.
    """
    comma = point = 0
    for raw in values:
        v = raw.strip().lstrip("+-")
        if not v or not v[0].isdigit():
            continue
        if v.count(".") >= 2 or re.fullmatch(r"\d{1,3}(\.\d{3})+,\d+|\d+,\d{1,2}|\d+,\d{4,}", v):
            comma += 1
        elif re.fullmatch(r"\d{1,3}(,\d{3})+\.\d+", v) or v.count(",") >= 2:
            point += 1
    return comma > point


def parse_number(text: str, decimal_comma: bool = False) -> float | None:
    """A value as ncu printed it, or None when it is not available ('(!) nan', 'n/a', blank).

    Raises ValueError for text that is not a number at all.
    """
    t = text.strip().replace("\u202f", "").replace("\xa0", "")
    if _NAN.match(t):
        return None
    if decimal_comma:
        t = t.replace(".", "").replace(",", ".")
    else:
        t = t.replace(",", "")
    value = float(t)
    if math.isnan(value) or math.isinf(value):
        return None
    return value


def to_base(text: str, unit: str, decimal_comma: bool = False) -> float | None:
    """Parse `text` printed in `unit` and return it in base units (None when not available)."""
    value = parse_number(text, decimal_comma)
    if value is None:
        return None
    return value * unit_scale(unit)[0]
