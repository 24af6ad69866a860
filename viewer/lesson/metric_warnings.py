"""Why two kernels' metrics may differ beyond their code, for the top of the "Every metric"
diff: their GPUs, clocks and ncu versions, and the hit rates ncu reports above 100 %."""

from __future__ import annotations

from collections.abc import Sequence

from viewer.analysis import metric_table
from viewer.core.model import Kernel, Report
from viewer.lesson.misreads import compare_misreads


def diff_warnings(kernels: Sequence[Kernel], names: Sequence[str],
                  reports: Sequence[Report]) -> list[str]:
    """The warnings over A (`kernels[0]`, in `reports[0]`) against B, each a sentence."""
    a, b = kernels
    ra, rb = reports
    texts = metric_table.provenance_warnings(a, b, (ra.session, rb.session))
    texts += [f"{name}: {note}" for name, kernel in zip(names, kernels, strict=True)
              for note in metric_table.hit_rate_notes(metric_table.rows(kernel))]
    texts += [m.text for m in compare_misreads(a, b, ra, rb)
              if m.kind.endswith(("-clocks", "-ncu")) or m.kind == "clocks-not-locked"]
    return texts
