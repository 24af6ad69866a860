#!/usr/bin/env bash
# The layout and barrier probes (layout_probe.cu) on the GPU machine, under a minute; the commands
# behind tests/data/corpus/h200/layout-*:
#   OUT/layout-naive-rows.ncu-rep   matmul_naive with threadIdx.x over rows (--set full,
#                                   --import-source yes), with ncu's details, raw, session and
#                                   source page (--print-source sass) printouts
#   OUT/layout-barriers.raw.txt     the three barrier kernels' raw page (--set full)
# The probe is compiled as /tmp/b/layout_probe.cu, the path its report records.
# Usage, from the repository root on the GPU machine:  bash benchmarks/device_layout.sh OUT
set -uo pipefail
OUT=$(mkdir -p "${1:?usage: bash benchmarks/device_layout.sh OUT}" && cd "$1" && pwd)
mkdir -p /tmp/b && cp benchmarks/layout_probe.cu /tmp/b/ && cd /tmp/b || exit 1
nvcc -O3 -lineinfo -arch=sm_90 -o p layout_probe.cu || exit 1
common=(--clock-control none --import-source yes --set full -f)
ncu "${common[@]}" -k matmul_naive -c 1 -o "$OUT/layout-naive-rows" ./p | tail -2
ncu "${common[@]}" -k regex:barriers -o /tmp/b/layout-barriers ./p | tail -2
ncu -i /tmp/b/layout-barriers.ncu-rep --page raw >"$OUT/layout-barriers.raw.txt"
r=$OUT/layout-naive-rows
for page in details raw session; do
    ncu -i "$r.ncu-rep" --page "$page" >"$r.$page.txt"
done
ncu -i "$r.ncu-rep" --page source --csv --print-source sass >"$r.source.csv"
grep -E 'barrier_count|^  [a-z_]+\(' "$OUT/layout-barriers.raw.txt"
grep -E 'l1tex__t_(req|sec).*global_op_ld.sum ' "$r.raw.txt"
