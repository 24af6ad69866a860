"""The lesson's derivation against the card: each derived request, sector and shared-load count of
the app's own matmuls next to the counter that measures it (the memory tab and the summary show
them)."""

from __future__ import annotations

from dataclasses import dataclass

from viewer.analysis.predict import DerivationError, derive
from viewer.analysis.reading import problem_dim, value
from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.core.model import Kernel


@dataclass(frozen=True)
class PredictionCheck:
    """One figure of the lesson's derivation next to the counter that measures it."""

    key: str  # the summary key of the measured value
    label: str
    predicted: float
    measured: float | None

    @property
    def ratio(self) -> float | None:
        """measured / predicted, or None when the report lacks the counter."""
        if self.measured is None or self.predicted == 0:
            return None
        return self.measured / self.predicted

    def _figure(self, amount: float | None) -> str:
        return fmt.by_unit(amount, metrics.unit(self.key))

    @property
    def derived_text(self) -> str:
        return self._figure(self.predicted)

    @property
    def measured_text(self) -> str:
        return self._figure(self.measured)

    @property
    def ratio_text(self) -> str:
        """measured / derived as a percent, or MISSING."""
        return fmt.MISSING if self.ratio is None else fmt.percent(100 * self.ratio)

    @property
    def fewer_shared_loads(self) -> bool:
        """Fewer shared-load instructions measured than derived: SHARED_LOAD_NOTE applies."""
        return (self.key == "shared_load_instructions" and self.ratio is not None
                and self.ratio < 1)


# The table of the derivation under the memory chart: its title and its columns' headings.
TITLE = "The derivation, against the card"
HEADINGS = ("derived", "measured", "measured / derived")
SHARED_LOAD_NOTE = ("A shared-load count lower than derived means the compiler merged a thread's "
                    "consecutive shared reads into wider load instructions: the source's loads "
                    "are the same, the instructions fewer.")


def predictions(kernel: Kernel) -> tuple[PredictionCheck, ...]:
    """The derivation's request and sector counts for the app's own matmuls (size known, square
    tile x tile blocks), against this kernel's counters; () for any other kernel."""
    dim = problem_dim(kernel)
    if dim is None or kernel.block is None or kernel.block[0] != kernel.block[1]:
        return ()
    try:
        derived = derive(dim, kernel.block[0])
    except DerivationError:
        return ()
    tiled = kernel.name == "matmul_tiled"
    p = derived.tiled if tiled else derived.naive
    rows: list[tuple[str, str, float]] = [
        ("global_load_requests", "global load requests", p.global_load_requests),
        ("global_load_sectors", "global load sectors", p.global_load_sectors),
        ("sectors_per_request", "sectors per request", p.sectors_per_request),
    ]
    if tiled:
        rows.append(("shared_load_instructions", "shared load instructions",
                     p.shared_loads_per_thread * derived.warps))
    return tuple(PredictionCheck(key, label, predicted, value(kernel, key))
                 for key, label, predicted in rows)
