"""The recorded timings at one size, labelled as recorded: what viewer.analysis.timing_record says,
laid out. No figure is made here; each cell is the record's, or missing."""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from viewer.analysis.timing_record import (
    RECORD_COLUMNS,
    TimingRecord,
    no_record_text,
    provenance_text,
    recorded_cells,
    recorded_dispatch_text,
    recorded_heading,
    recorded_ratio_text,
)
from viewer.qt.kit.plain_text import plain_label
from viewer.qt.kit.style import Role, Style
from viewer.qt.kit.styled_labels import StyledLabels


class Names(StrEnum):
    """The object names of this module's widgets: its test interface (kit.object_names)."""

    RECORDED_DISPATCH = "recorded_dispatch"
    RECORDED_HEADING = "recorded_heading"
    RECORDED_PROVENANCE = "recorded_provenance"
    RECORDED_RATIO = "recorded_ratio"


_LEFT, _RIGHT = Qt.AlignmentFlag.AlignLeft, Qt.AlignmentFlag.AlignRight
_ALIGN = (_LEFT, _RIGHT, _RIGHT, _RIGHT, _RIGHT)
_DESK_ONLY = ("rel. error",)  # a projected table keeps to what the lesson compares


def recorded_cell_name(column: str, row: int) -> str:
    return f"recorded_{column.replace('/', '_').replace(' ', '_').replace('.', '')}_{row}"


class RecordView(QWidget):
    """`show_record(record, dim)`: the heading, where it comes from, the rows at `dim`, the
    ratio of the two kernels' recorded medians and numba's launch call."""

    def __init__(self, style: Style, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._style = style
        self.record: TimingRecord | None = None
        self.dim = 0
        self._labels = StyledLabels()
        self.heading = self._label(Names.RECORDED_HEADING, "body", "warning", True)
        self.provenance = self._label(Names.RECORDED_PROVENANCE, "small", "secondary", False)
        self.ratio = self._label(Names.RECORDED_RATIO, "headline", "text", True)
        self.dispatch = self._label(Names.RECORDED_DISPATCH, "body", "text", False)
        self.grid = QGridLayout()
        self.cells: list[QLabel] = []
        self.column = column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        for widget in (self.heading, self.provenance):
            column.addWidget(widget)
        column.addLayout(self.grid)
        column.addWidget(self.ratio)
        column.addWidget(self.dispatch)

    def _label(self, name: str, role: Role, color: str, bold: bool) -> QLabel:
        return self._labels.make(self._style, "", role, bold=bold, color=color, name=name,
                                 wrap=True, parent=self)

    def show_record(self, record: TimingRecord | None, dim: int) -> None:
        self.record, self.dim = record, dim
        for label in self.cells:
            self.grid.removeWidget(label)
            label.setParent(None)  # out of findChild's reach at once
            label.deleteLater()
        self.cells = []
        rows = record.at(dim) if record is not None else []
        self.heading.setText(recorded_heading(record) if record is not None else "")
        self.heading.setVisible(record is not None)
        self.provenance.setText(provenance_text(record) if rows and record else
                                no_record_text(dim, record))
        self.ratio.setText(recorded_ratio_text(record, dim) if record is not None else "")
        self.ratio.setVisible(bool(self.ratio.text()))
        self.dispatch.setText(recorded_dispatch_text(record, dim) if record is not None else "")
        self.dispatch.setVisible(bool(self.dispatch.text()))
        if not rows:
            return
        style = self._style
        for index, text in enumerate(RECORD_COLUMNS):
            self._cell(text, 0, index, recorded_cell_name(text, 0), style.font("small", bold=True),
                       style.colors.secondary, Qt.AlignmentFlag.AlignBottom)
        for number, row in enumerate(rows, 1):
            ours = row.kernel is not None
            for index, (text, cell) in enumerate(zip(RECORD_COLUMNS, recorded_cells(row),
                                                     strict=True)):
                self._cell(cell, number, index, recorded_cell_name(text, number),
                           style.font("body", bold=ours and index < 2),
                           style.colors.text if ours else style.colors.secondary,
                           Qt.AlignmentFlag.AlignVCenter)
        self.grid.setColumnStretch(len(RECORD_COLUMNS), 1)  # an empty column takes the rest

    def _cell(self, text: str, row: int, index: int, name: str, font: QFont, tint: str,
              vertical: Qt.AlignmentFlag) -> None:
        label = plain_label(text, self)
        label.setObjectName(name)
        label.setFont(font)
        label.setStyleSheet(f"color: {tint};")
        label.setAlignment(_ALIGN[index] | vertical)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setVisible(not (self._style.projector and RECORD_COLUMNS[index] in _DESK_ONLY))
        self.grid.addWidget(label, row, index)
        self.cells.append(label)

    def set_style(self, style: Style) -> None:
        self._style = style
        self._labels.paint(style)
        self.column.setSpacing(style.px(6))
        self.grid.setHorizontalSpacing(style.px(16))
        self.grid.setVerticalSpacing(style.px(4))
        self.show_record(self.record, self.dim)
