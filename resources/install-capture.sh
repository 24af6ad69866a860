#!/usr/bin/env bash
# Install or remove ncu-reader's capture helper: `install-capture.sh install|uninstall`
# (`install-capture.sh requirements` prints what the venv gets, e.g. for `pip download -d DIR`).
# Run by `sudo make install-capture` / `sudo make uninstall-capture`, which pass these variables:
#   PREFIX          (/usr/local)
#   LIBEXEC         ($PREFIX/libexec/ncu-reader): the helper, capture.json, the venv
#   POLKIT_ACTIONS  (/usr/share/polkit-1/actions)
#   NCU             (command -v ncu): the ncu root will run; stored as its real path
#   CUDA_HOME       (unset): passed to the kernels when set; its whole tree must be root's alone
#   LIBRARY_PATH    (unset): colon-separated directories of the CUDA driver's libraries, given to
#                   the kernels as LD_LIBRARY_PATH, where the loader's cache lacks them; each
#                   directory and every entry directly inside it must be root's alone
#   PYTHON          (python3): makes the venv; 3.11 or newer; its executable (as named and
#                   resolved) and its standard library must be root's alone
#   PIP_OPTS        (empty): extra pip words, e.g. "--no-index --find-links DIR" offline (DIR then
#                   needs numba, numba-cuda, numpy and their dependencies, and setuptools>=77)
# For the tests only: NCU_READER_INSTALL_SKIP_VENV=1 makes the venv without pip and installs nothing
# into it (no network): the helper's checks run, a capture cannot. Never set it for a real install.
#
# Root runs what this installs, so every installed file is a copy owned by root, nothing under
# LIBEXEC is writable by group or others, and the project is installed into the venv from a copy of
# the checkout (not editable: root must never import the user's files). What root may run is
# decided in one place, the helper's own trust rules: this script runs the helper's
# `--check-install` before it makes the venv (on everything but the venv) and once installed (on
# everything, as a capture checks it), and installs the polkit policy only when both pass.
set -euo pipefail
umask 022

ACTION_ID="io.github.ncu-reader.capture"
HELPER_NAME="ncu-reader-capture"
POLICY_NAME="$ACTION_ID.policy"
CREATED_LIST="created-dirs"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE="$(dirname "$HERE")"

PREFIX="${PREFIX:-/usr/local}"
LIBEXEC="${LIBEXEC:-$PREFIX/libexec/ncu-reader}"
POLKIT_ACTIONS="${POLKIT_ACTIONS:-/usr/share/polkit-1/actions}"
PYTHON="${PYTHON:-python3}"
NCU="${NCU:-}"
CUDA_HOME="${CUDA_HOME:-}"
LIBRARY_PATH="${LIBRARY_PATH:-}"
PIP_OPTS="${PIP_OPTS:-}"
SKIP_VENV="${NCU_READER_INSTALL_SKIP_VENV:-}"
PYTHON_REAL=""
# No PYTHON* variable reaches a Python run here (ensurepip's runs inside `venv` are not -I).
while read -r name; do
    [[ "$name" == PYTHON ]] || unset -- "$name"
done < <(compgen -e | grep '^PYTHON' || true)

die() { echo "${CMD:-install-capture}: $*" >&2; exit 1; }
say() { echo "${CMD:-install-capture}: $*"; }

require_root() {
    if [[ "$(id -u)" != 0 ]]; then
        local why="it installs a helper that pkexec runs as root, owned by root alone"
        [[ "$CMD" == uninstall-capture ]] && why="the helper's files are owned by root"
        die "must run as root: sudo make $CMD ($why)"
    fi
}

# LIBEXEC goes into a shebang and a polkit file: absolute, plain characters only.
check_paths() {
    [[ "$LIBEXEC" =~ ^/[A-Za-z0-9/._+-]+$ ]] \
        || die "LIBEXEC must be an absolute path of letters, digits and / . _ + - (got '$LIBEXEC')"
    [[ "$POLKIT_ACTIONS" == /* ]] || die "POLKIT_ACTIONS must be an absolute path"
}

# ncu, CUDA_HOME and LIBRARY_PATH as the install will name them; whether root may run them is the
# helper's to say (check_install).
find_ncu() {
    if [[ -z "$NCU" ]]; then
        NCU="$(command -v ncu || true)"
        [[ -n "$NCU" ]] || die "no ncu on PATH (sudo resets PATH); name it: sudo make install-capture NCU=/path/to/ncu"
    fi
    local real dir
    real="$(realpath -e -- "$NCU" 2>/dev/null)" || die "NCU=$NCU does not exist; give NCU=/path/to/ncu"
    [[ -f "$real" && -x "$real" ]] || die "NCU=$NCU is not an executable file; give NCU=/path/to/ncu"
    NCU="$real"
    if [[ -n "$CUDA_HOME" ]]; then
        [[ "$CUDA_HOME" == /* && -d "$CUDA_HOME" ]] || die "CUDA_HOME=$CUDA_HOME is not an absolute directory"
    fi
    IFS=: read -r -a LIBRARY_DIRS <<< "$LIBRARY_PATH"
    for dir in "${LIBRARY_DIRS[@]}"; do
        [[ "$dir" == /* && -d "$dir" ]] || die "LIBRARY_PATH: $dir is not an absolute directory"
    done
    return 0
}

# PYTHON makes the venv and runs the helper's first check; every run here is -I -S: no PYTHON*
# variable, user site or site-packages (.pth files) takes part. Whether root may run it, its
# standard library included, is the helper's to say (check_install).
check_python() {
    local given="$PYTHON" named
    named="$(command -v -- "$PYTHON" 2>/dev/null)" && [[ "$named" == /* ]] \
        || die "PYTHON=$given is not a command; set PYTHON=/usr/bin/python3.11"
    PYTHON="$named"
    PYTHON_REAL="$(realpath -e -- "$named")" || die "PYTHON=$given does not exist"
    "$PYTHON" -I -S -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
        || die "PYTHON=$given is not Python 3.11 or newer; set PYTHON=/usr/bin/python3.11"
    if [[ -z "$SKIP_VENV" ]]; then
        "$PYTHON" -I -S -c 'import ensurepip, venv' 2>/dev/null \
            || die "$PYTHON cannot make a venv (on Debian and Ubuntu: apt install python3-venv)"
    fi
}

# Make DIR (root:root 0755) and the missing directories above it; list the ones made in $CREATED.
CREATED=()
make_dir() {
    local dir="$1" missing=() d
    d="$dir"
    while [[ ! -e "$d" ]]; do missing=("$d" "${missing[@]}"); d="$(dirname -- "$d")"; done
    for d in "${missing[@]}"; do
        install -d -o root -g root -m 0755 -- "$d"
        CREATED+=("$d")
    done
    [[ -d "$dir" ]] || die "$dir is not a directory"
}

# The numba, numba-cuda and numpy requirements, exactly as pyproject.toml's [project] lists them.
requirements() {
    "$PYTHON" -I -S - "$SOURCE/pyproject.toml" <<'PY'
import re
import sys
import tomllib

WANTED = ("numba", "numba-cuda", "numpy")
with open(sys.argv[1], "rb") as f:
    deps = tomllib.load(f)["project"]["dependencies"]
found = {}
for dep in deps:
    name = re.match(r"[A-Za-z0-9._-]+", dep).group(0)
    found[re.sub(r"[-_.]+", "-", name).lower()] = dep
missing = [w for w in WANTED if w not in found]
if missing:
    sys.exit(f"pyproject.toml's dependencies lack {', '.join(missing)}")
print("\n".join(found[w] for w in WANTED))
PY
}

# A copy of what the project's build needs, so the build writes nothing into the checkout.
stage_project() {
    local stage="$1" name
    for name in pyproject.toml README.md LICENSE MANIFEST.in setup.py setup.cfg viewer profiles resources; do
        [[ -e "$SOURCE/$name" ]] && cp -R -- "$SOURCE/$name" "$stage/"
    done
    find "$stage" -depth \( -name __pycache__ -o -name '*.egg-info' \) -exec rm -rf -- {} +
}

make_venv() {
    local venv="$LIBEXEC/venv" stage pip_opts reqs
    if [[ -n "$SKIP_VENV" ]]; then
        say "NCU_READER_INSTALL_SKIP_VENV is set: a venv without pip or packages (for the tests only; no capture can run)"
        "$PYTHON" -I -S -m venv --clear --without-pip "$venv"
        return 0
    fi
    read -r -a pip_opts <<< "$PIP_OPTS"
    mapfile -t reqs < <(requirements)
    [[ ${#reqs[@]} == 3 ]] || die "could not read numba, numba-cuda and numpy from pyproject.toml"
    say "creating $venv with $("$PYTHON" -I -S -c 'import sys; print(sys.executable)')"
    "$PYTHON" -I -S -m venv --clear "$venv"
    local pip=("$venv/bin/python3" -I -m pip install --disable-pip-version-check --no-input
               --quiet "${pip_opts[@]}")
    say "installing ${reqs[*]}"
    "${pip[@]}" "${reqs[@]}"
    # Staged inside LIBEXEC (root's alone, the same path each time, so the venv's record of
    # where the project came from does not change between installs), removed once installed.
    stage="$LIBEXEC/source"
    rm -rf -- "$stage"
    install -d -o root -g root -m 0755 -- "$stage"
    stage_project "$stage"
    say "installing ncu-reader (a copy, not editable, no other dependencies)"
    "${pip[@]}" --no-deps "$stage"
    rm -rf -- "$stage"
}

# The helper's interpreter line: the venv's Python in isolated mode (-I) without site (-S), so
# no .pth file in site-packages runs when the helper starts.
SHEBANG_FLAGS="-IS"

# The kernel hands a shebang's words after the interpreter to it as one argument: check, by
# running a file with such a line, that this Python takes "-IS" so and starts isolated, no site.
check_shebang() {
    local interp="$LIBEXEC/venv/bin/python3" probe="$LIBEXEC/.shebang-probe" out
    rm -f -- "$probe"
    printf '#!%s %s\nimport sys\nprint(sys.flags.isolated, sys.flags.no_site, "site" in sys.modules)\n' \
        "$interp" "$SHEBANG_FLAGS" > "$probe"
    chmod 0700 -- "$probe"
    out="$("$probe" 2>&1)" || true
    rm -f -- "$probe"
    [[ "$out" == "1 1 False" ]] || die "a file starting '#!$interp $SHEBANG_FLAGS' does not run" \
        "Python isolated and without site (it printed: ${out:0:200}); the helper would not either"
}

# The helper: one zipapp of its package (viewer/capture/helper/bundle.py), its first line the
# venv's interpreter, isolated and without site; written to DIR (default LIBEXEC).
install_helper() {
    local dir="${1:-$LIBEXEC}" tmp
    tmp="$(mktemp)"
    "$PYTHON" -I -S "$SOURCE/viewer/capture/helper/bundle.py" "$tmp" \
        "$LIBEXEC/venv/bin/python3" || { rm -f -- "$tmp"; die "could not build the helper"; }
    install -o root -g root -m 0755 -- "$tmp" "$dir/$HELPER_NAME"
    rm -f -- "$tmp"
}

write_config() {
    local dir="${1:-$LIBEXEC}" tmp
    tmp="$(mktemp)"
    "$PYTHON" -I -S - "$NCU" "$CUDA_HOME" "$LIBRARY_PATH" > "$tmp" <<'PY'
import json
import sys

ncu, cuda_home, library_path = sys.argv[1:4]
print(json.dumps({"ncu": ncu, "cuda_home": cuda_home or None,
                  "library_path": [d for d in library_path.split(":") if d] or None}, indent=2))
PY
    install -o root -g root -m 0644 -- "$tmp" "$dir/capture.json"
    rm -f -- "$tmp"
}

# The directories this install made above LIBEXEC and POLKIT_ACTIONS, kept across reinstalls, so
# that uninstall removes exactly those.
write_created() {
    local list="$LIBEXEC/$CREATED_LIST" tmp lines=() d
    [[ -f "$list" ]] && mapfile -t lines < <(grep -v '^#' -- "$list" || true)
    for d in "${CREATED[@]}"; do
        [[ "$(realpath -e -- "$d")" == "$LIBEXEC" ]] || lines+=("$d")
    done
    tmp="$(mktemp)"
    { echo "# directories install-capture made; uninstall-capture removes them when empty"
      printf '%s\n' "${lines[@]}" | awk 'NF && !seen[$0]++'; } > "$tmp"
    install -o root -g root -m 0644 -- "$tmp" "$list"
    rm -f -- "$tmp"
}

# root:root everywhere; 0755 directories and executables, 0644 other files; links left as links.
normalize_tree() {
    chown -R -h root:root -- "$LIBEXEC"
    find "$LIBEXEC" -type d -exec chmod 0755 -- {} +
    find "$LIBEXEC" -type f -perm /111 -exec chmod 0755 -- {} +
    find "$LIBEXEC" -type f ! -perm /111 -exec chmod 0644 -- {} +
    local bad
    bad="$(find "$LIBEXEC" ! -type l \( -perm /022 -o ! -uid 0 -o ! -gid 0 \) -print -quit)"
    [[ -z "$bad" ]] || die "$bad is still writable by group or others, or not root's"
}

# The helper's own trust rules on this install. "before": a copy of the helper and its
# capture.json in a folder of their own inside LIBEXEC, run by PYTHON, checks everything but the
# venv (what lies above LIBEXEC, ncu and its folder, PYTHON and its standard library, CUDA_HOME,
# LIBRARY_PATH, the loader's folders) before pip runs; "installed": the helper as installed, run
# by its first line, checks everything, as each capture does.
check_install() {
    local when="$1" out
    if [[ "$when" == before ]]; then
        local stage="$LIBEXEC/.install-check"
        rm -rf -- "$stage"
        install -d -o root -g root -m 0700 -- "$stage"
        install_helper "$stage"
        write_config "$stage"
        out="$("$PYTHON" -I -S "$stage/$HELPER_NAME" --check-install --before-venv 2>&1)" \
            || { rm -rf -- "$stage"; undo_created; refuse "$out"; }
        rm -rf -- "$stage"
    else
        out="$("$LIBEXEC/$HELPER_NAME" --check-install 2>&1)" \
            || refuse "$out" "; $LIBEXEC is installed but polkit was not told of it (sudo make uninstall-capture removes it)"
    fi
}

refuse() {
    local said="${1##*$'\n'}"
    die "the helper's checks refuse this install: ${said#"$HELPER_NAME: "}${2:-}"
}

# After a refusal before anything was installed: the directories this run made, deepest first.
undo_created() {
    local i
    for (( i = ${#CREATED[@]} - 1; i >= 0; i-- )); do
        rmdir -- "${CREATED[i]}" 2>/dev/null || true
    done
}

install_policy() {
    local helper tmp
    helper="$(realpath -e -- "$LIBEXEC/$HELPER_NAME")"
    tmp="$(mktemp)"
    "$PYTHON" -I -S - "$HERE/$POLICY_NAME" "$helper" > "$tmp" <<'PY'
import re
import sys
from xml.sax.saxutils import escape

text = open(sys.argv[1], encoding="utf-8").read()
key = re.escape('<annotate key="org.freedesktop.policykit.exec.path">')
text, n = re.subn(f"({key})[^<]*(</annotate>)",
                  lambda m: m.group(1) + escape(sys.argv[2]) + m.group(2), text)
if n != 1:
    sys.exit(f"{sys.argv[1]}: expected one exec.path annotation, found {n}")
sys.stdout.write(text)
PY
    install -o root -g root -m 0644 -- "$tmp" "$POLKIT_ACTIONS/$POLICY_NAME"
    rm -f -- "$tmp"
    POLICY_EXEC="$helper"
}

do_install() {
    CMD=install-capture
    require_root
    check_paths
    check_python
    find_ncu
    make_dir "$LIBEXEC"
    make_dir "$POLKIT_ACTIONS"
    LIBEXEC="$(realpath -e -- "$LIBEXEC")"
    check_paths
    chown root:root -- "$LIBEXEC"
    chmod 0755 -- "$LIBEXEC"
    check_install before
    make_venv
    check_shebang
    install_helper
    write_config
    write_created
    normalize_tree
    check_install installed
    install_policy
    say "installed $LIBEXEC/$HELPER_NAME (ncu: $NCU)"
    say "installed $POLKIT_ACTIONS/$POLICY_NAME (exec.path $POLICY_EXEC)"
}

do_uninstall() {
    CMD=uninstall-capture
    require_root
    check_paths
    local policy="$POLKIT_ACTIONS/$POLICY_NAME" created=() named ours
    # The policy goes only when it names this install's helper: another prefix's install (the
    # one polkit runs now) keeps its policy.
    if [[ -f "$policy" ]] && grep -q "id=\"$ACTION_ID\"" -- "$policy"; then
        named="$(sed -n 's|.*<annotate key="org.freedesktop.policykit.exec.path">\([^<]*\)</annotate>.*|\1|p' -- "$policy" | head -n 1)"
        ours="$(realpath -m -- "$LIBEXEC/$HELPER_NAME")"
        if [[ "$named" == "$ours" || "$named" == "$LIBEXEC/$HELPER_NAME" ]]; then
            rm -f -- "$policy"
            say "removed $policy"
        else
            say "left $policy: it names ${named:-no helper}, not this install's $ours"
        fi
    fi
    if [[ -d "$LIBEXEC" ]]; then
        if [[ -e "$LIBEXEC/$HELPER_NAME" || -e "$LIBEXEC/capture.json" \
              || -e "$LIBEXEC/$CREATED_LIST" || -e "$LIBEXEC/venv/pyvenv.cfg" ]]; then
            [[ -f "$LIBEXEC/$CREATED_LIST" ]] && mapfile -t created < <(grep -v '^#' -- "$LIBEXEC/$CREATED_LIST")
            rm -rf -- "$LIBEXEC"
            say "removed $LIBEXEC"
        else
            die "$LIBEXEC holds no capture install; left it alone"
        fi
    fi
    # Deepest first: the list holds each install's directories outermost first.
    local i
    for (( i = ${#created[@]} - 1; i >= 0; i-- )); do
        [[ "${created[i]}" == /* ]] && rmdir -- "${created[i]}" 2>/dev/null && say "removed ${created[i]}"
    done
    return 0
}

case "${1:-}" in
    install) do_install ;;
    uninstall) do_uninstall ;;
    requirements) requirements ;;  # no root: what the venv gets, e.g. for `pip download`
    *) echo "usage: $0 install|uninstall|requirements" >&2; exit 2 ;;
esac
