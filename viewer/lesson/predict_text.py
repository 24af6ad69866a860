"""The Predict step's words and cells: the student's text parsed, viewer.lesson.reveal asked, and
its rows written for the page. No Qt; every value comes from the lesson's functions."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from viewer.core import formatting as fmt
from viewer.core.metrics import SUMMARY_METRICS
from viewer.lesson import reveal as lesson
from viewer.lesson.lesson_pair import ROLES, LessonPair

NEEDS_PAIR = ("Predict reads the lesson's two matmuls side by side: open the naive and the tiled "
              "kernel together (two files, or pick two rows in the kernel list). With no file "
              "named, the app opens the shipped pair.")
SIZE_PROMPT = "The reports do not say the matmul's size: type it, N for N x N x N,"
SPEED_LABEL = "Faster, by how much"
NO_GUESS = "no prediction"
EXAMPLES = {"requests": "a count", "sectors": "a count", "sectors_per_request": "a ratio",
            "dram_bytes": "bytes or MB"}
DURATION_METRIC = SUMMARY_METRICS["duration_ns"]  # where the speed row's counter lives


@dataclass
class PredictState:
    """What the student typed and how far the reveal has gone: kept across rebuilds (style,
    swap), cleared when other kernels are opened and on Start over."""

    texts: dict[str, str] = field(default_factory=dict)  # row key, "size" or "tile" -> text
    faster: str | None = None  # "naive", "tiled" or None
    shown: int = 0  # rows revealed, in ORDER
    kernels: tuple[int, ...] = ()  # the kernels the predictions are about (ids, sorted)


def quantity_label(quantity: str) -> str:
    return lesson.QUANTITY_LABELS[quantity]


def shape_text(dim: int, tile: int, launch: str) -> str:
    return (f"{dim} x {dim} x {dim} float32 matmuls on {tile} x {tile} blocks, as these reports "
            f"say ({launch}).")


def how_to(projector: bool) -> str:
    if projector:
        return ("Predict each row aloud, then Space or Enter reveals it (Enter too in a field "
                "where the room's guess was typed): the derivation, the counter and the "
                "lesson's reading. Nothing measured shows before.")
    return ("Type a prediction in each row: 1234567, 1,234,567, 1.23e6 or 2.5 MB (examples "
            "of the form, not hints); leave a row blank to skip it. Nothing measured is shown "
            "until you reveal it: Reveal uncovers every row; Space or Enter uncovers one at a "
            "time.")


def reveal_button_text(projector: bool) -> str:
    return "Reveal the next row" if projector else "Reveal"


def progress_text(shown: int, total: int) -> str:
    if shown >= total:
        return "Every row revealed. Click a row to see its counter in the report."
    if shown == 0:
        return f"{total} rows hidden; the highlighted one is next."
    return f"{shown} of {total} rows revealed; the highlighted one is next."


def jump_tip(metric: str) -> str:
    return f"{metric}: click to show this counter's row in the report"


def signed_percent(pct: float | None) -> str:
    """'+3.20 %', '-0.00083 %', 'exact'; '' for no value."""
    if pct is None:
        return ""
    if pct == 0:
        return "exact"
    size = abs(pct)
    digits = f"{size:,.2f}" if size >= 0.01 else f"{size:.2g}"
    return f"{'+' if pct > 0 else '-'}{digits} %"


def figure(quantity: str, value: float | None) -> str:
    if value is None:
        return fmt.MISSING
    if quantity == "sectors_per_request":
        return fmt.sectors_per_request(value)
    if quantity == "dram_bytes":
        return fmt.size(value)
    return fmt.count(value)


@dataclass(frozen=True)
class Shown:
    """One revealed row as the page writes it."""

    guess: str  # the prediction as the lesson read it ('' for none)
    cells: tuple[str, str, str, str]  # derived, measured, you vs measured, the reading
    metric: str
    right: bool | None = None  # the prediction within the lesson's tolerance (None: no guess)


def guess_verdict(guess: float | None, measured: float | None) -> tuple[str, bool | None]:
    """'\u2713 within 1 %' or '\u2717 off by 3.2x' ('\u2717 off by +4.00 %' under 2x), and whether
    the prediction is within the lesson's tolerance (lesson.HAIR_PCT); ('', None) with no
    prediction or no measured value."""
    if guess is None or measured is None or measured == 0:
        return "", None
    off = 100 * (guess - measured) / measured
    if abs(off) <= lesson.HAIR_PCT:
        return f"\u2713 within {lesson.HAIR_PCT:g} %", True
    if guess > 0 and max(guess / measured, measured / guess) >= 2:
        return f"\u2717 off by {fmt.ratio(max(guess / measured, measured / guess))}", False
    return f"\u2717 off by {signed_percent(off)}", False


def floor_verdict(guess: float | None, measured: float | None,
                  floor: float | None) -> tuple[str, bool | None]:
    """A typed DRAM figure checked as a floor, as the row's derivation is one (not a prediction):
    the compulsory floor typed is right as derived, whatever the measured traffic; any other
    figure is consistent when the measured traffic is at or above it."""
    if guess is None or measured is None or guess <= 0:
        return "", None
    times = fmt.ratio(measured / guess)
    if floor and abs(guess - floor) <= floor * lesson.HAIR_PCT / 100:
        side = "above" if measured >= floor else "below"
        return f"\u2713 the floor as derived; measured {times} of it, {side} it", True
    if measured >= guess * (1 - lesson.HAIR_PCT / 100):
        return f"\u2713 consistent: measured at or above your floor ({times})", True
    return f"\u2717 measured below your floor ({times} of it)", False


def speed_verdict(pair: LessonPair, faster: str | None, ratio: float | None,
                  speed: lesson.SpeedRow) -> tuple[str, bool | None]:
    """The speed row's 'you vs measured': the faster kernel named right or wrong, then the typed
    ratio against the measured one; ('', None) with no prediction."""
    parts: list[str] = []
    right: list[bool] = []
    if faster is not None and speed.faster is not None:
        ok = faster == speed.faster
        right.append(ok)
        parts.append(f"\u2713 {pair.name(faster)} faster" if ok else
                     f"\u2717 {pair.name(faster)} is not the faster")
    measured = speed.duration_ratio
    if ratio is not None and measured:
        text, ok_ratio = guess_verdict(ratio, max(measured, 1 / measured))
        if ok_ratio is not None:
            right.append(ok_ratio)
            parts.append(f"ratio {text}")
    if not parts:
        return "", None
    return "; ".join(parts), all(right)


# The units each row takes ('' is a bare number).
_UNITS: dict[str, tuple[str, ...]] = {
    "requests": ("",), "sectors": ("",), "sectors_per_request": ("", "x"),
    "dram_bytes": ("", "b", "kb", "mb", "gb", "tb", "kib", "mib", "gib"), "speed": ("", "x"),
    "size": ("",), "tile": ("",)}
_UNIT_WORDS = {"requests": "a count, no unit", "sectors": "a count, no unit",
               "sectors_per_request": "a ratio, as 2 or 2x", "dram_bytes": "bytes, as 4.7 MB",
               "speed": "a ratio, as 1.6 or 1.6x", "size": "a whole number",
               "tile": "a whole number"}


def field_problem(key: str, typed: str) -> str:
    """What is wrong with `typed` in the field `key` ('naive.requests', 'speed', 'size'), in
    one line; '' when it is a number with the unit the row wants, or blank."""
    quantity = key.rpartition(".")[2]
    try:
        value = lesson.parse_number(typed)
    except ValueError as exc:
        return str(exc)
    if value is None:
        return ""
    unit = lesson.typed_unit(typed)
    wanted = _UNITS.get(quantity, ("",))
    if unit not in wanted:
        return f"{typed.strip()!r} has the wrong unit here: type {_UNIT_WORDS[quantity]}"
    return ""


def parse(text: str, what: str) -> float | None:
    """The lesson's parse_number, its sentence prefixed with the row it is about."""
    try:
        return lesson.parse_number(text)
    except ValueError as exc:
        raise ValueError(f"{what}: {exc}") from None


def _whole(text: str, what: str) -> int | None:
    value = parse(text, what)
    if value is not None and (value != int(value) or value < 1):
        raise ValueError(f"{what}: {text.strip()} is not a whole positive number")
    return None if value is None else int(value)


def results(pair: LessonPair, state: PredictState, keys: Collection[str]) -> dict[str, Shown]:
    """Every row for the state's predictions in the rows `keys` ('naive.requests', ...,
    'speed'; the others count as blank); ValueError with a sentence for a prediction there that
    is not a number, or a size the derivation refuses."""
    texts = state.texts

    def guess(role: str, quantity: str) -> float | None:
        key = f"{role}.{quantity}"
        what = f"{pair.name(role)}, {quantity_label(quantity)}"
        return parse(texts.get(key, ""), what) if key in keys else None

    guesses = {role: lesson.Guess(**{q: guess(role, q) for q in lesson.QUANTITIES})
               for role in ROLES}
    dim, tile = pair.dim, pair.tile
    if dim is None:
        dim = _whole(texts.get("size", ""), "size")
        tile = _whole(texts.get("tile", ""), "tile") or tile
        if dim is None:
            raise ValueError("Type the matmul's size first: the reports do not say it.")
    rows = lesson.reveal(pair.naive, pair.tiled, guesses, dim=dim, tile=tile)
    shown: dict[str, Shown] = {}
    for row in rows:
        typed = "" if row.guess is None else figure(row.quantity, row.guess)
        derived = figure(row.quantity, row.derived)
        if row.quantity == "dram_bytes" and row.derived is not None:
            derived = "\u2265 " + derived  # the compulsory floor, not a prediction
        if row.quantity == "dram_bytes":
            verdict, right = floor_verdict(row.guess, row.measured, row.derived)
        else:
            verdict, right = guess_verdict(row.guess, row.measured)
        cells = (derived, figure(row.quantity, row.measured), verdict, row.reading)
        shown[f"{row.kernel}.{row.quantity}"] = Shown(typed, cells, row.metric, right)
    faster = state.faster if "speed" in keys else None
    ratio = parse(texts.get("speed", ""), SPEED_LABEL.lower()) if "speed" in keys else None
    speed = lesson.speed(pair.naive, pair.tiled, lesson.SpeedGuess(faster, ratio))
    verdict, right = speed_verdict(pair, faster, ratio, speed)
    shown["speed"] = Shown(speed_guess(pair, faster, ratio),
                           ("", faster_text(pair, speed), verdict, speed.reading),
                           DURATION_METRIC, right)
    return shown


def faster_text(pair: LessonPair, speed: lesson.SpeedRow) -> str:
    """'matmul_tiled 1.43x' by Duration; MISSING where the durations are not both there."""
    ratio = speed.duration_ratio
    if ratio is None or speed.faster is None:
        return fmt.MISSING if ratio is None else "equal"
    return f"{pair.name(speed.faster)} {fmt.ratio(max(ratio, 1 / ratio))}"


def speed_guess(pair: LessonPair, faster: str | None, ratio: float | None) -> str:
    """'matmul_tiled, 2.00x' as typed; '' for no prediction."""
    parts = [pair.name(faster)] if faster else []
    if ratio is not None:
        parts.append(fmt.ratio(ratio))
    return ", ".join(parts)
