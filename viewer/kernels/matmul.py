"""The lesson's naive and tiled float32 matmuls, as numba.cuda kernels.

Both compute c = a @ b for row-major flat arrays (a is m x k, b is k x n, c is m x n) and keep the
lesson's access pattern exactly, so that their counters match viewer/analysis/predict.py's
derivation:

- 16 x 16 blocks with threadIdx.x fastest: a warp of 32 lanes is two rows of sixteen consecutive
  columns;
- the naive kernel's inner step is `acc += a[row * k + p] * b[p * n + col]`, two global loads;
- the tiled kernel stages a 16-wide tile of a and of b in shared memory (one global load of each
  per tile step), then does the same step from shared memory.

Bounds guards make ragged sizes correct: a thread outside c does nothing, and a tile element
outside a or b is staged as zero.

Index arithmetic is unsigned 64-bit throughout: numba gives signed indices negative-index
wraparound on every array access, and lowers `for p in range(k)` with a signed trip count and a
select chain per iteration that blocks strength reduction. The naive kernel's loop test compares
the low 32 bits of p with those of k: ptxas unrolls a loop to 16 steps and issues their loads
ahead of the multiply-adds, as it does for the CUDA C++ twin (benchmarks/matmul_twin.cu), only
when the loop counts in 32 bits; a 64-bit `while p < k` stayed at 4 steps and ran 1.2-2.4x slower
(benchmarks/README.md). launch() refuses sizes of 2**32 or more, where the two tests would differ.
Even so, numba's 64-bit address arithmetic left fewer loads in flight than the twin's, and at 4096
the one-step loop ran 1.78x the twin; so the naive kernel writes its loop four steps at a time,
the four steps' loads first, then their four multiply-adds in order. None of this changes a load,
a sector or the order of the additions.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
from numba import config, cuda, float32, uint32, uint64

TILE_DIM = 16
"""Tile width, and the block's side: blocks are TILE_DIM x TILE_DIM threads."""

JIT_OPTIONS: dict[str, bool] = {} if config.ENABLE_CUDASIM else {"lineinfo": True}
"""Compiled with line info, so a capture maps each SASS instruction to its Python line (ncu's
Source page); it adds no instruction (benchmarks/device_source.sh compares the SASS and the time).
numba's simulator takes no such option."""


class DeviceArray(Protocol):
    """What this package uses of numba's device arrays (numba ships no types)."""

    def copy_to_host(self) -> np.ndarray: ...


_TILE = np.uint64(TILE_DIM)
_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_TWO = np.uint64(2)
_THREE = np.uint64(3)
_FOUR = np.uint64(4)


@cuda.jit(**JIT_OPTIONS)
def matmul_naive(a, b, c, m, n, k):
    """One thread per element of c; every a and b element it reads comes from global memory.

    Each step p is the lesson's `acc += a[row * k + p] * b[p * n + col]`; the loop takes four
    steps at a time, loads first (see the module docstring), and the rest one at a time.
    """
    col = uint64(cuda.blockIdx.x) * uint64(cuda.blockDim.x) + uint64(cuda.threadIdx.x)
    row = uint64(cuda.blockIdx.y) * uint64(cuda.blockDim.y) + uint64(cuda.threadIdx.y)
    if row < m and col < n:
        acc = float32(0.0)
        ra = row * k  # where row `row` of a starts
        steps = uint32(k)
        whole = uint32(steps - steps % uint32(4))
        p = _ZERO
        while uint32(p) < whole:
            a0 = a[ra + p]
            a1 = a[ra + p + _ONE]
            a2 = a[ra + p + _TWO]
            a3 = a[ra + p + _THREE]
            b0 = b[p * n + col]
            b1 = b[(p + _ONE) * n + col]
            b2 = b[(p + _TWO) * n + col]
            b3 = b[(p + _THREE) * n + col]
            acc += a0 * b0
            acc += a1 * b1
            acc += a2 * b2
            acc += a3 * b3
            p += _FOUR
        while uint32(p) < steps:
            acc += a[ra + p] * b[p * n + col]
            p += _ONE
        c[row * n + col] = acc


@cuda.jit(**JIT_OPTIONS)
def matmul_tiled(a, b, c, m, n, k):
    """One thread per element of c; a and b pass through shared memory one 16-wide tile at a time.

    Launch with TILE_DIM x TILE_DIM blocks: the shared tiles and the staging assume it.
    """
    sa = cuda.shared.array((TILE_DIM, TILE_DIM), float32)
    sb = cuda.shared.array((TILE_DIM, TILE_DIM), float32)
    tx = uint64(cuda.threadIdx.x)
    ty = uint64(cuda.threadIdx.y)
    col = uint64(cuda.blockIdx.x) * _TILE + tx
    row = uint64(cuda.blockIdx.y) * _TILE + ty
    acc = float32(0.0)
    t0 = _ZERO
    while t0 < k:
        ka = t0 + tx
        kb = t0 + ty
        if row < m and ka < k:
            sa[ty, tx] = a[row * k + ka]
        else:
            sa[ty, tx] = float32(0.0)
        if kb < k and col < n:
            sb[ty, tx] = b[kb * n + col]
        else:
            sb[ty, tx] = float32(0.0)
        cuda.syncthreads()
        q = _ZERO
        while q < _TILE:
            acc += sa[ty, q] * sb[q, tx]
            q += _ONE
        cuda.syncthreads()
        t0 += _TILE
    if row < m and col < n:
        c[row * n + col] = acc


KERNELS = {"naive": matmul_naive, "tiled": matmul_tiled}
"""The lesson's kernels by their short names, in the lesson's order."""

KERNEL_FUNCTIONS = {"naive": "matmul_naive", "tiled": "matmul_tiled"}
"""The function name each kernel carries in a profiler's kernel list."""


def block_shape() -> tuple[int, int]:
    """The block: TILE_DIM x TILE_DIM threads, threadIdx.x fastest."""
    return (TILE_DIM, TILE_DIM)


def grid_shape(m: int, n: int) -> tuple[int, int]:
    """Enough blocks to cover an m x n output: x runs over columns, y over rows."""
    return ((n + TILE_DIM - 1) // TILE_DIM, (m + TILE_DIM - 1) // TILE_DIM)


MAX_DIM = 2**32 - 1
"""The largest m, n or k: the naive kernel's loop test is 32-bit."""


def launch(name: str, a: DeviceArray, b: DeviceArray, c: DeviceArray, m: int, n: int, k: int,
           stream: object = 0) -> None:
    """Launch kernel `name` on device arrays a (m*k), b (k*n), c (m*n); returns once queued.

    `stream` is a numba stream, or 0 for the default stream."""
    if not all(1 <= d <= MAX_DIM for d in (m, n, k)):
        raise ValueError(f"sizes must lie in 1..{MAX_DIM}, got m={m}, n={n}, k={k}")
    KERNELS[name][grid_shape(m, n), block_shape(), stream](
        a, b, c, np.uint64(m), np.uint64(n), np.uint64(k)
    )
