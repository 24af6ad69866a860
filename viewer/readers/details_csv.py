"""Reader for `ncu --page details --csv` exports: one row per (kernel, section, label).

Three layouts are read, told apart by their header:

- 12 columns (2019/2020): ID, Process ID, Process Name, Host Name, Kernel Name, Kernel Time,
  Context, Stream, Section Name, Metric Name, Metric Unit, Metric Value.
- 15 columns: no Kernel Time; Block Size, Grid Size, Device and CC after Stream.
- 20 columns: the 15 plus Rule Name, Rule Type, Rule Description, Estimated Speedup Type and
  Estimated Speedup. Metric rows stop after Metric Value (a ragged row with a trailing comma); rule
  rows leave the metric columns empty and put a section identifier (`SpeedOfLight`) in Section Name.

The profiled program's output may come before the header. A million rows (10,000 kernels) are read
with pandas' C parser and vectorised steps: labels are resolved once per distinct (section, label)
pair, units once per distinct unit, and only the Python dicts of the model are built per kernel.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from viewer import metrics, units
from viewer.model import Dim3, Kernel, Report, ReportError, function_name
from viewer.readers.sniff import DETAILS_CSV, CsvHeader, find_csv_header

FORMAT = DETAILS_CSV

ID = "ID"
KERNEL_NAME = "Kernel Name"
BLOCK_SIZE, GRID_SIZE, DEVICE, CC = "Block Size", "Grid Size", "Device", "CC"
SECTION, LABEL, UNIT, VALUE = "Section Name", "Metric Name", "Metric Unit", "Metric Value"

REQUIRED = (ID, KERNEL_NAME, SECTION, LABEL, UNIT, VALUE)
OPTIONAL = (BLOCK_SIZE, GRID_SIZE, DEVICE, CC)
# Columns whose few distinct values repeat on every row are read as categoricals.
_REPEATED = (KERNEL_NAME, BLOCK_SIZE, GRID_SIZE, SECTION, LABEL, UNIT)
# Values sampled to decide whether the file writes decimals with a comma.
DECIMAL_SAMPLE = 5000

_DIM3 = re.compile(r"^\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$")
_SPACES = re.compile("[\u202f\xa0 ]")


def read(path: Path) -> Report:
    """Read a details CSV export: kernels in launch order, metrics in base units."""
    path = Path(path)
    header = find_csv_header(path)
    missing = [c for c in REQUIRED if c not in header.columns]
    if missing:
        raise ReportError(path, f"not a details CSV export: no {', '.join(missing)} column")
    frame = read_frame(path, header, [c for c in header.columns if c in REQUIRED + OPTIONAL],
                       {c: "category" for c in _REPEATED})
    kernels = _kernels(frame)
    if not kernels:
        raise ReportError(path, "no kernel found")
    return Report(source=str(path), format=FORMAT, kernels=kernels)


def read_frame(path: Path, header: CsvHeader, columns: list[str] | None,
               dtypes: dict[str, str] | None = None) -> pd.DataFrame:
    """The CSV table that starts at `header`, `columns` only (None: all), every cell text.

    `dtypes` names the columns to read as categoricals or other types instead.

    Lines with more fields than the header (program output that happens to hold commas) are
    skipped; rows with fewer are padded with empty text.
    """
    dtype: type[str] | dict[str, object] = str
    if columns is not None:
        chosen = {c: t for c, t in (dtypes or {}).items() if c in columns}
        dtype = {c: str for c in columns} | chosen
    try:
        with path.open("rb") as f:
            f.seek(header.offset)
            return pd.read_csv(
                f, usecols=columns, dtype=dtype, na_filter=False, on_bad_lines="skip",
                engine="c", encoding="utf-8", encoding_errors="replace", skip_blank_lines=True,
            )
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as exc:
        if "EOF inside string" in str(exc):
            raise ReportError(path, "the CSV ends inside a quoted value: the file looks truncated"
                              ) from None
        raise ReportError(path, f"not a readable ncu CSV export ({_first_line(exc)})") from None
    except OSError as exc:
        raise ReportError(path, f"cannot be read ({exc.strerror or exc})") from None


def parse_numbers(texts: pd.Series, decimal_comma: bool) -> np.ndarray:
    """Values as ncu printed them ('16,777,216', '6,72', '(!) nan') as floats; NaN when missing."""
    text = texts.astype(str)
    values = _to_float(text, decimal_comma)
    failed = np.flatnonzero(np.isnan(values))
    if failed.size:  # grouping by (narrow) no-break spaces, seen in some locales
        spaced = text.iloc[failed].str.replace(_SPACES, "", regex=True)
        values[failed] = _to_float(spaced, decimal_comma)
    values[~np.isfinite(values)] = np.nan
    return values


def _to_float(text: pd.Series, decimal_comma: bool) -> np.ndarray:
    if decimal_comma:
        text = text.str.replace(".", "", regex=False).str.replace(",", ".", regex=False)
    else:
        text = text.str.replace(",", "", regex=False)
    return np.array(pd.to_numeric(text, errors="coerce"), dtype=float)


def decimal_comma(texts: pd.Series) -> bool:
    """Whether a column of printed values uses a comma as its decimal mark (a sample decides)."""
    return units.guess_decimal_comma(texts.iloc[:DECIMAL_SAMPLE].astype(str).tolist())


def unit_factors(unit_names: list[str]) -> np.ndarray:
    """The factor to base units of each unit name."""
    return np.array([units.unit_scale(u)[0] for u in unit_names], dtype=float)


def dim3(text: object) -> Dim3 | None:
    """'(16, 16, 1)' -> (16, 16, 1); None for anything else."""
    m = _DIM3.match(str(text).strip())
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def kernel_codes(ids: pd.Series) -> tuple[np.ndarray, list[int]]:
    """Per row, the launch-order index of its kernel (-1 for rows whose ID is not a result ID).

    Kernels are numbered in order of first appearance, which is ncu's ID order.
    """
    codes, uniques = pd.factorize(ids, sort=False)
    valid = np.array([str(u).strip().isdigit() for u in uniques], dtype=bool)
    renumber = np.full(len(uniques) + 1, -1, dtype=np.int64)
    renumber[np.flatnonzero(valid)] = np.arange(int(valid.sum()))
    rows = renumber[codes]  # code -1 (missing) indexes the trailing -1
    firsts = np.full(int(valid.sum()), -1, dtype=np.int64)
    seen = rows >= 0
    order = np.flatnonzero(seen)
    _, first_pos = np.unique(rows[order], return_index=True)
    firsts[:] = order[first_pos]
    return rows, firsts.tolist()


def _metric_index(frame: pd.DataFrame) -> tuple[np.ndarray, list[str]]:
    """Per row, the index of its resolved metric name in the returned list (-1 when unknown)."""
    sections = frame[SECTION].cat
    labels = frame[LABEL].cat
    n_labels = len(labels.categories) + 1
    pair = (sections.codes.to_numpy(np.int64) + 1) * n_labels + labels.codes.to_numpy(np.int64) + 1
    uniques, inverse = np.unique(pair, return_inverse=True)
    names: list[str] = []
    slot: dict[str, int] = {}
    lookup = np.full(len(uniques), -1, dtype=np.int64)
    for i, key in enumerate(uniques.tolist()):
        s, lab = divmod(key, n_labels)
        if s == 0 or lab == 0:
            continue
        label = str(labels.categories[lab - 1])
        name = metrics.resolve(str(sections.categories[s - 1]), label) if label.strip() else None
        if name is None:
            continue
        if name not in slot:
            slot[name] = len(names)
            names.append(name)
        lookup[i] = slot[name]
    return lookup[inverse], names


def _kernels(frame: pd.DataFrame) -> list[Kernel]:
    rows, firsts = kernel_codes(frame[ID])
    metric, names = _metric_index(frame)
    unit = frame[UNIT].cat
    factor = np.append(unit_factors([str(u) for u in unit.categories]), 1.0)  # code -1: no unit
    keep = np.flatnonzero((rows >= 0) & (metric >= 0))
    values = frame[VALUE].take(keep)
    parsed = parse_numbers(values, decimal_comma(values))
    parsed *= factor[unit.codes.to_numpy()[keep]]
    found = np.isfinite(parsed)
    keep, parsed = keep[found], parsed[found]

    owner = rows[keep]
    order = np.argsort(owner, kind="stable")
    bounds = np.searchsorted(owner[order], np.arange(len(firsts) + 1)).tolist()
    name_of = np.array(names, dtype=object)
    keys = name_of[metric[keep][order]].tolist() if len(names) else []
    vals = parsed[order].tolist()

    identity = frame.take(firsts)
    display = identity[KERNEL_NAME].astype(str).tolist()
    column = {c: identity[c].astype(str).tolist() if c in identity else None for c in OPTIONAL}
    bare_names: dict[str, str] = {}
    kernels = []
    for k, shown in enumerate(display):
        a, b = bounds[k], bounds[k + 1]
        if shown not in bare_names:
            bare_names[shown] = function_name(shown)
        kernels.append(Kernel(
            index=k,
            name=bare_names[shown],
            display_name=shown,
            grid=dim3(column[GRID_SIZE][k]) if column[GRID_SIZE] else None,
            block=dim3(column[BLOCK_SIZE][k]) if column[BLOCK_SIZE] else None,
            device=_text(column[DEVICE][k]) if column[DEVICE] else None,
            cc=_text(column[CC][k]) if column[CC] else None,
            metrics=dict(zip(keys[a:b], vals[a:b], strict=True)),
        ))
    return kernels


def _text(value: str) -> str | None:
    value = value.strip()
    return value or None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
