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
# For the tests only: NCU_READER_INSTALL_SKIP_VENV=1 installs everything but the venv (no pip, no
# network); the helper is then not runnable. Never set it for a real install.
#
# Root runs what this installs, so every installed file is a copy owned by root, nothing under
# LIBEXEC is writable by group or others, and the project is installed into the venv from a copy of
# the checkout (not editable: root must never import the user's files).
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

# Root will run what these checks pass, as the helper checks before each run: every entry must be
# owned by root and writable by root alone. A root-owned sticky directory (such as /tmp) is accepted
# only above what is checked, never as the named directory itself nor inside a checked tree.
declare -A CHECKED=()   # path -> "named" (passed as itself) or "above" (passed as an ancestor)
declare -A LINK_TO=()   # a link's resolved target -> the first link seen leading there
WALKED=()               # trees check_below has walked, so a link back into one is not walked again

# WHAT ABOVE PATH...: lstat each PATH; ABOVE=1 for directories above what is checked. Links: owner.
check_entries() {
    local what="$1" above="$2" todo=() p
    shift 2
    for p in "$@"; do
        [[ "${CHECKED[$p]:-}" == named || ( "$above" == 1 && -n "${CHECKED[$p]:-}" ) ]] || todo+=("$p")
    done
    (( ${#todo[@]} )) || return 0
    local lines=() line uid hex perm name mode via
    mapfile -d '' lines < <(stat --printf '%u %f %a %n\0' -- "${todo[@]}" 2>/dev/null)
    (( ${#lines[@]} == ${#todo[@]} )) || die "$what: an entry of ${todo[0]} vanished while it was checked"
    for line in "${lines[@]}"; do
        read -r uid hex perm name <<< "$line"
        mode=$(( 16#$hex ))
        via="${LINK_TO[$name]:+ (where ${LINK_TO[$name]} leads)}"
        [[ "$uid" == 0 ]] || die "$what: $name$via is owned by uid $uid, not root; the helper would refuse it"
        if (( (mode & 8#170000) != 8#120000 && (mode & 8#022) )); then
            if [[ "$above" == 1 ]] && (( (mode & 8#170000) == 8#040000 && (mode & 8#1000) )); then
                CHECKED[$name]=above
                continue
            fi
            local sticky=""
            (( (mode & 8#170000) == 8#040000 && (mode & 8#1000) )) \
                && sticky=", sticky: accepted only as a directory above what is checked"
            die "$what: $name$via is writable by group or others (mode $perm$sticky); the helper would refuse it"
        fi
        CHECKED[$name]=named
    done
}

# PATH...: every directory above each PATH (absolute, normalized), once each.
check_above() {
    local what="$1" p
    shift
    declare -A seen=()
    local dirs=()
    for p in "$@"; do
        while [[ "$p" != / ]]; do
            p="${p%/*}"
            [[ -n "$p" ]] || p=/
            [[ -n "${seen[$p]:-}" ]] && break
            seen[$p]=1
            dirs+=("$p")
        done
    done
    (( ${#dirs[@]} )) && check_entries "$what" 1 "${dirs[@]}"
    return 0
}

# Root will run PATH: it and every directory above it, both as named and with links resolved.
check_trusted() {
    local what="$1" named real
    [[ -e "$2" ]] || die "$what $2 does not exist"
    named="$(realpath -s -- "$2")" && real="$(realpath -e -- "$2")" || die "$what $2 does not exist"
    check_entries "$what" 0 "$named"
    check_above "$what" "$named"
    if [[ "$real" != "$named" ]]; then
        check_entries "$what" 0 "$real"
        check_above "$what" "$real"
    fi
}

# WHAT DIR [1|stdlib]: every entry below DIR (a resolved directory already checked); with 1 only
# those directly inside it; with stdlib all but the site-packages and dist-packages directly inside
# it (a venv does not import those; the helper skips them too). Each is root's and writable by root
# alone; a link is resolved, its target and every directory above the target checked, and a
# dangling one refused; a directory a link leads to outside the trees walked is walked too (whole
# trees only).
check_below() {
    local what="$1" top="$2" how="${3:-}" starts=() depth=() w
    case "$how" in
        1) starts=("$top"); depth=(-mindepth 1 -maxdepth 1) ;;
        stdlib)
            mapfile -d '' starts < <(find -P "$top" -mindepth 1 -maxdepth 1 \
                                         ! -name site-packages ! -name dist-packages -print0)
            (( ${#starts[@]} )) || return 0
            WALKED+=("${starts[@]}") ;;
        *) starts=("$top"); depth=(-mindepth 1); WALKED+=("$top") ;;
    esac
    local bad
    bad="$(find -P "${starts[@]}" "${depth[@]}" \
               \( \( -type l ! -uid 0 \) -o \( ! -type l \( ! -uid 0 -o -perm /022 \) \) \) \
               -print -quit)"
    [[ -z "$bad" ]] || check_entries "$what" 0 "$bad"
    [[ -z "$bad" ]] || die "$what: $bad is not root's alone; the helper would refuse it"
    bad="$(find -P "${starts[@]}" "${depth[@]}" -type l -xtype l -print -quit)"
    [[ -z "$bad" ]] || die "$what: $bad is a dangling link (it leads nowhere); the helper would refuse it"
    local links=() targets=() i t
    mapfile -d '' links < <(find -P "${starts[@]}" "${depth[@]}" -type l -print0)
    (( ${#links[@]} )) || return 0
    mapfile -d '' targets < <(printf '%s\0' "${links[@]}" | xargs -0 realpath -z -e -- 2>/dev/null)
    (( ${#targets[@]} == ${#links[@]} )) || die "$what: a link below $top changed while it was checked"
    declare -A unique=()
    for i in "${!links[@]}"; do
        t="${targets[i]}"
        [[ -n "${LINK_TO[$t]:-}" ]] || LINK_TO[$t]="${links[i]}"
        unique[$t]=1
    done
    check_entries "$what" 0 "${!unique[@]}"
    check_above "$what" "${!unique[@]}"
    [[ "$how" == 1 ]] && return 0
    for t in "${!unique[@]}"; do
        [[ -d "$t" ]] || continue
        for w in "${WALKED[@]}"; do
            [[ "$t" == "$w" || "$t" == "$w"/* || "$w" == / ]] && continue 2
        done
        check_below "$what" "$t"
    done
}

find_ncu() {
    if [[ -z "$NCU" ]]; then
        NCU="$(command -v ncu || true)"
        [[ -n "$NCU" ]] || die "no ncu on PATH (sudo resets PATH); name it: sudo make install-capture NCU=/path/to/ncu"
    fi
    local real
    real="$(realpath -e -- "$NCU" 2>/dev/null)" || die "NCU=$NCU does not exist; give NCU=/path/to/ncu"
    [[ -f "$real" && -x "$real" ]] || die "NCU=$NCU is not an executable file; give NCU=/path/to/ncu"
    NCU="$real"
    check_trusted "NCU" "$NCU"
    # ncu in Nsight Compute's own folder (target/ and sections/ beside it: its binaries, libraries
    # and .py rules) runs from that whole folder; the helper walks it too.
    local folder="${NCU%/*}"
    if [[ -d "$folder/target" && -d "$folder/sections" ]]; then
        check_below "NCU's Nsight Compute folder" "$folder"
    fi
    # CUDA_HOME: the kernels load from anywhere below it, so the whole tree is checked.
    if [[ -n "$CUDA_HOME" ]]; then
        [[ "$CUDA_HOME" == /* && -d "$CUDA_HOME" ]] || die "CUDA_HOME=$CUDA_HOME is not an absolute directory"
        check_trusted "CUDA_HOME" "$CUDA_HOME"
        check_below "CUDA_HOME" "$(realpath -e -- "$CUDA_HOME")"
    fi
    # LIBRARY_PATH: the loader loads what lies directly inside each directory, and below its
    # glibc-hwcaps subdirectory.
    local dir real
    IFS=: read -r -a LIBRARY_DIRS <<< "$LIBRARY_PATH"
    for dir in "${LIBRARY_DIRS[@]}"; do
        [[ "$dir" == /* && -d "$dir" ]] || die "LIBRARY_PATH: $dir is not an absolute directory"
        check_trusted "LIBRARY_PATH" "$dir"
        real="$(realpath -e -- "$dir")"
        check_below "LIBRARY_PATH" "$real" 1
        [[ -d "$real/glibc-hwcaps" ]] && check_below "LIBRARY_PATH" "$(realpath -e -- "$real/glibc-hwcaps")"
    done
    return 0
}

# Root runs PYTHON here and the venv's interpreter (the same executable, the same standard
# library) for every capture: its executable as named and as resolved, and its standard library's
# trees (stdlib, platstdlib, lib-dynload), are checked like the rest. Every run here is -I -S: no
# PYTHON* variable, user site or site-packages (.pth files) takes part.
check_python() {
    local given="$PYTHON" named lines=() dir walked
    named="$(command -v -- "$PYTHON" 2>/dev/null)" && [[ "$named" == /* ]] \
        || die "PYTHON=$given is not a command; set PYTHON=/usr/bin/python3.11"
    check_trusted "PYTHON" "$named"
    PYTHON="$named"
    PYTHON_REAL="$(realpath -e -- "$named")"
    mapfile -t lines < <("$PYTHON" -I -S -c '
import sys, sysconfig
if sys.version_info < (3, 11):
    sys.exit(1)
paths = sysconfig.get_paths()
print(paths["stdlib"], paths["platstdlib"], *[p for p in sys.path if p.endswith("lib-dynload")],
      sep="\n")' 2>/dev/null)
    (( ${#lines[@]} >= 2 )) \
        || die "PYTHON=$given is not Python 3.11 or newer; set PYTHON=/usr/bin/python3.11"
    declare -A seen=()
    for dir in "${lines[@]}"; do
        [[ "$dir" == /* ]] || die "PYTHON=$given names a standard library that is not absolute: $dir"
        [[ -e "$dir" || "$dir" != */lib-dynload ]] || continue
        dir="$(realpath -e -- "$dir")" || die "PYTHON=$given: its standard library $dir does not exist"
        [[ -z "${seen[$dir]:-}" ]] || continue
        seen[$dir]=1
        for walked in "${WALKED[@]}"; do  # lib-dynload, inside the stdlib already walked
            [[ "$dir" == "$walked" || "$dir" == "$walked"/* ]] && continue 2
        done
        check_trusted "PYTHON's standard library" "$dir"
        check_below "PYTHON's standard library" "$dir" stdlib
    done
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
    read -r -a pip_opts <<< "$PIP_OPTS"
    mapfile -t reqs < <(requirements)
    [[ ${#reqs[@]} == 3 ]] || die "could not read numba, numba-cuda and numpy from pyproject.toml"
    say "creating $venv with $("$PYTHON" -I -S -c 'import sys; print(sys.executable)')"
    "$PYTHON" -I -S -m venv --clear "$venv"
    check_trusted "the venv's interpreter" "$venv/bin/python3"
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

# The kernel program runs the venv's Python with site (only the helper runs -S): a path line of a
# .pth file in its site-packages joins root's import path. Each must stay inside LIBEXEC, and no
# editable install's hook (an __editable__ file or an .egg-link, which lead to a checkout) may be
# there. Import lines run modules from the import path itself, so they are left as they are.
check_site_packages() {
    local site pth entry line path
    for site in "$LIBEXEC"/venv/lib/python*/site-packages; do
        [[ -d "$site" ]] || continue
        for entry in "$site"/__editable__* "$site"/*.egg-link; do
            [[ -e "$entry" || -L "$entry" ]] || continue
            die "$entry is an editable install's hook: root would import from a checkout; the venv holds a copy of the project only"
        done
        for pth in "$site"/*.pth; do
            [[ -f "$pth" ]] || continue
            while IFS= read -r line || [[ -n "$line" ]]; do
                [[ "$line" == \#* || -z "${line//[[:space:]]/}" ]] && continue
                [[ "$line" == "import "* || "$line" == $'import\t'* ]] && continue
                line="${line%"${line##*[![:space:]]}"}"
                [[ "$line" == /* ]] && path="$line" || path="$site/$line"
                path="$(realpath -m -- "$path")"
                [[ "$path" == "$LIBEXEC" || "$path" == "$LIBEXEC"/* ]] \
                    || die "$pth puts $path on root's import path, outside $LIBEXEC (an editable install?); root would import from there"
            done < "$pth"
        done
    done
}

# The helper's interpreter line: the venv's Python in isolated mode (-I) without site (-S), so
# no .pth file in site-packages runs when the helper starts.
SHEBANG_FLAGS="-IS"

# The kernel hands a shebang's words after the interpreter to it as one argument: check, by
# running a file with such a line, that this Python takes "-IS" so and starts isolated, no site.
check_shebang() {
    local interp="$LIBEXEC/venv/bin/python3" probe="$LIBEXEC/.shebang-probe" out
    [[ -n "$SKIP_VENV" && ! -x "$interp" ]] && interp="$PYTHON_REAL"  # the tests: the same binary
    rm -f -- "$probe"
    printf '#!%s %s\nimport sys\nprint(sys.flags.isolated, sys.flags.no_site, "site" in sys.modules)\n' \
        "$interp" "$SHEBANG_FLAGS" > "$probe"
    chmod 0700 -- "$probe"
    out="$("$probe" 2>&1)" || true
    rm -f -- "$probe"
    [[ "$out" == "1 1 False" ]] || die "a file starting '#!$interp $SHEBANG_FLAGS' does not run" \
        "Python isolated and without site (it printed: ${out:0:200}); the helper would not either"
}

# The helper with its first line replaced by the venv's interpreter, isolated and without site.
install_helper() {
    local src="$SOURCE/viewer/capture/helper.py" tmp
    [[ -f "$src" ]] || die "$src is missing"
    tmp="$(mktemp)"
    {
        printf '#!%s/venv/bin/python3 %s\n' "$LIBEXEC" "$SHEBANG_FLAGS"
        if head -n 1 -- "$src" | grep -q '^#!'; then tail -n +2 -- "$src"; else cat -- "$src"; fi
    } > "$tmp"
    install -o root -g root -m 0755 -- "$tmp" "$LIBEXEC/$HELPER_NAME"
    rm -f -- "$tmp"
}

write_config() {
    local tmp
    tmp="$(mktemp)"
    "$PYTHON" -I -S - "$NCU" "$CUDA_HOME" "$LIBRARY_PATH" > "$tmp" <<'PY'
import json
import sys

ncu, cuda_home, library_path = sys.argv[1:4]
print(json.dumps({"ncu": ncu, "cuda_home": cuda_home or None,
                  "library_path": [d for d in library_path.split(":") if d] or None}, indent=2))
PY
    install -o root -g root -m 0644 -- "$tmp" "$LIBEXEC/capture.json"
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
    check_above "the directory above LIBEXEC" "$LIBEXEC"
    chown root:root -- "$LIBEXEC"
    chmod 0755 -- "$LIBEXEC"
    if [[ -n "$SKIP_VENV" ]]; then
        say "NCU_READER_INSTALL_SKIP_VENV is set: no venv (for the tests only; the helper cannot run)"
    else
        make_venv
    fi
    check_site_packages
    check_shebang
    install_helper
    write_config
    write_created
    normalize_tree
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
