"""Writing the "Every metric" table as CSV: the path asked for where none is given, a question
before replacing a file, and the failure said in one line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from viewer.analysis import metric_table
from viewer.qt.kit.plain_text import plain_tip


def export_csv(parent: QWidget, text: Callable[[], str], stem: str, path: Path | str | None,
               say: Callable[[str], None]) -> Path | None:
    """Write `text()` to `path` (asked for, as `stem`.csv, when None); asks before replacing a
    file, and `say`s why a write failed. The path written, or None."""
    if path is None:
        chosen, _ = QFileDialog.getSaveFileName(
            parent, "Export the table as CSV", f"{stem}.csv", "CSV (*.csv)",
            options=QFileDialog.Option.DontConfirmOverwrite)
        if not chosen:
            return None
        path = chosen
    path = Path(path)
    replace = False
    if path.exists():
        answer = QMessageBox.question(parent, "Replace?",
                                      plain_tip(f"{path.name} exists. Replace it?"))
        if answer != QMessageBox.StandardButton.Yes:
            return None
        replace = True
    try:
        return metric_table.write_csv(path, text(), replace=replace)
    except OSError as exc:
        say(f"Could not write {path.name}: {exc.strerror or exc}")
        return None
