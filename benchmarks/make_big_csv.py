"""Build many-kernel inputs for the reader benchmark from the real h200 captures.

- A `--page details --csv` export: the naive and tiled details CSVs repeated, alternating, with
  fresh result IDs, until the file holds the asked-for number of kernels (10,000 by default, about
  a million rows). Rows are copied byte for byte apart from the ID field.
- A synthetic .ncu-rep (`--ncu-rep`): the result blocks of the h200 pair (or of the reports
  given with `--from`) repeated in turn in one report (400 kernels by default). A .ncu-rep is the
  magic `NVR\\0`, a length-prefixed file header, then blocks: a length-prefixed block header (a
  protobuf message whose field 2 counts the results in the block and field 5 gives the payload's
  size) and the payload. The blocks holding one result each are copied byte for byte; every other
  block comes from the first report. ncu_report reads it as that many kernels, each with its
  capture's real metrics: `--from benchmarks/data/many-kernels.ncu-rep --kernels 10000` makes a
  10,000-kernel report of the real PyTorch capture's kernels.

    python benchmarks/make_big_csv.py [--kernels N] [--out PATH]
    python benchmarks/make_big_csv.py --ncu-rep [--kernels N] [--from REPORT ...] [--out PATH]
"""

from __future__ import annotations

import argparse
import re
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "corpus" / "h200"
SOURCES = (CORPUS / "numba-naive.details.csv", CORPUS / "numba-tiled.details.csv")
REPORTS = (CORPUS / "numba-naive.ncu-rep", CORPUS / "numba-tiled.ncu-rep")
DATA = ROOT / "benchmarks" / "data"
DEFAULT_OUT = DATA / "big-10000.details.csv"
DEFAULT_REPORT_KERNELS = 400

_ID_FIELD = re.compile(rb'^"\d+",')


def default_report_out(kernels: int = DEFAULT_REPORT_KERNELS) -> Path:
    return DATA / f"synthetic-{kernels}.ncu-rep"


def kernel_rows(path: Path) -> tuple[bytes, list[bytes]]:
    """The header line and the rows of the one kernel in a details CSV, ID field cut off."""
    lines = path.read_bytes().splitlines(keepends=True)
    header, rows = lines[0], lines[1:]
    if not header.startswith(b'"ID","Process ID"'):
        raise SystemExit(f"{path}: not a details CSV")
    cut = []
    for row in rows:
        m = _ID_FIELD.match(row)
        if m is None:
            raise SystemExit(f"{path}: row without an ID field: {row[:60]!r}")
        cut.append(row[m.end():])
    return header, cut


def write_big_csv(out: Path, kernels: int) -> int:
    """Write `kernels` kernels to `out`; returns the number of bytes written."""
    header, _ = kernel_rows(SOURCES[0])
    blocks = [kernel_rows(p)[1] for p in SOURCES]
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as f:
        f.write(header)
        for kid in range(kernels):
            prefix = b'"%d",' % kid
            f.write(b"".join(prefix + row for row in blocks[kid % len(blocks)]))
    return out.stat().st_size


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def _header_fields(header: bytes) -> dict[int, int]:
    """The varint fields of a protobuf message (the others are skipped)."""
    fields, at = {}, 0
    while at < len(header):
        key, at = _varint(header, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            fields[number], at = _varint(header, at)
        elif wire == 2:
            length, at = _varint(header, at)
            at += length
        elif wire in (1, 5):
            at += 8 if wire == 1 else 4
        else:
            raise SystemExit(f"unexpected protobuf wire type {wire} in a block header")
    return fields


def report_blocks(path: Path) -> tuple[bytes, list[tuple[bytes, int]]]:
    """A .ncu-rep's magic and file header, and its blocks with the number of results each holds."""
    data = path.read_bytes()
    if not data.startswith(b"NVR\0"):
        raise SystemExit(f"{path}: not a .ncu-rep")
    (size,) = struct.unpack_from("<I", data, 4)
    at = 8 + size
    head, blocks = data[:at], []
    while at < len(data):
        start = at
        (size,) = struct.unpack_from("<I", data, at)
        fields = _header_fields(data[at + 4:at + 4 + size])
        at += 4 + size + fields.get(5, 0)
        blocks.append((data[start:at], fields.get(2, 0)))
    return head, blocks


def write_big_report(out: Path, kernels: int, sources: tuple[Path, ...] = REPORTS) -> int:
    """Write a `kernels`-kernel .ncu-rep to `out` from the result blocks of `sources`; returns the
    number of bytes written."""
    head, frame = report_blocks(sources[0])
    results = []
    for path in sources:
        _, blocks = report_blocks(path)
        found = [block for block, count in blocks if count == 1]
        if not found:
            raise SystemExit(f"{path}: no block holding one result")
        results += found
    first = next(i for i, (_, count) in enumerate(frame) if count)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as f:
        f.write(head)
        f.write(b"".join(block for block, _ in frame[:first]))
        for k in range(kernels):
            f.write(results[k % len(results)])
        f.write(b"".join(block for block, count in frame[first:] if not count))
    return out.stat().st_size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ncu-rep", action="store_true", help="build the synthetic .ncu-rep")
    parser.add_argument("--kernels", type=int)
    parser.add_argument("--from", dest="sources", type=Path, nargs="+", default=list(REPORTS),
                        help="the reports whose results the synthetic .ncu-rep repeats")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.ncu_rep:
        kernels = args.kernels or DEFAULT_REPORT_KERNELS
        out = args.out or default_report_out(kernels)
        size = write_big_report(out, kernels, tuple(args.sources))
    else:
        kernels = args.kernels or 10_000
        out = args.out or DEFAULT_OUT
        size = write_big_csv(out, kernels)
    print(f"{out}: {kernels:,} kernels, {size / 1e6:,.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
