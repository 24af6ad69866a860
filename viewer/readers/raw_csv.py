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
from viewer.readers.sniff import RAW_CSV, find_csv_header

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
    if header.is_details or "Section Name" in header.columns:
        raise ReportError(path, "is a details CSV export, not a raw page one")
    if "ID" not in header.columns or "Kernel Name" not in header.columns:
        raise ReportError(path, "not a raw page CSV export: no ID or Kernel Name column")
    if len(set(header.columns)) != len(header.columns):
        raise ReportError(path, "not a raw page CSV export: a column name appears twice")
    metric_columns = [c for c in header.columns if c not in IDENTITY_COLUMNS]
    identity_columns = [c for c in header.columns if c in IDENTITY_COLUMNS]
    factors: np.ndarray | None = None
    comma: bool | None = None
    seen: set[str] = set()
    identity: list[dict[str, str]] = []
    names: list[str | None] = []
    blocks: list[np.ndarray] = []
    unit_row: list[str] = []
    as_printed = _as_printed.AsPrinted()
    printed: dict[int, dict[str, Printed]] = {}
    for chunk in read_chunks(path, header, None, rows=CHUNK_ROWS):
        ids = chunk["ID"].astype(str).str.strip()
        if factors is None:
            if ids.empty:
                continue
            if ids.iloc[0] != "":
                raise ReportError(path, "not a raw page CSV export: no units row under the header")
            unit_row = [str(chunk[c].iloc[0]) for c in metric_columns]
            factors = unit_factors(unit_row, metric_columns)
        rows = chunk[ids.str.fullmatch(r"\d+").to_numpy(dtype=bool)]
        if rows.empty:
            continue
        for text in rows["ID"].astype(str).str.strip():
            if text in seen:
                raise ReportError(path, "not a raw page CSV export: a result ID appears on two"
                                  " rows")
            seen.add(text)
        texts = pd.Series(rows[metric_columns].to_numpy(dtype=object).ravel(), dtype=str)
        if comma is None:
            comma = decimal_comma(texts[texts != ""])
        values = parse_numbers(texts, comma).reshape(len(rows), len(metric_columns))
        unread = np.argwhere(np.isfinite(values) & np.isnan(factors))
        as_printed.count_only(len(unread) - as_printed.room)
        for r, c in unread[:as_printed.room].tolist():
            kept = as_printed.take(metric_columns[c], texts.iloc[r * len(metric_columns) + c],
                                   Printed(unit_row[c]))
            if kept is not None:
                printed.setdefault(len(identity) + r, {})[metric_columns[c]] = kept
        blocks.append(values * factors)
        identity += rows[identity_columns].to_dict("records")
        names += (rows[DEVICE_NAME].astype(str).str.strip().tolist() if DEVICE_NAME in rows
                  else [None] * len(rows))
        del texts, rows, chunk
    if not identity:
        raise ReportError(path, f"{CUT_SHORT}: it holds a header and a units row and no kernel"
                          " row" if factors is not None else "no kernel found")
    matrix = np.concatenate(blocks) if len(blocks) > 1 else blocks[0]
    kernels: list[Kernel] = []
    skipped: dict[str, int] = {}
    for k, (row, metrics) in enumerate(zip(identity, metric_rows(metric_columns, matrix),
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
            device_name=names[k] or None,
            cc=_text(row.get("CC")),
            metrics=metrics,
            printed=printed.get(k, {}),
        ))
    if not kernels:
        raise ReportError(path, no_kernel(skipped))
    report = Report(source=str(path), format=FORMAT, kernels=kernels, skipped=skipped)
    if (unread_note := as_printed.note()) is not None:
        report.notes.append(unread_note)
    cut = (f"{UNENDED}: that line is left out" if unended(path)
           else _cut_row(path, len(header.columns), identity[-1]["ID"]))
    if cut is not None:
        mark_cut_short(report, cut)
    return report


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
