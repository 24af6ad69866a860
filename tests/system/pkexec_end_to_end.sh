#!/usr/bin/env bash
# make test-system: a real pkexec and polkitd, end to end, with a fake ncu (no GPU needed).
#
# Run as root on a THROWAWAY Debian machine: it installs packages with apt (pkexec, polkitd,
# python3-venv when missing), starts a system D-Bus and polkitd when none runs, installs the capture
# helper with `make install-capture PREFIX=<a scratch prefix of its own>` (a venv with numba from
# PyPI, or PIP_OPTS; LIBRARY_PATH a root-owned directory of its own), creates the user
# ncu-reader-test and grants it the polkit action
# with a rules file (standing in for an administrator typing a password). The fake ncu behaves like
# ncu where it matters: it makes ${TMPDIR:-/tmp}/nvidia/nsight_compute (following links), chmods it
# 0777 and writes a 0666 lock file there; --dim 48 writes a report and dies of SIGSEGV; --dim 64
# starts a child in a session of its own and hangs. Then, as that user:
#   1. pkexec runs the installed helper: the report arrives on stdout, starts with NVR\0 and is the
#      fake ncu's copy of profiles/naive.ncu-rep; the helper ran as root for the user's uid;
#   2. a bad request through pkexec exits 2 and runs nothing;
#   3. the client (viewer.terminal.capture_terminal, the code behind `python -m viewer capture`, on the
#      pkexec route) saves both kernels' reports in the user's data folder, owned by the user;
#   4. the lock-directory attack: with /tmp/nvidia/nsight_compute the user's link to a root-owned
#      directory, a capture leaves that directory as it was; ncu's TMPDIR was private and is gone;
#   5. an ncu that writes a report then dies of SIGSEGV: exit 12 (ncu_failed), nothing streamed, and
#      the client saves nothing;
#   6. Ctrl-\ (SIGQUIT) typed at the user's terminal while ncu hangs: exit 9 (cancelled) within
#      20 s, no process of the fake left (its setsid child included), no capture directory left,
#      and `ncu --clock-control reset` ran after it;
#   7. `pkexec --user nobody` (pkexec may stop at nobody's missing home itself, exit 127) and
#      `pkexec --keep-cwd --user nobody`: exit 4 (untrusted), the helper says it is not root, and
#      ncu never runs;
#   8. a library owned by the user in LIBRARY_PATH: exit 4 naming it, ncu never runs;
#   9. without the rules file pkexec exits 127 with no `started` line, and the client says
#      "Not authorized".
# Each step runs to its end and the summary names those that failed.
#
# It never adopts or leaves an install it did not make. The install goes into a scratch prefix of
# its own (mktemp -d under /tmp, root's, 0755), with the fake ncu beside it; only the polkit action
# must be where polkit reads it, /usr/share/polkit-1/actions. So it refuses to start, changing
# nothing, where an ncu-reader action is there already (an install it did not make), or its user
# or rules file exists. Everything it adds outside the scratch folder (the action, the directories
# install-capture makes above it, the rules file, the user) is written to a manifest before it is
# added; at the end it removes exactly those (the action only while it names the scratch helper,
# through `make uninstall-capture PREFIX=...`), stops the daemons it started (by pid) and removes
# what they made in /run/dbus, removes the scratch folder, puts back a /tmp/nvidia from before, and
# checks that nothing it added remains and that /usr/local/libexec/ncu-reader is as it was. Packages installed with apt
# stay (a throwaway machine; the next run needs them). Prints PASS or FAIL last. Not part of
# `make test`.
set -euo pipefail
umask 022
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

TEST_USER="ncu-reader-test"
RULES_DIR="/etc/polkit-1/rules.d"
RULES="$RULES_DIR/50-ncu-reader-test.rules"
ACTIONS="/usr/share/polkit-1/actions"  # polkit reads its actions only here
ACTION_ID="io.github.ncu-reader.capture"
POLICY="$ACTIONS/$ACTION_ID.policy"
SYSTEM_LIBEXEC="/usr/local/libexec/ncu-reader"  # the default install's place: never touched
INSTALL_PYTHON="${PYTHON:-/usr/bin/python3}"
TMP_NVIDIA="/tmp/nvidia"              # where ncu makes its lock directory without TMPDIR
EXEC_PATH_KEY="org.freedesktop.policykit.exec.path"

step() { echo "== $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
check() { echo "   ok: $*"; }
refuse() {  # before anything is changed: no cleanup to run
    echo "REFUSED: $*" >&2
    echo "FAIL: make test-system refused to start; it changed nothing"
    exit 1
}
exec_path_of() { sed -n "s|.*<annotate key=\"$EXEC_PATH_KEY\">\([^<]*\)</annotate>.*|\1|p" -- "$1" | head -n 1; }
# What the default install's place holds, to tell at the end that it is as it was.
system_libexec_state() {
    if [[ -e "$SYSTEM_LIBEXEC" || -L "$SYSTEM_LIBEXEC" ]]; then
        find "$SYSTEM_LIBEXEC" -printf '%p %y %m %U %s %T@\n' 2>/dev/null | sort | sha256sum
    else
        echo absent
    fi
}

[[ "$(id -u)" == 0 ]] || fail "run as root on a throwaway machine (it installs packages and adds a user)"

# ---------------------------------------------------------------- refusals, before any change
theirs=()
if [[ -d "$ACTIONS" ]]; then
    mapfile -t theirs < <(grep -l -F "id=\"$ACTION_ID\"" -- "$ACTIONS"/* 2>/dev/null || true)
fi
[[ -e "$POLICY" || -L "$POLICY" ]] && [[ ! " ${theirs[*]} " == *" $POLICY "* ]] && theirs+=("$POLICY")
if (( ${#theirs[@]} )); then
    named=""
    for policy in "${theirs[@]}"; do named+=" $policy (exec.path: $(exec_path_of "$policy" || true));"; done
    refuse "an ncu-reader polkit action is installed already:${named%;}. This test installs its own" \
        "and never adopts, replaces or removes one it did not put there: run it where the capture is" \
        "not installed (an earlier run's leftover names /tmp/ncu-reader-system.*/prefix/...; remove" \
        "it with 'make uninstall-capture PREFIX=<that prefix>' or by hand)."
fi
if id "$TEST_USER" >/dev/null 2>&1; then
    refuse "the user $TEST_USER exists already; this test adds it and removes it, and never takes" \
        "over one it did not add (an earlier run's leftover: userdel -r $TEST_USER)"
fi
[[ ! -e "$RULES" && ! -L "$RULES" ]] || refuse "$RULES exists already; this test writes it and removes it (an earlier run's leftover: remove it)"
SYSTEM_LIBEXEC_BEFORE="$(system_libexec_state)"

SCRATCH="$(realpath -e -- "$(mktemp -d /tmp/ncu-reader-system.XXXXXX)")"
chmod 0755 -- "$SCRATCH"               # the user reads the policy's helper path and the params
MANIFEST="$SCRATCH/manifest"           # KIND PATH: what this run added outside $SCRATCH
WORK="$SCRATCH/work"
FAKE_DIR="$SCRATCH/fake"
LIB_DIR="$FAKE_DIR/lib"               # the install's LIBRARY_PATH: root's, 0755
LOCK_TARGET="$FAKE_DIR/lock-target"   # the root-owned directory the user's link points at
RUNS="$FAKE_DIR/runs"                 # one line per run of the fake ncu
HANG="$FAKE_DIR/hang-pids"            # the hanging fake's pid and its setsid child's
PREFIX="$SCRATCH/prefix"              # the install's own prefix
LIBEXEC="$PREFIX/libexec/ncu-reader"
HELPER="$LIBEXEC/ncu-reader-capture"
SAVED_NVIDIA="$SCRATCH/nvidia.before"
install -d -m 0700 "$WORK"
: > "$MANIFEST"
added() { echo "$1 $2" >> "$MANIFEST"; }  # KIND PATH, written before the thing is added

STARTED_PIDS=()
FAILED_STEPS=()
DBUS_FILES=()
# A /tmp/nvidia from before (a real ncu's) is put aside for the lock-directory step, and back after.
if [[ -e "$TMP_NVIDIA" || -L "$TMP_NVIDIA" ]]; then
    mv -- "$TMP_NVIDIA" "$SAVED_NVIDIA"
fi
# The capture directories the helper made, as the fake's runs recorded in FILE saw them (its cwd).
capture_dirs() { sed -n 's|.* cwd=\(/tmp/ncu-reader-capture-[^/ ]*\)[^ ]* .*|\1|p' "$1" | sort -u; }
# A process of the fake ncu's, by pid, still what the fake started (a sleep): kill it.
kill_fake() {
    local pid="$1"
    [[ "$pid" =~ ^[0-9]+$ ]] || return 0
    if [[ "$(tr '\0' ' ' 2>/dev/null < "/proc/$pid/cmdline")" == "sleep 600 " ]]; then
        kill -KILL "$pid" 2>/dev/null
        echo "   killed pid $pid (left by the fake ncu)"
    fi
}
# Remove what the manifest lists, last added first; prints what could not be removed.
undo_manifest() {
    local lines=() i kind path
    mapfile -t lines < "$MANIFEST"
    for (( i = ${#lines[@]} - 1; i >= 0; i-- )); do
        kind="${lines[i]%% *}" path="${lines[i]#* }"
        case "$kind" in
            policy)  # through the install's own uninstall: it removes the action only while the
                     # action names this install's helper, then the install and its directories
                if [[ -e "$path" ]] && [[ "$(exec_path_of "$path")" != "$HELPER" ]]; then
                    echo "   $path names $(exec_path_of "$path"), not $HELPER: not this run's, left alone"
                fi
                if [[ -e "$LIBEXEC" || -e "$path" ]]; then
                    make -s uninstall-capture PREFIX="$PREFIX" POLKIT_ACTIONS="$ACTIONS" | sed 's/^/   /'
                fi ;;
            rules) [[ -f "$path" ]] && grep -q "make test-system" -- "$path" && rm -f -- "$path" && echo "   removed $path" ;;
            user) id "$path" >/dev/null 2>&1 && userdel -r "$path" 2>/dev/null && echo "   removed the user $path" ;;
            dir) [[ -d "$path" ]] && rmdir -- "$path" 2>/dev/null && echo "   removed $path" ;;
            *) echo "   the manifest holds an unknown line: ${lines[i]}" ;;
        esac
    done
    return 0
}
# What this run added and is still there, one line each; nothing when all is gone.
leftovers() {
    local lines=() line kind path
    mapfile -t lines < "$MANIFEST"
    for line in "${lines[@]}"; do
        kind="${line%% *}" path="${line#* }"
        case "$kind" in
            policy) [[ -e "$path" && "$(exec_path_of "$path")" == "$HELPER" ]] && echo "the action $path (naming $HELPER)" ;;
            rules|dir) [[ -e "$path" ]] && echo "$path" ;;
            user) id "$path" >/dev/null 2>&1 && echo "the user $path" ;;
        esac
    done
    for path in "${DBUS_FILES[@]}"; do [[ -e "$path" ]] && echo "$path"; done
    [[ -n "${DBUS_RUN_MADE:-}" && -e /run/dbus ]] && echo /run/dbus
    [[ "$(system_libexec_state)" == "$SYSTEM_LIBEXEC_BEFORE" ]] || echo "$SYSTEM_LIBEXEC changed"
    return 0
}
cleanup() {
    local rc=$?
    set +e
    trap '' INT TERM HUP  # the cleanup runs to its end
    step "cleaning up"
    local pid word dir
    if [[ -f "$HANG" ]]; then
        for word in $(cat "$HANG"); do kill_fake "${word#*=}"; done
    fi
    if [[ -f "$WORK/pty-helper-pid" ]]; then  # a helper that outlived the Ctrl-\ step
        pid="$(cat "$WORK/pty-helper-pid")"
        [[ "$pid" =~ ^[0-9]+$ ]] && grep -qs ncu-reader-capture "/proc/$pid/cmdline" && kill -KILL "$pid"
    fi
    # The capture directories the helper made (the fake ran in them), if a killed helper left any.
    if [[ -f "$RUNS.all" ]]; then
        while read -r dir; do
            [[ "$dir" == /tmp/ncu-reader-capture-* && -d "$dir" ]] && rm -rf -- "$dir" && echo "   removed $dir"
        done < <(capture_dirs "$RUNS.all")
    fi
    undo_manifest
    rm -rf -- "$TMP_NVIDIA"
    [[ -e "$SAVED_NVIDIA" || -L "$SAVED_NVIDIA" ]] && mv -- "$SAVED_NVIDIA" "$TMP_NVIDIA"
    local i
    for (( i = ${#STARTED_PIDS[@]} - 1; i >= 0; i-- )); do
        kill "${STARTED_PIDS[i]}" 2>/dev/null
        for _ in $(seq 50); do kill -0 "${STARTED_PIDS[i]}" 2>/dev/null || break; sleep 0.1; done
    done
    if [[ -n "${DBUS_RUN_MADE:-}" ]]; then
        rm -rf -- /run/dbus && echo "   removed /run/dbus"
    else
        for word in "${DBUS_FILES[@]}"; do [[ -e "$word" ]] && rm -f -- "$word" && echo "   removed $word"; done
    fi
    local left summary
    left="$(leftovers)"
    summary="$(cut -d' ' -f1 "$MANIFEST" | sort | uniq -c | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2}')"
    rm -rf -- "$SCRATCH"
    [[ ! -e "$SCRATCH" ]] || left+=$'\n'"$SCRATCH"
    if [[ -n "${left//$'\n'/}" ]]; then
        echo "   left behind:"
        sed '/^$/d; s/^/     /' <<< "$left"
        (( rc )) || rc=1
    else
        echo "   nothing this run added is left: its manifest (${summary:-empty}) and $SCRATCH are gone;" \
            "$SYSTEM_LIBEXEC is as it was ($([[ "$SYSTEM_LIBEXEC_BEFORE" == absent ]] && echo absent || echo unchanged))"
    fi
    if [[ $rc == 0 ]]; then
        echo "PASS: make test-system"
    elif (( ${#FAILED_STEPS[@]} )); then
        echo "FAIL: make test-system: ${#FAILED_STEPS[@]} step(s) failed: ${FAILED_STEPS[*]}"
    else
        echo "FAIL: make test-system (exit $rc before the steps ended, or something was left)"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# ---------------------------------------------------------------- packages and daemons
step "packages"
missing=()
command -v pkexec >/dev/null || missing+=(pkexec)
[[ -x /usr/lib/polkit-1/polkitd ]] || missing+=(polkitd)
command -v dbus-daemon >/dev/null || missing+=(dbus-daemon)
command -v dbus-send >/dev/null || missing+=(dbus-bin)
"$INSTALL_PYTHON" -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
if (( ${#missing[@]} )); then
    echo "   apt-get install ${missing[*]} (packages stay: a throwaway machine)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
check "pkexec $(pkexec --version | tr -d '\n'), polkitd, dbus-daemon"

bus_call() {
    dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus "$@" 2>/dev/null
}
# What the D-Bus this run starts makes in /run/dbus (DBUS_FILES) goes once it is stopped.
if ! bus_call org.freedesktop.DBus.GetId >/dev/null; then
    if [[ ! -e /run/dbus ]]; then
        DBUS_RUN_MADE=1
        mkdir -p /run/dbus
    fi
    if [[ -f /run/dbus/pid ]] && ! kill -0 "$(cat /run/dbus/pid)" 2>/dev/null; then
        rm -f /run/dbus/pid
    fi
    for f in /run/dbus/pid /run/dbus/system_bus_socket; do [[ -e "$f" ]] || DBUS_FILES+=("$f"); done
    STARTED_PIDS+=("$(dbus-daemon --system --fork --print-pid)")
    check "started the system D-Bus (pid ${STARTED_PIDS[-1]})"
else
    check "a system D-Bus is running"
fi
polkit_up() { bus_call org.freedesktop.DBus.NameHasOwner string:org.freedesktop.PolicyKit1 | grep -q true; }
if ! polkit_up; then
    /usr/lib/polkit-1/polkitd --no-debug >"$WORK/polkitd.log" 2>&1 &
    STARTED_PIDS+=("$!")
    for _ in $(seq 100); do polkit_up && break; sleep 0.1; done
    polkit_up || fail "polkitd did not come up: $(cat "$WORK/polkitd.log")"
    check "started polkitd (pid ${STARTED_PIDS[-1]})"
else
    check "polkitd is running"
fi

# ---------------------------------------------------------------- the fake ncu and the install
step "a fake ncu in $FAKE_DIR (root-owned)"
install -d -o root -g root -m 0755 "$FAKE_DIR" "$LIB_DIR"
install -o root -g root -m 0644 profiles/naive.ncu-rep profiles/tiled.ncu-rep "$FAKE_DIR/"
cat > "$WORK/ncu" <<'NCU'
#!/bin/bash
# A stand-in for Nsight Compute's ncu (make test-system): copies a shipped report, no GPU needed.
set -u
here="$(dirname "$(readlink -f "$0")")"
if [[ "${1:-}" == --version ]]; then
    echo "NVIDIA (R) Nsight Compute Command Line Profiler"
    echo "Version 2025.3.1.0 (build 0) (fake ncu of make test-system)"
    exit 0
fi
# Every run is recorded (as the user's uid it cannot write here, and says so on its output).
tmp="${TMPDIR:-/tmp}"
record="$(date +%s.%N) uid=$(id -u) cwd=$PWD TMPDIR=${TMPDIR-<unset>} TMP=${TMP-<unset>} TEMP=${TEMP-<unset>} tmp=$(stat -c '%u:%a' "$tmp" 2>/dev/null) argv: $(printf '%q ' "$@")"
{ echo "$record" >> "$here/runs" && echo "$record" >> "$here/runs.all"; } 2>/dev/null \
    || echo "==WARNING== the fake ncu (uid $(id -u)) could not record its run"
printf '%q ' "$@" 2>/dev/null > "$here/last-argv"
echo "uid=$(id -u) cwd=$PWD PATH=$PATH HOME=${HOME:-} TMPDIR=${TMPDIR-<unset>}" 2>/dev/null > "$here/last-env"
# As ncu does: its lock directory under $TMPDIR (default /tmp), links followed, made 0777, with a
# 0666 lock file in it.
lockdir="$tmp/nvidia/nsight_compute"
mkdir -p "$lockdir" 2>/dev/null && chmod 0777 "$lockdir" 2>/dev/null \
    && touch "$lockdir/lock" 2>/dev/null && chmod 0666 "$lockdir/lock" 2>/dev/null
out="" kernel="" clock=""
while (( $# )); do
    case "$1" in
        -o|--export) out="$2"; shift 2 ;;
        -k|--kernel-name) kernel="$2"; shift 2 ;;
        --clock-control) clock="$2"; shift 2 ;;
        --config-file|--target-processes|--set|--import-source|--metrics|--launch-skip|--launch-count)
            shift 2 ;;
        -*) echo "==ERROR== the fake ncu does not know the option $1"; exit 1 ;;
        *) break ;;
    esac
done
if [[ "$clock" == reset && -z "$out" && $# == 0 ]]; then exit 0; fi  # ncu --clock-control reset
(( $# )) && [[ -n "$out" ]] || { echo "==ERROR== usage: ncu [options] -o REPORT PROGRAM [ARGS]"; exit 1; }
case "$kernel" in
    *naive*) sample="$here/naive.ncu-rep" ;;
    *tiled*) sample="$here/tiled.ncu-rep" ;;
    *) echo "==ERROR== the fake ncu knows no kernel $kernel"; exit 1 ;;
esac
dim=""
args=("$@")
for (( i = 1; i < ${#args[@]}; i++ )); do
    [[ "${args[i-1]}" == --dim ]] && dim="${args[i]}"
done
# The program is the install's interpreter running the app's kernels: prove it imports them
# (numba, numba-cuda, numpy and the project in the root-owned venv).
if [[ "$(basename "$1")" == python* ]]; then
    if ! err="$("$1" -I -c 'import numba.cuda, numpy, viewer.kernels.runner, viewer.kernels.__main__' 2>&1)"; then
        echo "==ERROR== the target cannot import the kernels: ${err//$'\n'/ | }"
        exit 1
    fi
fi
echo "==PROF== Connected to process $$ ($1)"
case "$dim" in
    48)  # a crash after the report was begun
        { printf 'NVR\0'; head -c 4996 /dev/zero; } > "$out.ncu-rep"
        ulimit -c 0
        kill -SEGV $$
        exit 1 ;;
    64)  # a hang, with a child that left ncu's process group and session
        setsid sleep 600 < /dev/null &
        child=$!
        for _ in $(seq 50); do
            [[ "$(cut -d' ' -f6 "/proc/$child/stat" 2>/dev/null)" == "$child" ]] && break
            sleep 0.1
        done
        echo "fake=$$ child=$child child_sid=$(cut -d' ' -f6 "/proc/$child/stat")" > "$here/hang-pids"
        echo "==PROF== Profiling \"${kernel#regex:}\" - 0: 0%...."
        exec sleep 600 ;;
esac
echo "==PROF== Profiling \"${kernel#regex:}\" - 0: 0%....50%....100% - 9 passes"
echo "==PROF== Disconnected from process $$"
cp "$sample" "$out.ncu-rep"
echo "==PROF== Report: $out.ncu-rep"
NCU
install -o root -g root -m 0755 "$WORK/ncu" "$FAKE_DIR/ncu"
check "$FAKE_DIR/ncu"

step "make install-capture PREFIX=$PREFIX NCU=$FAKE_DIR/ncu LIBRARY_PATH=$LIB_DIR PYTHON=$INSTALL_PYTHON (a venv with numba: minutes)"
# The directories missing above the action (install-capture makes them, and its uninstall removes
# them), then the action itself: in the manifest before the install adds them.
dirs=()
d="$ACTIONS"
while [[ ! -e "$d" ]]; do dirs=("$d" "${dirs[@]}"); d="$(dirname -- "$d")"; done
for d in "${dirs[@]}"; do added dir "$d"; done
added policy "$POLICY"
# pip's cache goes into the scratch folder too, not root's home.
PIP_CACHE_DIR="$WORK/pip-cache" make -s install-capture PREFIX="$PREFIX" POLKIT_ACTIONS="$ACTIONS" \
    NCU="$FAKE_DIR/ncu" LIBRARY_PATH="$LIB_DIR" PYTHON="$INSTALL_PYTHON" PIP_OPTS="${PIP_OPTS:-}"
[[ "$(exec_path_of "$POLICY")" == "$HELPER" ]] || fail "the installed policy names $(exec_path_of "$POLICY"), not $HELPER"
[[ ! -e "$SYSTEM_LIBEXEC" || "$(system_libexec_state)" == "$SYSTEM_LIBEXEC_BEFORE" ]] \
    || fail "the install touched $SYSTEM_LIBEXEC"
grep -q "<annotate key=\"org.freedesktop.policykit.exec.path\">$HELPER</annotate>" "$POLICY" \
    || fail "the installed policy does not name $HELPER"
head -n 1 "$HELPER" | grep -qx "#!$LIBEXEC/venv/bin/python3 -IS" || fail "$HELPER's first line is $(head -n 1 "$HELPER")"
pkaction --action-id "$ACTION_ID" --verbose | sed 's/^/   /'
check "polkitd knows the action; the helper starts '#!$LIBEXEC/venv/bin/python3 -IS'"

# ---------------------------------------------------------------- the user and the rule
step "an ordinary user, and a polkit rule granting it the action"
added user "$TEST_USER"
useradd --create-home --shell /bin/bash "$TEST_USER"
USER_UID="$(id -u "$TEST_USER")"
USER_HOME="$(getent passwd "$TEST_USER" | cut -d: -f6)"
as_user() { su -l -s /bin/bash "$TEST_USER" -c "$1" < /dev/null; }
[[ -d "$RULES_DIR" ]] || { added dir "$RULES_DIR"; install -d -m 0755 "$RULES_DIR"; }
added rules "$RULES"
grant() {
    cat > "$RULES" <<RULES
// make test-system: stands in for an administrator typing a password. Removed at the end.
polkit.addRule(function(action, subject) {
    if (action.id == "$ACTION_ID" && subject.user == "$TEST_USER") {
        return polkit.Result.YES;
    }
});
RULES
    chmod 0644 "$RULES"
}
grant
check "$TEST_USER (uid $USER_UID), $RULES"

# The user runs the app's code from its own copy (the checkout may sit where it cannot read).
CLIENT_PY="${CLIENT_PYTHON:-/usr/bin/python3}"
install -d -o "$TEST_USER" -m 0755 "$USER_HOME/app" "$USER_HOME/app/tests"
cp -R viewer "$USER_HOME/app/"
cp -R tests/system tests/pty_command.py "$USER_HOME/app/tests/"
chown -R "$TEST_USER:" "$USER_HOME/app"
# The client picks the pkexec route when the driver says RmProfilingAdminOnly: 1; there is no
# driver here, so the driver's params file is one this test writes.
printf 'RmProfilingAdminOnly: 1\n' > "$FAKE_DIR/params"
chmod 0644 "$FAKE_DIR/params"
CAPTURES="$USER_HOME/.local/share/ncu-reader/captures"

first4() { od -An -tx1 -N4 "$1" | tr -d ' \n'; }
pkexec_capture() {  # [pkexec options --] ARGS... ; sets RC, leaves out.ncu-rep and err.jsonl in the user's home
    local opts=""
    if [[ "${2:-}" == -- ]]; then opts="$1"; shift 2; fi
    set +e
    as_user "pkexec $opts $HELPER $* > out.ncu-rep 2> err.jsonl"
    RC=$?
    set -e
}
show_err() { sed 's/^/   stderr: /' "$USER_HOME/err.jsonl"; }
client() {  # ARGS... ; sets RC; the client's stdout in client.out, stderr in client.err (user's home)
    set +e
    as_user "cd ~/app && '$CLIENT_PY' tests/system/client_capture.py '$FAKE_DIR/params' $* \
        > ~/client.out 2> ~/client.err"
    RC=$?
    set -e
}
saved_files() { { find "$CAPTURES" -mindepth 1 -printf '%f %s\n' 2>/dev/null || true; } | sort; }
ncu_never_ran() {  # what the helper's stderr and the fake's record say
    [[ ! -s "$RUNS" ]] || fail "ncu ran: $(cat "$RUNS")"
    ! grep -q '"started"\|"ncu"' "$USER_HOME/err.jsonl" || fail "the helper started ncu"
}
# Each step runs in a subshell of its own: a failed check ends that step, and the next one runs.
run_step() {  # NAME FUNCTION
    local rc
    set +e
    ( set -e; "$2" )
    rc=$?
    set -e
    if (( rc )); then FAILED_STEPS+=("$1"); echo "   step $1 FAILED"; fi
    return 0
}

# ---------------------------------------------------------------- 1. pkexec runs the helper
step_1() {
    step "1. as $TEST_USER: pkexec $HELPER capture --target naive --dim 512 --set basic --clock none"
    # polkitd reads new rules files when it sees them; give it a moment, as the rule may be new.
    for _ in $(seq 20); do
        pkexec_capture capture --target naive --dim 512 --set basic --clock none
        [[ $RC == 127 ]] || break
        sleep 0.5
    done
    show_err
    [[ $RC == 0 ]] || fail "pkexec capture exited $RC"
    check "exit 0"
    local report="$USER_HOME/out.ncu-rep" argv word
    [[ "$(stat -c %U "$report")" == "$TEST_USER" ]] || fail "$report is not owned by $TEST_USER"
    [[ "$(first4 "$report")" == 4e565200 ]] || fail "$report does not start with NVR\\0"
    cmp -s "$report" profiles/naive.ncu-rep || fail "$report is not the fake ncu's naive report"
    check "the report arrived: $(stat -c '%s bytes, owner %U, mode %a' "$report"), starts with NVR\\0"
    grep -q "\"started\": {.*\"uid\": $USER_UID[,}]" "$USER_HOME/err.jsonl" || fail "no started line for uid $USER_UID"
    grep -q '"done": {"bytes": '"$(stat -c %s profiles/naive.ncu-rep)" "$USER_HOME/err.jsonl" || fail "no done line"
    check "started for uid $USER_UID, done with the report's size"
    argv="$(cat "$FAKE_DIR/last-argv")"
    echo "   ncu ran as: $(cat "$FAKE_DIR/last-env")"
    echo "   ncu argv: $argv"
    grep -q '^uid=0 ' "$FAKE_DIR/last-env" || fail "ncu did not run as root"
    for word in "--config-file off" "--target-processes application-only" "--clock-control none" \
                "--set basic" "--import-source yes" \
                "$LIBEXEC/venv/bin/python3 -I -B -m viewer.kernels profile-target"; do
        [[ " $argv" == *" $word "* ]] || fail "ncu's argv lacks '$word'"
    done
    [[ " $argv" != *" -f "* ]] || fail "ncu's argv holds -f"
    [[ " $argv" != *" --source-folders "* ]] || fail "ncu's argv holds --source-folders"
    check "ncu ran as root with --config-file off, application-only, the install's interpreter, no -f"
}

# ---------------------------------------------------------------- 2. a bad request
step_2() {
    step "2. as $TEST_USER: pkexec with a bad request (--dim 0512)"
    rm -f "$RUNS"
    pkexec_capture capture --target naive --dim 0512 --set basic --clock none
    show_err
    [[ $RC == 2 ]] || fail "a bad request exited $RC, not 2"
    [[ ! -s "$USER_HOME/out.ncu-rep" ]] || fail "a bad request streamed a report"
    ncu_never_ran
    check "exit 2, ncu never ran"
}

# ---------------------------------------------------------------- 3. the client
step_3() {
    step "3. as $TEST_USER: the client, pkexec route: capture --target both --dim 512 --set basic --clock none"
    client --target both --dim 512 --set basic --clock none
    sed 's/^/   stderr: /' "$USER_HOME/client.err"
    sed 's/^/   stdout: /' "$USER_HOME/client.out"
    [[ $RC == 0 ]] || fail "the client exited $RC"
    grep -q "route pkexec" "$USER_HOME/client.err" || fail "the client did not take the pkexec route"
    local saved i path kernel=(naive tiled)
    mapfile -t saved < "$USER_HOME/client.out"
    [[ ${#saved[@]} == 2 ]] || fail "the client saved ${#saved[@]} reports, not 2"
    for i in 0 1; do
        path="${saved[i]}"
        [[ "$(dirname "$path")" == "$CAPTURES" ]] || fail "$path is not in $CAPTURES"
        [[ "$(stat -c %U "$path")" == "$TEST_USER" ]] || fail "$path is not owned by $TEST_USER"
        [[ "$(first4 "$path")" == 4e565200 ]] || fail "$path does not start with NVR\\0"
        cmp -s "$path" "profiles/${kernel[i]}.ncu-rep" || fail "$path is not the ${kernel[i]} report"
        check "$path: $(stat -c '%s bytes, owner %U, mode %a' "$path")"
    done
    find "$CAPTURES" -maxdepth 1 -type f -printf "   %M %u %8s %f\n" | sort -k4
}

# ---------------------------------------------------------------- 4. the lock-directory attack
step_4() {
    step "4. as $TEST_USER: /tmp/nvidia/nsight_compute a link to $LOCK_TARGET (root's, 0755), then a capture"
    if [[ -e "$TMP_NVIDIA" || -L "$TMP_NVIDIA" ]]; then
        echo "   an earlier capture's ncu made $TMP_NVIDIA ($(stat -c '%U %a' "$TMP_NVIDIA")): removed to plant the link"
        rm -rf -- "$TMP_NVIDIA"
    fi
    rm -rf -- "$LOCK_TARGET"
    install -d -o root -g root -m 0755 "$LOCK_TARGET"
    echo "root's" > "$LOCK_TARGET/keep"
    chmod 0644 "$LOCK_TARGET/keep"
    local before after env tmpdir
    before="$(cd "$LOCK_TARGET" && stat -c '%n %u:%g %a' . * .[!.]* 2>/dev/null || true)"
    as_user "mkdir /tmp/nvidia && ln -s '$LOCK_TARGET' /tmp/nvidia/nsight_compute" \
        || fail "the user could not plant the link"
    check "planted: $(ls -ld /tmp/nvidia/nsight_compute | awk '{print $1, $3, $9, $10, $11}')"
    rm -f "$RUNS"
    pkexec_capture capture --target naive --dim 512 --set basic --clock none
    show_err
    after="$(cd "$LOCK_TARGET" && stat -c '%n %u:%g %a' . * .[!.]* 2>/dev/null || true)"
    [[ $RC == 0 ]] || fail "the capture exited $RC"
    [[ "$after" == "$before" ]] || fail "root's ncu changed $LOCK_TARGET: before [${before//$'\n'/; }], after [${after//$'\n'/; }]"
    check "$LOCK_TARGET unchanged: ${after//$'\n'/; }"
    [[ -L /tmp/nvidia/nsight_compute && "$(readlink /tmp/nvidia/nsight_compute)" == "$LOCK_TARGET" ]] \
        || fail "the planted link changed"
    [[ -s "$RUNS" ]] || fail "ncu never ran"
    env="$(head -n 1 "$RUNS")"
    echo "   ncu's run: ${env%% argv:*}"
    tmpdir="$(sed -n 's/.* TMPDIR=\([^ ]*\) .*/\1/p' <<< "$env")"
    [[ "$tmpdir" == /* && "$tmpdir" != /tmp && "$tmpdir" != /tmp/ && "$tmpdir" != /var/tmp ]] \
        || fail "ncu's TMPDIR was '$tmpdir', not a private directory"
    [[ "$env" == *" TMP=$tmpdir TEMP=$tmpdir "* ]] || fail "ncu's TMP and TEMP are not its TMPDIR"
    [[ "$env" == *" tmp=0:700 "* ]] || fail "ncu's TMPDIR was not root's 0700 while it ran"
    [[ ! -e "$tmpdir" ]] || fail "ncu's TMPDIR $tmpdir is left after the helper exited"
    check "ncu's TMPDIR, TMP and TEMP were $tmpdir (root's, 0700), gone after the helper exited"
}

# ---------------------------------------------------------------- 5. a crashing ncu
step_5() {
    step "5. as $TEST_USER: ncu writes a 5,000-byte report and dies of SIGSEGV (--dim 48)"
    pkexec_capture capture --target naive --dim 48 --set basic --clock none
    show_err
    [[ $RC == 12 ]] || fail "the capture exited $RC, not 12"
    grep -q '"kind": "ncu_failed"' "$USER_HOME/err.jsonl" || fail "no ncu_failed error line"
    [[ ! -s "$USER_HOME/out.ncu-rep" ]] || fail "the helper streamed $(stat -c %s "$USER_HOME/out.ncu-rep") bytes"
    check "exit 12, ncu_failed, nothing on stdout"
    local before after
    before="$(saved_files)"
    client --target naive --dim 48 --set basic --clock none
    sed 's/^/   stderr: /' "$USER_HOME/client.err"
    after="$(saved_files)"
    [[ $RC != 0 ]] || fail "the client succeeded"
    [[ ! -s "$USER_HOME/client.out" ]] || fail "the client saved $(cat "$USER_HOME/client.out")"
    [[ "$after" == "$before" ]] || fail "the captures folder changed: [${after//$'\n'/; }]"
    check "the client exited $RC and saved nothing"
}

# ---------------------------------------------------------------- 6. Ctrl-\ at the terminal
step_6() {
    step "6. as $TEST_USER, under a pty: pkexec $HELPER capture --target naive --dim 64 --set basic --clock base, then Ctrl-\\"
    local result code fake child sid pid left dir hang_line tmpdir
    rm -f "$RUNS" "$HANG"
    set +e
    as_user "cd ~/app && '$CLIENT_PY' tests/system/pty_quit.py '$HANG' ~/out.ncu-rep ~/err.jsonl 20 \
        -- pkexec $HELPER capture --target naive --dim 64 --set basic --clock base > ~/pty.json"
    code=$?
    set -e
    result="$(cat "$USER_HOME/pty.json" 2>/dev/null || true)"
    show_err
    echo "   pty: $result"
    [[ $code == 0 && -n "$result" ]] || fail "the pty script exited $code"
    "$CLIENT_PY" -c 'import json, sys; print(json.loads(sys.argv[1])["pid"])' "$result" \
        > "$WORK/pty-helper-pid" || true
    [[ -f "$HANG" ]] || fail "the fake ncu never reported that it hangs"
    echo "   the fake: $(cat "$HANG")"
    read -r fake child sid < "$HANG"
    fake="${fake#fake=}" child="${child#child=}" sid="${sid#child_sid=}"
    [[ "$sid" == "$child" ]] || fail "the fake's child is not in a session of its own (sid $sid)"
    [[ "$result" == *'"quit_sent": true'* ]] || fail "Ctrl-\\ was never typed"
    if [[ "$result" != *'"exit": 9,'* ]]; then
        local how
        how="$(grep -o '"exit": [0-9][0-9]*\|"signal": [0-9][0-9]*' <<< "$result" | tr -d '"' | head -n 1 || true)"
        fail "the helper did not exit 9 (cancelled) within 20 s (${how:-still running})"
    fi
    grep -q '"kind": "cancelled"' "$USER_HOME/err.jsonl" || fail "no cancelled error line"
    check "exit 9 (cancelled), $(sed -n 's/.*"seconds": \([0-9.]*\).*/\1/p' <<< "$result") s after Ctrl-\\"
    for _ in $(seq 20); do
        left=""
        for pid in "$fake" "$child"; do
            [[ "$(tr '\0' ' ' 2>/dev/null < "/proc/$pid/cmdline")" == "sleep 600 " ]] && left+=" $pid"
        done
        [[ -z "$left" ]] && break
        sleep 0.1
    done
    [[ -z "$left" ]] || fail "processes of the fake are left:$left"
    check "no process of the fake is left (pid $fake, its setsid child $child)"
    hang_line="$(grep -n -- '--dim 64' "$RUNS" | head -n 1 | cut -d: -f1 || true)"
    [[ -n "$hang_line" ]] || fail "the fake recorded no hanging run"
    for dir in $(capture_dirs "$RUNS"); do
        [[ ! -e "$dir" ]] || fail "the capture directory $dir is left: $(find "$dir" | tr '\n' ' ')"
    done
    tmpdir="$(sed -n "${hang_line}s/.* TMPDIR=\([^ ]*\) .*/\1/p" "$RUNS")"
    [[ "$tmpdir" != /* || ! -e "$tmpdir" ]] || fail "ncu's TMPDIR $tmpdir is left"
    check "no /tmp/ncu-reader-capture-* directory left ($(capture_dirs "$RUNS" | tr '\n' ' ')gone)"
    tail -n +"$((hang_line + 1))" "$RUNS" | grep -q -- '--clock-control reset' \
        || fail "no ncu --clock-control reset ran after the hanging capture: $(cut -d' ' -f6- "$RUNS")"
    check "ncu --clock-control reset ran after it"
}

# ---------------------------------------------------------------- 7. pkexec --user nobody
step_7() {
    local opts
    # pkexec changes to the user's home first, and nobody's (/nonexistent) is missing: pkexec
    # itself may stop there (exit 127); --keep-cwd gets past that to the helper.
    for opts in "--user nobody" "--keep-cwd --user nobody"; do
        step "7. as $TEST_USER: pkexec $opts $HELPER capture --target naive --dim 512 --set basic --clock none"
        rm -f "$RUNS"
        pkexec_capture "$opts" -- capture --target naive --dim 512 --set basic --clock none
        show_err
        if [[ $opts != *--keep-cwd* && $RC == 127 ]] && grep -q "Error changing to home directory" "$USER_HOME/err.jsonl"; then
            ncu_never_ran
            check "pkexec itself refused (nobody has no home), exit 127; ncu never ran"
            continue
        fi
        [[ $RC == 4 ]] || fail "the capture exited $RC, not 4"
        grep -q '"kind": "untrusted"' "$USER_HOME/err.jsonl" || fail "no untrusted error line"
        grep -qi 'not as root\|not running as root\|not root' "$USER_HOME/err.jsonl" \
            || fail "the error does not say the helper is not running as root"
        ncu_never_ran
        check "exit 4 (untrusted): the helper is not root; ncu never ran"
    done
}

# ---------------------------------------------------------------- 8. a user's library
step_8() {
    local lib="$LIB_DIR/libcuda.so.1"
    step "8. $lib owned by $TEST_USER in the install's LIBRARY_PATH, then a capture"
    install -o "$TEST_USER" -g "$TEST_USER" -m 0644 /dev/null "$lib"
    rm -f "$RUNS"
    pkexec_capture capture --target naive --dim 512 --set basic --clock none
    rm -f -- "$lib"
    show_err
    [[ $RC == 4 ]] || fail "the capture exited $RC, not 4"
    grep -q '"kind": "untrusted"' "$USER_HOME/err.jsonl" || fail "no untrusted error line"
    grep -qF "$lib" "$USER_HOME/err.jsonl" || fail "the error does not name $lib"
    ncu_never_ran
    check "exit 4 naming $lib; ncu never ran; the file is removed"
}

# ---------------------------------------------------------------- 9. not authorized
step_9() {
    step "9. without the rules file: pkexec exits 127, the client says not authorized"
    rm -f "$RULES"
    for _ in $(seq 20); do
        pkexec_capture capture --target naive --dim 512 --set basic --clock none
        [[ $RC == 0 ]] || break
        sleep 0.5
    done
    show_err
    [[ $RC == 127 ]] || fail "pkexec exited $RC, not 127"
    ! grep -q '"started"' "$USER_HOME/err.jsonl" || fail "the helper started without authorization"
    [[ ! -s "$USER_HOME/out.ncu-rep" ]] || fail "a report arrived without authorization"
    check "pkexec exited 127 and the helper never started"
    client --target both --dim 512 --set basic --clock none
    sed 's/^/   stderr: /' "$USER_HOME/client.err"
    [[ $RC != 0 ]] || fail "the client succeeded without authorization"
    grep -qi "not authorized" "$USER_HOME/client.err" || fail "the client did not say 'not authorized'"
    [[ ! -s "$USER_HOME/client.out" ]] || fail "the client saved a report without authorization"
    check "the client exited $RC and said not authorized; nothing saved"
}

run_step 1 step_1
run_step 2 step_2
run_step 3 step_3
run_step 4 step_4
run_step 5 step_5
run_step 6 step_6
run_step 7 step_7
run_step 8 step_8
run_step 9 step_9
(( ${#FAILED_STEPS[@]} == 0 )) || exit 1
