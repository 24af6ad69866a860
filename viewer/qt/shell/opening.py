"""Opening reports: File > Open, and files dropped on the window.

However files arrive (the command line, Open, Recent, a drop, a capture) one loading job reads
them (viewer.qt.shell.loading.read_reports), so a file that cannot be read is refused the same way
everywhere: what can be read opens, and each refusal is one line, naming the file, in the banner
and on stderr. The command line's `--kernels I,J` or `-k SPEC` (StartPicks) choose what the
first files open with.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QHeaderView, QTreeView, QWidget

from viewer.core.kernel_filter import start_picks
from viewer.qt.kernel_list.kernel_list import KernelEntry
from viewer.qt.kit.dialog_room import fit_dialog
from viewer.qt.kit.style import Style

REPORT_FILTER = ("Nsight Compute reports and exports (*.ncu-rep *.txt *.csv *.log *.output);;"
                 "All files (*)")


def open_dialog(parent: QWidget, style: Style | None = None) -> list[Path]:
    """Ask for one report or more (two compare): the files picked, [] for none."""
    dialog = file_dialog(parent, style or Style())
    if not dialog.exec():
        return []
    return [Path(n) for n in dialog.selectedFiles()]


def file_dialog(parent: QWidget, style: Style) -> QFileDialog:
    """The Open dialog; in projector mode Qt's own, in the projector's type (a platform dialog
    keeps the desk's), most of the window's size; Qt's own, in either mode, with its columns
    as wide as what they show."""
    dialog = QFileDialog(parent, "Open reports", "", REPORT_FILTER)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
    if style.projector:
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
        dialog.setFont(style.font("body"))
        fit_dialog(dialog, parent.window().size() * 0.9, parent)
    readable_columns(dialog)  # a platform dialog has none
    return dialog


def readable_columns(dialog: QFileDialog) -> None:
    """Qt's own dialog's detail columns each as wide as its widest entry and heading (size,
    type, date), the name taking what is left: at Qt's desk widths projector type crushes
    them to 'F...r' and '3 ...01'."""
    for view in dialog.findChildren(QTreeView):
        header = view.header()
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(header.fontMetrics().horizontalAdvance("Name") * 2)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)


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


@dataclass(frozen=True)
class StartPicks:
    """The kernels the command line asks to open with: `--kernels I,J` (their numbers in the
    kernel list, the first file holding each, a number named twice the next file's) or
    `-k SPEC` (the first one or two whose name SPEC picks), as viewer.core.kernel_filter's
    start_picks finds them."""

    numbers: tuple[int, ...] = ()
    spec: str | None = None

    def pick(self, entries: Sequence[KernelEntry]) -> tuple[list[KernelEntry], str]:
        """The entries asked for, and '' or the one line saying what is not there (naming the
        request as it was typed)."""
        at, problem = start_picks([e.kernel for e in entries], self.numbers, self.spec)
        return [entries[i] for i in at], problem
