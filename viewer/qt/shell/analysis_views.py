"""The views beyond the three numbers, as tabs after the lesson's: one list, one place to add one.

Each view is a QWidget with class attributes TITLE, QUESTION and KEY (its shortcut) and the methods
`set_kernels(kernels, names, reports)` (one kernel, or two to compare, A first; `reports` holds the
Report each kernel came from), `clear()` and `set_style(style)`. A view that needs metrics the
first read left out asks the reader for them itself, off the GUI thread
(viewer.qt.kit.workers.Worker with viewer.readers.read_metrics / read_extras), and shows its own
progress.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from viewer.qt.kit.style import Style


def analysis_views(style: Style) -> list[QWidget]:
    """A fresh instance of each view, in tab order."""
    from viewer.qt.views.advice.advice_view import AdviceView
    from viewer.qt.views.metrics.metrics_view import MetricsView
    from viewer.qt.views.roofline.roofline_view import RooflineView
    from viewer.qt.views.stalls.stalls_view import StallsView

    return [RooflineView(style), AdviceView(style), StallsView(style), MetricsView(style)]
