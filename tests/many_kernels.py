"""Many-kernel .ncu-rep reports built from the real captures in git (benchmarks/make_big_csv.py
copies their result blocks byte for byte), so tests of many kernels need no file outside git."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
FULL_PAIR = (H200 / "numba-naive.ncu-rep", H200 / "numba-tiled.ncu-rep")
"""`--set full`: the naive and tiled matmuls, alternating."""
BASIC = (H200 / "workloads-kernels-and-graph.ncu-rep",)
"""`--set basic`: the kernels `scale` and `add`, alternating (its two graph results are kept)."""


def build(out: Path, kernels: int, sources: tuple[Path, ...] = FULL_PAIR) -> Path:
    """Write a report of `kernels` kernels, the kernel results of `sources` in turn."""
    spec = importlib.util.spec_from_file_location("make_big_csv",
                                                  ROOT / "benchmarks" / "make_big_csv.py")
    assert spec is not None and spec.loader is not None
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    builder.write_big_report(out, kernels, sources)
    return out
