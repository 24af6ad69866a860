"""Numbers and units as ncu prints them, turned into base units.

ncu prints values with thousands separators ("16,777,216"), in comma-decimal locales ("6,72",
"13.490.336"), as "(!) nan" when a value is not available, and in units that changed spelling
across generations ("usecond" and "us", "byte/second" and "byte/s", "cycle/nsecond" and "Ghz").
Base units: ns for time, bytes for sizes, bytes/s (or things/s) for rates, hz for frequency,
percent for percentages, plain counts for the rest.

Only the units ncu prints are understood (KNOWN_UNITS: every unit of the exports in
tests/data/corpus and profiles/, with the prefixes and rates ncu forms from them). Any other unit
is not understood: `unit_scale` answers None, never a guessed factor of 1, and a value printed in
it is not a value the app can use. Each unit is of one kind (time, size, rate, frequency,
percent, count); `scale_for` also refuses a unit of the wrong kind for its metric.
"""

from __future__ import annotations

import math
import re

# The kinds of quantity a unit measures (and a metric holds).
TIME, SIZE, RATE, FREQUENCY, PERCENT, COUNT = (
    "time", "size", "rate", "frequency", "percent", "count")

_TIME_IN_NS = {
    "ns": 1.0, "nsecond": 1.0, "nsec": 1.0,
    "us": 1e3, "usecond": 1e3, "usec": 1e3,
    "ms": 1e6, "msecond": 1e6, "msec": 1e6,
    "s": 1e9, "second": 1e9, "sec": 1e9,
}
_PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
# What ncu counts, as printed -> the base name ('sectors' and 'sector' are one).
_COUNTED = {
    **{w: w for w in ("inst", "cycle", "sector", "request", "warp", "thread", "block",
                      "register", "cluster", "sample", "pass", "SM", "branches", "byte")},
    "bytes": "byte", "sectors": "sector", "cycles": "cycle",
}
_HZ = ("hz", "Hz", "HZ")


def _numerators() -> dict[str, tuple[float, str]]:
    """Every prefixed count or size ('Mbyte' -> (1e6, 'byte'); 'sector' -> (1.0, 'sector'))."""
    return {f"{p}{word}": (factor, base) for word, base in _COUNTED.items()
            for p, factor in _PREFIX.items()}


_COUNTS = _numerators()
_PERCENT = {"%": (1.0, "%")}
_PLAIN: dict[str, tuple[float, str]] = {
    "": (1.0, ""), **_PERCENT, **{u: (f, "ns") for u, f in _TIME_IN_NS.items()},
    **{f"{p}{hz}": (f, "hz") for hz in _HZ for p, f in _PREFIX.items()}, **_COUNTS}
"""Every unit understood that is not a ratio."""


def _ratio(num: str, den: str) -> tuple[float, str] | None:
    """'num/den': a count, size or percent per count or size (a ratio of things per thing), or a
    count or size per unit of time (a rate: per second)."""
    top = _COUNTS.get(num) or _PERCENT.get(num)
    if top is None:
        return None
    factor, base = top
    below = _COUNTS.get(den)
    if below is not None:
        return factor / below[0], f"{base}/{below[1]}"
    in_ns = _TIME_IN_NS.get(den)
    if in_ns is None or base == "%":
        return None
    return factor * 1e9 / in_ns, "hz" if base == "cycle" else f"{base}/s"


def __getattr__(name: str) -> frozenset[str]:
    """KNOWN_UNITS, listed only when asked for (its 16,000 spellings cost a start that needs none
    of them)."""
    if name != "KNOWN_UNITS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    ratios = [f"{num}/{den}" for num in (*_COUNTS, *_PERCENT) for den in (*_TIME_IN_NS, *_COUNTS)]
    return frozenset([*_PLAIN, *(r for r in ratios if _ratio(*r.split("/")) is not None)])


def unit_scale(unit: str) -> tuple[float, str] | None:
    """Factor that turns a value printed in `unit` into base units, and the base unit's name;
    None for a unit not understood (one ncu does not print: no factor is guessed for it).
    KNOWN_UNITS lists every unit understood, as ncu prints it."""
    unit = (unit or "").strip()
    plain = _PLAIN.get(unit)
    if plain is not None:
        return plain
    num, slash, den = unit.partition("/")
    return _ratio(num, den) if slash else None


def unit_kind(unit: str) -> str | None:
    """What `unit` measures (TIME, SIZE, RATE, FREQUENCY, PERCENT or COUNT); None when it is not
    understood. A ratio of things per thing is of its numerator's kind ('Kbyte/block': SIZE,
    '%/register': PERCENT, 'inst/cycle': COUNT)."""
    scale = unit_scale(unit)
    if scale is None:
        return None
    base = scale[1]
    if base in ("ns", "hz", "%", "byte"):
        return {"ns": TIME, "hz": FREQUENCY, "%": PERCENT, "byte": SIZE}[base]
    if base.endswith("/s"):
        return RATE
    num = base.split("/", 1)[0]
    return {"%": PERCENT, "byte": SIZE}.get(num, COUNT)


def scale_for(unit: str, kind: str | None) -> float | None:
    """The factor to base units of a value printed in `unit` for a metric of `kind` (None: a
    metric whose kind is not known); None when the unit is not understood, or not of that kind
    (Duration in 'byte', a percent in 'inst')."""
    scale = unit_scale(unit)
    if scale is None or (kind is not None and unit_kind(unit) != kind):
        return None
    return scale[0]


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
    """Parse `text` printed in `unit` and return it in base units (None when not available).

    Raises ValueError for text that is not a number, and for a unit not understood."""
    scale = unit_scale(unit)
    if scale is None:
        raise ValueError(f"unit not understood: {unit!r}")
    value = parse_number(text, decimal_comma)
    if value is None:
        return None
    return value * scale[0]
