"""Predict, then reveal: the student's guesses beside the derivation and the counters.

The lesson makes four predictions before it profiles (global load requests, sectors, sectors per
request, DRAM traffic against the compulsory floor) and one about speed (which kernel is faster,
and by how much). `reveal` puts each guess beside the derivation (viewer.analysis.predict) and the
counter, and words the lesson's reading from the values: requests to the digit, sectors a hair
under and why, 2.0 against 4.0, DRAM bytes against the floor. `speed` sets the duration ratio
against the sector ratio. Nothing here is canned: every figure is computed from the kernels and the
derivation, and a value a report lacks stays None.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from viewer.analysis import reading
from viewer.analysis.predict import DEFAULT_TILE, DerivationError, KernelPrediction, derive
from viewer.core import formatting as fmt
from viewer.core.metrics import SUMMARY_METRICS, row_label
from viewer.core.model import Kernel
from viewer.lesson import lesson_kernels

QUANTITIES = ("requests", "sectors", "sectors_per_request", "dram_bytes")
QUANTITY_LABELS: dict[str, str] = {
    "requests": row_label("global_load_requests"),
    "sectors": row_label("global_load_sectors"),
    "sectors_per_request": row_label("sectors_per_request"),
    "dram_bytes": "DRAM bytes (read + written)",
}
# Within this many percent of the derivation a count is "a hair" off (the lesson's sectors came
# within 0.7 %).
HAIR_PCT = 1.0
# Where the sector counter sits a hair under the derivation, the lesson's reason.
HAIR_UNDER_REASON = ("the counters seeing a handful of sectors served before they started "
                     "counting, not an error in the geometry")
# Sectors separate the kernels "much more" than durations do from this factor on.
SEPARATES = 2.0
# DRAM traffic under this many times the compulsory floor: the caches kept the re-reads away.
FLOOR_NEAR = 2.0

_REQUESTS = SUMMARY_METRICS["global_load_requests"]
_SECTORS = SUMMARY_METRICS["global_load_sectors"]
_DURATION = SUMMARY_METRICS["duration_ns"]


@dataclass
class Guess:
    """One kernel's predictions (None: not guessed)."""

    requests: float | None = None
    sectors: float | None = None
    sectors_per_request: float | None = None
    dram_bytes: float | None = None


@dataclass
class SpeedGuess:
    """Which kernel is faster ('naive' or 'tiled') and by how much (a ratio, 1.6 for 1.6x)."""

    faster: str | None = None
    ratio: float | None = None


_SCALE = {"": 1.0, "x": 1.0, "b": 1.0, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
          "kib": 2.0**10, "mib": 2.0**20, "gib": 2.0**30}
_TYPED = re.compile(r"([+-]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)"
                    r"\s*([A-Za-z]*)")


def parse_number(text: str) -> float | None:
    """A typed guess: '8,388,608', '8388608', '8.39e6', '4.7 MB', '1.6x'; None for empty text.
    ValueError, with a sentence saying what to type, for anything else."""
    t = text.strip().replace("\u202f", "").replace("\xa0", "").replace("_", "")
    if not t:
        return None
    match = _TYPED.fullmatch(t)
    number = match.group(1).replace(",", "") if match else ""
    unit = match.group(2).lower() if match else ""
    if not number or unit not in _SCALE:
        raise ValueError(f"{text.strip()!r} is not a number: type it as 8,388,608, 8388608, "
                         "8.39e6 or 4.7 MB")
    value = float(number) * _SCALE[unit]
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{text.strip()!r} is not a count: a guess is zero or more")
    return value


def typed_unit(text: str) -> str:
    """The unit of a typed guess that parses ('mb', 'x', '' for none), lower case."""
    t = text.strip().replace("\u202f", "").replace("\xa0", "").replace("_", "")
    match = _TYPED.fullmatch(t)
    return match.group(2).lower() if match else ""


@dataclass(frozen=True)
class RevealRow:
    """One prediction of one kernel beside the derivation and the counter."""

    kernel: str  # "naive" or "tiled"
    quantity: str  # one of QUANTITIES
    label: str
    guess: float | None
    derived: float | None  # for dram_bytes: the compulsory floor, not a prediction
    measured: float | None
    metric: str  # the ncu metric (or summary key) the measured value comes from
    guess_off_pct: float | None  # (guess - measured) / measured, in percent
    derived_off_pct: float | None  # (derived - measured) / measured, in percent
    reading: str

    @property
    def match(self) -> bool | None:
        """Whether the counter bears the derivation out: requests to the digit, sectors and
        sectors per request within HAIR_PCT; None for DRAM bytes (a floor) or a missing value."""
        if self.quantity == "dram_bytes" or self.derived is None or self.measured is None:
            return None
        if self.quantity == "requests":
            return self.measured == self.derived
        return abs(self.measured - self.derived) <= HAIR_PCT / 100 * self.derived


def _off(value: float | None, measured: float | None) -> float | None:
    if value is None or measured is None or measured == 0:
        return None
    return 100 * (value - measured) / measured


def _pct(value: float) -> str:
    """A small percentage to two significant figures: '0.00083', '0.63'."""
    return f"{value:.2g}" if value < 10 else f"{value:.1f}"


def _count_reading(measured: float, derived: float, unit: str, reason: str,
                   dim: int, tile: int) -> str:
    if measured == derived:
        return "to the digit"
    gap = abs(measured - derived)
    pct = 100 * gap / derived
    side = "under" if measured < derived else "over"
    if pct <= HAIR_PCT:
        fewer = "fewer" if side == "under" else "more"
        text = f"a hair {side}: {fmt.count(gap)} {unit} ({_pct(pct)} %) {fewer} than derived"
        return text + (f": {reason}" if side == "under" and reason else "")
    return (f"{_pct(pct)} % {side} the derivation: more than a hair, so this is not the derived "
            f"geometry ({dim} x {dim} x {dim}, {tile} x {tile} tile)")


def _ratio_reading(measured: float, derived: float) -> str:
    if round(measured, 1) == round(derived, 1):
        return f"lands on {derived:.1f} as derived"
    return f"{measured:.2f} against a derived {derived:.1f}"


def _floor_reading(measured: float, floor: int) -> str:
    times = measured / floor
    text = f"{fmt.size(measured)} against the {floor:,}-byte floor: {times:.2f}x"
    if times < 1:
        return text + ", below it: part of A, B or C did not cross DRAM while the kernel ran"
    if times < FLOOR_NEAR:
        return text + ", so the caches kept most re-reads of A and B away from DRAM"
    return text + ", so re-reads of A and B reached DRAM"


def _sizes(naive: Kernel, tiled: Kernel, dim: int | None, tile: int) -> tuple[int, int]:
    """dim from the kernels when not given; the tile from their square blocks where known."""
    if dim is None:
        dims = {lesson_kernels.lesson_dim(naive), lesson_kernels.lesson_dim(tiled)}
        if len(dims) != 1 or None in dims:
            raise DerivationError("the matmul's size is not known from these kernels (only the "
                                  "lesson's own kernels say it): enter the size")
        dim = dims.pop()
    tiles = {t for t in (lesson_kernels.lesson_tile(naive), lesson_kernels.lesson_tile(tiled))
             if t is not None}
    if len(tiles) > 1:
        raise DerivationError(f"the two kernels' blocks disagree on the tile: {sorted(tiles)}")
    return dim or 0, tiles.pop() if tiles else tile


def reveal(naive: Kernel, tiled: Kernel, guesses: dict[str, Guess] | None = None,
           dim: int | None = None, tile: int = DEFAULT_TILE) -> list[RevealRow]:
    """Every prediction of both kernels, naive first, in QUANTITIES order. `dim` defaults to the
    kernels' own size; the tile is their square blocks' side where known, else `tile`.
    DerivationError when the size is unknown or the derivation does not apply to it."""
    dim, tile = _sizes(naive, tiled, dim, tile)
    derivation = derive(dim, tile)
    guesses = guesses or {}
    rows: list[RevealRow] = []
    for role, kernel, p in (("naive", naive, derivation.naive),
                            ("tiled", tiled, derivation.tiled)):
        rows += _kernel_rows(role, kernel, p, derivation.compulsory_dram_bytes,
                             guesses.get(role) or Guess(), dim, tile)
    return rows


def _kernel_rows(role: str, kernel: Kernel, p: KernelPrediction, floor: int, guess: Guess,
                 dim: int, tile: int) -> list[RevealRow]:
    measured = {
        "requests": kernel.metric(_REQUESTS),
        "sectors": kernel.metric(_SECTORS),
        "sectors_per_request": reading.sectors_per_request(kernel),
        "dram_bytes": lesson_kernels.dram_bytes(kernel),
    }
    derived = {"requests": float(p.global_load_requests),
               "sectors": float(p.global_load_sectors),
               "sectors_per_request": p.sectors_per_request, "dram_bytes": float(floor)}
    metric = {"requests": _REQUESTS, "sectors": _SECTORS,
              "sectors_per_request": "sectors_per_request",
              "dram_bytes": lesson_kernels.dram_metric(kernel)}
    rows = []
    for q in QUANTITIES:
        m, d = measured[q], derived[q]
        if m is None:
            text = f"{fmt.NOT_IN_REPORT}: nothing to set the derivation against"
        elif q == "requests":
            text = _count_reading(m, d, "requests", "", dim, tile)
        elif q == "sectors":
            text = _count_reading(m, d, "sectors", HAIR_UNDER_REASON, dim, tile)
        elif q == "sectors_per_request":
            text = _ratio_reading(m, d)
        else:
            text = _floor_reading(m, floor)
        g = getattr(guess, q)
        rows.append(RevealRow(role, q, QUANTITY_LABELS[q], g, d, m, metric[q], _off(g, m),
                              _off(d, m), text))
    return rows


@dataclass(frozen=True)
class SpeedRow:
    """The speed prediction against the durations and the sectors moved (ratios naive / tiled)."""

    guess: SpeedGuess | None
    duration_ratio: float | None
    sector_ratio: float | None
    reading: str
    faster: str | None = None  # "naive" or "tiled", by Duration
    # The duration ratio's low and high ends where the durations are printed figures (a
    # published table): 1.18 ms stands for 1.175 to 1.185 ms. None where they are as measured.
    duration_ratio_range: tuple[float, float] | None = None


def _ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None or b == 0 else a / b


def speed(naive: Kernel, tiled: Kernel, guess: SpeedGuess | None = None) -> SpeedRow:
    """Which kernel is faster and by how much, against the sector ratio, in the lesson's words:
    'Duration differs by 1.59x, sectors moved by 8.05x'."""
    dn, dt = naive.metric(_DURATION), tiled.metric(_DURATION)
    duration = _ratio(dn, dt)
    sectors = _ratio(naive.metric(_SECTORS), tiled.metric(_SECTORS))
    if duration is None or dn is None or dt is None:
        return SpeedRow(guess, None, sectors, f"Duration: {fmt.NOT_IN_REPORT} for both "
                        "kernels, so no speed to set against the sectors.")
    faster = "tiled" if dt < dn else "naive" if dn < dt else None
    span = None
    sn, st = lesson_kernels.spread(naive, _DURATION), lesson_kernels.spread(tiled, _DURATION)
    if sn or st:
        span = ((dn - sn) / (dt + st), (dn + sn) / (dt - st)) if dt > st else None
    up = max(duration, 1 / duration) if duration else None
    words = f"Duration differs by {_times(up, span, duration)}"
    if sectors is None:
        words += f", sectors moved: {fmt.NOT_IN_REPORT} for both"
    else:
        s_up = max(sectors, 1 / sectors) if sectors else None
        words += f", sectors moved by {fmt.ratio(s_up)}"
        if up and s_up and s_up >= SEPARATES * up and (sectors > 1) == (duration > 1):
            separates = ("and the duration does not" if up < SEPARATES else
                         f"far more sharply than the duration does ({fmt.ratio(up)} apart)")
            words += (f". The memory chart separates the kernels {separates}: a reader handed "
                      "only the times could not say why; a reader handed the sector counts can")
        elif up and s_up and (sectors > 1) != (duration > 1):
            words += (". The kernel that moves fewer sectors is not the faster one: the memory "
                      "chart does not explain this speed")
    text = words + "." + _speed_guess_text(guess, faster, up)
    return SpeedRow(guess, duration, sectors, text, faster, span)


def _times(up: float | None, span: tuple[float, float] | None, duration: float) -> str:
    """'1.43x', or '1.58x to 1.59x' when printed durations leave the second decimal open."""
    if span is None or up is None:
        return fmt.ratio(up)
    low, high = sorted(s if duration >= 1 else 1 / s for s in span)
    if fmt.ratio(low) == fmt.ratio(high):
        return fmt.ratio(up)
    return (f"{fmt.ratio(low)} to {fmt.ratio(high)} (the printed durations leave the second "
            "decimal open)")


def _speed_guess_text(guess: SpeedGuess | None, faster: str | None, up: float | None) -> str:
    if guess is None or (guess.faster is None and guess.ratio is None):
        return ""
    parts = []
    if guess.faster is not None:
        verdict = "right" if guess.faster == faster else "wrong"
        parts.append(f"you named {guess.faster} the faster kernel: {verdict}")
    if guess.ratio is not None and up:
        off = 100 * (guess.ratio - up) / up
        parts.append(f"your {guess.ratio:.2f}x is {abs(off):.0f} % "
                     f"{'above' if off > 0 else 'below'} the measured {up:.2f}x"
                     if round(off) else f"your {guess.ratio:.2f}x is the measured ratio")
    text = "; ".join(parts)
    return f" {text[:1].upper()}{text[1:]}."
