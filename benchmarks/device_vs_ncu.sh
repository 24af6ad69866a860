#!/usr/bin/env bash
# ncu against the viewer on the GPU machine (about 6 minutes on an H200): the 400-kernel PyTorch
# capture (device_torch.sh), then benchmarks/bench_vs_ncu.py on the shipped pair, the corpus's
# one-kernel reports and that capture, and `metrics --json` of the capture compared byte for byte
# with the baseline's where BASELINE names another checkout.
# Usage, from the repository root:  bash benchmarks/device_vs_ncu.sh OUT [BASELINE]
# (MANY_XZ=FILE.xz: that capture, xz-compressed, instead of a new one)
# OUT gets bench.log, bench.json and the capture xz-compressed (many-kernels.ncu-rep.xz).
set -uo pipefail
OUT=${1:?usage: bash benchmarks/device_vs_ncu.sh OUT [BASELINE]}
BASELINE=${2:-}
export PYTHONUNBUFFERED=1
many=/tmp/many
mkdir -p "$many" "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 --version
nproc
echo "ncu: $(command -v ncu) -> $(readlink -f "$(command -v ncu)"); ncu_report: $(python3 benchmarks/bench_vs_ncu.py --print-ncu-report)"
if [[ -n ${MANY_XZ:-} && -f $MANY_XZ && ! -f $many/torch-transformer-400.ncu-rep ]]; then
    xz -d -c "$MANY_XZ" >"$many/torch-transformer-400.ncu-rep"   # a capture brought along
fi
if [[ ! -f $many/torch-transformer-400.ncu-rep ]]; then
    timeout 300 bash benchmarks/device_torch.sh "$many" 2>&1 | tail -6
fi
report=$many/torch-transformer-400.ncu-rep
args=()
[[ -f $report ]] && args+=(--many "$report")
[[ -n $BASELINE ]] && args+=(--baseline "$BASELINE")
python3 benchmarks/bench_vs_ncu.py "${args[@]}" --json "$OUT/bench.json" 2>&1 | tee "$OUT/bench.log"
if [[ -n $BASELINE && -f $report ]]; then
    extras=$(python3 benchmarks/bench_vs_ncu.py --print-ncu-report)
    for side in new before; do
        root=$PWD
        [[ $side == before ]] && root=$BASELINE
        (cd "$root" && PYTHONPATH=$root:$extras python3 -m viewer metrics "$report" --json \
            --no-cache >"/tmp/metrics-$side.json")
    done
    [[ -s /tmp/metrics-new.json ]] && cmp /tmp/metrics-new.json /tmp/metrics-before.json \
        && echo "400-kernel metrics --json: identical"
    wc -c /tmp/metrics-new.json /tmp/metrics-before.json
fi
[[ -f $report && -z ${MANY_XZ:-} ]] && xz -T0 -6 -c "$report" >"$OUT/many-kernels.ncu-rep.xz"
ls -la "$OUT"
