"""Reader for `ncu --page details --csv` exports: one row per (kernel, section, label).

Three layouts are read, told apart by their header:

- 12 columns (2019/2020): ID, Process ID, Process Name, Host Name, Kernel Name, Kernel Time,
  Context, Stream, Section Name, Metric Name, Metric Unit, Metric Value.
- 15 columns: no Kernel Time; Block Size, Grid Size, Device and CC after Stream.
- 20 columns: the 15 plus Rule Name, Rule Type, Rule Description, Estimated Speedup Type and
  Estimated Speedup. Metric rows stop after Metric Value (a ragged row with a trailing comma); rule
  rows leave the metric columns empty and put a section identifier (`SpeedOfLight`) in Section Name.

The profiled program's output may come before the header. Files up to 2 GiB are read in chunks of
CHUNK_ROWS rows with pandas' C parser, only the ten columns used, each chunk boiled down to three
numeric arrays (kernel, metric, value) before the next is read: labels are resolved once per
distinct (section, label) pair, units once per distinct unit and metric kind (a value in a unit
not understood for its metric is kept as printed, not used: viewer.readers._as_printed). The
kernels' values end in one float matrix (viewer.core.model.Metrics rows), never in a Python
object per cell.

A file whose last line has no newline, or whose last kernel's sections stop early (compared with
the kernel before it and the file's first, or with what every section set prints:
viewer.readers._cut, which says what cannot be told), looks cut short: `Report.cut_short`.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd

from viewer.core import metrics, units
from viewer.core.model import Dim3, Kernel, Metrics, Printed, Report, ReportError, function_name
from viewer.readers import _as_printed
from viewer.readers._csv_lines import UpToLastLine, check_first_row, check_lines
from viewer.readers._cut import Kept
from viewer.readers._text_lines import UNENDED, mark_cut_short, unended
from viewer.readers._workloads import export_kind, no_kernel
from viewer.readers.sniff import DETAILS_CSV, CsvHeader, find_csv_header

FORMAT = DETAILS_CSV

ID = "ID"
KERNEL_NAME = "Kernel Name"
BLOCK_SIZE, GRID_SIZE, DEVICE, CC = "Block Size", "Grid Size", "Device", "CC"
SECTION, LABEL, UNIT, VALUE = "Section Name", "Metric Name", "Metric Unit", "Metric Value"

REQUIRED = (ID, KERNEL_NAME, SECTION, LABEL, UNIT, VALUE)
OPTIONAL = (BLOCK_SIZE, GRID_SIZE, DEVICE, CC)
# Every column but the value repeats a few distinct texts over many rows: read as categoricals.
_REPEATED = (ID, KERNEL_NAME, BLOCK_SIZE, GRID_SIZE, DEVICE, CC, SECTION, LABEL, UNIT)
# Rows read at once (about 100 a kernel).
CHUNK_ROWS = 200_000
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
    columns = [c for c in header.columns if c in REQUIRED + OPTIONAL]
    builder = Builder()
    sections = Kept()
    for chunk in read_chunks(path, header, columns, dict.fromkeys(_REPEATED, "category")):
        builder.add(chunk)
        _take_sections(chunk, sections)
    kernels, skipped = builder.kernels()
    if not kernels:
        raise ReportError(path, no_kernel(skipped) if skipped else "no kernel found")
    report = Report(source=str(path), format=FORMAT, kernels=kernels, skipped=skipped)
    if (unread := builder.as_printed.note()) is not None:
        report.notes.append(unread)
    cut = UNENDED if unended(path) else sections.cut()
    if cut is not None:
        mark_cut_short(report, cut)
    return report


def _take_sections(chunk: pd.DataFrame, kept: Kept) -> None:
    """Each run of metric rows (a Metric Name given) of one result and section into `kept`, to
    tell a last kernel cut short (viewer.readers._cut); rule rows name no metric."""
    ids, sections, labels = chunk[ID].cat, chunk[SECTION].cat, chunk[LABEL].cat
    named = np.append(labels.categories.astype(str).str.strip() != "", False)
    rows = np.flatnonzero(named[labels.codes.to_numpy(np.int64)])
    if not rows.size:
        return
    id_codes = ids.codes.to_numpy(np.int64)[rows]
    section_codes = sections.codes.to_numpy(np.int64)[rows]
    starts = np.flatnonzero(np.diff(id_codes, prepend=-2) | np.diff(section_codes, prepend=-2))
    counts = np.diff(np.append(starts, rows.size))
    id_texts, section_texts = ids.categories.astype(str), sections.categories.astype(str)
    for start, count in zip(starts.tolist(), counts.tolist(), strict=True):
        result, section = int(id_codes[start]), int(section_codes[start])
        if result >= 0 and section >= 0 and id_texts[result].strip().isdigit():
            kept.add(id_texts[result].strip(), section_texts[section], count)


def read_chunks(path: Path, header: CsvHeader, columns: list[str] | None,
                dtypes: dict[str, str] | None = None, rows: int = CHUNK_ROWS
                ) -> Iterator[pd.DataFrame]:
    """The CSV table that starts at `header`, `rows` rows at a time, `columns` only (None: all),
    every cell text unless `dtypes` names another type for its column.

    A line longer than any ncu prints is refused before pandas is handed the file, and so is a
    row with more fields than the header (damage; pandas would drop it, or its extra fields,
    silently): a column past the header's catches their first extra field. Rows with fewer
    fields are padded with empty text. Every column's type is given, so none is guessed.
    """
    check_lines(path)
    names, line = _header_columns(path, header)
    extra = "extra field" + "_" * max((len(n) for n in names), default=0)
    wanted = list(names) if columns is None else list(columns)
    if not set(wanted) <= set(names):
        raise ReportError(path, "its CSV header row does not parse as CSV (a quote left open?)")
    dtype: dict[str, object] = {c: str if c in wanted else "category" for c in names}
    dtype |= {extra: str} | {c: t for c, t in (dtypes or {}).items() if c in wanted}
    seen = 0
    try:
        with path.open("rb") as whole:
            f = UpToLastLine(whole)
            f.seek(header.offset)
            f.readline()
            check_first_row(path, f, line + 1, len(names))
            with pd.read_csv(
                f, header=None, names=[*names, extra], dtype=dtype, na_filter=False,
                engine="c", low_memory=False, encoding="utf-8", encoding_errors="replace",
                skip_blank_lines=True, chunksize=rows,
            ) as reader:
                for chunk in reader:
                    over = np.flatnonzero(chunk[extra].to_numpy(dtype=str) != "")
                    if over.size or not isinstance(chunk.index, pd.RangeIndex):
                        row = seen + (int(over[0]) if over.size else 0) + 1
                        raise ReportError(path, f"row {row:,} under the header has more fields"
                                          f" than its header's {len(names):,}: the file is damaged")
                    seen += len(chunk)
                    yield chunk[wanted]
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError, csv.Error) as exc:
        raise _unreadable(path, exc, line, len(names)) from None
    except OSError as exc:
        raise ReportError(path, f"cannot be read ({exc.strerror or exc})") from None


def _header_columns(path: Path, header: CsvHeader) -> tuple[tuple[str, ...], int]:
    """The header line's column names, as pandas reads the line alone, and its line number;
    ReportError when the names differ from what the csv module reads, or hold a quote (a quote
    left open: no ncu column name holds one)."""
    try:
        with path.open("rb") as f:
            number = f.read(header.offset).count(b"\n") + 1
            line = f.readline()
        parsed = pd.read_csv(io.BytesIO(line), header=None, dtype=str, na_filter=False,
                             engine="c", low_memory=False, encoding="utf-8",
                             encoding_errors="replace")
        found = next(csv.reader([line.decode("utf-8", "replace").rstrip("\r\n")]), [])
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError, csv.Error) as exc:
        raise _unreadable(path, exc, number, 0) from None
    except OSError as exc:
        raise ReportError(path, f"cannot be read ({exc.strerror or exc})") from None
    names = tuple(str(c).strip() for c in parsed.iloc[0].tolist()) if len(parsed) else ()
    if names != tuple(c.strip() for c in found) or any('"' in n for n in names):
        raise ReportError(path, "its CSV header row does not parse as CSV (a quote left open?)")
    return names, number


_TOO_MANY = re.compile(r"Expected \d+ fields in line (\d+), saw (\d+)")


def _unreadable(path: Path, exc: BaseException, header_line: int, fields: int) -> ReportError:
    """Why pandas could not read the table whose header is line `header_line` (`fields`
    columns and the one past them)."""
    m = _TOO_MANY.search(str(exc))
    if m:
        return ReportError(path, f"line {header_line + int(m.group(1)):,} has {int(m.group(2)):,}"
                           f" fields, more than its header's {fields:,}: the file is damaged")
    if "EOF inside string" in str(exc):
        return ReportError(path, "the CSV ends inside a quoted value: the file looks truncated")
    return ReportError(path, f"not a readable ncu CSV export ({_first_line(exc)})")


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


def unit_factors(unit_names: list[str], metric_names: list[str]) -> np.ndarray:
    """The factor to base units of each metric printed in its unit; NaN where the unit is not
    understood for the metric."""
    scales = (_as_printed.factor(u, m) for u, m in zip(unit_names, metric_names, strict=True))
    return np.array([np.nan if f is None else f for f in scales], dtype=float)


def dim3(text: object) -> Dim3 | None:
    """'(16, 16, 1)' -> (16, 16, 1); None for anything else."""
    m = _DIM3.match(str(text).strip())
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def device_id(text: object) -> int | None:
    """The device number an export prints ('0'); None for anything else."""
    value = "" if text is None else str(text).strip()
    return int(value) if value.isdigit() else None


def metric_rows(names: list[str], matrix: np.ndarray) -> list[Metrics]:
    """One Metrics per row of `matrix` (NaN: no value), its columns named by `names`."""
    slots = {name: i for i, name in enumerate(names)}
    return [Metrics(slots, row) for row in matrix]


class Builder:
    """The kernels of a details CSV, taken in chunk by chunk."""

    def __init__(self) -> None:
        self.kernel_of_id: dict[str, int] = {}
        self.identity: list[dict[str, str]] = []
        self.slot_of_name: dict[str, int] = {}
        self.slot_of_pair: dict[tuple[str, str], int] = {}
        self.factor_of_unit: dict[tuple[str, str | None], float] = {}
        self.as_printed = _as_printed.AsPrinted()
        self.printed: dict[tuple[int, str], Printed] = {}
        self.comma: bool | None = None
        self.parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def add(self, chunk: pd.DataFrame) -> None:
        rows = self._kernel_rows(chunk)
        slot = self._metric_slots(chunk)
        keep = np.flatnonzero((rows >= 0) & (slot >= 0))
        if not keep.size:
            return
        texts = chunk[VALUE].take(keep)
        if self.comma is None:
            self.comma = decimal_comma(texts)
        values = parse_numbers(texts, self.comma)
        factors = self._unit_factors(chunk, slot, keep)
        self._keep_as_printed(chunk, keep[np.isfinite(values) & np.isnan(factors)],
                              rows, slot)
        values *= factors
        found = np.isfinite(values)
        self.parts.append((rows[keep][found], slot[keep][found], values[found]))

    def kernels(self) -> tuple[list[Kernel], dict[str, int]]:
        """The kernels in launch order, and the count of results passed over (not kernels)."""
        names = list(self.slot_of_name)
        matrix = np.full((len(self.identity), len(names)), np.nan)
        for rows, slot, values in self.parts:  # a later row of the same metric wins
            matrix[rows, slot] = values
        bare_names: dict[str, str] = {}
        kernels: list[Kernel] = []
        skipped: dict[str, int] = {}
        printed: dict[int, dict[str, Printed]] = {}
        for (row, metric), kept in self.printed.items():
            if math.isnan(matrix[row, self.slot_of_name[metric]]):
                printed.setdefault(row, {})[metric] = kept
        for row, (ident, row_metrics) in enumerate(zip(self.identity, metric_rows(names, matrix),
                                                       strict=True)):
            shown = ident[KERNEL_NAME]
            kind = export_kind(shown)
            if kind is not None:
                skipped[kind] = skipped.get(kind, 0) + 1
                continue
            if shown not in bare_names:
                bare_names[shown] = function_name(shown)
            kernels.append(Kernel(
                index=len(kernels), name=bare_names[shown], display_name=shown,
                grid=dim3(ident.get(GRID_SIZE)), block=dim3(ident.get(BLOCK_SIZE)),
                device_id=device_id(ident.get(DEVICE)), cc=_text(ident.get(CC)),
                metrics=row_metrics, printed=printed.get(row, {})))
        return kernels, skipped

    def _kernel_rows(self, chunk: pd.DataFrame) -> np.ndarray:
        """Per row, its kernel's launch-order index (-1 for rows whose ID is not a result ID).

        Kernels are numbered in order of first appearance, which is ncu's ID order.
        """
        ids = chunk[ID].cat
        codes = ids.codes.to_numpy(np.int64)
        lookup = np.full(len(ids.categories) + 1, -1, dtype=np.int64)  # code -1 (missing): -1
        present, first_row = np.unique(codes, return_index=True)
        new_rows = []
        for row in np.sort(first_row[present >= 0]).tolist():
            code = int(codes[row])
            text = str(ids.categories[code]).strip()
            if not text.isdigit():
                continue
            if text not in self.kernel_of_id:
                self.kernel_of_id[text] = len(self.kernel_of_id)
                new_rows.append(row)
            lookup[code] = self.kernel_of_id[text]
        if new_rows:
            shown = chunk.take(new_rows)
            columns = [c for c in (KERNEL_NAME, *OPTIONAL) if c in chunk.columns]
            texts = {c: shown[c].astype(str).tolist() for c in columns}
            self.identity += [{c: texts[c][i] for c in columns} for i in range(len(new_rows))]
        rows: np.ndarray = lookup[codes]
        return rows

    def _metric_slots(self, chunk: pd.DataFrame) -> np.ndarray:
        """Per row, the slot of its resolved metric name (-1 when unknown)."""
        sections, labels = chunk[SECTION].cat, chunk[LABEL].cat
        n_labels = len(labels.categories) + 1
        pair = ((sections.codes.to_numpy(np.int64) + 1) * n_labels
                + labels.codes.to_numpy(np.int64) + 1)
        uniques, inverse = np.unique(pair, return_inverse=True)
        lookup = np.full(len(uniques), -1, dtype=np.int64)
        for i, key in enumerate(uniques.tolist()):
            s, lab = divmod(key, n_labels)
            if s == 0 or lab == 0:
                continue
            text = (str(sections.categories[s - 1]), str(labels.categories[lab - 1]))
            if text not in self.slot_of_pair:
                name = metrics.resolve(*text) if text[1].strip() else None
                if name is not None and name not in self.slot_of_name:
                    self.slot_of_name[name] = len(self.slot_of_name)
                self.slot_of_pair[text] = -1 if name is None else self.slot_of_name[name]
            lookup[i] = self.slot_of_pair[text]
        return lookup[inverse.reshape(-1)]

    def _unit_factors(self, chunk: pd.DataFrame, slot: np.ndarray, keep: np.ndarray
                      ) -> np.ndarray:
        """Per row of `keep`, the factor that takes its value to base units (NaN where its unit
        is not understood for its metric): decided once per distinct (unit, metric kind)."""
        cats = chunk[UNIT].cat
        unit_of = [str(u) for u in cats.categories] + [""]  # code -1: no unit
        codes = cats.codes.to_numpy(np.int64)[keep]
        codes[codes < 0] = len(unit_of) - 1
        names = list(self.slot_of_name)
        pair = codes * (len(names) + 1) + slot[keep]
        uniques, inverse = np.unique(pair, return_inverse=True)
        factor = np.empty(len(uniques))
        for i, key in enumerate(uniques.tolist()):
            code, at = divmod(key, len(names) + 1)
            unit_kind = (unit_of[code], metrics.kind(names[at]))
            if unit_kind not in self.factor_of_unit:
                scale = units.scale_for(*unit_kind)
                self.factor_of_unit[unit_kind] = np.nan if scale is None else scale
            factor[i] = self.factor_of_unit[unit_kind]
        factors: np.ndarray = factor[inverse.reshape(-1)]
        return factors

    def _keep_as_printed(self, chunk: pd.DataFrame, unread: np.ndarray, rows: np.ndarray,
                         slot: np.ndarray) -> None:
        """Keep the values of rows `unread` (numbers in a unit not understood) as printed."""
        room = self.as_printed.room
        self.as_printed.count_only(unread.size - room)
        names = list(self.slot_of_name)
        for i in unread[:room].tolist():
            metric = names[int(slot[i])]
            row = chunk.iloc[i]
            kept = self.as_printed.take(metric, str(row[VALUE]), Printed(
                str(row[UNIT]), str(row[LABEL]), str(row[SECTION])))
            if kept is not None:
                self.printed[(int(rows[i]), metric)] = kept


def _text(value: str | None) -> str | None:
    value = "" if value is None else value.strip()
    return value or None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
