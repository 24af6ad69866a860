"""The launch against the GPU: its blocks, the GPU's SMs, the full waves they make, and
whether the grid fills the GPU (below one full wave it does not: ncu's SOLBottleneck rule says
"Small Grid" there, and decides where the report lacks the SM count).

A figure the report lacks stays None, and the words say what is missing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.core.model import Kernel

# Below one full wave of blocks the grid does not fill the GPU (ncu's SOLBottleneck threshold).
SMALL_GRID_WAVES = 1.0
GRID_SIZE = metrics.LABELS[(metrics.LAUNCH, "Grid Size")]
SM_COUNT = metrics.LABELS[(metrics.LAUNCH, "# SMs")]  # ncu's Launch Statistics row
DEVICE_SMS = metrics.DEVICE_SMS  # the device's own count, where the launch row is missing

# ncu's SOLBottleneck rule where it finds a small grid, as an export prints it.
_SMALL_GRID_RULE = re.compile(r"grid is too small to fill the available resources on this "
                              r"device, resulting in only ([0-9]+(?:[.,][0-9]+)?) full waves")


def small_grid_rule(kernel: Kernel) -> float | None:
    """The full waves ncu's own Small Grid rule states, where the export carries that rule."""
    for rule in kernel.rules or ():
        message = rule.get("rule_message")
        text = str(message.get("message") or "") if isinstance(message, dict) else ""
        match = _SMALL_GRID_RULE.search(text)
        if match:
            return float(match.group(1).replace(",", "."))
    return None


@dataclass(frozen=True)
class Grid:
    """The launch against the GPU: blocks (launch__grid_size), the GPU's SMs, ncu's waves per
    SM (launch__waves_per_multiprocessor), the blocks per SM that fit (the binding block limit)
    and the full waves ncu's Small Grid rule states, each None where the report lacks it."""

    blocks: float | None
    sms: float | None
    waves: float | None
    per_sm: float | None = None
    rule_waves: float | None = None

    @property
    def capacity(self) -> float | None:
        """Blocks the GPU holds at once: SMs x blocks per SM that fit."""
        return None if self.sms is None or self.per_sm is None else self.sms * self.per_sm

    @property
    def full_waves(self) -> float | None:
        """ncu's waves per SM, else blocks over the GPU's capacity; None when unknown."""
        if self.waves is not None:
            return self.waves
        capacity = self.capacity
        return None if self.blocks is None or not capacity else self.blocks / capacity

    @property
    def small(self) -> bool | None:
        """Below one full wave: from ncu's waves, else blocks against SMs x blocks per SM, else
        ncu's Small Grid rule, else fewer blocks than SMs; None when the report cannot tell."""
        waves = self.full_waves
        if waves is not None:
            return waves < SMALL_GRID_WAVES
        if self.rule_waves is not None:
            return True
        if self.blocks is not None and self.sms is not None and self.blocks < self.sms:
            return True
        return None

    @property
    def text(self) -> str:
        """'16 blocks on 132 SMs: 0.02 waves per SM', with what the report holds."""
        on = f" on {fmt.count(self.sms)} SMs" if self.sms is not None else ""
        waves = self.full_waves
        if self.waves is not None:
            tail = f"{fmt.count(self.waves)} waves per SM"
        elif waves is not None:
            tail = (f"{waves:.2f} waves per SM ({fmt.count(self.per_sm)} blocks per SM fit, "
                    f"{fmt.count(self.capacity)} at once)")
        elif self.rule_waves is not None:
            tail = (f"ncu's own Small Grid rule says {fmt.count(self.rule_waves)} full waves "
                    "across all SMs")
        else:
            tail = "fewer blocks than SMs, so some SMs get none"
        return f"{fmt.count(self.blocks)} blocks{on}: {tail}"

    @property
    def unknown_text(self) -> str:
        """Why the report cannot tell whether the grid fills the GPU."""
        lacks = [name for name, v in (("the grid size", self.blocks),
                                      (f"the SM count ({SM_COUNT})", self.sms),
                                      ("the block limits", self.per_sm)) if v is None]
        holds = f"the report holds {fmt.count(self.blocks)} blocks but lacks " \
            if self.blocks is not None else "the report lacks "
        return (f"{holds}{' and '.join(lacks)} and ncu's waves per SM "
                f"({metrics.WAVES_PER_SM}), so it cannot rule out a small grid")


def grid(kernel: Kernel) -> Grid:
    blocks = kernel.metric(GRID_SIZE)
    if blocks is None and kernel.grid is not None:
        blocks = float(kernel.grid[0] * kernel.grid[1] * kernel.grid[2])
    sms = kernel.metric(SM_COUNT)
    fits = [v for v in (kernel.metric(m) for m in metrics.BLOCK_LIMITS) if v is not None]
    return Grid(blocks, sms if sms is not None else kernel.metric(DEVICE_SMS),
                kernel.metric(metrics.WAVES_PER_SM), min(fits) if fits else None,
                small_grid_rule(kernel))
