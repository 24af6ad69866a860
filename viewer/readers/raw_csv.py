"""Reader for `ncu --page raw --csv` exports: one column per metric, one row per kernel.

The header names the identity columns (ID, Process ID, ..., Kernel Name, Block Size, Grid Size,
Device, CC, as in the details CSV) and then every metric by its ncu name; the second row gives each
metric's unit; each further row is one kernel. Values are converted with the units row (one in a
unit not understood is kept as printed, not used: viewer.readers._as_printed). Text values
('PolicySpread', 'NVIDIA H200'), 'nan', 'no data' and empty cells are missing, never zero; the
device's name is read from its text column.

Some headers carry a prefix before the metric name, such as
`SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_elapsed`. These are the instanced,
sampled copies ncu collects per unit for its triage group, and the .ncu-rep stores them under the
same prefixed names. They are kept under that full name, as the .ncu-rep reader keeps them, and are
never folded onto the bare metric name: they are a different measurement (the naive h200 capture
shows TPC.TriageCompute.sm__cycles_active.avg = 413,218.2 beside sm__cycles_active.avg = 413,147.0),
and in the .ncu-rep and here many of them hold no value at all.

A raw export holds thousands of metrics a kernel, so its rows are read CHUNK_ROWS at a time and
each chunk is turned into floats before the next is read: the kernels' values end in one float
matrix (viewer.core.model.Metrics rows), never in a Python object per cell.

A last row with fewer fields than the header was cut short: the kernels before it are whole, its
fields that were lost are missing, and `Report.cut_short` says so; a header and units row with no
kernel row under them is refused as cut short. A file cut at a row's end cannot be told from one
that holds fewer kernels, nor one cut inside a quoted value read (pandas refuses the file).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from viewer.core.model import Kernel, Printed, Report, ReportError, function_name
from viewer.readers import _as_printed
from viewer.readers._text_lines import CUT_SHORT, UNENDED, mark_cut_short, unended
from viewer.readers._workloads import export_kind, no_kernel
from viewer.readers.details_csv import (
    decimal_comma,
    device_id,
    dim3,
    metric_rows,
    parse_numbers,
    read_chunks,
    unit_factors,
)
from viewer.readers.raw_text import DEVICE_NAME
from viewer.readers.sniff import RAW_CSV, CsvHeader, find_csv_header

FORMAT = RAW_CSV

IDENTITY_COLUMNS = (
    "ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Kernel Time", "Context",
    "Stream", "Block Size", "Grid Size", "Device", "CC",
)
# Kernel rows read at once (each holds every metric: thousands of cells).
CHUNK_ROWS = 256
# The most of a file's end looked at for a last row cut short (a kernel row is about 150 KiB).
TAIL = 1 << 23


def read(path: Path) -> Report:
    """Read a raw page CSV export: kernels in launch order, every numeric metric in base units."""
    path = Path(path)
    header = find_csv_header(path)
    _check_header(path, header)
    table = _Rows(path, [c for c in header.columns if c not in IDENTITY_COLUMNS],
                  [c for c in header.columns if c in IDENTITY_COLUMNS])
    for chunk in read_chunks(path, header, None, rows=CHUNK_ROWS):
        table.take(chunk)
        del chunk
    if not table.identity:
        raise ReportError(path, f"{CUT_SHORT}: it holds a header and a units row and no kernel"
                          " row" if table.factors is not None else "no kernel found")
    kernels, skipped = _kernels(table)
    if not kernels:
        raise ReportError(path, no_kernel(skipped))
    report = Report(source=str(path), format=FORMAT, kernels=kernels, skipped=skipped)
    if (unread_note := table.as_printed.note()) is not None:
        report.notes.append(unread_note)
    cut = (f"{UNENDED}: that line is left out" if unended(path)
           else _cut_row(path, len(header.columns), table.identity[-1]["ID"]))
    if cut is not None:
        mark_cut_short(report, cut)
    return report


def _check_header(path: Path, header: CsvHeader) -> None:
    """Refuse a header that is not a raw page export's."""
    if header.is_details or "Section Name" in header.columns:
        raise ReportError(path, "is a details CSV export, not a raw page one")
    if "ID" not in header.columns or "Kernel Name" not in header.columns:
        raise ReportError(path, "not a raw page CSV export: no ID or Kernel Name column")
    if len(set(header.columns)) != len(header.columns):
        raise ReportError(path, "not a raw page CSV export: a column name appears twice")


@dataclass
class _Rows:
    """The kernel rows read so far, a chunk at a time: the units row's factors, each row's
    identity columns and device name, the values in base units (a block per chunk) and those
    kept as printed (by row)."""

    path: Path
    metric_columns: list[str]
    identity_columns: list[str]
    factors: np.ndarray | None = None
    comma: bool | None = None
    unit_row: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    identity: list[dict[str, str]] = field(default_factory=list)
    names: list[str | None] = field(default_factory=list)
    blocks: list[np.ndarray] = field(default_factory=list)
    as_printed: _as_printed.AsPrinted = field(default_factory=_as_printed.AsPrinted)
    printed: dict[int, dict[str, Printed]] = field(default_factory=dict)

    def take(self, chunk: pd.DataFrame) -> None:
        """Take in one chunk of the table: the units row first, then kernel rows."""
        ids = chunk["ID"].astype(str).str.strip()
        if self.factors is None:
            if ids.empty:
                return
            if ids.iloc[0] != "":
                raise ReportError(self.path, "not a raw page CSV export: no units row under the"
                                  " header")
            self.unit_row = [str(chunk[c].iloc[0]) for c in self.metric_columns]
            self.factors = unit_factors(self.unit_row, self.metric_columns)
        rows = chunk[ids.str.fullmatch(r"\d+").to_numpy(dtype=bool)]
        if rows.empty:
            return
        for text in rows["ID"].astype(str).str.strip():
            if text in self.seen:
                raise ReportError(self.path, "not a raw page CSV export: a result ID appears on"
                                  " two rows")
            self.seen.add(text)
        self.blocks.append(self._values(rows, self.factors) * self.factors)
        self.identity += rows[self.identity_columns].to_dict("records")
        self.names += (rows[DEVICE_NAME].astype(str).str.strip().tolist() if DEVICE_NAME in rows
                       else [None] * len(rows))

    def _values(self, rows: pd.DataFrame, factors: np.ndarray) -> np.ndarray:
        """The rows' metric values as printed, one row each; a value in a unit not understood
        (no factor) is kept as printed too."""
        columns = self.metric_columns
        texts = pd.Series(rows[columns].to_numpy(dtype=object).ravel(), dtype=str)
        if self.comma is None:
            self.comma = decimal_comma(texts[texts != ""])
        values = parse_numbers(texts, self.comma).reshape(len(rows), len(columns))
        unread = np.argwhere(np.isfinite(values) & np.isnan(factors))
        self.as_printed.count_only(len(unread) - self.as_printed.room)
        for r, c in unread[:self.as_printed.room].tolist():
            kept = self.as_printed.take(columns[c], texts.iloc[r * len(columns) + c],
                                        Printed(self.unit_row[c]))
            if kept is not None:
                self.printed.setdefault(len(self.identity) + r, {})[columns[c]] = kept
        return values


def _kernels(table: _Rows) -> tuple[list[Kernel], dict[str, int]]:
    """The kernels of the rows read, and how many rows of each kind that is not a kernel were
    skipped."""
    matrix = np.concatenate(table.blocks) if len(table.blocks) > 1 else table.blocks[0]
    kernels: list[Kernel] = []
    skipped: dict[str, int] = {}
    for k, (row, metrics) in enumerate(zip(table.identity,
                                          metric_rows(table.metric_columns, matrix),
                                          strict=True)):
        shown = str(row["Kernel Name"])
        kind = export_kind(shown)
        if kind is not None:
            skipped[kind] = skipped.get(kind, 0) + 1
            continue
        kernels.append(Kernel(
            index=len(kernels),
            name=function_name(shown),
            display_name=shown,
            grid=dim3(row.get("Grid Size")),
            block=dim3(row.get("Block Size")),
            device_id=device_id(row.get("Device")),
            device_name=table.names[k] or None,
            cc=_text(row.get("CC")),
            metrics=metrics,
            printed=table.printed.get(k, {}),
        ))
    return kernels, skipped


def _cut_row(path: Path, fields: int, last_id: object) -> str | None:
    """Why the file's last line is a kernel row cut short (result `last_id`, fewer fields than
    the header's `fields`: the fields it lacks were read as missing), else None; a line longer
    than TAIL is not looked at."""
    with path.open("rb") as f:
        size = f.seek(0, 2)
        start = f.seek(max(0, size - TAIL))
        body = f.read().rstrip(b"\r\n")
    newline = body.rfind(b"\n")
    if newline < 0 and start > 0:
        return None
    row = next(csv.reader([body[newline + 1 :].decode("utf-8", "replace")]), [])
    if len(row) >= fields or not row or row[0].strip() != str(last_id).strip():
        return None
    return f"its last row has {len(row):,} of the header's {fields:,} fields"


def _text(value: object) -> str | None:
    text = "" if value is None else str(value).strip()
    return text or None
