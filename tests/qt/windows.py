"""The main window as the screen tests open it: at a size, in a mode, on the shipped pair or on
two kernels of the 400-kernel PyTorch capture; kept for a module and closed once."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtWidgets import QApplication

from viewer.core import shipped
from viewer.qt.shell.main_window import MainWindow, default_tabs

ROOT = Path(__file__).resolve().parents[2]
TORCH = ROOT / "tests/data/corpus/h200/torch-transformer-400.details.txt.gz"
SIZES = [(1366, 768), (1920, 1080)]


def settle(rounds: int = 6) -> None:
    for _ in range(rounds):
        QApplication.processEvents()


def open_and_wait(win: MainWindow, paths: Sequence[Path], timeout_s: float = 120.0) -> None:
    """Open `paths` in `win` and wait, in Qt's event loop (asleep while the reports are read,
    not spinning beside their reader), until the window has them."""
    loaded: list[bool] = []
    loop = QEventLoop()
    timer = QTimer(singleShot=True, interval=int(timeout_s * 1000))
    timer.timeout.connect(loop.quit)

    def done() -> None:
        loaded.append(True)
        loop.quit()

    win.loaded.connect(done)
    timer.start()
    win.open_paths(list(paths))
    if not loaded:
        loop.exec()
    win.loaded.disconnect(done)
    assert loaded, f"{[p.name for p in paths]} not open within {timeout_s:g} s"


def open_window(tmp: Path, size: tuple[int, int], projector: bool,
                torch_pair: tuple[int, int] | None = None) -> MainWindow:
    """A window at `size`, its settings in `tmp`, on the shipped pair, or on the kernels
    `torch_pair` of TORCH compared; shown in projector mode where `projector`."""
    settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, tabs=default_tabs(), record_recent=False)
    win.resize(*size)
    win.show()
    open_and_wait(win, [TORCH] if torch_pair else shipped.comparison())
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
