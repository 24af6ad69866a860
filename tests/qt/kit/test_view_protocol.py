"""Every view the window shows (viewer/qt/shell/view_registry.py) speaks the one View protocol
(viewer/qt/kit/view.py): a name that links and the exercise use, a distinct shortcut, its tab's
words, show_selection, set_style and style_, mark_row and navigate; the reading steps are row
targets too. mypy checks the same statically."""

from __future__ import annotations

from PySide6.QtCore import SignalInstance

from viewer.analysis import advice, reading
from viewer.qt.kit.reading_tab import ReadingTab
from viewer.qt.kit.style import Style
from viewer.qt.kit.view import Selection
from viewer.qt.lesson.predict_tab import PredictTab
from viewer.qt.shell.reading_page import default_tabs
from viewer.qt.shell.view_registry import VIEWS


def test_every_view_has_a_distinct_name_and_shortcut_and_its_words(qtbot) -> None:
    views = [entry.view(Style()) for entry in VIEWS]
    for view in views:
        qtbot.addWidget(view)
        assert view.VIEW and view.TITLE.strip() and view.QUESTION.strip(), type(view).__name__
        assert isinstance(view.navigate, SignalInstance)
        view.show_selection(Selection())  # an empty selection clears it
        view.set_style(Style(projector=True))
        assert view.style_ == Style(projector=True)
        assert not view.mark_row("no such row")
    names = [v.VIEW for v in views]
    assert len(set(names)) == len(names)
    assert set(advice.VIEWS) <= set(names)  # every link of ncu's advice has a view to go to
    keys = [v.KEY for v in views if v.KEY]
    assert len(set(keys)) == len(keys)
    steps = [v.VIEW for e, v in zip(VIEWS, views, strict=True) if e.kind == "step"]
    assert steps == list(reading.READING_ORDER)


def test_the_reading_steps_are_row_targets(qtbot) -> None:
    for view in [*default_tabs(), PredictTab()]:
        qtbot.addWidget(view)
        assert isinstance(view, ReadingTab) and isinstance(view.row_picked, SignalInstance)
        assert view.row_widgets("no such row") == []
        assert not view.mark_row("no such row")
