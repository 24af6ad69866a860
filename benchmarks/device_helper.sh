#!/usr/bin/env bash
# The capture helper's hardening on the GPU machine, with the real ncu, in one call:
#   install   `make install-capture` into /opt/ncu-reader-test (no package index there: the venv
#             is made here, numba and numba-cuda copied from the image by copy_dists.py, numpy 2.4
#             from .whl/, the project as a copy)
#   writes    what ncu and the kernel program write, and where: `find / -newer` around a bare ncu
#             capture with TMPDIR set, and around a capture through the installed helper
#   lockdir   an ordinary user plants /tmp/nvidia/nsight_compute -> a root-owned directory; a
#             capture through the installed helper leaves it as it was (and, for contrast, the
#             helper before this hardening, from .device/old-helper.py, makes it 0777)
#   captures  both kernels at 512 through the installed helper, into OUTDIR (for
#             `python -m viewer lesson`, against the lesson's derivation)
#   failing   an install whose venv lacks numba: the kernel program fails under ncu, and the helper
#             says so with the program's own last lines
#   sigquit   SIGQUIT (what Ctrl-\ sends) during a 4096 capture: exit 9, nothing left running or
#             left in /tmp
#   user      an ordinary user (useradd) runs the installed helper by the direct route
#   refusals  the installed zipapp's own --check-install, and what it and a capture refuse: a
#             request outside the grammar, a venv file others can write, a .pth leading out of
#             the install, the check through pkexec's variable; then the uninstall
# Usage, from the repository root there: bash benchmarks/device_helper.sh OUTDIR [STEP ...]
# NCU (default: ncu on PATH) is the ncu installed. ncu always runs with --clock none: that
# machine forbids changing the clocks.
set -uo pipefail
OUT=${1:?usage: bash benchmarks/device_helper.sh OUTDIR [STEP ...]}
shift
STEPS=${*:-install writes lockdir captures failing sigquit user refusals}
TOP=/opt/ncu-reader-test
LIBEXEC=$TOP/libexec
HELPER=$LIBEXEC/ncu-reader-capture
WORK=/tmp/device-helper
USER_NAME=ncu-attacker
INSTALL=${INSTALL:-resources/install-capture.sh}
export PYTHONUNBUFFERED=1
mkdir -p "$WORK" "$OUT"

say() { echo; echo "=== $*"; }
show() { echo "\$ $*"; "$@"; echo "(exit $?)"; }
since() {  # MARKER: what changed after MARKER, outside /proc, /sys, /dev, the checkout and OUT
    # (every path; the files of one folder beyond its first three are counted, not listed)
    find / \( -path /proc -o -path /sys -o -path /dev -o -path "$PWD" -o -path "$OUT" \
        -o -path "$WORK" \) -prune -o -newer "$1" -printf '%M %u %10s %p\n' 2>/dev/null \
        | LC_ALL=C sort -k4 | awk '{ path = substr($0, index($0, $4)); dir = path
            sub(/\/[^\/]*$/, "", dir); n[dir]++
            if (n[dir] <= 3) print; else if (n[dir] == 4) more[dir] = 1 }
            END { for (d in more) printf "   ... and %d more in %s\n", n[d] - 3, d }'
}

image_python() { python3 -c 'import sys; print(sys.executable)'; }

install_into() {  # LIBEXEC_DIR WITH_NUMBA(yes|no)
    local libexec=$1 numba=$2 base site libs=""
    [[ -n ${LD_LIBRARY_PATH:-} ]] && libs=$(tr ':' '\n' <<<"$LD_LIBRARY_PATH" | while read -r d; do
        [[ -d $d ]] && echo "$d"; done | paste -sd:)
    local vars=(LIBEXEC="$libexec" POLKIT_ACTIONS="$TOP/actions" NCU="${NCU:-$(command -v ncu)}"
        PYTHON=/usr/bin/python3 CUDA_HOME="${CUDA_HOME:-}" NCU_READER_INSTALL_SKIP_VENV=1)
    # INSTALL is `make install-capture`'s script (a copy in .device/ may stand in for it).
    env "${vars[@]}" LIBRARY_PATH="$libs" bash "$INSTALL" install \
        || env "${vars[@]}" bash "$INSTALL" install || return 1
    base=$(python3 -c 'import sys; print(sys._base_executable)')
    "$base" -m venv --without-pip "$libexec/venv" || return 1
    site=$("$libexec/venv/bin/python3" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    python3 -m pip install -q --no-index --no-deps --no-compile --target "$site" .whl/numpy-*.whl
    rm -rf "$WORK/stage" && mkdir "$WORK/stage" && cp -R pyproject.toml setup.py README.md viewer profiles resources "$WORK/stage/"
    python3 -m pip install -q --no-index --no-deps --no-build-isolation --no-compile --target "$site" "$WORK/stage"
    if [[ $numba == yes ]]; then
        python3 benchmarks/copy_dists.py "$site" numba numba-cuda --skip numpy | paste -sd';'
    fi
    chown -R root:root "$TOP"
    chmod -R go-w "$TOP"
    find "$libexec" -name '*.pth' -print
}

step_install() {
    grep -E 'RmProfilingAdminOnly' /proc/driver/nvidia/params
    ncu --version | tail -1
    echo "image python: $(image_python); LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
    if ! timeout 120 python3 -c 'from numba import cuda; cuda.to_device([1.0]); print("numba-cuda ok")'; then
        export CUDA_HOME=/usr/local/cuda
        echo "numba-cuda needs CUDA_HOME=$CUDA_HOME here"
    fi
    rm -rf "$TOP"
    install_into "$LIBEXEC" yes || return 1
    head -1 "$HELPER"
    cat "$LIBEXEC/capture.json"
    local t0=$SECONDS
    show "$HELPER" capture --target naive --dim 512 --set basic --clock none --dry-run
    echo "(dry run, no checks, in $((SECONDS - t0)) s)"
}

capture() {  # NAME TARGET DIM SET [helper]: a capture through HELPER into $WORK/NAME.ncu-rep
    local name=$1 target=$2 dim=$3 set=$4 helper=${5:-$HELPER} t0=$SECONDS
    "$helper" capture --target "$target" --dim "$dim" --set "$set" --clock none \
        >"$WORK/$name.ncu-rep" 2>"$WORK/$name.log" </dev/null
    local rc=$?
    echo "$name: exit $rc in $((SECONDS - t0)) s, $(stat -c %s "$WORK/$name.ncu-rep") bytes"
    grep -v '"ncu": "==PROF== Profiling' "$WORK/$name.log" | tail -3 | cut -c1-400
    return $rc
}

step_writes() {
    say "a bare ncu with TMPDIR=$WORK/bare-tmp and HOME=/root, the helper's own argv"
    local argv
    argv=$("$HELPER" capture --target naive --dim 512 --set basic --clock none --dry-run \
        | python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)["argv"]))')
    argv=${argv//<temporary directory>/$WORK/bare-out}
    mkdir -p "$WORK/bare-tmp" "$WORK/bare-out"
    touch "$WORK/marker-bare"; sleep 1
    (cd "$WORK/bare-out" && env -i PATH=/usr/bin:/bin HOME=/root TMPDIR="$WORK/bare-tmp" \
        LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" ${CUDA_HOME:+CUDA_HOME=$CUDA_HOME} $argv >"$WORK/bare.log" 2>&1)
    echo "bare ncu: exit $?"
    echo "-- new files and directories (find / -newer MARKER, outside /proc /sys /dev):"
    since "$WORK/marker-bare"
    echo "-- inside its TMPDIR:"
    find "$WORK/bare-tmp" -printf '%M %u %10s %p\n' | sort -k4
    say "a capture through the installed helper"
    touch "$WORK/marker-helper"; sleep 1
    capture writes naive 512 basic
    echo "-- new files and directories (find / -newer MARKER, outside /proc /sys /dev):"
    since "$WORK/marker-helper"
    ls -d /tmp/ncu-reader-capture-* 2>/dev/null || echo "no /tmp/ncu-reader-capture-* left"
}

ensure_user() {
    id "$USER_NAME" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$USER_NAME"
}

as_user() { setpriv --reuid="$(id -u "$USER_NAME")" --regid="$(id -g "$USER_NAME")" --clear-groups \
    env -i HOME="/home/$USER_NAME" PATH=/usr/bin:/bin "$@"; }

step_lockdir() {
    ensure_user
    rm -rf /tmp/nvidia
    mkdir -p /srv/victim-new /srv/victim-old
    chmod 0755 /srv/victim-new /srv/victim-old
    echo keep >/srv/victim-new/file; echo keep >/srv/victim-old/file
    say "as $USER_NAME: mkdir /tmp/nvidia && ln -s /srv/victim-new /tmp/nvidia/nsight_compute"
    as_user bash -c 'mkdir /tmp/nvidia && ln -s /srv/victim-new /tmp/nvidia/nsight_compute && ls -la /tmp/nvidia'
    show stat -c '%A %U %n' /srv/victim-new
    capture lockdir-new naive 512 basic
    show stat -c '%A %U %n' /srv/victim-new
    show ls -la /srv/victim-new
    say "for contrast, the helper before this hardening (installed beside it as ncu-reader-capture-old)"
    { head -1 "$HELPER"; tail -n +2 .device/old-helper.py; } >"$LIBEXEC/ncu-reader-capture-old"
    chmod 0755 "$LIBEXEC/ncu-reader-capture-old"
    as_user bash -c 'ln -sfn /srv/victim-old /tmp/nvidia/nsight_compute && ls -la /tmp/nvidia'
    show stat -c '%A %U %n' /srv/victim-old
    capture lockdir-old naive 512 basic "$LIBEXEC/ncu-reader-capture-old"
    show stat -c '%A %U %n' /srv/victim-old
    show ls -la /srv/victim-old
    rm -f "$LIBEXEC/ncu-reader-capture-old"
    rm -rf /tmp/nvidia /srv/victim-new /srv/victim-old
}

step_captures() {
    local k
    for k in naive tiled; do capture "$k" "$k" 512 full; done
    cp "$WORK/naive.ncu-rep" "$WORK/tiled.ncu-rep" "$OUT/"  # `python -m viewer lesson` reads them
}

step_failing() {
    local libexec=$TOP/nonumba
    install_into "$libexec" no >/dev/null || return 1
    capture failing naive 512 basic "$libexec/ncu-reader-capture"
    echo "-- the helper's last line, whole:"
    tail -1 "$WORK/failing.log"
    rm -rf "$libexec"
}

step_sigquit() {
    local fifo=$WORK/stdin t0
    rm -f "$fifo"; mkfifo "$fifo"
    sleep 600 >"$fifo" &
    local holder=$!
    "$HELPER" capture --target naive --dim 4096 --set full --clock none <"$fifo" \
        >"$WORK/sigquit.ncu-rep" 2>"$WORK/sigquit.log" &
    local pid=$!
    for _ in $(seq 120); do grep -q 'Profiling' "$WORK/sigquit.log" && break; sleep 0.5; done
    pgrep -fa 'bin/ncu|profile-target' | cut -c1-160
    t0=$(date +%s.%N)
    kill -QUIT "$pid"
    wait "$pid"
    echo "helper exit $? $(python3 -c "import time; print(f'{time.time() - $t0:.1f}')") s after SIGQUIT"
    tail -1 "$WORK/sigquit.log"
    kill "$holder" 2>/dev/null
    sleep 1
    pgrep -fa 'bin/ncu|profile-target' || echo "no ncu or kernel program left running"
    nvidia-smi --query-compute-apps=pid,name --format=csv
    ls -d /tmp/ncu-reader-capture-* 2>/dev/null || echo "no /tmp/ncu-reader-capture-* left"
}

step_user() {
    ensure_user
    as_user "$HELPER" capture --target tiled --dim 512 --set basic --clock none \
        >"$WORK/user.ncu-rep" 2>"$WORK/user.log" </dev/null
    echo "as $USER_NAME (uid $(id -u "$USER_NAME")): exit $?, $(stat -c '%s bytes' "$WORK/user.ncu-rep")"
    tail -1 "$WORK/user.log" | cut -c1-300
}

step_refusals() {
    say "the installed helper's own check, as install-capture and the check-up run it"
    show "$HELPER" --check-install
    say "a request outside the grammar: exit 2, and nothing runs"
    show "$HELPER" capture --target naive --dim 520 --set basic --clock none </dev/null
    local victim
    victim=$(find "$LIBEXEC/venv" -path '*/numba/__init__.py' | head -1)
    say "a venv file others can write ($victim): the check and a capture refuse it (exit 4)"
    chmod o+w "$victim"
    show "$HELPER" --check-install
    capture untrusted naive 512 basic
    chmod o-w "$victim"
    local site
    site=$(dirname "$(dirname "$victim")")
    say "a .pth in the venv that leads out of the install: refused (exit 4)"
    echo "$PWD" >"$site/zz-checkout.pth"
    show "$HELPER" --check-install
    capture outside naive 512 basic
    rm -f "$site/zz-checkout.pth"
    say "--check-install with pkexec's variable set: refused (exit 2)"
    show env PKEXEC_UID=0 "$HELPER" --check-install
    say "back to a clean install: the check passes; then uninstall leaves nothing"
    show "$HELPER" --check-install
    show env LIBEXEC="$LIBEXEC" POLKIT_ACTIONS="$TOP/actions" bash "$INSTALL" uninstall
    ls -la "$TOP" 2>&1 | head -5
    pgrep -fa 'bin/ncu|profile-target' || echo "no ncu or kernel program left running"
    ls -d /tmp/ncu-reader-capture-* 2>/dev/null || echo "no /tmp/ncu-reader-capture-* left"
}

echo "device_helper.sh: steps: $STEPS; $(date -u +%FT%TZ)"
START=$SECONDS
for s in $STEPS; do
    echo; echo "##### step $s ($((SECONDS - START)) s in)"
    "step_$s"
done
tar -C "$WORK" -czf "$OUT/logs.tgz" --exclude='*.ncu-rep' --exclude=bare-out --exclude=stage . 2>/dev/null
echo "##### done in $((SECONDS - START)) s"
