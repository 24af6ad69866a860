"""Text from a file, as a terminal may show it: `visible` is the one escaper every printer uses.

A report's kernel names, file names, metric names, rule text and ncu's own words come from files
that students get by mail and download. Written raw, an ESC sequence in a kernel name clears the
screen, sets the window's title or colours what follows; a carriage return or a backspace writes
over a line; a bidirectional override (U+202E) or an isolate turns the rest of the line around;
a newline makes a name look like two lines of the app's own output. So every terminal printer
writes such text through `visible`, which shows each of these characters as an escape instead:

- ASCII controls (U+0000-U+001F, U+007F): `\\n`, `\\r`, `\\t` for those three, else `\\xHH`
  (ESC is `\\x1b`, BEL `\\x07`);
- every other control, format or separator character (C1 controls U+0080-U+009F, the
  bidirectional marks, embeddings, overrides and isolates U+061C, U+200E-U+200F, U+202A-U+202E,
  U+2066-U+2069, the zero-width characters, the soft hyphen, U+2028, U+2029, tags): `\\uHHHH`,
  or `\\UHHHHHHHH` above U+FFFF (U+202E is `\\u202e`);
- a byte that is not UTF-8 in a file name (Python reads it as a lone surrogate U+DC80-U+DCFF,
  which no terminal could be sent): `\\xHH`, the byte itself (0x80-0xFF).

The escapes read back as bash's `$'...'` reads them (and, but for those bytes, as a Python
string literal does), so a name can be typed back. A backslash is left alone (a name is read,
not parsed): `--json` gives the exact text. Everything else (accents, CJK, symbols such as ✓)
is left as it is. The model keeps the exact names; escaping happens where a line is printed.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Unicode's control, format, surrogate and line/paragraph separator categories: the
characters that steer a terminal or a line's direction, or show nothing, rather than a glyph."""

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_SURROGATE_BYTES = range(0xDC80, 0xDD00)
"""Where Python's surrogateescape puts the bytes 0x80-0xFF that are not UTF-8."""

_ASCII_CONTROLS = re.compile("[\x00-\x1f\x7f]")


@cache
def _escape(char: str) -> str:
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    if code < 0x80:
        return f"\\x{code:02x}"
    if code in _SURROGATE_BYTES:
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def visible(text: str) -> str:
    """`text` as one terminal line: every control, format and separator character written as
    an escape (this module's docstring has the convention), everything else as it is."""
    if text.isascii():  # the common case, at a regular expression's speed
        return _ASCII_CONTROLS.sub(lambda m: _escape(m.group()), text)
    return "".join(_escape(c) if unicodedata.category(c) in ESCAPED_CATEGORIES else c
                   for c in text)


def visible_lines(text: str) -> str:
    """A block the app laid out in lines (a table, a report's page), for the terminal: each of
    its lines through `visible`, so that only the app's own line breaks break a line."""
    return "\n".join(visible(line) for line in text.split("\n"))
