#!/usr/bin/env bash
# Everything one call on the GPU machine does, in order of importance:
#   setup     numpy 2.4 from .whl/ (numba-cuda breaks on numpy 2.5), versions, a numba-cuda smoke test
#   check     python -m viewer.kernels check at 512 and at ragged sizes, on the real GPU
#   profiles  the shipped naive and tiled reports, captured with the command
#             `python -m viewer.kernels ncu-command` prints, their --page details text, details CSV
#             and raw CSV exports, and profiles/metadata.json
#   bench     benchmarks/bench_kernels.py: numba against the CUDA C++ twin and cuBLAS; the twin's
#             resource report, SASS and executed instructions
#   loops     benchmarks/loop_forms.py: seven spellings of the naive loop, timed and counted
#   large     the naive kernel and its twin at 4096 under ncu (speed of light, memory, warp state)
#   many      a many-kernel report of a PyTorch training loop, for the reader benchmark
#
# Usage, from the repository root on the GPU machine:
#   bash benchmarks/device_capture.sh OUTDIR [STEP ...]      (no STEP: all of them)
# OUTDIR receives capture.log, profiles.tar, bench.tar and many-kernels.ncu-rep (.xz when over
# 16 MiB). Every step has its own time limit inside BUDGET_S (default 570 s), and a failed step
# does not stop the next. ncu always runs with --clock-control none: the GPU's settings are left
# as they are.
set -uo pipefail

OUT=${1:?usage: bash benchmarks/device_capture.sh OUTDIR [STEP ...]}
shift
STEPS=${*:-setup check profiles bench loops large many}
BUDGET_S=${BUDGET_S:-570}
START=$(date +%s)
WORK=/tmp/capture
DIM=512
export PYTHONUNBUFFERED=1

remaining() { echo $((BUDGET_S - ($(date +%s) - START))); }

# run LIMIT_S NAME CMD...: CMD with at most LIMIT_S seconds, less when the budget is nearly spent.
run() {
    local limit=$1 name=$2
    shift 2
    local left
    left=$(($(remaining) - 5))
    ((left < limit)) && limit=$left
    if ((limit < 5)); then
        echo "=== $name: skipped, budget spent"
        return 124
    fi
    echo "=== $name (limit ${limit} s): $*"
    local t0=$SECONDS
    timeout --kill-after=10 "$limit" "$@"
    local rc=$?
    echo "=== $name: rc=$rc in $((SECONDS - t0)) s"
    return $rc
}

write_smoke() {
    cat >"$WORK/smoke.py" <<'EOF'
import importlib.metadata as md
for p in ("numpy", "numba", "numba-cuda", "cupy-cuda13x", "torch"):
    try:
        print(p, md.version(p))
    except md.PackageNotFoundError:
        print(p, "not installed")
import numpy as np
from numba import cuda

@cuda.jit
def one(x):
    x[0] = 1.0

d = cuda.to_device(np.zeros(1, np.float32))
one[1, 1](d)
print("numba-cuda smoke test:", d.copy_to_host()[0], cuda.get_current_device().name)
EOF
}

step_setup() {
    mkdir -p "$WORK"
    write_smoke
    if compgen -G ".whl/numpy-*.whl" >/dev/null; then
        python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
            --target /tmp/site .whl/numpy-*.whl && export PYTHONPATH=/tmp/site
    fi
    nvidia-smi
    nvcc --version | tail -2
    ncu --version | tail -1
    if ! run 60 smoke python3 "$WORK/smoke.py"; then
        if [[ -z ${CUDA_HOME:-} && -d /usr/local/cuda ]]; then
            export CUDA_HOME=/usr/local/cuda
            run 60 "smoke with CUDA_HOME=$CUDA_HOME" python3 "$WORK/smoke.py" && return 0
        fi
        if compgen -G ".whl/backup/*.whl" >/dev/null; then
            python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
                --target /tmp/site .whl/backup/*.whl && export PYTHONPATH=/tmp/site
            run 60 "smoke with the carried numba-cuda" python3 "$WORK/smoke.py"
        fi
    fi
}

step_check() {
    run 150 check python3 -m viewer.kernels check --dim "$DIM" 1000 33
}

step_profiles() {
    mkdir -p profiles
    local commands=() k cmd
    for k in naive tiled; do
        # The command refuses an existing report: this step replaces the shipped one on purpose.
        rm -f "profiles/$k.ncu-rep"
        cmd=$(python3 -m viewer.kernels ncu-command --kernel "$k" --dim "$DIM" \
            --report "profiles/$k") || return 1
        commands+=("$cmd")
        run 150 "profile $k" bash -c "$cmd"
        [[ -f profiles/$k.ncu-rep ]] || continue
        commands+=("ncu --import profiles/$k.ncu-rep --page details > profiles/$k.details.txt")
        ncu --import "profiles/$k.ncu-rep" --page details >"profiles/$k.details.txt"
        commands+=("ncu --import profiles/$k.ncu-rep --page details --csv > profiles/$k.details.csv")
        ncu --import "profiles/$k.ncu-rep" --page details --csv >"profiles/$k.details.csv"
        commands+=("ncu --import profiles/$k.ncu-rep --page raw --csv > profiles/$k.raw.csv")
        ncu --import "profiles/$k.ncu-rep" --page raw --csv >"profiles/$k.raw.csv"
    done
    local args=()
    for cmd in "${commands[@]}"; do args+=(--command "$cmd"); done
    python3 benchmarks/capture_metadata.py profiles/metadata.json "${args[@]}"
    tar -cf "$OUT/profiles.tar" profiles/naive.* profiles/tiled.* profiles/metadata.json
    ls -la profiles
}

step_bench() {
    mkdir -p "$WORK/bench"
    local b=$WORK/bench
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
        --format=csv | tee "$b/gpu-state.csv"
    run 90 "build twin" nvcc -O3 -arch=sm_90 -Xptxas -v -o "$b/matmul_twin" \
        benchmarks/matmul_twin.cu 2>&1 | tee "$b/twin-ptxas.txt"
    cuobjdump --dump-sass "$b/matmul_twin" >"$b/twin.sass" 2>&1
    run 300 bench python3 benchmarks/bench_kernels.py --twin "$b/matmul_twin" \
        --json "$b/bench.json" | tee "$b/bench.txt"
    # Executed instructions of the twin's first timed launch of each kernel, like the profiles'.
    python3 -c "import numpy as np; r = np.random.default_rng(1); \
[r.uniform(-1, 1, $DIM * $DIM).astype('f4').tofile('$b/' + x + '.f32') for x in 'ab']"
    local k
    for k in naive tiled; do
        run 90 "ncu twin $k" ncu -k "regex:matmul_$k" --launch-skip 4 --launch-count 1 \
            --clock-control none --csv --page raw \
            --metrics smsp__inst_executed.sum,launch__registers_per_thread,gpu__time_duration.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
            "$b/matmul_twin" "$DIM" "$b/a.f32" "$b/b.f32" "$b/out" >"$b/twin-$k-ncu.csv"
    done
    tar -C "$WORK" -cf "$OUT/bench.tar" --exclude='*.f32' --exclude=matmul_twin bench
}

step_loops() {
    local b=$WORK/bench
    mkdir -p "$b"
    run 90 "loop forms" python3 benchmarks/loop_forms.py --dim "$DIM" 4096 | tee "$b/loops.txt"
    run 120 "loop forms under ncu" ncu -k 'regex:loop_|matmul_naive' --launch-count 7 \
        --clock-control none --csv --page raw \
        --metrics smsp__inst_executed.sum,launch__registers_per_thread,gpu__time_duration.sum \
        python3 benchmarks/loop_forms.py --dim "$DIM" --launches 1 >"$b/loops-ncu.csv"
    tar -C "$WORK" -cf "$OUT/bench.tar" --exclude='*.f32' --exclude=matmul_twin bench
}

step_large() {
    local b=$WORK/bench big=4096
    mkdir -p "$b"
    local sections=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy
        --section WarpStateStats --section InstructionStats --section LaunchStats)
    run 120 "ncu numba naive at $big" ncu -k regex:matmul_naive --launch-skip 4 --launch-count 1 \
        --clock-control none "${sections[@]}" \
        python3 -m viewer.kernels profile-target --kernel naive --dim "$big" >"$b/large-numba-naive.txt"
    python3 -c "import numpy as np; r = np.random.default_rng(1); \
[r.uniform(-1, 1, $big * $big).astype('f4').tofile('$b/' + x + '$big.f32') for x in 'ab']"
    [[ -x $b/matmul_twin ]] || nvcc -O3 -arch=sm_90 -o "$b/matmul_twin" benchmarks/matmul_twin.cu
    run 120 "ncu twin naive at $big" ncu -k regex:matmul_naive --launch-skip 4 --launch-count 1 \
        --clock-control none "${sections[@]}" \
        "$b/matmul_twin" "$big" "$b/a$big.f32" "$b/b$big.f32" "$b/out$big" >"$b/large-twin-naive.txt"
    tar -C "$WORK" -cf "$OUT/bench.tar" --exclude='*.f32' --exclude=matmul_twin bench
}

step_many() {
    mkdir -p "$WORK"
    local cmd="ncu --set basic --launch-count 400 --clock-control none -f -o $WORK/many-kernels python3 benchmarks/train_loop.py"
    echo "$cmd" >"$WORK/many-kernels.command"
    run 240 "many-kernel capture" bash -c "$cmd" | tail -20
    local rep=$WORK/many-kernels.ncu-rep
    [[ -f $rep ]] || return 1
    ls -la "$rep"
    if (($(stat -c %s "$rep") > 16 * 1024 * 1024)); then
        xz -T0 -6 -k "$rep" 2>/dev/null || python3 - "$rep" <<'EOF'
import lzma, shutil, sys
with open(sys.argv[1], "rb") as src, lzma.open(sys.argv[1] + ".xz", "wb", preset=6) as dst:
    shutil.copyfileobj(src, dst)
EOF
        cp "$rep.xz" "$OUT/" && ls -la "$rep.xz"
    else
        cp "$rep" "$OUT/"
    fi
}

# The capture helper as an admin's install runs it. This machine reaches no package index, so
# `make install-capture` runs without its pip step, and the venv gets numpy 2.4 from .whl/, the
# project (a copy, not editable) and, through a .pth, numba and numba-cuda from the image.
HELPER_TOP=/tmp/ncu-reader-install
HELPER_LIBEXEC=$HELPER_TOP/libexec/ncu-reader

helper_install() {
    local top=$HELPER_TOP libexec=$HELPER_LIBEXEC actions=$HELPER_TOP/actions
    [[ -x $libexec/ncu-reader-capture ]] && return 0
    grep -E 'RmProfilingAdminOnly|RestrictProfiling' /proc/driver/nvidia/params
    ncu --help | grep -A12 -- '--clock-control' | head -16
    echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-} CUDA_HOME=${CUDA_HOME:-}"
    ldconfig -p | grep -E 'libcuda\.so|libnvidia-ml' | head -4
    local libs=""
    [[ -n ${LD_LIBRARY_PATH:-} ]] && libs=$(tr ':' '\n' <<<"$LD_LIBRARY_PATH" | while read -r d; do
        [[ -d $d ]] && echo "$d"; done | paste -sd:)
    local vars=(LIBEXEC="$libexec" POLKIT_ACTIONS="$actions" NCU="$(command -v ncu)"
        PYTHON=python3 CUDA_HOME="${CUDA_HOME:-}")
    run 60 install env NCU_READER_INSTALL_SKIP_VENV=1 make install-capture "${vars[@]}" \
        LIBRARY_PATH="$libs" || run 60 "install without LIBRARY_PATH" \
        env NCU_READER_INSTALL_SKIP_VENV=1 make install-capture "${vars[@]}" || return 1
    local base site
    base=$(python3 -c 'import sys; print(sys._base_executable)')
    "$base" -m venv --without-pip "$libexec/venv" || return 1
    site=$("$libexec/venv/bin/python3" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    python3 -m pip install -q --no-index --no-deps --no-compile --target "$site" .whl/numpy-*.whl
    rm -rf /tmp/stage && mkdir /tmp/stage && cp -R pyproject.toml setup.py README.md viewer profiles resources /tmp/stage/
    python3 -m pip install -q --no-index --no-deps --no-build-isolation --target "$site" /tmp/stage
    # numba and numba-cuda as copies of the image's own, inside the install (no index here)
    python3 benchmarks/copy_dists.py "$site" numba numba-cuda --skip numpy
    chown -R root:root "$top"
    chmod -R go-w "$top"
}

step_helper() {
    local h=$WORK/helper libexec=$HELPER_LIBEXEC actions=$HELPER_TOP/actions
    mkdir -p "$h"
    helper_install || return 1
    local helper=$libexec/ncu-reader-capture k
    head -1 "$helper"
    cat "$libexec/capture.json"
    "$helper" capture --target naive --dim 512 --set full --clock none --dry-run
    for k in naive tiled; do
        run 180 "helper $k" bash -c "'$helper' capture --target $k --dim 512 --set full \
            --clock none >'$h/$k-helper.ncu-rep' 2>'$h/$k-helper.log' </dev/null"
        tail -4 "$h/$k-helper.log"
        ls -la "$h/$k-helper.ncu-rep"
    done
    # A cancel: stdin is a pipe, closed once ncu has started.
    run 90 cancel python3 benchmarks/cancel_capture.py "$helper"
    nvidia-smi --query-compute-apps=pid,name --format=csv
    pgrep -fa 'bin/ncu|profile-target' || echo "no ncu or kernel program left running"
    # An ordinary user running the installed helper: ERR_NVGPUCTRPERM where counters are admin-only.
    run 120 "helper as nobody" setpriv --reuid=65534 --regid=65534 --clear-groups \
        env HOME=/tmp "$libexec/venv/bin/python3" -I "$helper" capture --target naive --dim 512 \
        --set basic --clock none >/dev/null 2>"$h/nobody.log" </dev/null
    tail -5 "$h/nobody.log"
    # The client's route: root with the install -> the installed helper, no password.
    mkdir -p /usr/share/polkit-1/actions
    cp "$actions"/*.policy /usr/share/polkit-1/actions/
    run 300 "python -m viewer capture" env XDG_DATA_HOME="$h/xdg" python3 -m viewer capture \
        --target both --dim 512 --set full --clock none
    ls -la "$h/xdg/ncu-reader/captures"
    cp "$h"/*.ncu-rep "$h"/*.log "$OUT/" 2>/dev/null
    tar -C "$h" -cf "$OUT/captures.tar" xdg
}

# An ordinary user running the installed helper (the direct route's rules: root's files and the
# user's own are trusted): its report, or ERR_NVGPUCTRPERM where counters are admin-only.
step_nobody() {
    rm -rf "$HELPER_TOP"  # a fresh install: an earlier call's may still be on a warm machine
    helper_install >/dev/null || return 1
    run 120 "helper as root first" "$HELPER_LIBEXEC/ncu-reader-capture" capture --target tiled \
        --dim 512 --set basic --clock none >/dev/null 2>"$WORK/root.log" </dev/null
    tail -1 "$WORK/root.log"
    find "$HELPER_TOP" -name __pycache__ | head -3
    run 120 "helper as nobody" setpriv --reuid=65534 --regid=65534 --clear-groups \
        env HOME=/tmp "$HELPER_LIBEXEC/venv/bin/python3" -I "$HELPER_LIBEXEC/ncu-reader-capture" \
        capture --target tiled --dim 512 --set basic --clock none \
        >"$WORK/nobody.ncu-rep" 2>"$WORK/nobody.log" </dev/null
    tail -3 "$WORK/nobody.log"
    ls -la "$WORK/nobody.ncu-rep"
    head -c 4 "$WORK/nobody.ncu-rep" | od -c | head -1
}

# A report of MANY_N kernels (default 10,000) of the training loop, with the reading order's three
# sections, for the reader benchmarks; xz-compressed and cut into parts that fit what comes back.
step_manyk() {
    local n=${MANY_N:-10000}
    local rep=$WORK/many-$n
    local cmd="ncu --section SpeedOfLight --section LaunchStats --section Occupancy --cache-control none --launch-count $n --clock-control none -o $rep python3 benchmarks/train_loop.py --steps 600"
    echo "$cmd"
    run 420 "many-kernel capture ($n)" bash -c "$cmd" | tail -5
    [[ -f $rep.ncu-rep ]] || return 1
    ls -la "$rep.ncu-rep"
    xz -T0 -6 -k "$rep.ncu-rep" && ls -la "$rep.ncu-rep.xz"
    split -b 15M "$rep.ncu-rep.xz" "$OUT/many-$n.ncu-rep.xz.part-"
    echo "$cmd" >"$OUT/many-$n.command"
    ls -la "$OUT"
}

main() {
    echo "device_capture.sh: steps: $STEPS; budget ${BUDGET_S} s; $(date -u +%FT%TZ)"
    local s
    for s in $STEPS; do
        echo "##### step $s ($(remaining) s left)"
        "step_$s"
    done
    echo "##### done in $(($(date +%s) - START)) s"
}

main 2>&1 | tee "$OUT/capture.log"
