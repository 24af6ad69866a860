"""Step 3, occupancy: could the launch fill the machine, and did the workload fill it?

Theoretical and achieved occupancy as bars, the block limits that set the theoretical figure with
the binding one highlighted, the launch facts a gap is explained by (waves, barriers, shared
memory), each a row to pick, and the gap explained as viewer.analysis.occupancy_reading
explains it, with a link to the Warp stalls view (where the warps waited). Below, what if: ncu's
occupancy curves with the kernel's own setting marked (viewer.qt.views.occupancy.occupancy_whatif),
read when the tab is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QVBoxLayout

from viewer.analysis.occupancy_reading import OCCUPANCY_GAP_PCT, Occupancy, occupancy
from viewer.core import formatting as fmt
from viewer.core import metrics
from viewer.core.formatting import NOT_IN_REPORT
from viewer.core.model import Kernel, Report
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.reading_tab import ReadingTab
from viewer.qt.kit.row_pick import Pickable
from viewer.qt.views.occupancy import occupancy_whatif


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    ACHIEVED_COMPARISON = "achieved_comparison"
    BAR = "bar"
    BINDING = "binding"
    GAP = "gap"
    LAUNCH = "launch"
    LIMIT = "limit"
    STALLS_LINK = "stalls_link"
    THRESHOLD = "threshold"


_STATIC_SHARED = metrics.LABELS[(metrics.LAUNCH, "Static Shared Memory Per Block")]
# The launch facts: what the block limits are priced from, and what a gap is explained by (an
# uneven tail, barriers). Labelled as the report prints them; the two barrier rows are not
# printed by a section, so they are in the app's words (metrics.VIEW_LABELS).
LAUNCH_ROWS: tuple[tuple[str, str, Callable[[float | None], str]], ...] = (
    ("launch__block_size", metrics.label("launch__block_size"), fmt.count),
    ("launch__registers_per_thread", metrics.label("launch__registers_per_thread"), fmt.count),
    (_STATIC_SHARED, metrics.label(_STATIC_SHARED), fmt.size),
    (metrics.WAVES_PER_SM, metrics.label(metrics.WAVES_PER_SM), fmt.count),
    (metrics.BARRIER_COUNT, metrics.VIEW_LABELS[metrics.BARRIER_COUNT], fmt.count),
    (metrics.BARRIER_STALL, metrics.VIEW_LABELS[metrics.BARRIER_STALL],
     lambda v: fmt.MISSING if v is None else f"{v:.2f}"),
)
BARRIER_TIP = ("The hardware barriers each block reserves (ncu's launch__barrier_count), not how "
               "many times it synchronizes: every __syncthreads() waits on barrier 0, so the "
               "lesson's tiled kernel, with two of them, uses 1; a kernel whose code names "
               "barriers 0 and 5 (bar.sync 0, bar.sync 5) reserves 6.")
LAUNCH_TIPS = {metrics.BARRIER_COUNT: BARRIER_TIP}
"""What a launch row's label says on hover, where its name alone would mislead."""
# The two occupancy bars: (summary key, Occupancy attribute, bar colour).
_BARS = (("theoretical_occupancy_pct", "theoretical_pct", "memory"),
         ("achieved_occupancy_pct", "achieved_pct", "shared"))
STALLS_TITLE, STALLS_VIEW = "Warp stalls", "stalls"
STALLS_LINK = (f'Where the resident warps waited instead of issuing: <a href="stalls">'
               f'{STALLS_TITLE}</a> (W).')


def gap_text(occ: Occupancy) -> str:
    gap = occ.gap_pct
    if gap is None:
        return f"unknown: one of the two is {NOT_IN_REPORT}"
    return f"{gap:.2f} points below theoretical"


def threshold_text() -> str:
    return (f"A gap of {OCCUPANCY_GAP_PCT:.0f} points or more between theoretical and "
            "achieved is worth explaining. The smallest block limit binds: it sets how many "
            "blocks fit on one SM, and so the theoretical figure.")


def achieved_comparison(first: Occupancy, second: Occupancy, first_name: str,
                        second_name: str) -> str:
    """Which kernel kept more warps resident, in points of occupancy."""
    a, b = first.achieved_pct, second.achieved_pct
    if a is None or b is None:
        return f"Achieved Occupancy: {NOT_IN_REPORT} for both kernels."
    if a == b:
        return f"Achieved Occupancy: equal ({fmt.percent(a)})."
    (high, high_pct), (low, low_pct) = sorted(((first_name, a), (second_name, b)),
                                              key=lambda pair: -pair[1])
    return (f"Achieved Occupancy: {high} {fmt.percent(high_pct)} against {low} "
            f"{fmt.percent(low_pct)}, {high_pct - low_pct:.2f} points higher.")


def _short(limit: str) -> str:
    """'Block Limit Registers' -> 'Registers'."""
    return limit.removeprefix("Block Limit ")


class OccupancyTab(ReadingTab):
    VIEW = "occupancy"
    TITLE = "3  Occupancy"
    QUESTION = ("Occupancy: could the launch have filled the machine, and did the workload "
                "fill it?")
    REFLOWS = 1
    _curve_reader: occupancy_whatif.CurveReader | None = None

    def thresholds(self) -> str:
        return threshold_text()

    def set_kernels(self, kernels: Sequence[Kernel], names: Sequence[str] | None = None,
                    reports: Sequence[Report] = ()) -> None:
        self.curve_reader.request(kernels, reports)  # read once the tab is shown
        super().set_kernels(kernels, names, reports)

    def clear(self) -> None:
        self.curve_reader.request((), ())
        super().clear()

    def _build(self, layout: QVBoxLayout) -> None:
        occs = [occupancy(k) for k in self.kernels]
        grid = self.grid()
        row = self.header_row(grid, 0)
        for key, attr, color in _BARS:
            grid.addWidget(self.label(metrics.row_label(key), bold=True, row=key), row, 0)
            for column, occ in enumerate(occs, 1):
                value = getattr(occ, attr)
                grid.addWidget(self.bar(one_of(Names.BAR, attr, column), value, 100.0,
                                        fmt.percent(value), color=color, row_key=key),
                               row, column)
            row = self.misread_rows(grid, row + 1, key)
        grid.addWidget(self.label("Gap", bold=True), row, 0)
        for column, occ in enumerate(occs, 1):
            wide = occ.gap_pct is not None and occ.gap_pct >= OCCUPANCY_GAP_PCT
            grid.addWidget(self.label(gap_text(occ), "heading", bold=True,
                                      color="warning" if wide else "text",
                                      name=one_of(Names.GAP, column), wrap=True), row, column)
        row = self._limit_rows(grid, row + 1, occs)
        row = self._launch_rows(grid, row)
        layout.addLayout(grid)
        if self.compare_mode:
            words = achieved_comparison(occs[0], occs[1], self.names[0], self.names[1])
            layout.addWidget(self.label(words, "heading", bold=True, name=Names.ACHIEVED_COMPARISON,
                                        wrap=True))
        layout.addWidget(self.label(threshold_text(), color="secondary", name=Names.THRESHOLD,
                                    wrap=True))
        self.explanations(layout, [occ.explanation for occ in occs])
        if self.navigable:
            link = self.label(STALLS_LINK, name=Names.STALLS_LINK, wrap=True)
            link.setTextFormat(Qt.TextFormat.RichText)
            link.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
            link.linkActivated.connect(lambda _href: self.show_stalls())
            layout.addWidget(link)
        reports = self.reports
        if not reports:
            return  # shown without its reports: nothing to read the curves from
        layout.addWidget(occupancy_whatif.section(self.curve_reader, self.kernels, self.names,
                                                  self.style_))

    @property
    def curve_reader(self) -> occupancy_whatif.CurveReader:
        """The occupancy curves read so far, per kernel (made on first use)."""
        if self._curve_reader is None:
            self._curve_reader = occupancy_whatif.CurveReader(self)
            self._curve_reader.updated.connect(self._render)
        return self._curve_reader

    def show_stalls(self) -> bool:
        """Ask the window for the Warp stalls view; False when no window listens."""
        if not self.navigable:
            return False
        self.navigate.emit(STALLS_VIEW, "")
        return True

    def _launch_rows(self, grid: QGridLayout, row: int) -> int:
        """The launch facts, one row each ('launch_<metric>_<column>'); a fact no kernel's
        report holds is left out."""
        grid.addWidget(self.label("Launch", bold=True), row, 0, 1, len(self.kernels) + 1)
        row += 1
        for metric, text, written in LAUNCH_ROWS:
            values = [k.metric(metric) for k in self.kernels]
            if all(v is None for v in values):
                continue
            label = self.label(text, wrap=True, row=metric, name=one_of(Names.LAUNCH, metric))
            if metric in LAUNCH_TIPS and isinstance(label, Pickable):
                label.set_tip(LAUNCH_TIPS[metric])
            grid.addWidget(label, row, 0)
            for column, value in enumerate(values, 1):
                shown = NOT_IN_REPORT if value is None else written(value)
                grid.addWidget(self.label(shown, color="missing" if value is None else "text",
                                          name=one_of(Names.LAUNCH, metric, column), row=metric),
                               row, column, Qt.AlignmentFlag.AlignLeft)
            row = self.misread_rows(grid, row + 1, metric)
        return row

    def _limit_rows(self, grid: QGridLayout, row: int, occs: list[Occupancy]) -> int:
        """One bar per block limit (blocks per SM), the binding ones highlighted."""
        grid.addWidget(self.label("Block limits, blocks per SM: the smallest binds", bold=True,
                                  wrap=True), row, 0, 1, len(occs) + 1)
        row += 1
        names = list(dict.fromkeys(lim.name for occ in occs for lim in occ.limits))
        full = max((lim.blocks for occ in occs for lim in occ.limits if lim.blocks is not None),
                   default=0.0)
        metric_of = {lim.name: lim.metric for occ in occs for lim in occ.limits}
        for name in names:
            metric = metric_of[name]
            grid.addWidget(self.label(name, row=metric), row, 0)
            for column, occ in enumerate(occs, 1):
                limit = next((lim for lim in occ.limits if lim.name == name), None)
                blocks = limit.blocks if limit is not None else None
                binds = limit is not None and limit in occ.binding
                text = fmt.count(blocks) + ("  binds" if binds else "")
                grid.addWidget(self.bar(one_of(Names.LIMIT, _short(name), column), blocks, full,
                                        text,
                                        color="accent" if binds else "neutral",
                                        emphasis=binds, text_sample="88  binds",
                                        row_key=metric), row, column)
            row = self.misread_rows(grid, row + 1, metric)
        grid.addWidget(self.label("Binding limit", bold=True), row, 0)
        for column, occ in enumerate(occs, 1):
            binding = occ.binding
            if binding:
                text = ", ".join(_short(lim.name) for lim in binding)
            else:
                text = f"block limits {NOT_IN_REPORT}"
            grid.addWidget(self.label(text, "heading", bold=True,
                                      name=one_of(Names.BINDING, column),
                                      highlight=bool(binding)), row, column,
                           Qt.AlignmentFlag.AlignLeft)
        return row + 1
