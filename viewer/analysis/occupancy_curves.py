"""ncu's occupancy curves, "what if": the active warps per SM the kernel would get at every other
block size, register count or shared memory size, with its own setting marked.

The curves are instanced metrics of a .ncu-rep's Occupancy section
(`launch__occupancy_per_block_size` holds one value per block size, the block size being the
instance's correlation id); read them with viewer.readers.extras.read_extras(...,
instances=CURVE_METRICS), and the kernel's settings with readers.read_metrics(...,
SETTING_METRICS). Exports print only one number per curve, so a curve missing is said, never drawn
flat.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from dataclasses import dataclass

from viewer.core.model import Kernel
from viewer.readers.extras import Series

Y_LABEL = "active warps per SM"
MISSING_TEXT = ("this report holds no occupancy curves for this kernel: ncu records them in a "
                ".ncu-rep with its Occupancy section (in --set basic and --set full), though not "
                "for every result (the basic capture of a CUDA graph in the test corpus has "
                "none), and exports never carry them")


@dataclass(frozen=True)
class CurveSpec:
    """One of ncu's curves: its instanced metric, and the launch metric of the kernel's own
    setting."""

    key: str
    title: str
    x_label: str
    metric: str
    setting: str


CURVES: tuple[CurveSpec, ...] = (
    CurveSpec("block_size", "Impact of varying block size", "threads per block",
              "launch__occupancy_per_block_size", "launch__block_size"),
    CurveSpec("registers", "Impact of varying register count per thread", "registers per thread",
              "launch__occupancy_per_register_count", "launch__registers_per_thread"),
    CurveSpec("shared_mem", "Impact of varying shared memory usage per block",
              "shared memory per block (bytes)", "launch__occupancy_per_shared_mem_size",
              "launch__shared_mem_per_block"),
)
CURVE_METRICS: tuple[str, ...] = tuple(c.metric for c in CURVES)
SETTING_METRICS: tuple[str, ...] = tuple(c.setting for c in CURVES)


@dataclass(frozen=True)
class OccupancyCurve:
    """One curve as (x, y) points, x ascending, and the kernel's own setting on it (`at`: the
    point that setting is allocated as, the first x at or above it; None when unknown)."""

    spec: CurveSpec
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    setting: float | None
    at: tuple[float, float] | None

    @property
    def best(self) -> float:
        """The most warps any setting on the curve would give."""
        return max(self.ys)


def point_at(xs: tuple[float, ...], ys: tuple[float, ...], setting: float | None
             ) -> tuple[float, float] | None:
    """The point a setting is allocated as: hardware rounds block sizes, registers and shared
    memory up to its granularity, so the first x at or above the setting."""
    if setting is None or not xs:
        return None
    i = bisect.bisect_left(xs, setting)
    return None if i == len(xs) else (xs[i], ys[i])


def curves(kernel: Kernel, instances: Mapping[str, Series]) -> tuple[OccupancyCurve, ...]:
    """The curves the report holds for `kernel` (an empty tuple: say MISSING_TEXT)."""
    out = []
    for spec in CURVES:
        series = instances.get(spec.metric)
        if not series or not series[0]:
            continue
        points = sorted(zip(*series, strict=True))
        xs, ys = tuple(p[0] for p in points), tuple(p[1] for p in points)
        setting = kernel.metric(spec.setting)
        out.append(OccupancyCurve(spec, xs, ys, setting, point_at(xs, ys, setting)))
    return tuple(out)
