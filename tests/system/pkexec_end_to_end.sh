#!/usr/bin/env bash
# make test-system: a real pkexec and polkitd, end to end, with a fake ncu (no GPU needed).
#
# Run as root on a THROWAWAY Debian machine: it installs packages with apt (pkexec, polkitd,
# python3-venv when missing), starts a system D-Bus and polkitd when none runs, installs the capture
# helper with `make install-capture` (a venv with numba from PyPI, or PIP_OPTS), creates the user
# ncu-reader-test and grants it the polkit action with a rules file (standing in for an
# administrator typing a password). Then, as that user:
#   1. pkexec runs the installed helper: the report arrives on stdout, starts with NVR\0 and is the
#      fake ncu's copy of profiles/naive.ncu-rep; the helper ran as root for the user's uid;
#   2. a bad request through pkexec exits 2 and runs nothing;
#   3. the client (viewer.capture.terminal, the code behind `python -m viewer capture`, on the
#      pkexec route) saves both kernels' reports in the user's data folder, owned by the user;
#   4. without the rules file pkexec exits 127 with no `started` line, and the client says
#      "Not authorized".
# At the end it removes the rules file, the user and the fake ncu, stops the daemons it started,
# and removes the install unless one was there before (then its capture.json is put back).
# Not part of `make test`.
set -euo pipefail
umask 022
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

TEST_USER="ncu-reader-test"
FAKE_DIR="/usr/local/lib/ncu-reader-test"
RULES="/etc/polkit-1/rules.d/50-ncu-reader-test.rules"
PREFIX="/usr/local"
LIBEXEC="$PREFIX/libexec/ncu-reader"
HELPER="$LIBEXEC/ncu-reader-capture"
POLICY="/usr/share/polkit-1/actions/io.github.ncu-reader.capture.policy"
ACTION_ID="io.github.ncu-reader.capture"
INSTALL_PYTHON="${PYTHON:-/usr/bin/python3}"
WORK="$(mktemp -d)"

step() { echo "== $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
check() { echo "   ok: $*"; }

[[ "$(id -u)" == 0 ]] || fail "run as root on a throwaway machine (it installs packages and adds a user)"

STARTED_PIDS=()
HAD_INSTALL=""
if [[ -e "$HELPER" || -e "$POLICY" ]]; then
    HAD_INSTALL=1
    if [[ -f "$LIBEXEC/capture.json" ]]; then cp -p "$LIBEXEC/capture.json" "$WORK/capture.json.before"; fi
fi
cleanup() {
    local rc=$?
    set +e
    step "cleaning up"
    rm -f -- "$RULES"
    if id "$TEST_USER" >/dev/null 2>&1; then userdel -r "$TEST_USER" 2>/dev/null; fi
    if [[ -n "$HAD_INSTALL" ]]; then
        [[ -f "$WORK/capture.json.before" ]] \
            && install -o root -g root -m 0644 "$WORK/capture.json.before" "$LIBEXEC/capture.json"
        echo "   the install was there before: left in place, its capture.json put back"
    elif [[ -e "$LIBEXEC" || -e "$POLICY" ]]; then
        make -s uninstall-capture
    fi
    rm -rf -- "$FAKE_DIR"
    local i
    for (( i = ${#STARTED_PIDS[@]} - 1; i >= 0; i-- )); do
        kill "${STARTED_PIDS[i]}" 2>/dev/null
    done
    rm -rf -- "$WORK"
    if [[ $rc == 0 ]]; then echo "PASS: make test-system"; else echo "FAILED: make test-system (exit $rc)"; fi
}
trap cleanup EXIT

# ---------------------------------------------------------------- packages and daemons
step "packages"
missing=()
command -v pkexec >/dev/null || missing+=(pkexec)
[[ -x /usr/lib/polkit-1/polkitd ]] || missing+=(polkitd)
command -v dbus-daemon >/dev/null || missing+=(dbus-daemon)
command -v dbus-send >/dev/null || missing+=(dbus-bin)
"$INSTALL_PYTHON" -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
if (( ${#missing[@]} )); then
    echo "   apt-get install ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
check "pkexec $(pkexec --version | tr -d '\n'), polkitd, dbus-daemon"

bus_call() {
    dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus "$@" 2>/dev/null
}
if ! bus_call org.freedesktop.DBus.GetId >/dev/null; then
    mkdir -p /run/dbus
    if [[ -f /run/dbus/pid ]] && ! kill -0 "$(cat /run/dbus/pid)" 2>/dev/null; then
        rm -f /run/dbus/pid
    fi
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
install -d -o root -g root -m 0755 "$FAKE_DIR"
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
printf '%q ' "$@" > "$here/last-argv"
echo "uid=$(id -u) cwd=$PWD PATH=$PATH HOME=${HOME:-}" > "$here/last-env"
out="" kernel=""
while (( $# )); do
    case "$1" in
        -o|--export) out="$2"; shift 2 ;;
        -k|--kernel-name) kernel="$2"; shift 2 ;;
        --config-file|--target-processes|--clock-control|--set|--metrics|--launch-skip|--launch-count)
            shift 2 ;;
        -*) echo "==ERROR== the fake ncu does not know the option $1"; exit 1 ;;
        *) break ;;
    esac
done
(( $# )) && [[ -n "$out" ]] || { echo "==ERROR== usage: ncu [options] -o REPORT PROGRAM [ARGS]"; exit 1; }
case "$kernel" in
    *naive*) sample="$here/naive.ncu-rep" ;;
    *tiled*) sample="$here/tiled.ncu-rep" ;;
    *) echo "==ERROR== the fake ncu knows no kernel $kernel"; exit 1 ;;
esac
# The program is the install's interpreter running the app's kernels: prove it imports them
# (numba, numba-cuda, numpy and the project in the root-owned venv).
if [[ "$(basename "$1")" == python* ]]; then
    if ! err="$("$1" -I -c 'import numba.cuda, numpy, viewer.kernels.runner, viewer.kernels.__main__' 2>&1)"; then
        echo "==ERROR== the target cannot import the kernels: ${err//$'\n'/ | }"
        exit 1
    fi
fi
echo "==PROF== Connected to process $$ ($1)"
echo "==PROF== Profiling \"${kernel#regex:}\" - 0: 0%....50%....100% - 9 passes"
echo "==PROF== Disconnected from process $$"
cp "$sample" "$out.ncu-rep"
echo "==PROF== Report: $out.ncu-rep"
NCU
install -o root -g root -m 0755 "$WORK/ncu" "$FAKE_DIR/ncu"
check "$FAKE_DIR/ncu"

step "make install-capture NCU=$FAKE_DIR/ncu PYTHON=$INSTALL_PYTHON (a venv with numba: minutes)"
make -s install-capture NCU="$FAKE_DIR/ncu" PYTHON="$INSTALL_PYTHON" PIP_OPTS="${PIP_OPTS:-}"
grep -q "<annotate key=\"org.freedesktop.policykit.exec.path\">$HELPER</annotate>" "$POLICY" \
    || fail "the installed policy does not name $HELPER"
pkaction --action-id "$ACTION_ID" --verbose | sed 's/^/   /'
check "polkitd knows the action"

# ---------------------------------------------------------------- the user and the rule
step "an ordinary user, and a polkit rule granting it the action"
if id "$TEST_USER" >/dev/null 2>&1; then userdel -r "$TEST_USER" 2>/dev/null || true; fi
useradd --create-home --shell /bin/bash "$TEST_USER"
USER_UID="$(id -u "$TEST_USER")"
USER_HOME="$(getent passwd "$TEST_USER" | cut -d: -f6)"
as_user() { su -l -s /bin/bash "$TEST_USER" -c "$1"; }
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

first4() { od -An -tx1 -N4 "$1" | tr -d ' \n'; }
pkexec_capture() {  # ARGS... ; sets RC, leaves out.ncu-rep and err.jsonl in the user's home
    set +e
    as_user "pkexec $HELPER $* > out.ncu-rep 2> err.jsonl"
    RC=$?
    set -e
}

# ---------------------------------------------------------------- 1. pkexec runs the helper
step "1. as $TEST_USER: pkexec $HELPER capture --target naive --dim 512 --set basic --clock none"
# polkitd reads new rules files when it sees them; give it a moment, as the rule may be new.
for _ in $(seq 20); do
    pkexec_capture capture --target naive --dim 512 --set basic --clock none
    [[ $RC == 127 ]] || break
    sleep 0.5
done
sed 's/^/   stderr: /' "$USER_HOME/err.jsonl"
[[ $RC == 0 ]] || fail "pkexec capture exited $RC"
check "exit 0"
report="$USER_HOME/out.ncu-rep"
[[ "$(stat -c %U "$report")" == "$TEST_USER" ]] || fail "$report is not owned by $TEST_USER"
[[ "$(first4 "$report")" == 4e565200 ]] || fail "$report does not start with NVR\\0"
cmp -s "$report" profiles/naive.ncu-rep || fail "$report is not the fake ncu's naive report"
check "the report arrived: $(stat -c '%s bytes, owner %U, mode %a' "$report"), starts with NVR\\0"
grep -q "\"started\": {.*\"uid\": $USER_UID}" "$USER_HOME/err.jsonl" || fail "no started line for uid $USER_UID"
grep -q '"done": {"bytes": '"$(stat -c %s profiles/naive.ncu-rep)" "$USER_HOME/err.jsonl" || fail "no done line"
check "started for uid $USER_UID, done with the report's size"
argv="$(cat "$FAKE_DIR/last-argv")"
echo "   ncu ran as: $(cat "$FAKE_DIR/last-env")"
echo "   ncu argv: $argv"
grep -q '^uid=0 ' "$FAKE_DIR/last-env" || fail "ncu did not run as root"
for word in "--config-file off" "--target-processes application-only" "--clock-control none" \
            "--set basic" "$LIBEXEC/venv/bin/python3 -I -B -m viewer.kernels profile-target"; do
    [[ " $argv" == *" $word "* ]] || fail "ncu's argv lacks '$word'"
done
[[ " $argv" != *" -f "* ]] || fail "ncu's argv holds -f"
check "ncu ran as root with --config-file off, application-only, the install's interpreter, no -f"

# ---------------------------------------------------------------- 2. a bad request
step "2. as $TEST_USER: pkexec with a bad request (--dim 0512)"
rm -f "$FAKE_DIR/last-argv"
pkexec_capture capture --target naive --dim 0512 --set basic --clock none
sed 's/^/   stderr: /' "$USER_HOME/err.jsonl"
[[ $RC == 2 ]] || fail "a bad request exited $RC, not 2"
[[ ! -e "$FAKE_DIR/last-argv" && ! -s "$USER_HOME/out.ncu-rep" ]] || fail "a bad request ran ncu"
check "exit 2, ncu never ran"

# ---------------------------------------------------------------- 3. the client
# The client picks the pkexec route when the driver says RmProfilingAdminOnly: 1; there is no
# driver here, so the driver's params file is one this test writes.
printf 'RmProfilingAdminOnly: 1\n' > "$FAKE_DIR/params"
chmod 0644 "$FAKE_DIR/params"
# The user runs the app's code from its own copy (the checkout may sit where it cannot read).
CLIENT_PY="${CLIENT_PYTHON:-/usr/bin/python3}"
install -d -o "$TEST_USER" -m 0755 "$USER_HOME/app" "$USER_HOME/app/tests"
cp -R viewer "$USER_HOME/app/"
cp -R tests/system "$USER_HOME/app/tests/"
chown -R "$TEST_USER:" "$USER_HOME/app"
client() {  # sets RC; the client's stdout in client.out, stderr in client.err (user's home)
    set +e
    as_user "cd ~/app && '$CLIENT_PY' tests/system/client_capture.py '$FAKE_DIR/params' \
        --target both --dim 512 --set basic --clock none > ~/client.out 2> ~/client.err"
    RC=$?
    set -e
}
step "3. as $TEST_USER: the client, pkexec route: capture --target both --dim 512 --set basic --clock none"
client
sed 's/^/   stderr: /' "$USER_HOME/client.err"
sed 's/^/   stdout: /' "$USER_HOME/client.out"
[[ $RC == 0 ]] || fail "the client exited $RC"
grep -q "route pkexec" "$USER_HOME/client.err" || fail "the client did not take the pkexec route"
mapfile -t saved < "$USER_HOME/client.out"
[[ ${#saved[@]} == 2 ]] || fail "the client saved ${#saved[@]} reports, not 2"
captures="$USER_HOME/.local/share/ncu-reader/captures"
for i in 0 1; do
    kernel=(naive tiled)
    path="${saved[i]}"
    [[ "$(dirname "$path")" == "$captures" ]] || fail "$path is not in $captures"
    [[ "$(stat -c %U "$path")" == "$TEST_USER" ]] || fail "$path is not owned by $TEST_USER"
    [[ "$(first4 "$path")" == 4e565200 ]] || fail "$path does not start with NVR\\0"
    cmp -s "$path" "profiles/${kernel[i]}.ncu-rep" || fail "$path is not the ${kernel[i]} report"
    check "$path: $(stat -c '%s bytes, owner %U, mode %a' "$path")"
done
find "$captures" -maxdepth 1 -type f -printf "   %M %u %8s %f\n" | sort -k4

# ---------------------------------------------------------------- 4. not authorized
step "4. without the rules file: pkexec exits 127, the client says not authorized"
rm -f "$RULES"
for _ in $(seq 20); do
    pkexec_capture capture --target naive --dim 512 --set basic --clock none
    [[ $RC == 0 ]] || break
    sleep 0.5
done
sed 's/^/   stderr: /' "$USER_HOME/err.jsonl"
[[ $RC == 127 ]] || fail "pkexec exited $RC, not 127"
! grep -q '"started"' "$USER_HOME/err.jsonl" || fail "the helper started without authorization"
[[ ! -s "$USER_HOME/out.ncu-rep" ]] || fail "a report arrived without authorization"
check "pkexec exited 127 and the helper never started"
client
sed 's/^/   stderr: /' "$USER_HOME/client.err"
[[ $RC != 0 ]] || fail "the client succeeded without authorization"
grep -qi "not authorized" "$USER_HOME/client.err" || fail "the client did not say 'not authorized'"
[[ ! -s "$USER_HOME/client.out" ]] || fail "the client saved a report without authorization"
check "the client exited $RC and said not authorized; nothing saved"
