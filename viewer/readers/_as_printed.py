"""Values an export prints in a unit not understood: kept as printed, never scaled or used.

A unit ncu does not print ('zorks'), or one of the wrong kind for its metric (Duration in 'byte'),
gives no factor (viewer.core.units.scale_for): the value is not one of the kernel's metrics, so
every view shows it missing, and its text is kept in `Kernel.printed` (`Printed.value`) for the
Every metric page. The report says so once, in a note. A file of nothing but such values keeps
MAX_KEPT of them, and counts the rest.
"""

from __future__ import annotations

from viewer.core import metrics, units
from viewer.core.model import Printed

MAX_KEPT = 10_000
"""Values kept as printed per file; more are counted for the note, not kept."""
_UNITS_NAMED = 3


def factor(unit: str, metric: str) -> float | None:
    """The factor to base units of `metric` printed in `unit`; None when the unit is not
    understood, or not of the kind the metric holds."""
    return units.scale_for(unit, metrics.kind(metric))


class AsPrinted:
    """The values of one file whose unit is not understood: counted, and the first MAX_KEPT kept."""

    def __init__(self) -> None:
        self.count = 0
        self._units: dict[str, None] = {}

    @property
    def room(self) -> int:
        """How many more values may be kept."""
        return max(0, MAX_KEPT - self.count)

    def count_only(self, count: int) -> None:
        """Count `count` more values (past MAX_KEPT: not kept, nor their units named)."""
        self.count += max(0, count)

    def take(self, metric: str, text: str, printed: Printed) -> Printed | None:
        """Count the value `text` of `metric`, printed as `printed` says (its unit not understood
        for the metric); the Printed to keep, or None past MAX_KEPT."""
        self.count += 1
        unit = printed.unit.strip()
        if units.unit_scale(unit) is not None:  # understood, but not for this metric
            try:
                unit = f"{unit} for {metrics.label(metric)}"
            except KeyError:
                unit = f"{unit} for {metric}"
        if len(self._units) <= _UNITS_NAMED:
            self._units.setdefault(unit or "no unit")
        if self.count > MAX_KEPT:
            return None
        return Printed(printed.unit, printed.label, printed.section, text.strip())

    def note(self) -> str | None:
        """The report's note ('3 values in a unit not understood (zorks): shown as printed, not
        used'), None when there were none."""
        if not self.count:
            return None
        named = list(self._units)[:_UNITS_NAMED]
        more = ", ..." if len(self._units) > _UNITS_NAMED else ""
        values = "1 value" if self.count == 1 else f"{self.count:,} values"
        return (f"{values} in a unit not understood ({', '.join(named)}{more}): shown as "
                "printed, not used")
