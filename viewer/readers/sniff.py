"""Which Nsight Compute format a file holds, judged by its content, never by its name.

- `NVR\\0` at the start: a binary report (`ncu-rep`).
- A CSV header `"ID","Process ID",...` at the start of a line, possibly after the profiled program's
  own output: `details-csv` when it has a `Metric Name` column (`--page details --csv`), else
  `raw-csv` (`--page raw --csv`, one column per metric).
- Text that viewer.readers.raw_text recognises (a result header, then the raw page's one table):
  `raw-text`; else text that viewer.readers.details_text recognises: `details-text`.
- ncu's session page (`--page session`: the capture's settings) and source page (`--page source
  --csv`: one kernel's per-instruction counters) are named (`identify`) but hold no kernel's
  metrics: `sniff` refuses them, saying what they are; the source page is read by
  viewer.readers.source (SOURCE_FORMATS) where source counters are asked for.
- A gzip-compressed file is judged by its decompressed head (viewer.readers._gzip).
- A published reference table, TOML with the line `format = "ncu-reader reference 1"`
  (viewer.readers.reference_toml): `reference`.
- Anything else is refused with a reason: an empty file, a directory, binary noise, UTF-16 text,
  ncu's own error text with no kernel (quoted), a file too big for its format, a foreign file.

Only the head of a file is read here, so a huge file of noise is refused at once.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

from viewer.core.model import ReportError
from viewer.readers import _gzip, _opened, ncu_error
from viewer.readers._utf16 import UTF16_REASON, is_utf16

NCU_REP = "ncu-rep"
DETAILS_TEXT = "details-text"
DETAILS_CSV = "details-csv"
RAW_CSV = "raw-csv"
RAW_TEXT = "raw-text"
REFERENCE = "reference"
FORMATS: tuple[str, ...] = (NCU_REP, DETAILS_TEXT, DETAILS_CSV, RAW_CSV, RAW_TEXT, REFERENCE)
SESSION_PAGE = "session-page"
SOURCE_PAGE = "source-page"
NOT_REPORTS: dict[str, str] = {
    SESSION_PAGE: "is ncu's session page export (--page session): the capture's settings and "
                  "devices, no kernel's metrics; open the report, or its details or raw page",
    SOURCE_PAGE: "is ncu's source page export (--page source): one kernel's per-instruction "
                 "counters, no kernel's metrics; open the report, or its details or raw page "
                 "(`python -m viewer source` reads this page)",
}
"""The ncu exports `identify` names that are not reports, and why `sniff` refuses each."""

SOURCE_FORMATS: tuple[str, ...] = (NCU_REP, SOURCE_PAGE)
"""The formats that hold per-instruction source counters: viewer.readers.source reads them
(`read_source`), the source page export included."""

NCU_REP_MAGIC = b"NVR\0"

_MIB = 1 << 20
# The largest file read in each format. A 10,000-kernel details CSV of numba kernels (long
# mangled names on every row) is about 420 MB; a details text export runs about 15 kB a kernel.
MAX_BYTES: dict[str, int] = {
    NCU_REP: 4096 * _MIB,
    DETAILS_CSV: 2048 * _MIB,
    RAW_CSV: 1024 * _MIB,
    RAW_TEXT: 1024 * _MIB,
    DETAILS_TEXT: 512 * _MIB,
    REFERENCE: 1 * _MIB,
}

# Bytes judged for binary noise, and bytes searched for a CSV header or a text export's marks.
BINARY_PROBE_BYTES = 64 * 1024
HEAD_BYTES = 1 * _MIB
# Above this share of undecodable or control characters, a file is binary, not text.
MAX_BINARY_SHARE = 0.02

_CSV_HEADER = re.compile(rb'(?m)^(?:\xef\xbb\xbf)?"ID","Process ID",')
_SOURCE_CSV = re.compile(rb'(?m)^(?:\xef\xbb\xbf)?"Address","Source"')
_SESSION_TEXT = re.compile(r"(?m)^(?:Session|Launch) Attribute +Value *$")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f\ufffd]")
# Signs that ncu profiled a kernel before any error it printed: a section of a details page, or
# its progress line for a kernel.
_KERNEL_EVIDENCE = re.compile(r'(?m)^[ \t]*Section: |==PROF== Profiling "')


@dataclass(frozen=True)
class CsvHeader:
    """Where an ncu CSV header line starts in a file, and its column names."""

    offset: int
    columns: tuple[str, ...]

    @property
    def is_details(self) -> bool:
        return "Metric Name" in self.columns


def read_head(path: Path, size: int = HEAD_BYTES) -> bytes:
    """The first `size` bytes of a regular, non-empty, readable file; ReportError otherwise."""
    with _opened.opened(path) as source:
        return source.pread(size)


def is_binary(head: bytes) -> bool:
    """Whether the start of a file is binary data rather than text (UTF-8 or Latin-1 output)."""
    probe = head[:BINARY_PROBE_BYTES]
    if b"\0" in probe:
        return True
    text = probe.decode("utf-8", "replace")
    return len(_CONTROL.findall(text)) > MAX_BINARY_SHARE * max(1, len(text))


def find_csv_header(path: Path, head: bytes | None = None) -> CsvHeader:
    """The ncu CSV header line of the file at `path`, found in its head; ReportError if none."""
    head = read_head(path) if head is None else head
    m = _CSV_HEADER.search(head)
    if m is None:
        raise ReportError(path, 'no ncu CSV header ("ID","Process ID",...) found')
    start = m.start() + (3 if head.startswith(b"\xef\xbb\xbf", m.start()) else 0)
    end = head.find(b"\n", start)
    line = head[start:] if end < 0 else head[start:end]
    try:
        columns = next(csv.reader([line.decode("utf-8", "replace").rstrip("\r")]), [])
    except csv.Error as exc:
        raise ReportError(path, f"the CSV header line cannot be read ({exc})") from None
    return CsvHeader(offset=start, columns=tuple(c.strip() for c in columns))


def _format_of(source: _opened.Opened, head: bytes) -> str:
    path = source.path
    compressed = _gzip.is_gzip(head)
    if compressed:
        head = _gzip.head(source, HEAD_BYTES)  # its layers unwrapped: never gzip again
    if head.startswith(NCU_REP_MAGIC):
        return NCU_REP
    if is_utf16(head):
        raise ReportError(path, UTF16_REASON)
    if is_binary(head):
        raise ReportError(
            path, f"is {'gzip-compressed ' if compressed else ''}binary data, not an Nsight"
            " Compute report or export (a .ncu-rep starts with NVR)",
        )
    if _SOURCE_CSV.search(head[:HEAD_BYTES]) and not _CSV_HEADER.search(head):
        return SOURCE_PAGE
    if _CSV_HEADER.search(head):
        return DETAILS_CSV if find_csv_header(path, head).is_details else RAW_CSV
    text = head.decode("utf-8", "replace")
    # small, and imported only when a text file is met
    from viewer.readers import details_text, raw_text, reference_toml

    if reference_toml.looks_like(text):
        return REFERENCE
    quoted = ncu_error.reason(text)
    if quoted and not _KERNEL_EVIDENCE.search(text):
        raise ReportError(path, quoted)
    if raw_text.looks_like(text):
        return RAW_TEXT
    if details_text.looks_like(text):
        return DETAILS_TEXT
    if _SESSION_TEXT.search(text):
        return SESSION_PAGE
    if quoted:
        raise ReportError(path, quoted)
    raise ReportError(path, "not an Nsight Compute report or export")


def identify(path: Path) -> str:
    """What the file at `path` holds: one of FORMATS or of NOT_REPORTS; ReportError saying why
    it is neither."""
    with _opened.opened(Path(path)) as source:
        return identify_opened(source)


def identify_opened(source: _opened.Opened) -> str:
    """`identify` of a file opened once (viewer.readers._opened)."""
    return _format_of(source, source.pread(HEAD_BYTES))


def sniff(path: Path) -> str:
    """The format of the file at `path` (one of FORMATS), or ReportError saying why it has none.
    The size of a gzip-compressed file's content is bounded when it is decompressed."""
    with _opened.opened(Path(path)) as source:
        return sniff_opened(source)


def sniff_opened(source: _opened.Opened) -> str:
    """`sniff` of a file opened once (viewer.readers._opened)."""
    fmt = _format_of(source, source.pread(HEAD_BYTES))
    if fmt in NOT_REPORTS:
        raise ReportError(source.path, NOT_REPORTS[fmt])
    if source.size > MAX_BYTES[fmt]:
        raise ReportError(
            source.path, f"is too big for a {fmt} file ({source.size / _MIB:,.0f} MiB;"
            f" the most read is {MAX_BYTES[fmt] / _MIB:,.0f} MiB)",
        )
    return fmt
