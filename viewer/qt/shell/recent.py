"""Recently opened files, kept in QSettings: each entry is the set of files opened together.

A comparison opened from two files is one entry, so File > Recent reopens it as a comparison.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMenu

from viewer.qt.kit.plain_text import plain_mnemonic, plain_tip

KEY = "recent/entries"
LIMIT = 10


def default_settings() -> QSettings:
    return QSettings("ncu-reader", "ncu-reader")


class RecentFiles:
    """The most recent entries first, at most LIMIT, without duplicates."""

    def __init__(self, settings: QSettings | None = None, limit: int = LIMIT) -> None:
        self.settings = settings if settings is not None else default_settings()
        self.limit = limit

    def entries(self) -> list[list[Path]]:
        raw = self.settings.value(KEY, "[]")
        try:
            data = json.loads(raw if isinstance(raw, str) else "[]")
        except ValueError:
            return []
        if not isinstance(data, list):
            return []
        return [[Path(p) for p in entry] for entry in data
                if isinstance(entry, list) and entry and all(isinstance(p, str) for p in entry)]

    def add(self, paths: Sequence[Path]) -> None:
        entry = [str(Path(p).resolve()) for p in paths]
        if not entry:
            return
        kept = [[str(p) for p in e] for e in self.entries() if [str(p) for p in e] != entry]
        self.settings.setValue(KEY, json.dumps([entry, *kept][: self.limit]))
        self.settings.sync()

    def clear(self) -> None:
        self.settings.setValue(KEY, "[]")
        self.settings.sync()


def entry_text(entry: Sequence[Path]) -> str:
    """'naive.ncu-rep + tiled.ncu-rep'."""
    return " + ".join(p.name for p in entry)


def _opener(open_paths: Callable[[list[Path]], object],
            entry: list[Path]) -> Callable[[bool], None]:
    def open_entry(_checked: bool = False) -> None:
        open_paths(list(entry))

    return open_entry


def fill_menu(menu: QMenu, recent: RecentFiles,
              open_paths: Callable[[list[Path]], object]) -> None:
    """Rebuild `menu` from `recent`: one action per entry (numbered &1 to &9), then Clear."""
    menu.clear()
    entries = recent.entries()
    for number, entry in enumerate(entries, start=1):
        prefix = f"&{number} " if number < 10 else ""
        action = menu.addAction(prefix + plain_mnemonic(entry_text(entry)))
        action.setToolTip(plain_tip("\n".join(str(p) for p in entry)))
        action.setStatusTip(" + ".join(str(p) for p in entry))
        action.triggered.connect(_opener(open_paths, entry))
    if not entries:
        menu.addAction("(no recent files)").setEnabled(False)
    menu.addSeparator()
    clear = menu.addAction("Clear recent files")
    clear.setEnabled(bool(entries))
    clear.triggered.connect(recent.clear)
