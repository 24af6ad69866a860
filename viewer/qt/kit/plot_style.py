"""How the app's pyqtgraph charts hold still and look in a Style: one place for every chart's
stillness, axes and key."""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg

from viewer.qt.kit.style import Role, Style


def hold_still(item: Any, *, grid_x: bool, alpha: float) -> None:
    """A PlotItem with no buttons, no menu and no mouse pan or zoom (a stray wheel turn must
    not rescale a projection), its grid on y (and on x where `grid_x`) at `alpha`."""
    item.hideButtons()
    item.setMenuEnabled(False)
    item.setMouseEnabled(x=False, y=False)
    item.showGrid(x=grid_x, y=True, alpha=alpha)


def paint_axis(axis: Any, style: Style, label: str, role: Role) -> None:
    """An AxisItem in `style`: its line, its ticks in small type, no SI prefix, and `label` in
    the type of `role`."""
    c = style.colors
    axis.setPen(pg.mkPen(c.outline, width=style.px(1)))
    axis.setTextPen(pg.mkPen(c.text))
    axis.setTickFont(style.font("small"))
    axis.enableAutoSIPrefix(False)
    axis.setLabel(label, color=c.text, **{"font-size": f"{style.points(role)}pt"})


def paint_legend(legend: Any, style: Style) -> None:
    """A LegendItem in `style`: small type, the background behind it, an outline."""
    c = style.colors
    legend.setLabelTextColor(c.text)
    legend.setLabelTextSize(f"{style.points('small')}pt")
    legend.setBrush(pg.mkBrush(c.background))
    legend.setPen(pg.mkPen(c.outline, width=style.px(1)))
