#!/usr/bin/env bash
# Install or remove ncu-reader's desktop entry, icon and .ncu-rep MIME type for this user (no root):
# `install-desktop.sh install|uninstall`, under ${XDG_DATA_HOME:-~/.local/share}.
# Exec is `ncu-reader` when that is on PATH, else the checkout's .venv/bin/ncu-reader (made by
# `make run`), so that a double-clicked report opens in the app either way.
set -euo pipefail
umask 022

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE="$(dirname "$HERE")"
DATA="${XDG_DATA_HOME:-$HOME/.local/share}"
APPS="$DATA/applications"
ICONS="$DATA/icons/hicolor"
MIME="$DATA/mime"
DESKTOP="ncu-reader.desktop"
ICON="ncu-reader.svg"
MIME_XML="ncu-reader-mime.xml"

say() { echo "$CMD: $*"; }

refresh() {
    if [[ -d "$MIME" ]] && command -v update-mime-database >/dev/null; then
        update-mime-database "$MIME"
    fi
    if [[ -d "$APPS" ]] && command -v update-desktop-database >/dev/null; then
        update-desktop-database "$APPS"
    fi
    if [[ -f "$ICONS/icon-theme.cache" ]] && command -v gtk-update-icon-cache >/dev/null; then
        gtk-update-icon-cache -f -t -q "$ICONS" || true
    fi
}

exec_line() {
    local venv_app="$SOURCE/.venv/bin/ncu-reader"
    if command -v ncu-reader >/dev/null; then
        echo "ncu-reader"
    elif [[ -x "$venv_app" && "$venv_app" =~ ^/[A-Za-z0-9/._+-]+$ ]]; then
        echo "$venv_app"
    else
        echo "ncu-reader"
        echo "$CMD: ncu-reader is not on PATH yet (make run sets up .venv, or pip install the" \
             "project); the entry runs 'ncu-reader'" >&2
    fi
}

do_install() {
    CMD=install-desktop
    local app tmp
    app="$(exec_line)"
    mkdir -p -- "$APPS" "$ICONS/scalable/apps" "$MIME/packages"
    tmp="$(mktemp)"
    sed "s|^Exec=ncu-reader |Exec=$app |" -- "$HERE/$DESKTOP" > "$tmp"
    install -m 0644 -- "$tmp" "$APPS/$DESKTOP"
    rm -f -- "$tmp"
    install -m 0644 -- "$HERE/$ICON" "$ICONS/scalable/apps/$ICON"
    install -m 0644 -- "$HERE/$MIME_XML" "$MIME/packages/$MIME_XML"
    refresh
    say "installed $APPS/$DESKTOP (Exec=$app %F), its icon and the application/x-ncu-rep type"
}

do_uninstall() {
    CMD=uninstall-desktop
    rm -f -- "$APPS/$DESKTOP" "$ICONS/scalable/apps/$ICON" "$MIME/packages/$MIME_XML"
    refresh
    say "removed $APPS/$DESKTOP, its icon and the application/x-ncu-rep type"
}

case "${1:-}" in
    install) do_install ;;
    uninstall) do_uninstall ;;
    *) echo "usage: $0 install|uninstall" >&2; exit 2 ;;
esac
