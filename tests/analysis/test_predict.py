"""The lesson's derivation: its figures at 512/16, an independent count elsewhere, the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from viewer.analysis.predict import DerivationError, cli, derive

WARP = 32
SECTOR = 32
FLOAT = 4


def test_lesson_figures_at_512_tile_16():
    p = derive(512, 16)
    assert p.naive.global_load_requests == 8_388_608
    assert p.tiled.global_load_requests == 524_288
    assert p.naive.global_load_sectors == 16_777_216
    assert p.tiled.global_load_sectors == 2_097_152
    assert p.naive.sectors_per_request == 2.0
    assert p.tiled.sectors_per_request == 4.0
    assert p.naive.global_loads_per_thread == 1_024
    assert p.tiled.global_loads_per_thread == 64
    assert p.tiled.shared_loads_per_thread == 1_024
    assert p.compulsory_dram_bytes == 3_145_728
    assert (p.blocks, p.warps) == (1_024, 8_192)


def _warp_lanes(dim: int, tile: int) -> tuple[np.ndarray, np.ndarray]:
    """Row and column of every lane of every warp: shape (warps, 32). Blocks are tile x tile
    with threadIdx.x fastest; warps are 32 consecutive threads of a block."""
    rows, cols = [], []
    for by in range(dim // tile):
        for bx in range(dim // tile):
            linear = np.arange(tile * tile)
            tx, ty = linear % tile, linear // tile
            for w in range(tile * tile // WARP):
                lanes = slice(w * WARP, (w + 1) * WARP)
                rows.append(by * tile + ty[lanes])
                cols.append(bx * tile + tx[lanes])
    return np.array(rows), np.array(cols)


def _distinct_sectors(addresses: np.ndarray) -> np.ndarray:
    """Distinct 32-byte sectors each request touches: addresses (..., 32 lanes) in bytes."""
    sectors = np.sort(addresses // SECTOR, axis=-1)
    return 1 + np.count_nonzero(np.diff(sectors, axis=-1), axis=-1)


def _simulated(dim: int, tile: int) -> dict[str, int]:
    """Every warp's load addresses at every step, counted: requests and sectors per kernel."""
    row, col = _warp_lanes(dim, tile)
    row, col = row[:, None, :], col[:, None, :]
    p = np.arange(dim)[None, :, None]
    naive_a = _distinct_sectors((row * dim + p) * FLOAT)
    naive_b = _distinct_sectors((p * dim + col) * FLOAT)
    t0 = (np.arange(dim // tile) * tile)[None, :, None]
    tx, ty = col % tile, row % tile
    tiled_a = _distinct_sectors((row * dim + t0 + tx) * FLOAT)
    tiled_b = _distinct_sectors(((t0 + ty) * dim + col) * FLOAT)
    return {
        "naive_requests": naive_a.size + naive_b.size,
        "naive_sectors": int(naive_a.sum() + naive_b.sum()),
        "tiled_requests": tiled_a.size + tiled_b.size,
        "tiled_sectors": int(tiled_a.sum() + tiled_b.sum()),
    }


@pytest.mark.parametrize(
    ("dim", "tile"), [(16, 16), (48, 16), (64, 16), (16, 8), (40, 8), (32, 32), (96, 32)]
)
def test_derivation_matches_a_simulated_count_of_every_warps_addresses(dim, tile):
    p = derive(dim, tile)
    sim = _simulated(dim, tile)
    assert p.naive.global_load_requests == sim["naive_requests"]
    assert p.naive.global_load_sectors == sim["naive_sectors"]
    assert p.tiled.global_load_requests == sim["tiled_requests"]
    assert p.tiled.global_load_sectors == sim["tiled_sectors"]


def test_one_k_step_of_one_warp_at_tile_16():
    """The lesson's picture: two rows of sixteen columns; a is two sectors, b is two."""
    row, col = _warp_lanes(512, 16)
    warp_rows, warp_cols = row[0], col[0]
    assert len(set(warp_rows.tolist())) == 2
    assert len(set(warp_cols.tolist())) == 16
    p = 7
    assert _distinct_sectors((warp_rows * 512 + p) * FLOAT) == 2
    assert _distinct_sectors((p * 512 + warp_cols) * FLOAT) == 2
    tiled_a = _distinct_sectors((warp_rows * 512 + 16 + warp_cols % 16) * FLOAT)
    assert tiled_a == 4


def _count_loads_naive(dim: int) -> int:
    """Global loads one thread of the naive kernel issues: walk its k loop."""
    loads = 0
    for _p in range(dim):
        loads += 2  # a[row * k + p] and b[p * n + col]
    return loads


def _count_shared_loads_tiled(dim: int, tile: int) -> int:
    """Shared loads one thread of the tiled kernel issues: walk its tile and inner loops."""
    loads = 0
    for _t in range(0, dim, tile):
        for _q in range(tile):
            loads += 2  # sa[ty, q] and sb[q, tx]
    return loads


@given(st.sampled_from([8, 16, 32]), st.integers(min_value=1, max_value=64))
def test_tiled_shared_loads_equal_naive_global_loads(tile, multiple):
    dim = tile * multiple
    p = derive(dim, tile)
    assert p.tiled.shared_loads_per_thread == _count_shared_loads_tiled(dim, tile)
    assert p.naive.global_loads_per_thread == _count_loads_naive(dim)
    assert p.tiled.shared_loads_per_thread == p.naive.global_loads_per_thread


@given(st.sampled_from([8, 16, 32]), st.integers(min_value=1, max_value=64))
def test_tiled_requests_are_a_tile_th_of_naive(tile, multiple):
    p = derive(tile * multiple, tile)
    assert p.naive.global_load_requests == tile * p.tiled.global_load_requests
    assert p.tiled.sectors_per_request == 4.0


def test_a_size_the_tile_does_not_divide_is_refused():
    with pytest.raises(DerivationError, match="does not divide"):
        derive(500, 16)


def test_cli_refuses_a_non_dividing_size_in_one_line(capsys):
    assert cli(["--dim", "500", "--tile", "16"]) != 0
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "500" in err and "16" in err


def test_cli_refuses_a_tile_that_makes_no_whole_warps(capsys):
    assert cli(["--dim", "48", "--tile", "12"]) != 0
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_cli_json_keys_and_values(capsys):
    assert cli(["--dim", "512", "--tile", "16", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"dim", "tile", "naive", "tiled", "compulsory_dram_bytes"}
    common = {
        "global_load_requests",
        "global_load_sectors",
        "sectors_per_request",
        "global_loads_per_thread",
    }
    assert set(data["naive"]) == common
    assert set(data["tiled"]) == common | {"shared_loads_per_thread"}
    assert data["naive"]["global_load_sectors"] == 16_777_216
    assert data["tiled"]["sectors_per_request"] == 4.0
    assert data["compulsory_dram_bytes"] == 3_145_728


def test_cli_table(capsys):
    assert cli(["--dim", "512"]) == 0
    out = capsys.readouterr().out
    assert "8,388,608" in out and "524,288" in out
    assert "16,777,216" in out and "2,097,152" in out
    assert "3,145,728" in out


def test_cli_bad_arguments_return_an_exit_code(capsys):
    assert cli(["--dim", "many"]) == 2
    assert "invalid int value" in capsys.readouterr().err
