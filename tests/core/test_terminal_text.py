"""viewer.core.terminal_text: what a terminal is sent of text from a file. Controls, C1 controls,
bidirectional and invisible format characters and line breaks come out as visible escapes, on
one line; ordinary Unicode as it is."""

from __future__ import annotations

import subprocess
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from viewer.core.terminal_text import ESCAPED_CATEGORIES, visible, visible_lines


def test_ascii_controls_are_escaped_as_python_writes_them() -> None:
    assert visible("a\x1b[2Jb") == "a\\x1b[2Jb"  # clear screen
    assert visible("\x1b]0;owned\x07") == "\\x1b]0;owned\\x07"  # the terminal's title
    assert visible("\x1b[31mred\x1b[0m") == "\\x1b[31mred\\x1b[0m"
    assert visible("one\ntwo\rthree\tfour") == "one\\ntwo\\rthree\\tfour"
    assert visible("\x00\x08\x7f") == "\\x00\\x08\\x7f"


def test_c1_controls_bidi_and_invisible_characters_are_escaped() -> None:
    assert visible("\x9b2J\x85\x9d") == "\\u009b2J\\u0085\\u009d"  # CSI, NEL, OSC
    assert visible("abc\u202edef") == "abc\\u202edef"  # right-to-left override
    bidi = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    assert visible(bidi) == "".join(f"\\u{ord(c):04x}" for c in bidi)
    assert visible("a\u200bb\ufeffc\u00add") == "a\\u200bb\\ufeffc\\u00add"  # zero width, soft -
    assert visible("x\u2028y\u2029z") == "x\\u2028y\\u2029z"  # line, paragraph separators
    assert visible("tag\U000e0041") == "tag\\U000e0041"


def test_a_file_names_undecodable_byte_is_shown_as_that_byte() -> None:
    name = b"report-\xff\x9b.csv".decode("utf-8", "surrogateescape")
    assert visible(name) == "report-\\xff\\x9b.csv"
    visible(name).encode("utf-8")  # printable at all: a lone surrogate is not


def test_ordinary_unicode_is_left_as_it_is() -> None:
    for text in ("matmul_naive", "café naïve", "行列の積", "✓ 87 % ✗", "Array<float, 1, C>",
                 "Grüße 😀", "e\u0301", "\u00a0non-breaking", "back\\slash", "مرحبا", ""):
        assert visible(text) == text


def test_visible_lines_keeps_the_apps_line_breaks_only() -> None:
    assert visible_lines("head\n  #0 a\x1bb\r\n\nend\u202e") == (
        "head\n  #0 a\\x1bb\\r\n\nend\\u202e")


def test_bash_reads_the_escapes_back() -> None:
    name = "evil\x1b[2J\x07\u202e\u2066\nline\t\x9b" + b"\xff".decode("utf-8", "surrogateescape")
    done = subprocess.run(["bash", "-c", f"printf %s $'{visible(name)}'"], capture_output=True,
                          check=True)
    assert done.stdout == name.encode("utf-8", "surrogateescape")


@given(st.text())
def test_nothing_that_steers_a_terminal_comes_out_and_it_is_one_line(text: str) -> None:
    shown = visible(text)
    assert not [c for c in shown if unicodedata.category(c) in ESCAPED_CATEGORIES]
    assert not {"Cc", "Cf"} & {unicodedata.category(c) for c in shown}
    assert len(shown.splitlines()) <= 1
    assert visible(shown) == shown  # already shown: nothing more to escape
    shown.encode("utf-8")


@given(st.text(alphabet=st.characters(blacklist_categories=tuple(ESCAPED_CATEGORIES))))
def test_text_with_nothing_to_escape_is_unchanged(text: str) -> None:
    assert visible(text) == text


@given(st.lists(st.text().map(lambda line: line.replace("\n", "")), min_size=1))
def test_visible_lines_breaks_only_where_the_app_did(lines: list[str]) -> None:
    shown = visible_lines("\n".join(lines))
    assert shown.split("\n") == [visible(line) for line in lines]
