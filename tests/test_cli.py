"""`python -m viewer summary` (the contract other tools build on) and the no-display fallback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from viewer.metrics import SUMMARY_KEYS

ROOT = Path(__file__).resolve().parent.parent
H200 = ROOT / "tests" / "data" / "corpus" / "h200"


def run_viewer(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "viewer", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env=env)


def test_summary_json_contract_on_a_real_report() -> None:
    result = run_viewer("summary", str(H200 / "numba-naive.ncu-rep"), "--json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["schema"] == 1
    assert doc["format"] == "ncu-rep"
    assert doc["source"].endswith("numba-naive.ncu-rep")
    (k,) = doc["kernels"]
    assert set(k) == {"index", "name", "display_name", "grid", "block", "device", "cc", "metrics"}
    assert (k["index"], k["name"], k["grid"], k["block"], k["cc"]) == (
        0, "matmul_naive", [32, 32, 1], [16, 16, 1], "9.0")
    assert tuple(k["metrics"]) == SUMMARY_KEYS
    m = k["metrics"]
    assert m["global_load_requests"] == 8_388_608
    assert m["sectors_per_request"] == pytest.approx(2.0, abs=0.01)
    assert m["duration_ns"] == pytest.approx(219_136, rel=1e-3)


def test_summary_json_keeps_missing_values_null() -> None:
    result = run_viewer("summary", str(H200 / "numba-tiled.details.txt"), "--json")
    assert result.returncode == 0, result.stderr
    m = json.loads(result.stdout)["kernels"][0]["metrics"]
    assert m["shared_load_instructions"] is None  # a details export does not show it
    assert m["global_load_requests"] == 524_288
    assert m["l1tex_hit_rate_pct"] == pytest.approx(6.97)


def test_summary_text_reads_in_the_lessons_order_and_compares() -> None:
    result = run_viewer("summary", str(H200 / "numba-naive.details.txt"),
                        str(H200 / "numba-tiled.details.txt"))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.index("1. Speed Of Light") < out.index("2. The memory chart") < out.index(
        "3. Occupancy")
    assert "compute-bound" in out and "memory-bound" in out
    assert "Sectors moved (global loads): matmul_naive 8.00x matmul_tiled" in out


def test_bad_input_is_one_line_naming_the_file(tmp_path: Path) -> None:
    noise = tmp_path / "noise.ncu-rep"
    noise.write_bytes(os.urandom(4096))
    result = run_viewer("summary", str(noise), str(H200 / "numba-naive.details.txt"))
    assert result.returncode == 1
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 1 and str(noise) in errors[0]
    assert "Traceback" not in result.stderr
    assert "matmul_naive" in result.stdout  # the good file is still summarised


def test_no_display_prints_the_summary_instead(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    result = run_viewer(str(H200 / "numba-naive.details.txt"), env=env)
    assert result.returncode == 0, result.stderr
    assert "no display found" in result.stderr
    assert "1. Speed Of Light" in result.stdout
