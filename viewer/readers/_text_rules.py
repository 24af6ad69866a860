"""ncu's rule results as a details text export prints them between the tables:

    OPT   Est. Speedup: 35.37%
          The memory access pattern for global loads from L1TEX might not be optimal. ...
    ----- ---------------------------------------------------------------------------------
    INF   Check the Warp Stall Sampling (All Samples) table for the top stall locations ...

A block is its type (INF, OPT, WRN, ERR), an optional estimate (`Est. Speedup`: a share of the
whole run; `Est. Local Speedup`: of the unit at fault) and its message, wrapped under it. Each is
given in the shape ncu_report's rule results have (viewer.analysis.advice.advice_of): the export
prints no rule identifier, title, link markup or focus metrics, so the block's section names it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from viewer.core import units

# The types ncu prints -> ncu_report's MsgType numbers (viewer.analysis.advice.KINDS words them).
MESSAGE_TYPES: dict[str, int] = {"INF": 1, "OPT": 2, "WRN": 3, "ERR": 4}
# ncu_report's SpeedupType numbers: LOCAL (of the unit at fault), GLOBAL (of the whole run).
SPEEDUP_TYPES: dict[bool, int] = {True: 1, False: 2}

_START = re.compile(r"^(?P<indent> *)(?P<type>INF|OPT|WRN|ERR)(?P<gap> {2,})(?P<text>\S.*)$")
_ESTIMATE = re.compile(r"^Est\. (?P<local>Local )?Speedup: (?P<pct>[0-9.,]+) ?%$")


@dataclass
class RuleBlock:
    """One rule result being read: its type, section, estimate and message lines."""

    kind: str
    section: str
    column: int
    speedup: tuple[float, bool] | None = None
    lines: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, raw: str, section: str) -> RuleBlock | None:
        """The block a line starts (`OPT   Est. Speedup: 9.534%`), or None."""
        m = _START.match(raw.rstrip())
        if m is None:
            return None
        block = cls(m.group("type"), section, len(m.group("indent")) + 3 + len(m.group("gap")))
        block._text(m.group("text"))
        return block

    def takes(self, raw: str) -> bool:
        """Whether `raw` continues the message (indented under it); if so it is taken in."""
        if len(raw) - len(raw.lstrip(" ")) < self.column:
            return False
        self._text(raw.strip())
        return True

    def _text(self, text: str) -> None:
        estimate = _ESTIMATE.match(text)
        if estimate is not None and not self.lines and self.speedup is None:
            pct = _number(estimate.group("pct"))
            if pct is not None:
                self.speedup = (pct, bool(estimate.group("local")))
                return
        self.lines.append(text)

    def rule(self) -> dict[str, Any] | None:
        """The block as ncu_report's rule result dict; None when it holds no message."""
        message = " ".join(self.lines).strip()
        if not message:
            return None
        out: dict[str, Any] = {
            "rule_identifier": "", "name": self.section, "section_identifier": self.section,
            "rule_message": {"title": "", "type": MESSAGE_TYPES[self.kind], "message": message},
        }
        if self.speedup is not None:
            out["speedup_estimation"] = {"speedup": self.speedup[0],
                                         "type": SPEEDUP_TYPES[self.speedup[1]]}
        return out


def _number(text: str) -> float | None:
    """An estimate as printed ('35.37', or '35,37' where a comma is the decimal mark)."""
    for comma in ("," in text and "." not in text, False):
        try:
            return units.parse_number(text, comma)
        except ValueError:
            continue
    return None
