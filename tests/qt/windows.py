"""The main window as the screen tests open it: at a size, in a mode, on the shipped pair or on
two kernels of the 400-kernel PyTorch capture; kept for a module and closed once."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from viewer.core import shipped
from viewer.qt.shell.main_window import MainWindow, default_tabs

ROOT = Path(__file__).resolve().parents[2]
TORCH = ROOT / "tests/data/corpus/h200/torch-transformer-400.details.txt.gz"
SIZES = [(1366, 768), (1920, 1080)]


def settle(rounds: int = 6) -> None:
    for _ in range(rounds):
        QApplication.processEvents()


def open_window(tmp: Path, size: tuple[int, int], projector: bool,
                torch_pair: tuple[int, int] | None = None) -> MainWindow:
    """A window at `size`, its settings in `tmp`, on the shipped pair, or on the kernels
    `torch_pair` of TORCH compared; shown in projector mode where `projector`."""
    settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, tabs=default_tabs(), record_recent=False)
    win.resize(*size)
    win.show()
    loaded: list[bool] = []
    win.loaded.connect(lambda: loaded.append(True))
    win.open_paths([TORCH] if torch_pair else shipped.comparison())
    while not loaded:
        QApplication.processEvents()
    if torch_pair:
        entries = {e.kernel.index: e for e in win.kernel_list.entries()}
        win.show_entries([entries[i] for i in torch_pair])
        win.kernel_list.set_picks(win.picks)
    win.set_projector(projector, full_screen=False)
    win.resize(*size)
    settle()
    return win


def close_window(win: MainWindow) -> None:
    win.worker.shutdown(30_000)
    win.close()
    win.deleteLater()
    settle()
