"""Where an export goes by default: the folder last exported to (kept in QSettings beside the
recent files), else the open report's folder where it can be written, else the user's Pictures,
Documents or home folder; and a file name that names the report(s) and the tab
('naive-vs-tiled-memory-chart.png'), so exports of different tabs do not collide."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths

from viewer.core.names import distinct_paths
from viewer.qt.shell.view_registry import entry_of

KEY = "export/folder"
# The most characters one part of a default name takes (a kernel's name may be very long).
PART_CHARS = 48
_UNSAFE = re.compile(r"[^0-9A-Za-z_]+")
_STANDARD = (QStandardPaths.StandardLocation.PicturesLocation,
             QStandardPaths.StandardLocation.DocumentsLocation,
             QStandardPaths.StandardLocation.HomeLocation)


def _writable(folder: Path) -> bool:
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


def last_folder(settings: QSettings | None) -> Path | None:
    """The folder last exported to, where it is still there and writable."""
    raw = settings.value(KEY, "") if settings is not None else ""
    folder = Path(raw) if isinstance(raw, str) and raw else None
    return folder if folder is not None and _writable(folder) else None


def remember_folder(settings: QSettings | None, path: Path) -> None:
    """Keep the folder of `path`, just written, for the next export."""
    if settings is not None:
        settings.setValue(KEY, os.path.abspath(path.parent))
        settings.sync()


def default_folder(settings: QSettings | None, files: Sequence[str]) -> Path:
    """The folder last exported to, else the first report's folder that can be written, else the
    user's Pictures, Documents or home folder."""
    last = last_folder(settings)
    if last is not None:
        return last
    for source in files:
        folder = Path(os.path.abspath(source)).parent
        if _writable(folder):
            return folder
    for location in _STANDARD:
        standard = QStandardPaths.writableLocation(location)
        if standard and _writable(Path(standard)):
            return Path(standard)
    return Path.home()


def name_part(text: str) -> str:
    """`text` safe in a file name: letters, digits and '_', other runs one '-', lower case,
    at most PART_CHARS long."""
    safe = _UNSAFE.sub("-", text.replace("'", "")).strip("-").lower()
    return safe[:PART_CHARS].strip("-")


def report_part(source: str) -> str:
    """A report's name without its kind ('naive' of naive.ncu-rep, 'x' of x.ncu-rep.gz)."""
    path = Path(source)
    if path.suffix.lower() == ".gz":
        path = path.with_suffix("")
    return name_part(str(path.with_suffix("")) if path.suffix else str(path))


def tab_part(view: str, title: str) -> str:
    """The tab's words from the view registry, without its key ('memory-chart' of
    '2  Memory chart'); `title` for a view the registry does not know."""
    entry = entry_of(view)
    words = (entry.title if entry is not None else title).split()
    if words and words[0].isdigit():
        words = words[1:]
    return name_part(" ".join(words))


def default_name(files: Sequence[str], names: Sequence[str], view: str, title: str,
                 suffix: str = ".png") -> str:
    """'naive-vs-tiled-memory-chart.png': the reports (the kernels too where two come from one
    file), then the tab."""
    reports = [report_part(p) for p in dict.fromkeys(distinct_paths(files))] if files else []
    shown = "-vs-".join(p for p in reports if p)
    if len(names) > len(reports):
        kernels = "-vs-".join(p for p in map(name_part, names) if p)
        shown = "-".join(p for p in (shown, kernels) if p)
    stem = "-".join(p for p in (shown, tab_part(view, title)) if p)
    return (stem or "export") + suffix
