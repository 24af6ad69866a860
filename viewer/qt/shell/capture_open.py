"""The window's side of a capture: open the Capture dialog over the window, and on success
open what was captured beside what is on screen, with the reports its run already read
(nothing is read twice); a capture of several sizes opens on the Series view."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QWidget,
)

from viewer.analysis.reading import SERIES_VIEW
from viewer.capture.client import Route, choose_route
from viewer.core.jobs import Job
from viewer.core.model import Report
from viewer.qt.capture.capture_dialog import CaptureDialog
from viewer.qt.capture.capture_run import Captured
from viewer.qt.kernel_list.kernel_list import KernelEntry, kernel_entries
from viewer.qt.kit.style import Style
from viewer.qt.kit.workers import Worker
from viewer.qt.shell.loading import Loaded, read_reports


class CaptureWindow(Protocol):
    """What a capture needs of the window it opens over: what is on screen (`picks`, the
    `reports` read), its loading `worker`, `show_reading(paths)`, and its style."""

    @property
    def picks(self) -> Sequence[KernelEntry]: ...

    @property
    def reports(self) -> Sequence[Report]: ...

    @property
    def worker(self) -> Worker: ...

    @property
    def tab_style(self) -> Style: ...

    def show_reading(self, paths: Sequence[Path]) -> None: ...

    def navigate(self, view: str, row: str = "") -> None: ...


def comparison_paths(on_screen: Path | None, captured: Sequence[Path]) -> list[Path]:
    """What opens after a capture: one kernel captured compares what is on screen (A) with the
    capture (B); both kernels compare the naive capture (A) with the tiled one (B)."""
    if len(captured) == 1 and on_screen is not None:
        return [on_screen, captured[0]]
    return list(captured)


def is_sweep(captured: Sequence[Captured]) -> bool:
    """Whether a capture took more than one size: the window then opens on the Series view."""
    return len({c.request.dim for c in captured}) > 1


def on_screen_path(window: CaptureWindow) -> Path | None:
    """The file of the kernel shown first (A), or None."""
    return Path(window.picks[0].source) if window.picks else None


def read_captured(paths: Sequence[Path], in_hand: Sequence[Report], job: Job) -> Loaded:
    """The loading job after a capture: the reports already read (the capture's own, as its run
    read them for their provenance; the one on screen) are taken as they are, so nothing is read
    twice; if any path is not in hand, every path is read as any other opening reads it."""
    held = {Path(r.source): r for r in in_hand}
    if not all(p in held for p in paths):
        return read_reports(paths, job)
    reports = tuple(held[p] for p in paths)
    return Loaded(tuple(paths), reports, tuple(kernel_entries(reports)))


def open_captured(window: CaptureWindow, paths: Sequence[Path], read: Sequence[Report]
                  ) -> None:
    """Open `paths` in the window with the reports a capture read (see read_captured)."""
    window.worker.submit(read_captured, list(paths), [*window.reports, *read])
    window.show_reading(list(paths))


def open_capture(parent: QWidget, window: CaptureWindow, route: Route | None = None
                 ) -> CaptureDialog:
    """Open the Capture dialog over `parent` (the window, which `window` describes); on success
    the window compares the new reports."""

    def opened(captured: list[Captured]) -> None:
        paths = comparison_paths(on_screen_path(window), [c.path for c in captured])
        open_captured(window, paths, [c.report for c in captured if c.report is not None])
        if is_sweep(captured):
            window.navigate(SERIES_VIEW)  # the sizes side by side, as one series

    for old in parent.findChildren(CaptureDialog):
        if old.isVisible():
            old.raise_()
            old.activateWindow()
            return old
    dialog = CaptureDialog(route or choose_route(), window.tab_style, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.captured.connect(opened)
    dialog.show()
    return dialog


def shutdown_captures(window: QWidget) -> None:
    """Stop every capture still running under `window` (its close event)."""
    for dialog in window.findChildren(CaptureDialog):
        dialog.shutdown()
