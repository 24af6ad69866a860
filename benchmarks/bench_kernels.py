"""The kernel benchmark: the numba matmuls against their CUDA C++ twins and against cuBLAS.

Needs a CUDA GPU, CuPy, and the twin built from benchmarks/matmul_twin.cu:

    nvcc -O3 -arch=sm_90 -o /tmp/matmul_twin benchmarks/matmul_twin.cu
    python3 benchmarks/bench_kernels.py --twin /tmp/matmul_twin --json bench.json

At each size every implementation runs the lesson's launch order (one correctness launch into an
output poisoned with NaN, three warm-ups, ten timed launches, each timed launch queued behind a
hold kernel so the events around it exclude host dispatch), and every output is checked against a
float64 CPU reference. numba's dispatch overhead is measured on the side, three ways: the host
time of the launch call, one launch between two events with no hold (what a plain event pair
reads), and a batch of launches between two events, per launch.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("CUPY_TF32", "0")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from numba import cuda

from viewer.core.jobs import Job
from viewer.kernels.matmul import KERNELS, launch
from viewer.kernels.runner import (
    MAX_RELATIVE_ERROR,
    TIMED_LAUNCHES,
    WARMUP_LAUNCHES,
    reference,
    relative_error,
    require_gpu,
    run_launch_order,
)

SIZES = (512, 1024, 2048, 4096)
TARGET_RATIO = 1.15
BATCH = 20

_CUPY_HOLD = r"""
extern "C" __global__ void hold(long long cycles) {
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
}
"""


def gflops(dim: int, ms: float) -> float:
    return 2.0 * dim**3 / (ms * 1e-3) / 1e9


def numba_dispatch(name: str, dim: int, rng: np.random.Generator) -> dict:
    """Timings that include dispatch: one launch between two events, and a batch of launches."""
    a = rng.uniform(-1.0, 1.0, dim * dim).astype(np.float32)
    b = rng.uniform(-1.0, 1.0, dim * dim).astype(np.float32)
    d_a, d_b = cuda.to_device(a), cuda.to_device(b)
    d_c = cuda.device_array(dim * dim, dtype=np.float32)
    for _ in range(WARMUP_LAUNCHES):
        launch(name, d_a, d_b, d_c, dim, dim, dim)
    cuda.synchronize()
    begin, end = cuda.event(timing=True), cuda.event(timing=True)
    single = []
    for _ in range(TIMED_LAUNCHES):
        begin.record()
        launch(name, d_a, d_b, d_c, dim, dim, dim)
        end.record()
        end.synchronize()
        single.append(cuda.event_elapsed_time(begin, end))
    begin.record()
    for _ in range(BATCH):
        launch(name, d_a, d_b, d_c, dim, dim, dim)
    end.record()
    end.synchronize()
    return {
        "event_pair_ms": statistics.median(single),
        "batch_ms": cuda.event_elapsed_time(begin, end) / BATCH,
    }


def run_twin(twin: Path, dim: int, a: np.ndarray, b: np.ndarray, ref: np.ndarray) -> dict:
    """Run the CUDA C++ twin on a and b; check both outputs against ref."""
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        a.tofile(tmpdir / "a.f32")
        b.tofile(tmpdir / "b.f32")
        prefix = tmpdir / "twin"
        done = subprocess.run(
            [str(twin), str(dim), str(tmpdir / "a.f32"), str(tmpdir / "b.f32"), str(prefix)],
            capture_output=True, text=True, check=True,
        )
        result = json.loads(done.stdout)
        for name in KERNELS:
            out = np.fromfile(f"{prefix}.{name}.f32", dtype=np.float32)
            result[name]["relative_error"] = relative_error(out, ref)
    return result


def run_cublas(dim: int, a: np.ndarray, b: np.ndarray, ref: np.ndarray) -> dict:
    """cuBLAS sgemm through CuPy, in the same launch order and with the same hold."""
    import cupy as cp

    hold = cp.RawKernel(_CUPY_HOLD, "hold")
    cycles = np.int64(4_000_000)  # about 2 ms at 2 GHz
    d_a = cp.asarray(a.reshape(dim, dim))
    d_b = cp.asarray(b.reshape(dim, dim))
    d_c = cp.full((dim, dim), np.nan, dtype=cp.float32)
    cp.matmul(d_a, d_b, out=d_c)
    cp.cuda.Device().synchronize()
    error = relative_error(cp.asnumpy(d_c).ravel(), ref)
    for _ in range(WARMUP_LAUNCHES):
        cp.matmul(d_a, d_b, out=d_c)
    cp.cuda.Device().synchronize()
    begin, end = cp.cuda.Event(), cp.cuda.Event()
    launches, queued = [], []
    for _ in range(TIMED_LAUNCHES):
        hold((1,), (1,), (cycles,))
        begin.record()
        cp.matmul(d_a, d_b, out=d_c)
        end.record()
        queued.append(not begin.done)
        end.synchronize()
        launches.append(cp.cuda.get_elapsed_time(begin, end))
    return {
        "median_ms": statistics.median(launches),
        "launches_ms": launches,
        "all_queued": all(queued),
        "relative_error": error,
        "version": f"CuPy {cp.__version__}, CUDA runtime {cp.cuda.runtime.runtimeGetVersion()}",
    }


def bench(dims: list[int], twin: Path, seed: int) -> dict:
    device = require_gpu()
    rng = np.random.default_rng(seed)
    results = {"device": device, "sizes": []}
    for dim in dims:
        t0 = time.perf_counter()
        entry: dict = {"dim": dim}
        for name in KERNELS:
            timing = run_launch_order(name, dim, Job(), rng)
            entry[f"numba_{name}"] = {
                "median_ms": timing.median_ms,
                "launches_ms": list(timing.launches_ms),
                "dispatch_ms": timing.median_dispatch_ms,
                "all_queued": all(timing.queued),
                "relative_error": timing.relative_error,
                "timed_output_matches": timing.timed_output_matches,
                **numba_dispatch(name, dim, rng),
            }
        a = rng.uniform(-1.0, 1.0, dim * dim).astype(np.float32)
        b = rng.uniform(-1.0, 1.0, dim * dim).astype(np.float32)
        ref = reference(a, b, dim)
        twin_result = run_twin(twin, dim, a, b, ref)
        for name in KERNELS:
            entry[f"twin_{name}"] = twin_result[name]
        entry["cublas"] = run_cublas(dim, a, b, ref)
        entry["seconds"] = time.perf_counter() - t0
        results["sizes"].append(entry)
        print(f"size {dim} done in {entry['seconds']:.1f} s", file=sys.stderr, flush=True)
    return results


def table(results: dict) -> str:
    """ms, GFLOP/s and the ratio to the CUDA C++ twin, for every size and implementation."""
    lines = [
        f"{results['device']}; float32 c = a @ b; median of {TIMED_LAUNCHES} launches, each "
        "between two events with the launch queued behind a hold (no dispatch in the time)",
        f"{'size':>5}  {'implementation':<22}{'ms':>10}{'GFLOP/s':>10}{'vs twin':>9}"
        f"{'rel. error':>12}  check",
    ]
    verdicts = []
    for entry in results["sizes"]:
        dim = entry["dim"]
        rows = []
        for name in KERNELS:
            twin_ms = entry[f"twin_{name}"]["median_ms"]
            rows.append((f"numba {name}", entry[f"numba_{name}"], twin_ms))
            rows.append((f"CUDA C++ {name} (twin)", entry[f"twin_{name}"], twin_ms))
        rows.append(("cuBLAS (CuPy) vs tiled", entry["cublas"], entry["twin_tiled"]["median_ms"]))
        for label, r, twin_ms in rows:
            ok = r["relative_error"] < MAX_RELATIVE_ERROR and r.get("timed_output_matches", True)
            ok = ok and r.get("all_queued", True)
            ratio = r["median_ms"] / twin_ms
            lines.append(
                f"{dim:>5}  {label:<22}{r['median_ms']:>10.4f}{gflops(dim, r['median_ms']):>10.1f}"
                f"{ratio:>8.2f}x{r['relative_error']:>12.2e}  {'ok' if ok else 'FAILED'}"
            )
            if label.startswith("numba"):
                verdicts.append((dim, label, ratio))
    lines.append("")
    lines.append(
        "numba dispatch, ms: host call = host time of the launch call; event pair = one launch "
        "between two events, no hold; batch = 20 launches between two events, per launch; "
        "queued = the timed figure above"
    )
    lines.append(
        f"{'size':>5}  {'kernel':<8}{'host call':>10}{'event pair':>12}{'batch':>10}{'queued':>10}"
    )
    for entry in results["sizes"]:
        for name in KERNELS:
            r = entry[f"numba_{name}"]
            lines.append(
                f"{entry['dim']:>5}  {name:<8}{r['dispatch_ms']:>10.4f}"
                f"{r['event_pair_ms']:>12.4f}{r['batch_ms']:>10.4f}{r['median_ms']:>10.4f}"
            )
    lines.append("")
    for dim, label, ratio in verdicts:
        status = "within" if ratio <= TARGET_RATIO else "OUTSIDE"
        lines.append(f"{label} at {dim}: {ratio:.2f}x its twin, {status} {TARGET_RATIO}x")
    return "\n".join(lines)


def resources(out_dir: Path) -> dict:
    """Registers and shared memory of the compiled numba kernels; their SASS where nvdisasm is
    found (written next to the JSON)."""
    report = {}
    for name, kernel in KERNELS.items():
        for args, compiled in kernel.overloads.items():
            entry = {"signature": str(args)}
            for field in ("regs_per_thread", "shared_mem_per_block", "local_mem_per_thread"):
                try:
                    entry[field] = getattr(compiled, field)
                except Exception as exc:
                    entry[field] = f"unavailable: {exc}"
            try:
                sass = compiled.inspect_sass()
            except Exception as exc:
                entry["sass"] = f"unavailable: {exc}"
            else:
                (out_dir / f"numba-{name}.sass").write_text(sass)
                entry["sass_lines"] = len(sass.splitlines())
            report[name] = entry
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dims", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--twin", type=Path, required=True, help="the built matmul_twin")
    parser.add_argument("--json", type=Path, default=None, help="write every figure here")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    results = bench(args.dims, args.twin, args.seed)
    out_dir = args.json.parent if args.json else Path(".")
    results["resources"] = resources(out_dir)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    print(table(results))
    print(json.dumps(results["resources"], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
