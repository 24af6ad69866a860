"""The views beyond the three numbers, as tabs after the lesson's: one list, one place to add one.

Each view is a QWidget that speaks viewer.qt.kit.view.View (VIEW, KEY, TITLE, QUESTION,
`show_selection`, `set_style`, `navigate`). What it needs beyond the first read it asks of the
session (viewer.qt.kit.session_reads), and shows its own progress.
"""

from __future__ import annotations

from viewer.qt.kit.style import Style
from viewer.qt.views.advice.advice_view import AdviceView
from viewer.qt.views.metrics.metrics_view import MetricsView
from viewer.qt.views.roofline.roofline_view import RooflineView
from viewer.qt.views.source.source_view import SourceView
from viewer.qt.views.stalls.stalls_view import StallsView

AnalysisView = RooflineView | AdviceView | StallsView | SourceView | MetricsView


def analysis_views(style: Style) -> list[AnalysisView]:
    """A fresh instance of each view, in tab order."""
    return [RooflineView(style), AdviceView(style), StallsView(style), SourceView(style),
            MetricsView(style)]
