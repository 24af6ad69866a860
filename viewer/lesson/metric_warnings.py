"""Why two kernels' metrics may differ beyond their code, for the top of the "Every metric"
diff: what the window's compare line does not say already (viewer.lesson.misreads, over every
tab: GPUs, clock controls, ncu versions, sizes), so that each warning is said once: SM clocks
that differ, the metrics one kernel holds, and the hit rates ncu reports above 100 %."""

from __future__ import annotations

from collections.abc import Sequence

from viewer.analysis import metric_table
from viewer.core.model import Kernel, Report
from viewer.lesson.misreads import compare_misreads

_GPU_SENTENCES = ("They ran on different GPUs", "They ran on GPUs of different compute")
"""metric_table.provenance_warnings' sentences the compare line's different-gpu says too."""


def diff_warnings(kernels: Sequence[Kernel], names: Sequence[str],
                  reports: Sequence[Report]) -> list[str]:
    """The warnings over A (`kernels[0]`, in `reports[0]`) against B, each a sentence; none
    the compare line says of the pair (compare_misreads)."""
    a, b = kernels
    ra, rb = reports
    said = {m.kind for m in compare_misreads(a, b, ra, rb)}
    texts = [t for t in metric_table.provenance_warnings(a, b, (ra.session, rb.session))
             if not ("different-gpu" in said and t.startswith(_GPU_SENTENCES))]
    texts += [f"{name}: {note}" for name, kernel in zip(names, kernels, strict=True)
              for note in metric_table.hit_rate_notes(metric_table.rows(kernel))]
    return texts

