"""Opening reports: File > Open, and files dropped on the window.

However files arrive (the command line, Open, Recent, a drop, a capture) one loading job reads
them (viewer.qt.shell.loading.read_reports), so a file that cannot be read is refused the same way
everywhere: what can be read opens, and each refusal is one line, naming the file, in the banner
and on stderr.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QWidget

REPORT_FILTER = ("Nsight Compute reports and exports (*.ncu-rep *.txt *.csv *.log *.output);;"
                 "All files (*)")


def open_dialog(parent: QWidget) -> list[Path]:
    """Ask for one report or more (two compare): the files picked, [] for none."""
    names, _ = QFileDialog.getOpenFileNames(parent, "Open reports", "", REPORT_FILTER)
    return [Path(n) for n in names]


def local_files(urls: Iterable[QUrl]) -> list[Path]:
    return [Path(u.toLocalFile()) for u in urls if u.isLocalFile()]


def drag_enter(event: QDragEnterEvent) -> None:
    """Accept a drag that carries local files; refuse anything else (text, web links)."""
    if local_files(event.mimeData().urls()):
        event.acceptProposedAction()
    else:
        event.ignore()


def drop(event: QDropEvent, open_paths: Callable[[list[Path]], object]) -> None:
    """Open the files dropped with `open_paths`, once the drop has returned (the source is not
    kept waiting)."""
    paths = local_files(event.mimeData().urls())
    if not paths:
        event.ignore()
        return
    event.acceptProposedAction()
    QTimer.singleShot(0, lambda: open_paths(paths))
