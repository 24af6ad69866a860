"""Reader for `ncu --page raw --csv` exports: one column per metric, one row per kernel.

The header names the identity columns (ID, Process ID, ..., Kernel Name, Block Size, Grid Size,
Device, CC, as in the details CSV) and then every metric by its ncu name; the second row gives each
metric's unit; each further row is one kernel. Values are converted with the units row. Text values
('PolicySpread', 'NVIDIA H200'), 'nan', 'no data' and empty cells are missing, never zero.

Some headers carry a prefix before the metric name, such as
`SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_elapsed`. These are the instanced,
sampled copies ncu collects per unit for its triage group, and the .ncu-rep stores them under the
same prefixed names. They are kept under that full name, as the .ncu-rep reader keeps them, and are
never folded onto the bare metric name: they are a different measurement (the naive h200 capture
shows TPC.TriageCompute.sm__cycles_active.avg = 413,218.2 beside sm__cycles_active.avg = 413,147.0),
and in the .ncu-rep and here many of them hold no value at all.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from viewer.model import Kernel, Report, ReportError, function_name
from viewer.readers.details_csv import (
    decimal_comma,
    dim3,
    parse_numbers,
    read_frame,
    unit_factors,
)
from viewer.readers.sniff import RAW_CSV, find_csv_header

FORMAT = RAW_CSV

IDENTITY_COLUMNS = (
    "ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Kernel Time", "Context",
    "Stream", "Block Size", "Grid Size", "Device", "CC",
)


def read(path: Path) -> Report:
    """Read a raw page CSV export: kernels in launch order, every numeric metric in base units."""
    path = Path(path)
    header = find_csv_header(path)
    if header.is_details or "Section Name" in header.columns:
        raise ReportError(path, "is a details CSV export, not a raw page one")
    if "ID" not in header.columns or "Kernel Name" not in header.columns:
        raise ReportError(path, "not a raw page CSV export: no ID or Kernel Name column")
    frame = read_frame(path, header, None)
    if frame.columns.has_duplicates:
        raise ReportError(path, "not a raw page CSV export: a column name appears twice")
    kernels = _kernels(path, frame)
    if not kernels:
        raise ReportError(path, "no kernel found")
    return Report(source=str(path), format=FORMAT, kernels=kernels)


def _kernels(path: Path, frame: pd.DataFrame) -> list[Kernel]:
    ids = frame["ID"].astype(str).str.strip()
    if ids.empty:
        return []
    if ids.iloc[0] != "":
        raise ReportError(path, "not a raw page CSV export: no units row under the header")
    unit_row = frame.iloc[0]
    rows = frame.iloc[1:]
    rows = rows[ids.loc[rows.index].str.fullmatch(r"\d+")]
    if rows.empty:
        return []
    if rows["ID"].duplicated().any():
        raise ReportError(path, "not a raw page CSV export: a result ID appears on two rows")
    metric_columns = [c for c in frame.columns if c not in IDENTITY_COLUMNS]
    names = np.array(metric_columns, dtype=object)
    texts = pd.Series(rows[metric_columns].to_numpy(dtype=object).ravel(), dtype=str)
    values = parse_numbers(texts, decimal_comma(texts[texts != ""]))
    values = values.reshape(len(rows), len(metric_columns))
    values *= unit_factors([str(unit_row[c]) for c in metric_columns])

    identity = rows[[c for c in frame.columns if c in IDENTITY_COLUMNS]].to_dict("records")
    kernels = []
    for k, row in enumerate(identity):
        shown = str(row["Kernel Name"])
        found = np.isfinite(values[k])
        kernels.append(Kernel(
            index=k,
            name=function_name(shown),
            display_name=shown,
            grid=dim3(row.get("Grid Size")),
            block=dim3(row.get("Block Size")),
            device=_text(row.get("Device")),
            cc=_text(row.get("CC")),
            metrics=dict(zip(names[found].tolist(), values[k][found].tolist(), strict=True)),
        ))
    return kernels


def _text(value: object) -> str | None:
    text = "" if value is None else str(value).strip()
    return text or None
