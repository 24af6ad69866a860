"""A claim found in the app's words: the words that make it and whether it holds; and the words
no finder accounted for, so a new wording cannot slip past the finders unread."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Claim:
    """One claim: the words that make it, and whether it holds (`why` says what it should be)."""

    words: str
    holds: bool
    why: str = ""


def uncovered(text: str, word: str, covering: Iterable[re.Pattern[str]]) -> list[str]:
    """Each place `word` (a pattern) occurs in `text` outside every match of `covering`, with
    the words before it."""
    spans = [m.span() for pattern in covering for m in pattern.finditer(text)]
    return [text[max(0, m.start() - 60):m.end()] for m in re.finditer(word, text)
            if not any(a <= m.start() and m.end() <= b for a, b in spans)]
