"""Occupancy, what if: ncu's occupancy curves as three small charts (block size, registers per
thread, shared memory per block), each kernel's own setting marked: the answer to "why 256
threads?".

The curves are instanced metrics only a .ncu-rep holds (viewer.analysis.occupancy_curves);
`CurveReader` asks the session for them, and for the settings they are marked at, when the tab
is shown (viewer.qt.kit.view_reads), and keeps them per kernel. A report without them says so
(occupancy_curves.MISSING_TEXT).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

import pyqtgraph as pg
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QBoxLayout, QLabel, QVBoxLayout, QWidget

from viewer.analysis import occupancy_curves as oc
from viewer.core.model import Kernel, Report
from viewer.qt.kit.object_names import one_of
from viewer.qt.kit.plot_style import hold_still, paint_axis
from viewer.qt.kit.session_reads import SessionReads
from viewer.qt.kit.style import Style
from viewer.qt.kit.view_reads import ViewReads
from viewer.session import Need
from viewer.session.shown import State


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    CURVE = "curve"
    SETTING = "setting"
    WHATIF = "whatif"
    WHATIF_ERROR = "whatif_error"
    WHATIF_MISSING = "whatif_missing"
    WHATIF_READING = "whatif_reading"


HEADING = "What if: ncu's occupancy curves"
READING_TEXT = "Reading ncu's occupancy curves..."
COLORS = ("memory", "shared")  # kernel A, kernel B
KEEP = 256  # kernels whose curves are kept at most
UNITS = {"block_size": "threads per block", "registers": "registers per thread",
         "shared_mem": "bytes of shared memory per block"}

NEED = Need.of(oc.SETTING_METRICS, instances=oc.CURVE_METRICS)


def setting_words(curve: oc.OccupancyCurve, name: str) -> str:
    """'naive, 256 threads per block: 64 active warps per SM, the most any setting gives (33 of
    the 65 settings on the curve do, from 48 up)', from the values on the curve."""
    unit = UNITS[curve.spec.key]
    if curve.at is None or curve.setting is None:
        return f"{name}: its own setting is not in the report."
    warps = curve.at[1]
    reach = [i for i, y in enumerate(curve.ys) if y == curve.best]
    low, high = curve.xs[reach[0]], curve.xs[reach[-1]]
    if len(reach) == reach[-1] - reach[0] + 1:
        span = f"{low:g} to {high:g} all do"
    else:
        span = f"{len(reach)} of the {len(curve.xs)} settings on the curve do, from {low:g} up"
    if warps >= curve.best:
        verdict = f"the most any setting gives ({span})"
    else:
        verdict = f"below the best, {curve.best:g} ({span})"
    return f"{name}, {curve.setting:g} {unit}: {warps:g} {oc.Y_LABEL}, {verdict}."


class CurveReader(QObject):
    """The curves of the kernels last asked for (`curves_of(kernel)`), from what the session has
    read of their reports, read while `tab` is shown; `updated` when their read arrives or
    fails. Curves made are kept by the kernel object itself (an id alone could be a freed
    kernel's)."""

    updated = Signal()

    def __init__(self, tab: QWidget | None = None, reads: SessionReads | None = None) -> None:
        super().__init__(tab)
        self.wanted = ViewReads(NEED, tab, reads, parent=self)
        self.wanted.changed.connect(lambda whole: self.updated.emit() if whole else None)
        self.reads = self.wanted.reads
        self.curves: dict[int, tuple[Kernel, tuple[oc.OccupancyCurve, ...]]] = {}

    @property
    def reading(self) -> bool:
        return self.wanted.reading

    @property
    def error(self) -> str:
        """The one line that stopped reading a report asked for, or ''."""
        return self.wanted.error if self.wanted.state is State.ERROR else ""

    def curves_of(self, kernel: Kernel) -> tuple[oc.OccupancyCurve, ...] | None:
        """The kernel's curves (empty: the report holds none); None while not read."""
        entry = self.curves.get(id(kernel))
        if entry is not None and entry[0] is kernel:
            return entry[1]
        report = next((r for r, k in self.wanted.pairs if k is kernel), None)
        if report is None or self.reads.session.reading(report, kernel) or \
                not self.reads.session.lacks(report, kernel, NEED).empty:
            return None
        curves = oc.curves(kernel, self.reads.session.extras(report, kernel).instances)
        if len(self.curves) > KEEP:
            self.curves.clear()
        self.curves[id(kernel)] = (kernel, curves)
        return curves

    def known(self, kernels: Sequence[Kernel]) -> bool:
        return all(self.curves_of(k) is not None for k in kernels)

    def request(self, kernels: Sequence[Kernel], reports: Sequence[Report]) -> bool:
        """The kernels whose curves are wanted, read once the tab is shown (a kernel of an
        export has no curves: known at once); whether they changed."""
        return self.wanted.show(reports, kernels)


class CurveChart(pg.PlotWidget):  # type: ignore[misc]  # pyqtgraph ships no types
    """One curve of every kernel shown, its own setting marked with a dashed line and a dot.
    `key`: the curve's setting (oc.CURVES); `drawn`: (column, xs, ys, at) per kernel, for
    tests."""

    def __init__(self, key: str, curves: Sequence[oc.OccupancyCurve | None], style: Style
                 ) -> None:
        c = style.colors
        super().__init__(background=c.background)
        self.key = key
        self.drawn: list[tuple[int, tuple[float, ...], tuple[float, ...],
                               tuple[float, float] | None]] = []
        item = self.getPlotItem()
        hold_still(item, grid_x=False, alpha=0.25)
        spec = next(cv.spec for cv in curves if cv is not None)
        item.setTitle(spec.title, color=c.text, size=f"{style.points('small')}pt")
        for name, text in (("bottom", spec.x_label), ("left", "warps per SM")):
            paint_axis(item.getAxis(name), style, text, "small")
        for column, curve in enumerate(curves):
            if curve is None:
                continue
            color = getattr(c, COLORS[column])
            item.addItem(pg.PlotDataItem(curve.xs, curve.ys, pen=pg.mkPen(
                color, width=style.px(3) if style.projector else style.px(2))))
            if curve.at is not None:
                item.addItem(pg.InfiniteLine(curve.at[0], angle=90, pen=pg.mkPen(
                    color, width=style.px(2), style=Qt.PenStyle.DashLine)))
                item.addItem(pg.PlotDataItem([curve.at[0]], [curve.at[1]], pen=None,
                                             symbol="o", symbolSize=style.px(12),
                                             symbolBrush=color, symbolPen=pg.mkPen(c.outline)))
            self.drawn.append((column, curve.xs, curve.ys, curve.at))
        top = max(cv.best for cv in curves if cv is not None)
        item.setYRange(0, top * 1.1, padding=0)
        self.setObjectName(one_of(Names.CURVE, key))
        self.setMinimumHeight(style.px(190))
        self.setMinimumWidth(style.px(200))


def section(reader: CurveReader, kernels: Sequence[Kernel], names: Sequence[str],
            style: Style) -> QWidget:
    """The what-if part of the occupancy tab for `kernels` as `reader` knows them now."""
    widget = QWidget()
    widget.setObjectName(Names.WHATIF)
    box = QVBoxLayout(widget)
    box.setContentsMargins(0, style.px(6), 0, 0)
    box.addWidget(style.label(HEADING, "heading", bold=True))

    def words(text: str, name: str, color: str = "text") -> None:
        """A wrapped line of the section, named for tests."""
        label: QLabel = style.label(text, color=color, name=name, wrap=True)
        box.addWidget(label)

    if reader.error:
        words(reader.error, Names.WHATIF_ERROR, "warning")
        return widget
    if not reader.known(kernels):
        words(READING_TEXT, Names.WHATIF_READING, "secondary")
        return widget
    found = [reader.curves_of(k) or () for k in kernels]
    if not any(found):
        words(oc.MISSING_TEXT[0].upper() + oc.MISSING_TEXT[1:] + ".", Names.WHATIF_MISSING,
              "secondary")
        return widget
    charts = QBoxLayout(QBoxLayout.Direction.TopToBottom if style.projector
                        else QBoxLayout.Direction.LeftToRight)
    for spec in oc.CURVES:
        per_kernel = [next((cv for cv in curves if cv.spec.key == spec.key), None)
                      for curves in found]
        if any(cv is not None for cv in per_kernel):
            charts.addWidget(CurveChart(spec.key, per_kernel, style), 1)
    box.addLayout(charts)
    for column, (curves, name) in enumerate(zip(found, names, strict=True)):
        if not curves:
            words(f"{name}: {oc.MISSING_TEXT}.", one_of(Names.WHATIF_MISSING, column + 1),
                  "secondary")
        for curve in curves:
            words(setting_words(curve, name), one_of(Names.SETTING, curve.spec.key, column + 1),
                  COLORS[column] if len(kernels) == 2 else "text")
    return widget
