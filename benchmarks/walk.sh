#!/usr/bin/env bash
# The lesson walked by keys, as a person sees it: a real X server (Xvfb) with a window manager
# (openbox), the app on the shipped naive-vs-tiled pair and on the 400-kernel PyTorch capture
# (its two long cuBLAS kernels compared) and on the shipped sweep (the Series view), at
# 1366x768 and 1920x1080, at the desk and in projector mode. xdotool presses the keys a student
# or an instructor would; after each key
# the screen is taken once it has stopped changing. Every picture is kept, and one contact
# sheet per screen and mode gathers them, each labelled with the keys that led to it.
#
#   bash benchmarks/walk.sh [OUT]      (default OUT: walk-YYYYmmdd-HHMMSS; never over a folder)
#   SIZES=1366x768 MODES=projector WALKS="pair sweep" bash benchmarks/walk.sh OUT   (a part)
#
# Needs Xvfb, openbox, xdotool and ImageMagick (import, compare, montage); asserts nothing.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}
OUT=${1:-walk-$(date +%Y%m%d-%H%M%S)}
TORCH=$ROOT/tests/data/corpus/h200/torch-transformer-400.details.txt.gz
SIZES=${SIZES:-"1366x768 1920x1080"}
MODES=${MODES:-"desk projector"}
WALKS=${WALKS:-"pair torch sweep"}

for tool in Xvfb openbox xdotool import compare montage; do
    command -v "$tool" >/dev/null || { echo "walk.sh: $tool is not installed" >&2; exit 2; }
done
test -x "$PY" || { echo "walk.sh: no $PY: run make test (or make run) once first" >&2; exit 2; }
if [ -e "$OUT" ]; then echo "walk.sh: $OUT exists; name a new folder" >&2; exit 2; fi
mkdir -p "$OUT"

# The lesson's walk on the pair: the reading order, the lesson's tabs, the views beyond it,
# the kernel list, F1 and back. Each entry is the keys to press, then a name for the picture.
PAIR_WALK=(
    ":open" "1:speed-of-light" "2:memory" "3:occupancy" "p:predict" "space space:revealed"
    "1:back" "e:exercise" "e:exercise-closed" "r:t4" "o:roofline" "a:advice"
    "w:stalls" "c:source" "Next:source-pagedown" "i:mix" "x:series" "m:metrics" "ctrl+l:kernel-list"
    "g:groups" "F1:keys" "Escape:keys-closed" "t:timing"
)
# The shipped sweep (the pair at five sizes), as `--tab series` with no file opens it: the Series
# view, its plot below, and the memory chart of the first pair (naive and tiled at 128).
SWEEP_WALK=(":open" "x:series" "Next Next Next Next Next Next Next Next:series-plot" "2:memory")
# The instructor's many-kernel walk: two 121-character cuBLAS names side by side.
TORCH_WALK=(
    ":open" "2:memory" "3:occupancy" "m:metrics" "c:source" "ctrl+l:kernel-list" "g:groups"
    "ctrl+f x m m a:filter" "Escape Escape 1:back"
)

settle() {  # take the screen once two takes a moment apart are the same (at most ~10 s)
    local shot=$1 previous=$1.previous.png
    import -display "$DISPLAY" -window root "$previous"
    for _ in $(seq 1 20); do
        sleep 0.5
        import -display "$DISPLAY" -window root "$shot"
        if [ "$(compare -metric AE "$previous" "$shot" null: 2>&1 | cut -d' ' -f1)" = 0 ]; then
            break
        fi
        mv "$shot" "$previous"
    done
    rm -f "$previous"
}

walk() {  # walk NAME SIZE MODE ARGS... -- STEPS...
    local name=$1 size=$2 mode=$3; shift 3
    local args=() steps=()
    while [ "$1" != "--" ]; do args+=("$1"); shift; done
    shift
    steps=("$@")
    local folder=$OUT/$name-$size-$mode labels=() n=0
    mkdir -p "$folder"
    [ "$mode" = projector ] && args+=(--projector)
    exec {xfd}< <(Xvfb -displayfd 1 -screen 0 "${size}x24" -nolisten tcp 2>/dev/null)
    local xpid=$! dn
    read -r dn <&"$xfd"
    export DISPLAY=:$dn
    openbox >/dev/null 2>&1 & local wm=$!
    (cd "$ROOT" && exec "$PY" -m viewer "${args[@]}") >"$folder/app.log" 2>&1 & local app=$!
    local waited=0  # the window, while the app runs (it prints the summary where it cannot open)
    until xdotool search --onlyvisible --name "ncu-reader" >/dev/null 2>&1; do
        if ! kill -0 "$app" 2>/dev/null || [ "$waited" -ge 120 ]; then
            echo "walk.sh: no window for $name $size $mode: $(head -n 1 "$folder/app.log")" >&2
            kill "$app" "$wm" "$xpid" 2>/dev/null || true
            return 1
        fi
        sleep 0.5
        waited=$((waited + 1))
    done
    for step in "${steps[@]}"; do
        local keys=${step%%:*} label=${step#*:}
        for key in $keys; do
            xdotool key --clearmodifiers "$key"
        done
        n=$((n + 1))
        local shot
        shot=$folder/$(printf '%02d' "$n")-$label.png
        settle "$shot"
        labels+=(-label "${keys:-(opened)} -> $label" "$shot")
    done
    kill "$app" 2>/dev/null || true
    wait "$app" 2>/dev/null || true
    kill "$wm" "$xpid" 2>/dev/null || true
    montage "${labels[@]}" -tile 4x -geometry 683x384+6+6 -pointsize 18 \
        "$OUT/$name-$size-$mode-sheet.png"
    echo "$OUT/$name-$size-$mode-sheet.png: ${#steps[@]} pictures"
}

for size in $SIZES; do
    for mode in $MODES; do
        for name in $WALKS; do
            case $name in
                pair) walk pair "$size" "$mode" -- "${PAIR_WALK[@]}" ;;
                torch) walk torch "$size" "$mode" "$TORCH" --kernels 2,7 -- "${TORCH_WALK[@]}" ;;
                sweep) walk sweep "$size" "$mode" --tab series -- "${SWEEP_WALK[@]}" ;;
                *) echo "walk.sh: no walk named $name (pair, torch, sweep)" >&2; exit 2 ;;
            esac
        done
    done
done
