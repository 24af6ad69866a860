#!/usr/bin/env bash
# A real 400-kernel capture for the corpus, on the GPU machine: benchmarks/torch_workload.py
# (PyTorch) under ncu --set basic --launch-count 400 --clock-control none, with its details text
# export. Usage: benchmarks/device_torch.sh OUT -> OUT/torch-transformer-400.ncu-rep(.gz), .details.txt.gz
set -u
out=${1:?usage: device_torch.sh OUT}
ncu --version | tail -1
python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda, torch.cuda.get_device_name())'
t0=$SECONDS
ncu --set basic --launch-count 400 --clock-control none -f -o "$out/torch-transformer-400" \
    python3 benchmarks/torch_workload.py 2>&1 | grep -v "^==PROF== Profiling" | tail -5
echo "capture: $((SECONDS - t0)) s, $(stat -c %s "$out/torch-transformer-400.ncu-rep") bytes"
ncu --import "$out/torch-transformer-400.ncu-rep" --page details >"$out/torch-transformer-400.details.txt" 2>&1
ncu --import "$out/torch-transformer-400.ncu-rep" --page session >"$out/torch-transformer-400.session.txt" 2>&1
gzip -9 "$out/torch-transformer-400.details.txt"
ls -la "$out"
