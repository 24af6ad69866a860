"""The window around the reading tabs: what is open, what is read, and the steps through it.

Reports are read by a job on viewer.qt.kit.workers.Worker, never on the GUI thread; the window only
applies what comes back. A file that cannot be read is refused with one line naming it (banner and
stderr) while the others open; when none can be read, what was open stays. One kernel is read
alone; two (two files, one file with two kernels, or two rows picked in the kernel list) are
compared, A against B. The lesson's two tabs ride along: Predict before step 1 and the T4 after
Timing (reading_page). The window's other jobs live beside it, each handed what it needs and none
importing this module: window_menus (the actions, as one WindowActions), window_steps (the moves
between tabs), reading_page (the tabs, one per view of view_registry), compare_line,
projector_mode (a ProjectorMode that owns the mode and says when it changes), exporting, opening
(Open, drops), window_place (its size and place), exercise_panel (the exercise's dock).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QSettings, QSize, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent, QResizeEvent
from PySide6.QtWidgets import QMainWindow, QStackedWidget, QWidget

from viewer.core.model import Kernel, Report
from viewer.core.names import distinct_paths
from viewer.core.terminal_text import visible
from viewer.qt.capture.capture_dialog import SHORTCUT as CAPTURE_KEY
from viewer.qt.kernel_list.kernel_dock import kernel_dock, list_key, show_dock
from viewer.qt.kernel_list.kernel_list import KernelEntry, KernelList, compare_names, look_alikes
from viewer.qt.kit.plain_text import plain_title
from viewer.qt.kit.reading_tab import ReadingTab
from viewer.qt.kit.style import Style, tab_scroller_sheet
from viewer.qt.kit.view import Selection
from viewer.qt.kit.workers import Worker
from viewer.qt.lesson import exercise_dock
from viewer.qt.lesson.lesson_hooks import note_profiled_durations
from viewer.qt.shell import exporting, opening, projector_mode, window_place
from viewer.qt.shell import recent as recent_files
from viewer.qt.shell.capture_open import open_capture, shutdown_captures
from viewer.qt.shell.empty_page import EmptyPage
from viewer.qt.shell.escape_key import EscapeKey, hide_shown
from viewer.qt.shell.keys_dialog import KeysDialog, every_action
from viewer.qt.shell.loading import Loaded, first_picks, read_reports
from viewer.qt.shell.page_keys import KEY_ROWS, PageKeys
from viewer.qt.shell.projector_mode import ProjectorMode
from viewer.qt.shell.reading_page import ReadingPage, default_tabs
from viewer.qt.shell.status_line import StatusLine, open_text, open_texts, threshold_text
from viewer.qt.shell.tab_titles import TitleFitter
from viewer.qt.shell.window_menus import EscapeFromEdits, build_menus, connect_actions
from viewer.qt.shell.window_parts import WindowParts
from viewer.qt.shell.window_steps import WindowSteps

__all__ = ["MainWindow", "default_tabs"]

READING_PAGE, EMPTY_PAGE = 1, 0


class MainWindow(WindowSteps, WindowParts, QMainWindow):
    """The reading window. Signals: `loaded()` after reports are applied (some files may have
    been refused: `last_error`), `load_failed(message)` after no file could be read (what was
    open stays). With `record_recent`, it remembers what was opened and its own size and place.

    Its parts: `reading` (the ReadingPage: tabs, banner, compare line, timing), `empty_page`,
    `status_line`, `kernel_list` and `kernel_dock`, `window_actions` (every QAction) and
    `projector_mode`; WindowParts hands the lesson, the capture and their tests the few parts
    they reach."""

    loaded = Signal()
    load_failed = Signal(str)

    def __init__(self, settings: QSettings | None = None, tabs: Sequence[ReadingTab] | None = None,
                 record_recent: bool = True, parent: QWidget | None = None,
                 worker: Worker | None = None) -> None:
        """`worker` may already be reading (viewer.qt.shell.app starts the read before the window is
        built): its result is applied once the event loop runs; `show_reading` says so."""
        super().__init__(parent)
        self.setWindowTitle("ncu-reader")
        self.setAcceptDrops(True)
        self.worker = worker if worker is not None else Worker(self)
        self.worker.setParent(self)
        self.recent = recent_files.RecentFiles(settings)
        self.settings = self.recent.settings
        self.record_recent = record_recent
        self.paths: list[Path] = []
        self.reports: list[Report] = []
        self.picks: list[KernelEntry] = []
        self.names: list[str] = []
        self.last_error = ""
        self.refused_picks = ""  # the line refusing the command line's picks, on its load
        self.repeated: tuple[str, ...] = ()  # a line for each file named twice (read once)
        self._showing: int | None = None  # the generation read but not shown yet
        self.keys_dialog: KeysDialog | None = None
        self.start_picks: opening.StartPicks | None = None  # the command line's, for one load
        self._build_parts(default_tabs() if tabs is None else tabs)
        self._connect_parts()
        self._enable_reveal()
        self.set_tab(0)  # step 1; Predict is one key (P) or one step back (Left) away
        self._apply_style()
        self.exercise = exercise_dock.install(  # the exercise dock: its key, View entry, jumps
            self, self.reading.tab_pages, self.navigate, lambda: self.tab_style,
            self.projector_mode.changed, self.window_actions.view_menu)
        note_profiled_durations(self.reading.tab_pages, self.reading.timing_panel.probe.done)
        self.escape_key = EscapeKey(self.window_actions.escape, self.projector_mode, [
            lambda: hide_shown(self.keys_dialog), lambda: hide_shown(self.exercise.dock),
            self.reading.compare_line.fold_opened, self.reading.step_note.dismiss,
            lambda: self.projector and hide_shown(self.kernel_dock)])

    def _build_parts(self, tabs: Sequence[ReadingTab]) -> None:
        """The reading page and the page before a report, the kernel list and its dock, the
        status line, the actions (every tab's from the views' registry) and projector mode."""
        self.reading = reading = ReadingPage(tabs, Style(projector=False), self)
        self.empty_page = EmptyPage(self)
        self._pages = QStackedWidget(self)
        self._pages.insertWidget(EMPTY_PAGE, self.empty_page)
        self._pages.insertWidget(READING_PAGE, self.reading)
        self.setCentralWidget(self._pages)
        self.kernel_list = KernelList(self)
        self.kernel_dock = kernel_dock(self, self.kernel_list)
        self.status_line = StatusLine(self.statusBar(), self)
        self.window_actions = actions = build_menus(
            self, reading.menu, list_key(self, self.kernel_dock, self.kernel_list), CAPTURE_KEY)
        connect_actions(actions, self)
        self._escape = EscapeFromEdits(self, self.focus_tabs)
        actions.recent.aboutToShow.connect(self._fill_recent)
        self._fill_recent()
        self.projector_mode = ProjectorMode(self, self.kernel_dock, actions.projector)
        self.page_keys = PageKeys(self, self.current_tab)  # PageDown scrolls the page shown
        # short titles where whole ones do not fit
        self.tab_titles = TitleFitter(reading.tabs, reading.titles)

    def _connect_parts(self) -> None:
        """The buttons, the kernel list, the tabs, the loading job and every view's navigate."""
        reading, line, actions = self.reading, self.status_line, self.window_actions
        self.projector_mode.changed.connect(self._restyle)
        self.empty_page.open_button.clicked.connect(self.open_dialog)
        for button in (self.empty_page.capture_button, line.capture_button):
            button.clicked.connect(actions.capture.trigger)
        line.cancel_button.clicked.connect(self.cancel_loading)
        self.kernel_list.picked.connect(self.show_entries)
        reading.tabs.currentChanged.connect(self.update_status)
        self.worker.done.connect(self._apply_loaded)
        self.worker.failed.connect(self._show_failure)
        self.worker.progress.connect(line.show_progress)
        self.worker.cancelled.connect(self._show_cancelled)
        self.worker.busy_changed.connect(self._show_busy)
        reading.tabs.currentChanged.connect(self._tab_changed)
        for view in reading.views:
            view.navigate.connect(self.navigate)

    # ------------------------------------------------------------------ opening and reading

    def open_dialog(self) -> None:
        paths = opening.open_dialog(self, self.tab_style)
        if paths:
            self.open_paths(paths)

    def open_paths(self, paths: Sequence[Path | str]) -> int:
        """Start reading `paths` off the GUI thread; returns the job's generation."""
        files = [Path(p) for p in paths]
        generation = self.worker.submit(read_reports, files)
        self.show_reading(files)
        return generation

    def show_reading(self, paths: Sequence[Path]) -> None:
        """Say that `paths` are being read, with progress and Cancel while they are."""
        self.status_line.show_busy(self.worker.busy)
        self.status_line.text.setText("Reading " + ", ".join(p.name for p in paths) + "...")

    def cancel_loading(self) -> None:
        self.worker.cancel()

    @property
    def busy(self) -> bool:
        """Whether files are being read or what was read is not shown yet."""
        return self.worker.busy or self._showing is not None

    def _apply_loaded(self, loaded: Loaded) -> None:
        """Show what a loading job read: the kernel list now, the tabs on the next turn of the
        event loop, so that neither step holds the GUI thread for both."""
        if not loaded.reports:
            self._show_failure("\n".join(loaded.refused) or "no file to open")
            return
        self.paths, self.reports = list(loaded.paths), list(loaded.reports)
        self.repeated = loaded.repeated
        picks, problem = self._start_picks(loaded)
        self.refused_picks = problem
        self.kernel_list.set_entries(loaded.entries, picks)
        self.kernel_list.set_filter_text("")
        self._show_list(len(loaded.entries) > 2 and not self.projector)
        self.reading.banner.hide()
        self.empty_page.banner.hide()
        self.last_error = ""
        self._pages.setCurrentIndex(READING_PAGE)
        said = [*loaded.refused, *loaded.notes, *filter(None, [problem])]
        if said:
            self.show_error("\n".join(said))
        self.update_status()
        self._showing = generation = self.worker.generation
        QTimer.singleShot(0, lambda: self._show_loaded(generation, picks))

    def _start_picks(self, loaded: Loaded) -> tuple[list[KernelEntry], str]:
        """The command line's picks on its first load (else, or where they are not there, the
        first picks), and '' or the line saying what is not there."""
        start, self.start_picks = self.start_picks, None
        picks, problem = start.pick(loaded.entries) if start is not None else ([], "")
        return picks or first_picks(loaded), problem

    def _show_loaded(self, generation: int, picks: list[KernelEntry]) -> None:
        if generation != self._showing:
            return  # a later load was applied meanwhile and shows its own
        self._showing = None
        self.show_entries(picks)
        moved = self.reading.open_on_a_filled_step(self.kernels)
        if moved:
            self.statusBar().showMessage(moved, 20_000)
        if self.record_recent:
            self.recent.add(self.paths)
        self.loaded.emit()

    def _show_failure(self, message: str) -> None:
        """No file could be read: say why; what was open stays."""
        self.show_error(message)
        self.update_status()
        self.load_failed.emit(message)

    def show_error(self, message: str) -> None:
        """The message (one line a file) in the banner over what is shown, and on stderr."""
        self.last_error = message
        for line in message.splitlines():
            print(visible(f"ncu-reader: {line}"), file=sys.stderr)
        banner = (self.reading.banner if self._pages.currentIndex() == READING_PAGE
                  else self.empty_page.banner)
        banner.show_message(message, self.tab_style)

    def _show_cancelled(self) -> None:
        self.update_status()
        self.statusBar().showMessage("Loading cancelled; what was open stays.", 5000)

    def _show_busy(self, busy: bool) -> None:
        self.status_line.show_busy(busy)
        if not busy:
            self.update_status()

    @property
    def kernels(self) -> list[Kernel]:
        return [e.kernel for e in self.picks]

    @property
    def compare_mode(self) -> bool:
        return len(self.picks) == 2

    def show_entries(self, entries: Sequence[KernelEntry]) -> None:
        """Read one kernel, or compare two (A first), in every tab."""
        self.picks = list(entries)[:2]
        among = look_alikes(self.reports, self.picks)
        self.names = compare_names(self.picks, among=among)
        shown = {k.name for k in self.kernels}
        selection = Selection.of(self.kernels, self.names, [
            self.reports[e.report_index] for e in self.picks], [
            n for n in dict.fromkeys(among) if n not in shown], self.reports)
        for view in self.reading.views:
            view.show_selection(selection)
        self.exercise.panel.show_selection(selection)  # its report's words follow the picks
        self.window_actions.swap.setEnabled(self.compare_mode)
        self.show_compare_line()
        self.update_status()

    def show_compare_line(self) -> None:
        """What is compared, with the pair's misread warnings except on Predict: they quote
        measured values, and nothing measured shows there before Reveal."""
        predicting = self.reading.tabs.currentWidget() is self.reading.predict_tab
        self.reading.compare_line.show_picks(self.picks, self.names, self.tab_style,
                                             () if predicting else self.reports, self.repeated)
        self.place_compare_line()

    def _tab_changed(self) -> None:
        self._enable_reveal()
        self.show_compare_line()

    def _enable_reveal(self) -> None:
        """Space and Enter reveal a prediction only while the Predict tab is shown."""
        shown = self.reading.tabs.currentWidget() is self.reading.predict_tab
        self.window_actions.reveal.setEnabled(shown)

    def swap(self) -> None:
        """Swap A and B of the comparison."""
        if not self.compare_mode:
            return
        self.show_entries(self.picks[::-1])
        self.kernel_list.set_picks(self.picks)

    def find_kernel(self) -> None:
        """Ctrl+F, whatever has the focus: the kernel list shown (in projector mode too), its
        filter focused."""
        self._show_list(True)
        self.kernel_list.focus_filter()

    def _show_list(self, visible: bool) -> None:
        show_dock(self, self.kernel_dock, self.kernel_list, visible)

    def show_keys(self) -> None:
        """Show (or hide again) the list of keys, read from the window's actions, in style."""
        if self.keys_dialog is not None and self.keys_dialog.isVisible():
            self.keys_dialog.close()
            return
        self.keys_dialog = KeysDialog(every_action(self), self.tab_style, self, KEY_ROWS)
        self.keys_dialog.addAction(self.window_actions.keys)
        self.keys_dialog.show()

    def open_capture(self) -> None:
        open_capture(self, self)

    def set_projector(self, on: bool, full_screen: bool = True) -> None:
        """Large type, high contrast, no side panels; full screen unless told otherwise."""
        self.projector_mode.set(on, full_screen)

    def _restyle(self) -> None:
        """Every page and the window's own parts in the style projector mode has just set."""
        projector_mode.restyle_views(self.reading, self.tab_style)
        self._apply_style()
        self.kernel_list.set_style(self.tab_style)  # the side panel in the room's type too
        self.kernel_dock.setFont(self.tab_style.font("body"))
        self.show_compare_line()

    def _apply_style(self) -> None:
        """The window's own parts (tab bar, page backgrounds, status bar, compare line) in the
        current style."""
        style = self.tab_style
        projector_mode.apply_style(style, self.reading, self.statusBar(), self.empty_page)
        bar = self.reading.tabs.tabBar()
        bar.setStyleSheet(bar.styleSheet() + tab_scroller_sheet(style))
        self.reading.compare_line.show_picks(self.picks, self.names, style,
                                             repeated=self.repeated)
        self.place_compare_line()
        self.update_status()
        self.tab_titles.fit()

    def place_compare_line(self) -> None:
        self.reading.place_compare_line(self.tab_style, self.width(), self.height())

    def status_message(self) -> str:
        """What is open, in words."""
        return open_text(self.reports, self.picks, self.names, self.repeated)

    def thresholds(self) -> str:
        """The thresholds the current tab judges by, in the tab's own words ('' if none)."""
        return threshold_text(self.current_tab())

    def update_status(self) -> None:
        self.status_line.text.set_variants(
            open_texts(self.reports, self.picks, self.repeated) if self.picks
            else [self.status_message()])
        self.status_line.show_thresholds(self.thresholds())
        files = " + ".join(distinct_paths([r.source for r in self.reports]))
        self.setWindowTitle(plain_title(f"{files} - ncu-reader") if files else "ncu-reader")

    def export_dialog(self) -> Path | None:
        """Ask where, then export; the folder written to is kept where recent files are."""
        return exporting.export_dialog(self, self._shown(), self.statusBar(), self.show_error,
                                       self.settings if self.record_recent else None)

    def export(self, path: Path | str, replace: bool = False) -> Path:
        """Write the current tab (.png, .svg) or the comparison (.csv, .md) to `path`; an
        existing file is replaced only with `replace` (FileExistsError otherwise)."""
        return exporting.export(self._shown(), path, self.statusBar(), replace)

    def _shown(self) -> exporting.Shown | None:
        """What an export writes now; None while nothing is read."""
        return exporting.shown(self.reading, self.kernels, self.picks)

    def _fill_recent(self) -> None:
        recent_files.fill_menu(self.window_actions.recent, self.recent, self.open_paths)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        opening.drag_enter(event)

    def dropEvent(self, event: QDropEvent) -> None:
        opening.drop(event, self.open_paths)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.place_compare_line()  # beside the tabs where wide, folded where short

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.record_recent:
            window_place.save_geometry(self.settings, self)
        self.worker.cancel()
        shutdown_captures(self)
        self.reading.timing_panel.shutdown(5_000)
        super().closeEvent(event)

    def sizeHint(self) -> QSize:
        return window_place.DESK_SIZE
