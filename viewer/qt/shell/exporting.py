"""Export: the current tab as a picture (PNG, SVG), with the compare line's A, B and warnings drawn
above it, the comparison as a table (CSV, Markdown). The dialog opens where the last export went
and names the reports and the tab (export_place).

Every export is written to a temporary file in the target's folder and renamed into place
(viewer.core.atomic_write), so a slide that links the file never sees half of one. An existing file
is replaced only when asked: the dialog asks, and `export(..., replace=False)` refuses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QMessageBox, QStatusBar, QWidget

from viewer.analysis import export as tables
from viewer.core.atomic_write import write_atomically, write_text_atomically
from viewer.core.model import Kernel
from viewer.qt.kernel_list.kernel_list import KernelEntry, compare_names
from viewer.qt.kit import pictures
from viewer.qt.kit.plain_text import plain_tip
from viewer.qt.shell import export_place
from viewer.qt.shell.reading_page import ReadingPage
from viewer.qt.shell.tab_titles import whole_title


@dataclass(frozen=True)
class Shown:
    """What an export writes: the tab on screen (its view's name, its title and question), what
    the compare line says above it, and the kernels read in it (A first) with their names, the
    names of their files and the files."""

    page: QWidget
    view: str
    title: str
    question: str
    header: pictures.Header | None
    kernels: tuple[Kernel, ...]
    names: tuple[str, ...]
    sources: tuple[str, ...]
    files: tuple[str, ...]


def shown(reading: ReadingPage, kernels: Sequence[Kernel],
          picks: Sequence[KernelEntry]) -> Shown | None:
    """What an export of `reading`'s current tab writes; None while nothing is read."""
    if not picks:
        return None
    tabs = reading.tabs
    index = tabs.currentIndex()
    page = tabs.currentWidget()
    return Shown(page, reading.views[index].VIEW, whole_title(tabs, index),
                 tabs.tabToolTip(index), reading.compare_line.picture_header(), tuple(kernels),
                 tuple(compare_names(picks, None)), tuple(e.file_name for e in picks),
                 tuple(e.source for e in picks))


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
        write_atomically(path, lambda out: pictures.save_png(page, out, header=shown.header),
                         replace=replace)
    elif suffix == ".svg":
        subject = " against ".join(names)
        write_atomically(path, lambda out: pictures.save_svg(
            page, out, shown.title, subject, shown.question, header=shown.header),
            replace=replace)
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


def default_path(shown: Shown, settings: QSettings | None) -> Path:
    """Where the dialog proposes to write `shown`: export_place's folder and name."""
    folder = export_place.default_folder(settings, shown.files)
    return folder / export_place.default_name(shown.files, shown.names, shown.view, shown.title)


def export_dialog(parent: QWidget, shown: Shown | None, status: QStatusBar,
                  show_error: Callable[[str], None],
                  settings: QSettings | None = None) -> Path | None:
    """Ask where (and whether to replace what is there), then export; the path written or None.
    What went wrong goes to `show_error`, a file kept to `status`. The folder written to is kept
    in `settings` for the next export (None: none is kept, none read)."""
    if shown is None:
        show_error("Nothing to export: open a report first.")
        return None
    # The file dialog does not ask about replacing: the suffix may still change below, and the
    # one question is asked about the file that would really be replaced.
    name, chosen = QFileDialog.getSaveFileName(
        parent, "Export", str(default_path(shown, settings)), ";;".join(EXPORT_FILTERS.values()),
        options=QFileDialog.Option.DontConfirmOverwrite)
    if not name:
        return None
    path = export_path(name, chosen)
    replace = path.exists()
    if replace and not confirm_replace(parent, path):
        status.showMessage(f"Not exported: {path} was kept.", 5000)
        return None
    try:
        written = export(shown, path, status, replace=replace)
    except (OSError, ValueError) as exc:
        show_error(f"{path}: {' '.join(str(exc).split())}")
        return None
    export_place.remember_folder(settings, written)
    return written
