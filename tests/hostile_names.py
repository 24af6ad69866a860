"""Hostile text in real reports, for the tests that nothing from a file drives the terminal or
renders as markup: the shipped naive exports rewritten with a kernel name, a section and ncu's
advice that hold terminal escapes, bidirectional overrides, a newline and HTML, and hostile
file names in tmp_path.

What a name keeps depends on the reader: a kernel's function name (`Kernel.name`) is cut from
its demangled name at whitespace, brackets and template arguments, so it holds the escapes
that survive that (`IN_NAME`); the demangled name (`display_name`) holds everything."""

from __future__ import annotations

import csv
import shutil
import unicodedata
from pathlib import Path

from viewer.core import shipped

IN_NAME = ("\x1bc\x1b]0;owned\x07\x1b%G\x9b2J\x9d0;t\x9c\u202eevil\u2066\u2067\u2068\u2069"
           "\u200e\u200f\u061c\u200b\ufeff\x08\x7f&amp;")
"""Survives into a function name: ESC c (reset), OSC 0 (the terminal's title, BEL-ended), C1
CSI and OSC, every bidirectional override, isolate and mark, zero-width characters, a
backspace, DEL, an HTML entity."""
MARKUP = "<b>bold</b><a href='http://example.invalid/x'>link</a><img src='file:///etc/hostname'>"
"""Bold, a live link and a picture read from the local disk, were it rendered."""
DISPLAY_HEAD = f"{MARKUP}\n\x9b2J\r"
"""Before the function name: what starts the demangled name (so Qt would guess rich text)."""
DISPLAY_TAIL = f"\x1b[2J\x1b[31m{MARKUP}\x1b[0m\u202e"
"""After the argument list: clear screen, colours, markup, an override."""
IN_FILE_NAME = "\x1b[2J\x1b]0;owned\x07\u202e\u2066<b>bold<a href='x'>a<img src='x.png'>\n&lt;x"
"""What a file name may hold (no '/', so no closing tag): clear screen, the title, bidi, markup
(bold, a link, a picture), a newline, an entity."""
SECTION = "Evil\x1b]0;owned\x07\u202eSection<b>s</b>"
RULE_TEXT = "\x1b[2J\x1b[31mRewrite\u202e the kernel<b>now</b>\x1b[0m. "
STEERING = {"Cc", "Cf", "Cs", "Zl", "Zp"}


def steering(text: str) -> list[str]:
    """The characters of `text` that steer a terminal or a line's direction (every control
    but the line break, every format character): what no printer may write raw."""
    return sorted({c for c in text if c != "\n" and unicodedata.category(c) in STEERING})


def hostile_export(folder: Path, name: str = "hostile.details.csv") -> Path:
    """The shipped naive details CSV with its kernel named
    DISPLAY_HEAD + matmul_naive + IN_NAME + [...](...) + DISPLAY_TAIL; written to folder/name.
    (Its reader keeps only metric names of ncu's alphabet, and no advice: hostile_text_export
    carries those.)"""
    source = shipped.profiles_dir() / "naive.details.csv"
    with source.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        row["Kernel Name"] = (DISPLAY_HEAD + row["Kernel Name"].replace(
            "matmul_naive", "matmul_naive" + IN_NAME, 1) + DISPLAY_TAIL)
    out = folder / name
    with out.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]), quoting=csv.QUOTE_ALL)
        writer.writeheader()
        writer.writerows(rows)
    return out


def hostile_text_export(folder: Path, name: str = "hostile.details.txt") -> Path:
    """The shipped naive details text export (which holds ncu's advice) with its kernel's
    function name holding IN_NAME, its command line metrics under section SECTION and its
    first rule's text led by RULE_TEXT; written to folder/name."""
    head, kernel, rest = (shipped.profiles_dir() / "naive.details.txt").read_text(
        encoding="utf-8").split("\n", 2)
    kernel = kernel.replace("matmul_naive", "matmul_naive" + IN_NAME, 1)
    rest = rest.replace("Section: Command line profiler metrics", f"Section: {SECTION}", 1)
    rest = rest.replace("OPT   Memory is", f"OPT   {RULE_TEXT}Memory is", 1)
    out = folder / name
    out.write_text("\n".join([head, kernel, rest]), encoding="utf-8")
    return out


def hostile_source_csv(folder: Path, source: Path) -> Path:
    """ncu's source page export `source` with its kernel's name holding IN_NAME and MARKUP."""
    text = source.read_text(encoding="utf-8")
    out = folder / "hostile.source.csv"
    out.write_text(text.replace("matmul_naive", "matmul_naive" + IN_NAME + MARKUP, 1),
                   encoding="utf-8")
    return out


def hostile_named_copy(folder: Path, source: Path, suffix: str | None = None) -> Path:
    """A copy of `source` in `folder` whose file name holds IN_FILE_NAME."""
    out = folder / f"{IN_FILE_NAME}{suffix if suffix is not None else source.name}"
    shutil.copyfile(source, out)
    return out
