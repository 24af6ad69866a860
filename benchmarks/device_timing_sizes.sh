#!/usr/bin/env bash
# The timing over sizes on the GPU machine: `python -m viewer.kernels time --dim LIST`, both
# kernels at each size through the runner's launch order (the timed launches between CUDA events),
# their medians, min..max and relative standard deviation, the ratio and the stable flag.
#   OUTDIR/timing-sizes.txt    the table, as the terminal prints it
#   OUTDIR/timing-sizes.json   the same run's --json (a second run: its numbers differ a little)
#   OUTDIR/environment.txt     the GPU, the driver, the Python and its numba and numpy
# Usage, from the repository root there: bash benchmarks/device_timing_sizes.sh OUTDIR [LIST]
# (LIST default 128,256,512,1024,2048). numpy 2.4 comes from .whl/ (carried: it is ignored), put
# beside the image's numba and numba-cuda with `pip install --target` and PYTHONPATH, as
# device_helper.sh does; no package index is reached.
set -uo pipefail
OUT=${1:?usage: bash benchmarks/device_timing_sizes.sh OUTDIR [LIST]}
DIMS=${2:-128,256,512,1024,2048}
SITE=/tmp/site
export PYTHONUNBUFFERED=1
mkdir -p "$OUT" "$SITE"
unset NUMBA_ENABLE_CUDASIM

python3 -m pip install -q --no-index --no-deps --no-compile --target "$SITE" .whl/numpy-*.whl \
    || { echo "numpy from .whl/ did not install" >&2; exit 1; }
export PYTHONPATH=$SITE:$PWD

{
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv 2>&1
    python3 -c 'import sys, numba, numpy; print(sys.version.split()[0], "numba", numba.__version__,
"numpy", numpy.__version__, numpy.__file__)'
} >"$OUT/environment.txt" 2>&1
cat "$OUT/environment.txt"

python3 -m viewer.kernels time --dim "$DIMS" | tee "$OUT/timing-sizes.txt"
status=${PIPESTATUS[0]}
python3 -m viewer.kernels time --dim "$DIMS" --json >"$OUT/timing-sizes.json"
json_status=$?
echo "table exit $status, json exit $json_status"
[[ $status -eq 0 && $json_status -eq 0 ]]
