"""Whether a kernel read from its source counters is the lesson's kernel at the lesson's layout,
so that its figures may stand beside the lesson's derivation (viewer.analysis.source.compare).

It is when its function is the app's matmul_naive or matmul_tiled in that role and its global
loads are the derivation's to the digit: the requests (its LDG instructions executed, counted
per warp) and the sectors they ask of L2 (memory_l2_theoretical_sectors_global). Both are exact
counts, as the derivation is, so nothing short of equal is a match: the same name and as many
loads per thread at another layout (a warp over rows, 8.5 sectors per request) is not the
lesson's kernel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from viewer.analysis import predict
from viewer.analysis.reading import lesson_role
from viewer.core import formatting as fmt
from viewer.readers.source import L2_SECTORS, KernelSource


@dataclass(frozen=True)
class GlobalLoads:
    """A kernel's global loads as its SASS counts them; None where the report lacks a counter."""

    requests: float | None
    sectors: float | None

    @property
    def sectors_per_request(self) -> float | None:
        if not self.requests or self.sectors is None:
            return None
        return self.sectors / self.requests


def global_loads(kernel: KernelSource) -> GlobalLoads:
    """Its warp-level global load instructions executed and their L2 theoretical sectors."""
    loads = [i for i in kernel.instructions if i.is_global_load]
    requests, sectors = [i.global_loads for i in loads], [i.value(L2_SECTORS) for i in loads]
    return GlobalLoads(None if None in requests else math.fsum(v or 0.0 for v in requests),
                       None if None in sectors else math.fsum(v or 0.0 for v in sectors))


def not_the_lessons(kernel: KernelSource, role: str, p: predict.Prediction) -> str | None:
    """None where `kernel` is the lesson's `role` ('naive', 'tiled') kernel at the layout `p`
    derives; else the sentence saying why its figures are the report's alone."""
    name = kernel.function
    alone = "so its figures here are the report's alone, with none of the lesson's beside them"
    if lesson_role(name) != role:
        return f"{name} is not the lesson's {role} kernel (the app's matmul_{role}), {alone}."
    derived = p.naive if role == "naive" else p.tiled
    got = global_loads(kernel)
    if got.requests == derived.global_load_requests and got.sectors == derived.global_load_sectors:
        return None
    lesson = (f"where the lesson derives {fmt.count(derived.global_load_requests)} at "
              f"{fmt.sectors_per_request(derived.sectors_per_request)} for {p.dim} x {p.dim} on "
              f"{p.tile} x {p.tile} tiles")
    if got.requests is None or got.sectors is None:
        return (f"The report does not hold {name}'s global load sectors, so whether it runs at "
                f"the lesson's layout is unknown ({lesson}); {alone}.")
    return (f"{name} does not run at the lesson's layout: {fmt.count(got.requests)} global load "
            f"requests at {fmt.sectors_per_request(got.sectors_per_request)} sectors per "
            f"request, {lesson}; {alone}.")
