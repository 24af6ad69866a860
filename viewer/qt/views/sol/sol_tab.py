"""Step 1, Speed Of Light: compute-bound, memory-bound, latency-bound or a small grid, and the
busiest unit (per active cycle, said so, where its row reads above Memory Throughput).

The percent rows are bars against 100 % with the HIGH_PCT line drawn on each; the busiest of the
L1/TEX, L2 and DRAM rows is highlighted, and the misread of Memory Throughput as DRAM bandwidth is
answered under that row in words from the values (viewer.lesson.misreads): not DRAM bandwidth
where another unit is the busiest, the two rows agreeing where DRAM is.
"""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QVBoxLayout

from viewer.analysis import reading
from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.core.formatting import NOT_IN_REPORT
from viewer.core.model import Kernel
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.reading_tab import ReadingTab


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    BAR = "bar"
    BUSIEST = "busiest"
    DURATION = "duration"
    DURATION_RATIO = "duration_ratio"
    THRESHOLD = "threshold"
    VERDICT = "verdict"


VERDICT_COLORS = {"compute-bound": "compute", "memory-bound": "memory",
                  "compute- and memory-bound": "memory", "latency-bound": "latency",
                  "small grid": "latency", reading.SMALL_OR_LATENCY: "latency"}

# The percent rows: (summary key, bar colour, indented under Memory Throughput). Each row is
# labelled as the report prints it (viewer.core.metrics).
_ROWS = (
    ("compute_sm_throughput_pct", "compute", False),
    ("memory_throughput_pct", "memory", False),
    ("l1tex_throughput_pct", "memory", True),
    ("l2_throughput_pct", "memory", True),
    ("dram_throughput_pct", "memory", True),
)


def threshold_text() -> str:
    return (f"High means at or above {reading.HIGH_PCT:.0f} % of peak (the dashed line). "
            "Compute high and above memory: compute-bound. Memory high and above compute: "
            "memory-bound. Both below the line: latency-bound, or a small grid where the "
            "launch is under one wave of blocks.")


def duration_ratio(first: Kernel, second: Kernel, first_name: str, second_name: str) -> str:
    """'Duration: matmul_naive takes 4.59x as long as matmul_tiled (219.14 us against 47.78 us)'."""
    a, b = reading.value(first, "duration_ns"), reading.value(second, "duration_ns")
    if a is None or b is None:
        return f"Duration: {NOT_IN_REPORT} for both kernels, so no ratio."
    if a == b:
        return f"Duration: equal ({fmt.duration(a)})."
    (slow, slow_ns), (fast, fast_ns) = sorted(((first_name, a), (second_name, b)),
                                              key=lambda pair: -pair[1])
    if fast_ns == 0:
        return f"Duration: {fast} reports 0 ns, so no ratio."
    return (f"Duration: {slow} takes {slow_ns / fast_ns:.2f}x as long as {fast} "
            f"({fmt.duration(slow_ns)} against {fmt.duration(fast_ns)}).")


class SpeedOfLightTab(ReadingTab):
    VIEW = "sol"
    TITLE = "1  Speed Of Light"
    QUESTION = ("Speed of light: is the kernel compute-bound, memory-bound, or stalled on latency "
                "with neither ceiling the problem?")
    REFLOWS = 1

    def thresholds(self) -> str:
        return threshold_text()

    def _build(self, layout: QVBoxLayout) -> None:
        sols = [reading.speed_of_light(k) for k in self.kernels]
        grid = self.grid()
        row = self.header_row(grid, 0)
        row = self._verdict_row(grid, row, sols)
        for key, color, indented in _ROWS:
            name = ("    " if indented else "") + metrics.row_label(key)
            grid.addWidget(self.label(name, bold=not indented, row=key), row, 0)
            for column, (kernel, sol) in enumerate(zip(self.kernels, sols, strict=True), 1):
                busiest = sol.busiest_shown
                emphasis = busiest is not None and busiest.metric == metrics.SUMMARY_METRICS[key]
                value = reading.value(kernel, key)
                grid.addWidget(self.bar(one_of(Names.BAR, key, column), value, 100.0,
                                        fmt.percent(value),
                                        color=color, threshold=reading.HIGH_PCT,
                                        emphasis=emphasis, row_key=key), row, column)
            row = self.misread_rows(grid, row + 1, key)
        grid.addWidget(self.label(metrics.row_label("duration_ns"), bold=True,
                                  row="duration_ns"), row, 0)
        for column, sol in enumerate(sols, 1):
            grid.addWidget(self.label(self._or_missing(fmt.duration(sol.duration_ns),
                                                      sol.duration_ns),
                                      "heading", bold=True, name=one_of(Names.DURATION, column),
                                      row="duration_ns"),
                           row, column, Qt.AlignmentFlag.AlignLeft)
        row = self.misread_rows(grid, row + 1, "duration_ns")
        grid.addWidget(self.label("Busiest memory unit", bold=True), row, 0)
        for column, sol in enumerate(sols, 1):
            busiest = sol.busiest_shown
            text = reading.busiest_words(sol)  # the one wording, the terminal's too
            wrap = busiest is None or text.endswith(reading.ACTIVE_WORDS)
            label = self.label(text, "heading" if busiest else "body", bold=True,
                               name=one_of(Names.BUSIEST, column), wrap=wrap,
                               highlight=busiest is not None,
                               row=busiest.metric if busiest else None)
            if wrap:  # wrapped: the cell's width, so its height follows its lines
                grid.addWidget(label, row, column)
            else:
                grid.addWidget(label, row, column,
                               Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        layout.addLayout(grid)
        if self.compare_mode:
            layout.addWidget(self.label(self._duration_ratio(), "heading", bold=True,
                                        name=Names.DURATION_RATIO, wrap=True))
        layout.addWidget(self.label(threshold_text(), color="secondary", name=Names.THRESHOLD,
                                    wrap=True))
        self.explanations(layout, [sol.explanation for sol in sols])

    def _verdict_row(self, grid: QGridLayout, row: int,
                     sols: list[reading.SpeedOfLight]) -> int:
        grid.addWidget(self.label("Verdict", bold=True), row, 0)
        for column, sol in enumerate(sols, 1):
            text = sol.verdict or "no verdict"
            color = VERDICT_COLORS.get(sol.verdict or "", "missing")
            grid.addWidget(self.label(text, "headline", bold=True, color=color,
                                      name=one_of(Names.VERDICT, column)), row, column)
        return row + 1

    def _duration_ratio(self) -> str:
        (first, second), (first_name, second_name) = self.kernels, self.names  # compare mode
        return duration_ratio(first, second, first_name, second_name)

    @staticmethod
    def _or_missing(text: str, value: float | None) -> str:
        return text if value is not None else NOT_IN_REPORT

