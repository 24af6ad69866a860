#!/usr/bin/env bash
# The lesson's two kernels at 128,256,512,1024,2048 in ONE run of the installed capture helper
# (--set full, line info and the kernels' source as the shipped profiles, clock none: that
# machine forbids changing the clocks), on the GPU machine, in one call (under 8 minutes):
#   1. install the helper into /opt/ncu-reader-test as benchmarks/device_helper.sh's `install`
#      step does (numpy 2.4 from .whl/, numba and numba-cuda copied by copy_dists.py; the machine
#      runs as root and reaches no package index);
#   2. one helper run: its stdout (the ten reports, one after another) and its JSON lines;
#   3. the stream split into OUTDIR/sweep/<target>-<N>.ncu-rep by the `done` event's list, each
#      report's size printed; OUTDIR/sweep/metadata.json says how (commands, versions, GPU);
#   4. `python -m viewer series OUTDIR/sweep/*.ncu-rep`.
# Usage, from the repository root there: bash benchmarks/device_sweep.sh OUTDIR
set -uo pipefail
OUT=${1:?usage: bash benchmarks/device_sweep.sh OUTDIR}
DIMS=128,256,512,1024,2048
SWEEP=$OUT/sweep
WORK=/tmp/device-sweep
mkdir -p "$SWEEP" "$WORK"
# device_helper.sh's functions and settings (TOP, LIBEXEC, HELPER, install_into, step_install),
# without running its steps: it runs them only when executed, not when its lines are sourced
# with STEPS left empty.
source <(sed -n '/^TOP=/,/^HELPER=/p; /^INSTALL=/p; /^say()/,/^image_python()/p;
                 /^install_into()/,/^}/p; /^step_install()/,/^}/p' benchmarks/device_helper.sh)
export PYTHONUNBUFFERED=1

say "install"
step_install || { echo "install failed"; exit 1; }

say "one helper run: --target both --dim $DIMS --set full --clock none"
COMMAND=("$HELPER" capture --target both --dim "$DIMS" --set full --clock none)
t0=$SECONDS
timeout 450 "${COMMAND[@]}" >"$WORK/stream" 2>"$WORK/lines.jsonl" </dev/null
rc=$?
echo "exit $rc in $((SECONDS - t0)) s, $(stat -c %s "$WORK/stream") bytes on stdout"
grep -E '"(started|sent|error)"' "$WORK/lines.jsonl" | cut -c1-300
[[ $rc == 0 ]] || { tail -5 "$WORK/lines.jsonl"; exit 1; }

say "split into $SWEEP"
python3 - "$WORK/stream" "$WORK/lines.jsonl" "$SWEEP" <<'PY' || exit 1
import json, sys
from pathlib import Path
stream, lines, out = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
done = next(json.loads(l)["done"] for l in lines.read_text().splitlines() if '"done"' in l)
data, at = stream.read_bytes(), 0
assert sum(r["bytes"] for r in done["reports"]) == len(data) == done["bytes"]
for r in done["reports"]:
    part = data[at:at + r["bytes"]]
    assert part[:4] == b"NVR\0", r
    path = out / f"{r['target']}-{r['dim']}.ncu-rep"
    path.write_bytes(part)
    print(f"{path}: {len(part):,} bytes")
    at += r["bytes"]
(out / "helper-done.json").write_text(json.dumps(done, indent=1) + "\n")
PY

say "metadata"
python3 benchmarks/capture_metadata.py "$SWEEP/metadata.json" \
    --command "${COMMAND[*]} > stream (one run of the installed helper; split by its done event)" \
    && cat "$SWEEP/metadata.json"

say "series"
python3 -m viewer series "$SWEEP"/*.ncu-rep
