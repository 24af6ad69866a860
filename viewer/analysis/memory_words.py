"""The memory step's words around its chart: the key to the arrows' widths, the sentence of each
kernel's DRAM bytes against the floor, and the heading of the compared rows' last column."""

from __future__ import annotations

from viewer.analysis.chart_layout import BYTES, INSTRUCTIONS
from viewer.analysis.memory_traffic import memory_chart
from viewer.core.model import Kernel

# The rows that carry the lesson (sectors, then requests) come first and are written larger.
HEADLINE_ROWS = 2
WHICH_HAS_MORE = "Which has more"


def legend_text(compare: bool) -> str:
    """What an arrow's width says, and that one scale serves both kernels in compare mode."""
    shared = ", one scale for both kernels" if compare else ""
    return (f"Arrow width: {INSTRUCTIONS} from the kernel, {BYTES} from L1/TEX outward, on a log "
            f"scale{shared}. Dashed grey: the report does not hold that counter.")


def floor_sentence(kernel: Kernel, name: str, compare: bool) -> str:
    """The kernel's DRAM bytes against the compulsory floor, in words from its two counters (the
    chart's boxes show only the ratio), naming it in compare mode; '' when unknown."""
    note = memory_chart(kernel).floor_note
    if not note:
        return ""
    whose = f"{name}'s DRAM traffic" if compare else "DRAM traffic"
    return f"{whose} {note}."
