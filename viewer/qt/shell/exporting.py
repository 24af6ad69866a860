"""Export: the current tab as a picture (PNG, SVG), the comparison as a table (CSV, Markdown).

Every export is written to a temporary file in the target's folder and renamed into place
(viewer.core.atomic_write), so a slide that links the file never sees half of one. An existing file
is replaced only when asked: the dialog asks, and `export(..., replace=False)` refuses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox, QStatusBar, QWidget

from viewer.analysis import export as tables
from viewer.core.atomic_write import write_atomically, write_text_atomically
from viewer.core.model import Kernel
from viewer.qt.kit import pictures
from viewer.qt.kit.plain_text import plain_tip


@dataclass(frozen=True)
class Shown:
    """What an export writes: the tab on screen with its title and question, and the kernels
    read in it (A first) with their names and the names of their files."""

    page: QWidget
    title: str
    question: str
    kernels: tuple[Kernel, ...]
    names: tuple[str, ...]
    sources: tuple[str, ...]


EXPORT_FILTERS = {
    ".png": "Current tab as PNG (*.png)",
    ".svg": "Current tab as SVG (*.svg)",
    ".csv": "Comparison as CSV (*.csv)",
    ".md": "Comparison as Markdown (*.md)",
}


def export(shown: Shown | None, path: Path | str, status: QStatusBar,
           replace: bool = False) -> Path:
    """Write the tab shown (.png, .svg) or the comparison (.csv, .md) to `path`, and say so on
    `status`.

    ValueError for nothing shown or an unknown suffix; FileExistsError if `path` exists and
    `replace` is false (the file is left as it was).
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if shown is None:
        raise ValueError("nothing to export: open a report first")
    page, names, kernels = shown.page, list(shown.names), list(shown.kernels)
    if suffix == ".png":
        write_atomically(path, lambda out: pictures.save_png(page, out), replace=replace)
    elif suffix == ".svg":
        subject = " against ".join(names)
        write_atomically(path, lambda out: pictures.save_svg(page, out, shown.title, subject,
                                                             shown.question), replace=replace)
    elif suffix == ".csv":
        write_text_atomically(path, tables.comparison_csv(kernels, names), replace=replace)
    elif suffix == ".md":
        sources = list(shown.sources)
        write_text_atomically(path, tables.comparison_markdown(kernels, names, sources),
                              replace=replace)
    else:
        raise ValueError(f"cannot export as '{suffix or path.name}': use .png, .svg, .csv or .md")
    status.showMessage(f"Exported {path}", 5000)
    return path


def confirm_replace(parent: QWidget, path: Path) -> bool:
    """Ask whether to replace the file at `path`; No is the default."""
    answer = QMessageBox.question(
        parent, "Replace file?",
        plain_tip(f"{path.name} already exists in {path.parent}.\nReplace it?"),
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No)
    return answer == QMessageBox.StandardButton.Yes


def export_path(name: str, chosen_filter: str) -> Path:
    """The file picked, with the chosen filter's suffix when it has none of the four."""
    path = Path(name)
    if path.suffix.lower() not in EXPORT_FILTERS:
        suffix = next((s for s, f in EXPORT_FILTERS.items() if f == chosen_filter), ".png")
        path = path.with_name(path.name + suffix)
    return path


def export_dialog(parent: QWidget, shown: Shown | None, status: QStatusBar,
                  show_error: Callable[[str], None]) -> Path | None:
    """Ask where (and whether to replace what is there), then export; the path written or None.
    What went wrong goes to `show_error`, a file kept to `status`."""
    if shown is None:
        show_error("Nothing to export: open a report first.")
        return None
    stem = "-vs-".join(shown.names)
    # The file dialog does not ask about replacing: the suffix may still change below, and the
    # one question is asked about the file that would really be replaced.
    name, chosen = QFileDialog.getSaveFileName(
        parent, "Export", f"{stem}.png", ";;".join(EXPORT_FILTERS.values()),
        options=QFileDialog.Option.DontConfirmOverwrite)
    if not name:
        return None
    path = export_path(name, chosen)
    replace = path.exists()
    if replace and not confirm_replace(parent, path):
        status.showMessage(f"Not exported: {path} was kept.", 5000)
        return None
    try:
        return export(shown, path, status, replace=replace)
    except (OSError, ValueError) as exc:
        show_error(f"{path}: {' '.join(str(exc).split())}")
        return None
