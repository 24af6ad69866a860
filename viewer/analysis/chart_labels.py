"""The memory chart's label lines as drawn: which row each number picks, and the lines a
narrowed chart breaks them onto ('16,777,216 sectors' over two lines: '16,777,216', 'sectors').
"""

from __future__ import annotations

from viewer.core.formatting import NOT_IN_REPORT

# The row each arrow's and each box's numbers show (a summary key, or the ncu metric of DRAM
# bytes read and written together).
ARROW_ROWS = {"shared": "shared_load_instructions", "global": "global_load_requests",
              "l1_to_l2": "l2_read_sectors_from_l1", "dram_read": "dram_bytes_read",
              "dram_write": "dram_bytes_write"}
BOX_ROWS = {"l1tex": "l1tex_hit_rate_pct", "l2": "l2_hit_rate_pct", "dram": "dram__bytes.sum"}

_UNITS = frozenset({"B", "KB", "MB", "GB", "TB"})


def line_row(arrow_key: str, text: str, below: bool) -> str:
    """The row a line of an arrow's label shows: under the global-load arrow, sectors and
    sectors per request; elsewhere the arrow's own counter."""
    if arrow_key == "global" and below:
        return "sectors_per_request" if "per request" in text else "global_load_sectors"
    return ARROW_ROWS[arrow_key]


def narrowed(lines: tuple[str, ...]) -> tuple[str, ...]:
    """Labels on narrower lines: '16,777,216 sectors' -> '16,777,216', 'sectors';
    'read 2.10 MB' -> 'read', '2.10 MB'. Rates ('2.00 per request'), sizes ('53.96 MB') and
    the words of a missing value stay whole."""
    out: list[str] = []
    for line in lines:
        head, _, rest = line.partition(" ")
        keep = rest.startswith("per ") or rest in _UNITS or NOT_IN_REPORT in line
        if rest and not keep:
            out += [head, rest]
        else:
            out.append(line)
    return tuple(out)


def box_parts(line: str) -> tuple[str, ...]:
    """A box's line on narrower lines: 'hit rate not in this report' -> 'hit rate', 'not in
    this report'; any other line stays whole."""
    head = line.removesuffix(NOT_IN_REPORT).rstrip()
    return (head, NOT_IN_REPORT) if head and head != line else (line,)
