"""Why the naive numba kernel is written with unsigned indices, a 32-bit loop test and its loads
four steps ahead.

Seven spellings of the same naive matmul, with the same loads and the same sectors:

  loop_signed_range    signed indices, `for p in range(k)`
  loop_unsigned_range  uint64 indices, `for p in range(k)`
  loop_unsigned_while  uint64 indices, `while p < k`
  loop_uint32_test     uint64 indices, `while uint32(p) < uint32(k)`, one step at a time
  loop_pointer_steps   uint64 offsets advanced by one add each step (a by 1, b by n), a 32-bit
                       step counter; not the lesson's `a[row * k + p] * b[p * n + col]` spelling
  loop_uint32_index    every index computed in 32 bits
  matmul_naive         as loop_uint32_test, four steps at a time with their loads first (the
                       shipped kernel, viewer/kernels/matmul.py)

Each runs the lesson's launch order at one size (one checked correctness launch, three warm-ups,
ten timed launches queued behind a hold) and prints its median. Under ncu, capture the first
launch of each to compare executed instructions:

    ncu -k regex:'loop_|matmul_naive' --launch-count 7 --clock-control none \
        --metrics smsp__inst_executed.sum,launch__registers_per_thread,gpu__time_duration.sum \
        python3 benchmarks/loop_forms.py --dim 512 --launches 1
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from numba import cuda, float32, uint32, uint64

from viewer.kernels.hold import hold
from viewer.kernels.matmul import block_shape, grid_shape, matmul_naive
from viewer.kernels.runner import (
    CORRECTNESS_LAUNCHES,
    MAX_RELATIVE_ERROR,
    TIMED_LAUNCHES,
    WARMUP_LAUNCHES,
    reference,
    relative_error,
)


@cuda.jit
def loop_signed_range(a, b, c, m, n, k):
    col = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    row = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    if row < m and col < n:
        acc = float32(0.0)
        for p in range(k):
            acc += a[row * k + p] * b[p * n + col]
        c[row * n + col] = acc


@cuda.jit
def loop_unsigned_range(a, b, c, m, n, k):
    col = uint64(cuda.blockIdx.x) * uint64(cuda.blockDim.x) + uint64(cuda.threadIdx.x)
    row = uint64(cuda.blockIdx.y) * uint64(cuda.blockDim.y) + uint64(cuda.threadIdx.y)
    if row < m and col < n:
        acc = float32(0.0)
        for p in range(k):
            acc += a[row * k + p] * b[p * n + col]
        c[row * n + col] = acc


@cuda.jit
def loop_unsigned_while(a, b, c, m, n, k):
    col = uint64(cuda.blockIdx.x) * uint64(cuda.blockDim.x) + uint64(cuda.threadIdx.x)
    row = uint64(cuda.blockIdx.y) * uint64(cuda.blockDim.y) + uint64(cuda.threadIdx.y)
    if row < m and col < n:
        acc = float32(0.0)
        p = uint64(0)
        while p < k:
            acc += a[row * k + p] * b[p * n + col]
            p += uint64(1)
        c[row * n + col] = acc


@cuda.jit
def loop_pointer_steps(a, b, c, m, n, k):
    col = uint64(cuda.blockIdx.x) * uint64(cuda.blockDim.x) + uint64(cuda.threadIdx.x)
    row = uint64(cuda.blockIdx.y) * uint64(cuda.blockDim.y) + uint64(cuda.threadIdx.y)
    if row < m and col < n:
        acc = float32(0.0)
        ia = row * k
        ib = col
        steps = uint32(k)
        while steps != uint32(0):
            acc += a[ia] * b[ib]
            ia += uint64(1)
            ib += n
            steps = uint32(steps - uint32(1))
        c[row * n + col] = acc


@cuda.jit
def loop_uint32_index(a, b, c, m, n, k):
    col = uint32(cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x)
    row = uint32(cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y)
    k32 = uint32(k)
    n32 = uint32(n)
    if row < uint32(m) and col < n32:
        acc = float32(0.0)
        p = uint32(0)
        while p < k32:
            acc += a[uint32(row * k32 + p)] * b[uint32(p * n32 + col)]
            p = uint32(p + uint32(1))
        c[uint32(row * n32 + col)] = acc


@cuda.jit
def loop_uint32_test(a, b, c, m, n, k):
    col = uint64(cuda.blockIdx.x) * uint64(cuda.blockDim.x) + uint64(cuda.threadIdx.x)
    row = uint64(cuda.blockIdx.y) * uint64(cuda.blockDim.y) + uint64(cuda.threadIdx.y)
    if row < m and col < n:
        acc = float32(0.0)
        steps = uint32(k)
        p = uint64(0)
        while uint32(p) < steps:
            acc += a[row * k + p] * b[p * n + col]
            p += uint64(1)
        c[row * n + col] = acc


VARIANTS = {
    "loop_signed_range": (loop_signed_range, np.int64),
    "loop_unsigned_range": (loop_unsigned_range, np.uint64),
    "loop_unsigned_while": (loop_unsigned_while, np.uint64),
    "loop_uint32_test": (loop_uint32_test, np.uint64),
    "loop_pointer_steps": (loop_pointer_steps, np.uint64),
    "loop_uint32_index": (loop_uint32_index, np.uint64),
    "matmul_naive": (matmul_naive, np.uint64),
}


def run(name: str, dim: int, launches: int, rng: np.random.Generator) -> dict:
    kernel, index_type = VARIANTS[name]
    a = rng.uniform(-1.0, 1.0, dim * dim).astype(np.float32)
    b = rng.uniform(-1.0, 1.0, dim * dim).astype(np.float32)
    ref = reference(a, b, dim)
    d_a, d_b = cuda.to_device(a), cuda.to_device(b)
    d_c = cuda.to_device(np.full(dim * dim, np.nan, dtype=np.float32))
    size = index_type(dim)
    configured = kernel[grid_shape(dim, dim), block_shape()]
    configured(d_a, d_b, d_c, size, size, size)
    cuda.synchronize()
    error = relative_error(d_c.copy_to_host(), ref)
    result = {"relative_error": error, "ok": error < MAX_RELATIVE_ERROR}
    if launches <= CORRECTNESS_LAUNCHES:
        return result
    for _ in range(WARMUP_LAUNCHES):
        configured(d_a, d_b, d_c, size, size, size)
    hold(0)
    cuda.synchronize()
    begin, end = cuda.event(timing=True), cuda.event(timing=True)
    times = []
    for _ in range(TIMED_LAUNCHES):
        hold(2000)
        begin.record()
        configured(d_a, d_b, d_c, size, size, size)
        end.record()
        end.synchronize()
        times.append(cuda.event_elapsed_time(begin, end))
    result["median_ms"] = statistics.median(times)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dim", type=int, nargs="+", default=[512])
    parser.add_argument(
        "--launches", type=int, default=CORRECTNESS_LAUNCHES + WARMUP_LAUNCHES + TIMED_LAUNCHES,
        help="1: the correctness launch only (for ncu); more: the whole launch order",
    )
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    ok = True
    for dim in args.dim:
        for name in VARIANTS:
            r = run(name, dim, args.launches, rng)
            ok &= r["ok"]
            timing = f"  median {r['median_ms']:.4f} ms" if "median_ms" in r else ""
            print(f"{name:<22} dim {dim:>5}  relative error {r['relative_error']:.2e}{timing}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
