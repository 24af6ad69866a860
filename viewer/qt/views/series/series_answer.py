"""The Series view's answer under its question: the series' heading, its two bands of tables (each
in the parts that fit the width), what is left out, each step's change, the notes, then the plot.
Every sentence from viewer.analysis (series, series_words, series_layout)."""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout

from viewer.analysis import series, series_words
from viewer.analysis.series_layout import DRAWN_ROWS, left_out, sentence
from viewer.core.elide import wrappable_names
from viewer.qt.kit.reading_tab import NOTHING_SELECTED
from viewer.qt.kit.style import Role, Style
from viewer.qt.views.series.series_plot import SeriesPlot
from viewer.qt.views.series.series_table import BANDS, SeriesTable


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    HEADING = "heading"
    LEFT_OUT = "left_out"
    NOTES = "notes"
    PLACEHOLDER = "placeholder"
    STEPS = "steps"


NAME_WIDTH = 300
"""A kernel's name and a file's in a row label take at most this many (desk) pixels, elided in
the middle beyond it (whole in the row's tooltip)."""

Parts = list[list[list[int]]]
"""Each band's columns (1.. of its lines) in the parts laid out one under another."""


def whole() -> Parts:
    """Each band in one part: how the tables are drawn to be measured."""
    return [[list(range(1, len(lines) + 1))] for _, lines in BANDS]


def label(style: Style, text: str, role: Role = "body", *, bold: bool = False,
          color: str = "text", name: str = "") -> QLabel:
    return style.label(text, role, bold=bold, color=color, name=name, wrap=True)


def fill(column: QVBoxLayout, style: Style, s: series.Series | None, parts: Parts,
         plot: SeriesPlot) -> list[SeriesTable]:
    """The answer for `s` added to `column` with each band's columns in `parts`; its tables."""
    tables: list[SeriesTable] = []
    if s is None:
        column.addWidget(label(style, NOTHING_SELECTED, color="secondary",
                               name=Names.PLACEHOLDER))
        plot.show_series(None)
        return tables
    if s.rows:
        column.addWidget(label(style, f"Series: {s.heading}", "heading", bold=True,
                               name=Names.HEADING))
        for (words, lines), band in zip(BANDS, parts, strict=True):
            column.addWidget(label(style, words, bold=True, color="secondary"))
            for part in band:
                grid = QGridLayout()
                shown = tuple(lines[c - 1] for c in part)
                tables.append(SeriesTable(grid, style, shown, len(tables),
                                          style.px(NAME_WIDTH)))
                tables[-1].fill(s, DRAWN_ROWS)
                column.addLayout(grid)
        if left_out(s):
            column.addWidget(label(style, left_out(s), "small", color="secondary",
                                   name=Names.LEFT_OUT))
    steps = series.steps(s)
    if steps:
        column.addWidget(label(style, wrappable_names("Steps:\n" + "\n".join(steps)), "small",
                               name=Names.STEPS))
    notes = series_words.notes(s)
    if notes:
        column.addWidget(label(style, wrappable_names("\n".join(sentence(n) for n in notes)),
                               "small", color="secondary", name=Names.NOTES))
    plot.show_series(s)
    plot.setMinimumHeight(style.px(300))
    column.addWidget(plot)
    return tables
