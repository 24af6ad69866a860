"""The lesson's derivation: what the memory rows of a naive and a tiled matmul report should hold.

For dim x dim x dim float32 matmuls on `tile` x `tile` blocks (threadIdx.x fastest), computed from
the geometry alone, before any counter is read:

- A warp is 32 lanes in consecutive threadIdx.x order, so it covers 32 / tile rows of `tile`
  consecutive columns: at tile 16, two rows of sixteen.
- A global load request is one warp-wide load instruction; a sector is the 32-byte unit L1 asks
  L2 for. A request costs as many sectors as the distinct 32-byte sectors its lanes touch.
- Naive kernel, per k step, two requests: `a[row * k + p]` depends only on row, so the warp reads
  one float per row, one sector per row (rows are dim * 4 >= 32 bytes apart); `b[p * n + col]`
  depends only on col, so every row reads the same `tile` consecutive floats, tile * 4 bytes
  starting on a tile * 4-byte boundary: tile * 4 / 32 sectors. At tile 16: 2 and 2, so 2 sectors
  per request.
- Tiled kernel, per tile step, two requests (one staging a's tile, one b's): each of the warp's
  rows reads its own run of `tile` consecutive floats, so (32 / tile) * (tile * 4 / 32) = 4
  sectors per request at any tile. The inner product then reads shared memory, which fetches no
  sector.
- Load instructions per thread: naive 2 per k step, 2 * dim global; tiled 2 per tile step global,
  2 * (dim / tile), plus 2 per inner step shared, 2 * tile * (dim / tile). Tiling moves load
  instructions from global to shared memory; it does not remove them.
- Compulsory DRAM bytes: A, B and C moved once each, 3 * dim**2 * 4. A floor on DRAM traffic,
  not a prediction of it: the caches decide how many of the re-reads reach memory.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from viewer.core import formatting as fmt

# The hardware facts the lesson counts in; the rest of the app imports them from here.
WARP_SIZE = 32  # lanes in a warp
SECTOR_BYTES = 32  # the unit L1/TEX asks L2 for
FLOAT_BYTES = 4
MAX_BLOCK_THREADS = 1024
DEFAULT_TILE = 16


class DerivationError(ValueError):
    """A size or tile the derivation does not apply to."""


class KernelJson(TypedDict):
    """One kernel in Prediction.as_dict."""

    global_load_requests: int
    global_load_sectors: int
    sectors_per_request: float
    global_loads_per_thread: int
    shared_loads_per_thread: NotRequired[int]  # the tiled kernel only


class PredictionJson(TypedDict):
    """Prediction.as_dict: what `predict --json` prints."""

    dim: int
    tile: int
    naive: KernelJson
    tiled: KernelJson
    compulsory_dram_bytes: int


@dataclass(frozen=True)
class KernelPrediction:
    """One kernel's predicted global-load traffic and load instructions per thread."""

    global_load_requests: int
    global_load_sectors: int
    global_loads_per_thread: int
    shared_loads_per_thread: int

    @property
    def sectors_per_request(self) -> float:
        return self.global_load_sectors / self.global_load_requests


@dataclass(frozen=True)
class Prediction:
    """The derivation for one size and tile."""

    dim: int
    tile: int
    blocks: int
    warps: int
    naive: KernelPrediction
    tiled: KernelPrediction
    compulsory_dram_bytes: int

    def as_dict(self) -> PredictionJson:
        """The JSON form: dim, tile, naive{...}, tiled{... shared_loads_per_thread}, bytes."""

        def kernel(k: KernelPrediction, shared: bool) -> KernelJson:
            out: KernelJson = {
                "global_load_requests": k.global_load_requests,
                "global_load_sectors": k.global_load_sectors,
                "sectors_per_request": k.sectors_per_request,
                "global_loads_per_thread": k.global_loads_per_thread,
            }
            if shared:
                out["shared_loads_per_thread"] = k.shared_loads_per_thread
            return out

        return {
            "dim": self.dim,
            "tile": self.tile,
            "naive": kernel(self.naive, shared=False),
            "tiled": kernel(self.tiled, shared=True),
            "compulsory_dram_bytes": self.compulsory_dram_bytes,
        }


def _validate(dim: int, tile: int) -> None:
    if tile < 1 or WARP_SIZE % tile or tile * tile < WARP_SIZE or tile * tile > MAX_BLOCK_THREADS:
        raise DerivationError(
            f"tile {tile} does not make whole warps of whole rows; use 8, 16 or 32"
        )
    if dim < 1:
        raise DerivationError(f"size must be a positive integer, got {dim}")
    if dim % tile:
        raise DerivationError(
            f"the tile {tile} does not divide the size {dim}; use a multiple of {tile}"
        )


def run_sectors(floats: int) -> int:
    """Sectors a run of `floats` consecutive floats touches when it starts on a multiple of its
    own length (the derivation's runs always do: a tile's columns start at a tile boundary)."""
    return max(1, floats * FLOAT_BYTES // SECTOR_BYTES)


def compulsory_dram_bytes(dim: int) -> int:
    """A, B and C of a dim x dim float32 matmul moved once each: the floor on DRAM traffic."""
    return 3 * dim * dim * FLOAT_BYTES


def derive(dim: int, tile: int = DEFAULT_TILE) -> Prediction:
    """The lesson's derivation for dim x dim x dim on tile x tile blocks; DerivationError when the
    tile does not divide dim or does not make whole warps of whole rows."""
    _validate(dim, tile)
    rows_per_warp = WARP_SIZE // tile
    tiles = dim // tile
    blocks = tiles * tiles
    warps = blocks * (tile * tile // WARP_SIZE)

    # Naive: per k step one request for a (one float per row, a sector each) and one for b (the
    # same `tile` floats in every row).
    naive_requests = warps * 2 * dim
    naive_sectors = warps * dim * (rows_per_warp + run_sectors(tile))
    naive = KernelPrediction(
        global_load_requests=naive_requests,
        global_load_sectors=naive_sectors,
        global_loads_per_thread=2 * dim,
        shared_loads_per_thread=0,
    )

    # Tiled: per tile step one request staging a and one staging b, each row its own run.
    tiled_requests = warps * 2 * tiles
    tiled_sectors = tiled_requests * rows_per_warp * run_sectors(tile)
    tiled = KernelPrediction(
        global_load_requests=tiled_requests,
        global_load_sectors=tiled_sectors,
        global_loads_per_thread=2 * tiles,
        shared_loads_per_thread=2 * tile * tiles,
    )
    return Prediction(
        dim=dim,
        tile=tile,
        blocks=blocks,
        warps=warps,
        naive=naive,
        tiled=tiled,
        compulsory_dram_bytes=compulsory_dram_bytes(dim),
    )


def format_table(p: Prediction) -> str:
    """The derivation as a readable table."""
    rows = [
        ("global load requests", p.naive.global_load_requests, p.tiled.global_load_requests),
        ("global load sectors", p.naive.global_load_sectors, p.tiled.global_load_sectors),
        ("sectors per request", p.naive.sectors_per_request, p.tiled.sectors_per_request),
        ("global loads per thread", p.naive.global_loads_per_thread,
         p.tiled.global_loads_per_thread),
        ("shared loads per thread", p.naive.shared_loads_per_thread,
         p.tiled.shared_loads_per_thread),
    ]

    def cell(v: float) -> str:
        return fmt.sectors_per_request(v) if isinstance(v, float) else f"{v:,}"

    lines = [
        f"{p.dim} x {p.dim} x {p.dim} float32, {p.tile} x {p.tile} blocks: "
        f"{p.blocks:,} blocks, {p.warps:,} warps",
        f"{'':<26}{'naive':>14}{'tiled':>14}",
    ]
    lines += [f"{label:<26}{cell(n):>14}{cell(t):>14}" for label, n, t in rows]
    lines.append(
        f"compulsory DRAM bytes (A, B and C once): {p.compulsory_dram_bytes:,} "
        f"(a floor, not a prediction)"
    )
    return "\n".join(lines)


DESCRIPTION = "The lesson's derivation of the naive and tiled matmuls' memory counters."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """predict's options, for cli() and viewer/cli.py's command tree."""
    parser.add_argument("--dim", type=int, default=512, metavar="N")
    parser.add_argument("--tile", type=int, default=DEFAULT_TILE, metavar="T")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def cli(argv: list[str]) -> int:
    """`predict --dim N --tile T [--json]`: print the derivation; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m viewer predict", description=DESCRIPTION)
    add_arguments(parser)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return run(args)


def run(args: argparse.Namespace) -> int:
    """Print the derivation for parsed options; returns the exit code."""
    try:
        prediction = derive(args.dim, args.tile)
    except DerivationError as exc:
        print(f"predict: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(prediction.as_dict(), indent=2))
    else:
        print(format_table(prediction))
    return 0
