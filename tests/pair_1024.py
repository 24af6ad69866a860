"""A naive and tiled pair at N = 1024, made from the shipped N = 512 details CSVs.

No capture at 1024 ships (one needs a GPU), so the pair is the real 512 exports with what the size
changes, changed: the launch (grid 32 x 32 -> 64 x 64 blocks of 16 x 16, Grid Size, Threads), the
global load requests and sectors ((1024/512)^3 = 8x: a thread's loads grow with N and there are
4x the threads), and the DRAM bytes read (4x: A, B and C grow with N^2). Every other value is the
512 capture's own.
"""

from __future__ import annotations

import csv
from pathlib import Path

from viewer.core import shipped

_SCALE = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 8,
          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 8,
          "dram__bytes_read.sum": 4, "Grid Size": 4, "Threads": 4}


def _scaled(value: str, by: int) -> str:
    number = float(value.replace(",", "")) * by
    return f"{number:,.2f}" if "." in value else f"{int(number):,}"


def scale_to_1024(source: Path, target: Path) -> Path:
    """`source` (a details CSV of the N = 512 launch) as if its launch had been N = 1024."""
    with source.open(newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        assert row["Grid Size"] == "(32, 32, 1)", source
        row["Grid Size"] = "(64, 64, 1)"
        by = _SCALE.get(row["Metric Name"])
        if by is not None:
            row["Metric Value"] = _scaled(row["Metric Value"], by)
    with target.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]), quoting=csv.QUOTE_ALL)
        writer.writeheader()
        writer.writerows(rows)
    return target


def write_pair_1024(folder: Path) -> list[Path]:
    """naive-1024.details.csv and tiled-1024.details.csv, written in `folder`."""
    return [scale_to_1024(shipped.profiles_dir() / f"{role}.details.csv",
                          folder / f"{role}-1024.details.csv") for role in ("naive", "tiled")]
