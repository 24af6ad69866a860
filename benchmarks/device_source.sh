#!/usr/bin/env bash
# The shipped pair with line info, for the Source view, on the GPU machine (about 5 minutes):
#   capture   naive and tiled captured as shipped (`python -m viewer.kernels ncu-command`, the
#             kernels compiled with lineinfo=True, `--import-source yes`), into
#             OUT/naive.ncu-rep and OUT/tiled.ncu-rep, and OUT/metadata.json (their commands)
#   exports   each report's `--page source --csv` with every `--print-source` value this ncu
#             takes (OUT/<k>.source.csv for sass, OUT/<k>.source-<value>.csv for the others)
#   sass      each kernel's SASS compiled with and without lineinfo (numba's inspect_sass, else
#             nvdisasm of the cubin), OUT/sass/<k>-{lineinfo,plain}.sass, and whether the
#             instructions are identical
#   timing    both variants through the lesson's launch order (viewer.kernels.runner), side by
#             side in one run, interleaved, with the ratio
# Usage, from the repository root on the GPU machine:  bash benchmarks/device_source.sh OUT
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
set -uo pipefail
OUT=${1:?usage: bash benchmarks/device_source.sh OUT}
mkdir -p "$OUT/sass"
OUT=$(cd "$OUT" && pwd)
DIM=512
export PYTHONUNBUFFERED=1
START=$SECONDS

step() { echo "##### $1 ($((SECONDS - START)) s)"; }

main() {
    step versions
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv
    ncu --version | tail -1
    python3 -c 'import numba, numpy; from numba import cuda; print("numba", numba.__version__,
"numpy", numpy.__version__, cuda.get_current_device().name)'
    ncu --help | grep -B1 -A12 -- '--print-source' | head -30
    ncu --help | grep -A6 -- '--import-source' | head -8

    step capture
    local commands=() k cmd
    for k in naive tiled; do
        rm -f "$OUT/$k.ncu-rep"
        cmd=$(python3 -m viewer.kernels ncu-command --kernel "$k" --dim "$DIM" \
            --report "$OUT/$k") || return 1
        echo "$cmd"
        timeout 150 bash -c "$cmd" 2>&1 | tail -4
        ls -la "$OUT/$k.ncu-rep"
        commands+=("${cmd//$OUT/profiles}")
    done
    local args=()
    for cmd in "${commands[@]}"; do args+=(--command "$cmd"); done
    python3 benchmarks/capture_metadata.py "$OUT/metadata.json" "${args[@]}" >/dev/null
    cat "$OUT/metadata.json"

    step exports
    local v name
    for k in naive tiled; do
        [[ -f $OUT/$k.ncu-rep ]] || continue
        for v in sass cuda ptx cuda,sass sass,cuda source; do
            name=$k.source-${v/,/+}.csv
            [[ $v == sass ]] && name=$k.source.csv
            timeout 60 ncu --import "$OUT/$k.ncu-rep" --page source --csv --print-source "$v" \
                >"$OUT/$name" 2>&1
            echo "--print-source $v: rc=$? $(wc -l <"$OUT/$name") lines; $(head -c 300 "$OUT/$name" | tr '\n' ' ')"
        done
        timeout 60 ncu --import "$OUT/$k.ncu-rep" --page details >"$OUT/$k.details.txt" 2>&1
    done

    step sass
    timeout 150 python3 - "$OUT/sass" <<'EOF'
import re, subprocess, sys, tempfile
from pathlib import Path
import numpy as np
from numba import cuda
from viewer.kernels import matmul

out = Path(sys.argv[1])
INSTRUCTION = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(.+?)\s*;")

def sass_of(kernel):
    d = cuda.to_device(np.zeros(16 * 16, np.float32))
    kernel[(1, 1), (16, 16)](d, d, d, np.uint64(16), np.uint64(16), np.uint64(16))
    cuda.synchronize()
    try:
        return "\n".join(kernel.inspect_sass().values())
    except Exception as exc:  # nvdisasm not found by numba: disassemble the cubin here
        print("inspect_sass:", type(exc).__name__, exc)
        cubin = next(iter(kernel.overloads.values())).library.get_cubin()
        with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
            f.write(cubin); f.flush()
            return subprocess.run(["nvdisasm", "-c", f.name], capture_output=True,
                                  text=True).stdout

for name, kernel in matmul.KERNELS.items():
    print(name, "targetoptions:", kernel.targetoptions.get("lineinfo"))
    plain = cuda.jit(lineinfo=False)(kernel.py_func)
    texts = {"lineinfo": sass_of(kernel), "plain": sass_of(plain)}
    ops = {}
    for variant, text in texts.items():
        (out / f"{name}-{variant}.sass").write_text(text)
        ops[variant] = INSTRUCTION.findall(text)
        print(f"{name} {variant}: {len(ops[variant])} instructions,"
              f" {sum(o.startswith('LDG') for o in ops[variant])} LDG,"
              f" {sum(o.startswith('LDS') for o in ops[variant])} LDS")
    same = ops["lineinfo"] == ops["plain"]
    print(f"{name}: SASS with and without lineinfo identical: {same}")
    if not same:
        import difflib
        print("\n".join(list(difflib.unified_diff(ops["plain"], ops["lineinfo"], "plain",
                                                  "lineinfo", lineterm=""))[:60]))
EOF

    step timing
    timeout 200 python3 - <<'EOF'
import statistics
from numba import cuda
from viewer.core.jobs import Job
from viewer.kernels import matmul, runner

job = Job()
for name in list(runner.KERNEL_NAMES):
    matmul.KERNELS[name + "-plain"] = cuda.jit(lineinfo=False)(matmul.KERNELS[name].py_func)
print("device:", runner.require_gpu())
rounds = 5
for dim in (512, 2048):
    medians = {}
    for r in range(rounds):  # interleaved, so drift hits both variants alike
        for name in runner.KERNEL_NAMES:
            for variant in (name, name + "-plain"):
                t = runner.run_launch_order(variant, dim, job)
                assert t.passed, (variant, dim, t.relative_error)
                medians.setdefault(variant, []).append(t.median_ms)
    print(f"\ndim {dim}, {rounds} rounds of the launch order, median of the medians (ms)")
    print(f"{'kernel':8} {'lineinfo':>10} {'plain':>10} {'ratio':>7}")
    for name in runner.KERNEL_NAMES:
        li = statistics.median(medians[name])
        pl = statistics.median(medians[name + "-plain"])
        print(f"{name:8} {li:10.4f} {pl:10.4f} {li / pl:7.3f}")
EOF
    step done
    ls -la "$OUT" "$OUT/sass"
}

main 2>&1 | tee "$OUT/source.log"
