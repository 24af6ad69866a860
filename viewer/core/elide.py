"""Kernel names shortened in the middle to fit a width, two different names never to one text.

cuBLAS and CUTLASS names run past 120 characters and often differ only inside
('..._f32_tn_n_tilesize64x64x8_...' against '..._f32_nn_n_tilesize32x32x8_...'): a plain
middle elision keeps the head and tail they share and shows them alike. `distinct_elisions`
elides in the middle and, for names that would read alike, keeps the part where they differ
between the head and the tail. Widths are in the units of `measure` (characters by default;
a widget passes its font's pixel advance).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial

from viewer.core import metrics

ELLIPSIS = "\u2026"
Measure = Callable[[str], float]


def _middle(text: str, keep: int) -> str:
    """`keep` characters of `text`: its head and tail about the ellipsis."""
    head = (keep + 1) // 2
    tail = keep - head
    return text[:head] + ELLIPSIS + (text[len(text) - tail:] if tail else "")


def _around(text: str, span: tuple[int, int], keep: int) -> str:
    """`keep` characters of `text`: a window over `span` (start, end), the rest its head and
    tail, an ellipsis wherever characters are left out."""
    n = len(text)
    first, last = span
    window = min(keep, max(last - first, keep // 2))
    start = max(0, min(first - (window - (last - first)) // 2, n - window))
    end = start + window
    rest = keep - window
    head = min(start, (rest + 1) // 2)
    tail = min(n - end, rest - head)
    head = min(start, rest - tail)  # what the tail could not use goes to the head
    out = text[:head] + (ELLIPSIS if head < start else "") + text[start:end]
    return out + (ELLIPSIS if end < n - tail else "") + (text[n - tail:] if tail else "")


def _fit(text: str, width: float, measure: Measure, shorten: Callable[[int], str]) -> str:
    """The longest `shorten(keep)` within `width` (the bare ellipsis when none is)."""
    if measure(text) <= width:
        return text
    low, high, best = 1, len(text) - 1, ELLIPSIS
    while low <= high:
        keep = (low + high) // 2
        candidate = shorten(keep)
        if measure(candidate) <= width:
            best, low = candidate, keep + 1
        else:
            high = keep - 1
    return best


def elide_middle(text: str, width: float, measure: Measure = len) -> str:
    """`text` where it fits `width`, else its head and tail about an ellipsis."""
    return _fit(text, width, measure, lambda keep: _middle(text, keep))


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def differing_span(name: str, others: Sequence[str]) -> tuple[int, int]:
    """Where `name` parts from `others` (start, end): from the first character at which it
    differs from any of them to the first at which it differs from the nearest."""
    if not others:
        return 0, 0
    prefixes = [min(_common_prefix(name, o), len(name) - 1) for o in others]
    return min(prefixes), max(prefixes) + 1


def _shortener(text: str, span: tuple[int, int]) -> Callable[[int], str]:
    return lambda keep: _around(text, span, keep)


def differing_points(name: str, others: Sequence[str]) -> list[int]:
    """Each place where `name` first parts from one of `others`, in order, each once."""
    return sorted({min(_common_prefix(name, o), len(name) - 1) for o in others if o != name})


def _windows(text: str, points: Sequence[int], keep: int) -> str:
    """About `keep` characters of `text`: a short window at each of `points` and nothing else,
    an ellipsis wherever characters are left out (where head and tail leave no room)."""
    width = max(1, keep // max(len(points), 1))
    spans: list[list[int]] = []
    for point in points:
        start = max(0, min(point - width // 3, len(text) - width))
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], start + width)
        else:
            spans.append([start, start + width])
    out, at = "", 0
    for start, end in spans:
        out += (ELLIPSIS if start > at else "") + text[start:end]
        at = end
    return out + (ELLIPSIS if at < len(text) else "")


def _collisions(shown: dict[str, str]) -> dict[str, list[str]]:
    alike: dict[str, list[str]] = {}
    for name, text in shown.items():
        alike.setdefault(text, []).append(name)
    return {text: names for text, names in alike.items() if len(names) > 1}


def distinct_elisions(names: Sequence[str], width: float, measure: Measure = len) -> list[str]:
    """Each name where it fits `width`, else elided in the middle; names that would then read
    alike keep the part where they differ, and two different names never come out as one
    text: where even that leaves them alike, each shows only a few characters at each place it
    parts from the others ('…tn…64…'), and a name that cannot be told apart within `width` even
    so is left whole."""
    unique = list(dict.fromkeys(names))
    shown = {n: elide_middle(n, width, measure) for n in unique}
    for _ in range(2):
        alike: dict[str, list[str]] = {}
        for name in unique:
            alike.setdefault(shown[name], []).append(name)
        groups = [g for g in alike.values() if len(g) > 1]
        if not groups:
            break
        for group in groups:
            for name in group:
                span = differing_span(name, [o for o in group if o != name])
                shown[name] = _fit(name, width, measure, _shortener(name, span))
    for group in _collisions(shown).values():  # too narrow for head and tail: the parts alone
        for name in group:
            points = differing_points(name, [o for o in group if o != name])
            shown[name] = _fit(name, width, measure, partial(_windows, name, points))
    for group in _collisions(shown).values():
        for name in group:
            shown[name] = name
    return [shown[n] for n in names]


BREAK = "\u200b"  # a zero-width space: a place a wrapped label may break a long word


def wrappable(words: str) -> str:
    """Words with a break allowed after each run of '_', each '.' before a letter and each '/'
    (a line of metric names, kernel names or paths is wider than a laptop's screen in
    projector type)."""
    return re.sub(r"(_+|\.(?=[A-Za-z_])|/(?=\w))", "\\1" + BREAK, words)


def breakable(label: str) -> str:
    """`label`, where it names metrics, with a break allowed after each part (wrappable)."""
    if not metrics.is_metric_name(label) and "__" not in label:
        return label
    return wrappable(label)


LONG_WORD = 24  # characters: a word longer than this (a name, a file) may break at its parts
LONGEST_SAID = 48  # characters: a progress line's word longer than this is elided


def short_words(text: str, longest: int = LONGEST_SAID) -> str:
    """`text` with each word longer than `longest` characters elided in the middle (a mangled
    kernel name in a progress line must not hold a wrapped label wider than the screen)."""
    return re.sub(rf"\S{{{longest + 1},}}", lambda m: elide_middle(m.group(), longest), text)


def wrappable_names(text: str) -> str:
    """`text` with breaks allowed inside its long words (the kernel names elided in it, file
    names), so that no name holds a wrapped label wider than its column."""
    return re.sub(rf"\S*\u2026\S*|\S{{{LONG_WORD + 1},}}", lambda m: wrappable(m.group()),
                  text)
