"""The window around the reading tabs: open, pick, compare, step through, project, export.

Reports are read by a job on viewer.qt.workers.Worker, never on the GUI thread; the window only
applies what comes back. A file that fails leaves what was open untouched and shows its one-line
ReportError in a banner (and on stderr). One kernel is read alone; two (two files, one file with
two kernels, or two rows picked in the kernel list) are compared, A against B.
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QFontMetrics,
    QKeySequence,
    QPalette,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from viewer import export
from viewer.model import Kernel, Report
from viewer.qt import pictures
from viewer.qt import recent as recent_files
from viewer.qt.banner import Banner
from viewer.qt.capture_dialog import SHORTCUT as CAPTURE_KEY
from viewer.qt.capture_dialog import open_capture, shutdown_captures
from viewer.qt.capture_run import provenance_html
from viewer.qt.kernel_list import KernelEntry, KernelList, compare_names
from viewer.qt.keys_dialog import KeysDialog
from viewer.qt.loading import Loaded, first_picks, read_reports
from viewer.qt.style import Style
from viewer.qt.timing_panel import TimingPanel
from viewer.qt.workers import Worker

REPORT_FILTER = ("Nsight Compute reports and exports (*.ncu-rep *.txt *.csv *.log *.output);;"
                 "All files (*)")
EXPORT_FILTERS = {
    ".png": "Current tab as PNG (*.png)",
    ".svg": "Current tab as SVG (*.svg)",
    ".csv": "Comparison as CSV (*.csv)",
    ".md": "Comparison as Markdown (*.md)",
}

# The kernel list's width when it opens, in pixels (at most a third of the window).
LIST_WIDTH = 440

EMPTY_TEXT = (
    "<h2>No report open</h2>"
    "<p>Open an Nsight Compute report (<b>.ncu-rep</b>) or its text or CSV export:</p>"
    "<ul><li><b>File &gt; Open...</b> (Ctrl+O), pick one file or two to compare;</li>"
    "<li>drop files onto this window;</li>"
    "<li>or name them on the command line: "
    "<code>python -m viewer naive.ncu-rep tiled.ncu-rep</code></li></ul>"
    "<p>Two files, or one file with two kernels, open side by side.</p>"
    "<p>Or capture the lesson's kernels on this machine's GPU: <b>File &gt; Capture...</b>"
    " (Ctrl+Shift+C).</p>"
)


def default_tabs() -> list[QWidget]:
    """The three steps of the reading order."""
    from viewer.qt.memory_tab import MemoryTab
    from viewer.qt.occupancy_tab import OccupancyTab
    from viewer.qt.sol_tab import SpeedOfLightTab

    return [SpeedOfLightTab(), MemoryTab(), OccupancyTab()]


def tab_title(page: QWidget, index: int) -> str:
    """The tab's TITLE, numbered by its place in the reading order when it is not already."""
    title = str(getattr(page, "TITLE", "")).strip()
    number = str(index + 1)
    return title if title.startswith(number) else f"{number}  {title}"


class MainWindow(QMainWindow):
    """The reading window. Signals: `loaded()` after reports are applied, `load_failed(message)`
    after a file failed (what was open stays)."""

    loaded = Signal()
    load_failed = Signal(str)

    def __init__(self, settings: QSettings | None = None, tabs: Sequence[QWidget] | None = None,
                 record_recent: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("ncu-reader")
        self.setAcceptDrops(True)
        self.tab_style = Style(projector=False)
        self.worker = Worker(self)
        self.recent = recent_files.RecentFiles(settings)
        self.record_recent = record_recent
        self.paths: list[Path] = []
        self.reports: list[Report] = []
        self.picks: list[KernelEntry] = []
        self.names: list[str] = []
        self.projector = False
        self.last_error = ""
        self._was_maximized = False
        self._showing: int | None = None  # the generation read but not shown yet
        self.keys_dialog: KeysDialog | None = None

        self.tab_pages: list[QWidget] = list(tabs) if tabs is not None else default_tabs()
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.tabs.setUsesScrollButtons(True)  # a narrow projector must not widen the window
        for number, page in enumerate(self.tab_pages):
            self.tabs.addTab(page, tab_title(page, number))
            self.tabs.setTabToolTip(number, getattr(page, "QUESTION", ""))
        self.timing_panel = TimingPanel(self.tab_style, self)
        self.timing_scroll = QScrollArea(self)  # its projector sizes must not widen the window
        self.timing_scroll.setWidgetResizable(True)
        self.timing_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.timing_scroll.setWidget(self.timing_panel)
        self.tabs.addTab(self.timing_scroll, "Timing")
        self.tabs.setTabToolTip(self.tabs.indexOf(self.timing_scroll),
                                "Time the naive and tiled matmuls on this machine's GPU (Ctrl+R)")

        self.banner = Banner(self)
        self.compare_line = QLabel(self)
        self.compare_line.setObjectName("compare_line")
        self.compare_line.setWordWrap(True)
        self.compare_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reading_page = reading_page = QWidget(self)
        self.reading_column = column = QVBoxLayout(reading_page)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.banner)
        column.addWidget(self.compare_line)
        column.addWidget(self.tabs, 1)

        self.empty = QWidget(self)
        self.empty_text = QLabel(EMPTY_TEXT, self.empty)
        self.empty_text.setWordWrap(True)
        self.empty_text.setTextFormat(Qt.TextFormat.RichText)
        self.empty_banner = Banner(self.empty)
        open_button = QPushButton("Open...", self.empty)
        open_button.clicked.connect(self.open_dialog)
        capture_button = QPushButton("Capture...", self.empty)
        empty_buttons = QHBoxLayout()
        empty_buttons.addWidget(open_button)
        empty_buttons.addWidget(capture_button)
        empty_buttons.addStretch(1)
        empty_layout = QVBoxLayout(self.empty)
        empty_layout.setContentsMargins(60, 40, 60, 40)
        empty_layout.addWidget(self.empty_banner)
        empty_layout.addStretch(1)
        empty_layout.addWidget(self.empty_text)
        empty_layout.addLayout(empty_buttons)
        empty_layout.addStretch(2)

        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.empty)
        self.stack.addWidget(reading_page)
        self.setCentralWidget(self.stack)

        self.kernel_list = KernelList(self)
        self.kernel_dock = QDockWidget("Kernels", self)
        self.kernel_dock.setObjectName("kernel_dock")
        self.kernel_dock.setWidget(self.kernel_list)
        self.kernel_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                                     | QDockWidget.DockWidgetFeature.DockWidgetMovable)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.kernel_dock)
        self.kernel_dock.hide()

        self.status_text = QLabel(self)
        self.status_text.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.threshold_text = QLabel(self)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(220)
        self.progress.setTextVisible(True)
        self.cancel_button = QToolButton(self)
        self.cancel_button.setText("Cancel")
        self.cancel_button.clicked.connect(self.cancel_loading)
        status = self.statusBar()
        status.addWidget(self.status_text, 1)
        status.addPermanentWidget(self.threshold_text)
        status.addPermanentWidget(self.progress)
        status.addPermanentWidget(self.cancel_button)
        self.capture_button = QToolButton(self)
        self.capture_button.setText("Capture...")
        status.addPermanentWidget(self.capture_button)
        self.progress.hide()
        self.cancel_button.hide()

        self._build_actions()
        capture_button.clicked.connect(self.capture_action.trigger)
        self.capture_button.clicked.connect(self.capture_action.trigger)
        self.kernel_list.picked.connect(self.show_entries)
        self.tabs.currentChanged.connect(self._update_status)
        self.worker.done.connect(self._apply_loaded)
        self.worker.failed.connect(self._show_failure)
        self.worker.progress.connect(self._show_progress)
        self.worker.cancelled.connect(self._show_cancelled)
        self.worker.busy_changed.connect(self._show_busy)
        self._apply_style()
        self._update_status()

    # ---------------------------------------------------------------- actions and menus

    def _action(self, text: str, slot, shortcuts: Sequence[QKeySequence | str] = (),
                menu: QMenu | None = None) -> QAction:
        action = QAction(text, self)
        action.setShortcuts([QKeySequence(s) for s in shortcuts])

        def run(_checked: bool = False) -> None:
            slot()

        action.triggered.connect(run)
        self.addAction(action)  # shortcuts work with the menu bar hidden (projector mode)
        if menu is not None:
            menu.addAction(action)
        return action

    def _build_actions(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self.open_action = self._action("&Open...", self.open_dialog,
                                        [QKeySequence.StandardKey.Open], file_menu)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._fill_recent()
        self.capture_action = self._action("&Capture...", lambda: open_capture(self),
                                           [CAPTURE_KEY], file_menu)
        file_menu.addSeparator()
        self.export_action = self._action("&Export...", self.export_dialog, ["Ctrl+E"], file_menu)
        file_menu.addSeparator()
        self._action("&Quit", self.close, [QKeySequence.StandardKey.Quit], file_menu)

        view = self.menuBar().addMenu("&View")
        self.tab_actions = []
        for i, page in enumerate(self.tab_pages):
            self.tab_actions.append(self._action(
                tab_title(page, i), lambda i=i: self.set_tab(i), [str(i + 1)], view))
        self.timing_action = self._action(
            "Kernel &timing", lambda: self.tabs.setCurrentWidget(self.timing_scroll), ["T"], view)
        self._action("Next step", self.next_tab, ["Right", "Ctrl+Tab"], view)
        self._action("Previous step", self.previous_tab, ["Left", "Ctrl+Shift+Tab"], view)
        view.addSeparator()
        self.swap_action = self._action("&Swap A and B", self.swap, ["S"], view)
        self.find_action = self._action("&Find kernel...", self.find_kernel,
                                        [QKeySequence.StandardKey.Find], view)
        self.list_action = self.kernel_dock.toggleViewAction()
        self.list_action.setText("&Kernel list")
        self.list_action.setShortcut(QKeySequence("Ctrl+L"))
        self.addAction(self.list_action)
        view.addAction(self.list_action)
        view.addSeparator()
        self.projector_action = self._action("&Projector mode", self.toggle_projector,
                                             ["F5", "Ctrl+P"], view)
        self.projector_action.setCheckable(True)
        self.leave_projector_action = self._action("Leave projector mode",
                                                   lambda: self.set_projector(False), ["Esc"])
        self.leave_projector_action.setEnabled(False)
        help_menu = self.menuBar().addMenu("&Help")
        self.keys_action = self._action("&Keys", self.show_keys, ["F1", "?"], help_menu)

    def _fill_recent(self) -> None:
        recent_files.fill_menu(self.recent_menu, self.recent, self.open_paths)

    # ---------------------------------------------------------------- opening

    def open_dialog(self) -> None:
        names, _ = QFileDialog.getOpenFileNames(self, "Open reports", "", REPORT_FILTER)
        if names:
            self.open_paths([Path(n) for n in names])

    def open_paths(self, paths: Sequence[Path | str]) -> int:
        """Start reading `paths` off the GUI thread; returns the job's generation."""
        paths = [Path(p) for p in paths]
        self.status_text.setText("Reading " + ", ".join(p.name for p in paths) + "...")
        return self.worker.submit(read_reports, paths)

    def cancel_loading(self) -> None:
        self.worker.cancel()

    @property
    def busy(self) -> bool:
        """Whether files are being read or what was read is not shown yet."""
        return self.worker.busy or self._showing is not None

    def _apply_loaded(self, loaded: Loaded) -> None:
        """Show what a loading job read: the kernel list now, the tabs on the next turn of the
        event loop, so that neither step holds the GUI thread for both."""
        self.paths = list(loaded.paths)
        self.reports = list(loaded.reports)
        picks = first_picks(loaded)
        self.kernel_list.set_entries(loaded.entries, picks)
        self.kernel_list.set_filter_text("")
        self._show_list(len(loaded.entries) > 2 and not self.projector)
        self.banner.hide()
        self.empty_banner.hide()
        self.last_error = ""
        self.stack.setCurrentIndex(1)
        self._update_status()
        self._showing = generation = self.worker.generation
        QTimer.singleShot(0, lambda: self._show_loaded(generation, picks))

    def _show_loaded(self, generation: int, picks: list[KernelEntry]) -> None:
        if generation != self._showing:
            return  # a later load was applied meanwhile and shows its own
        self._showing = None
        self.show_entries(picks)
        if self.record_recent:
            self.recent.add(self.paths)
        self.loaded.emit()

    def _show_failure(self, message: str) -> None:
        """A file failed to load: say so; what was open stays."""
        self.last_error = message
        self.show_error(message)
        self._update_status()
        self.load_failed.emit(message)

    def show_error(self, message: str) -> None:
        """One line in the banner over what is shown, and on stderr."""
        print(f"ncu-reader: {message}", file=sys.stderr)
        banner = self.banner if self.stack.currentIndex() == 1 else self.empty_banner
        banner.show_message(message, self.tab_style)

    def _show_cancelled(self) -> None:
        self._update_status()
        self.statusBar().showMessage("Loading cancelled; what was open stays.", 5000)

    def _show_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(round(fraction * 1000))
        self.progress.setFormat(message or "%p%")

    def _show_busy(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)
        if busy:
            self.progress.setValue(0)
        else:
            self._update_status()

    # ---------------------------------------------------------------- what is shown

    @property
    def kernels(self) -> list[Kernel]:
        return [e.kernel for e in self.picks]

    @property
    def compare_mode(self) -> bool:
        return len(self.picks) == 2

    def show_entries(self, entries: Sequence[KernelEntry]) -> None:
        """Read one kernel, or compare two (A first), in every tab."""
        self.picks = list(entries)[:2]
        self.names = compare_names(self.picks)
        kernels = self.kernels
        for page in self.tab_pages:
            if kernels:
                page.set_kernels(kernels, self.names)
            else:
                page.clear()
        self.swap_action.setEnabled(self.compare_mode)
        self._update_compare_line()
        self._update_status()

    def swap(self) -> None:
        """Swap A and B of the comparison."""
        if not self.compare_mode:
            return
        self.show_entries(self.picks[::-1])
        self.kernel_list.set_picks(self.picks)

    def find_kernel(self) -> None:
        if self.projector:
            return
        self._show_list(True)
        self.kernel_list.focus_filter()

    def _show_list(self, visible: bool) -> None:
        was = self.kernel_dock.isVisible()
        self.kernel_dock.setVisible(visible)
        if visible and not was:
            width = min(LIST_WIDTH, self.width() // 3)
            self.resizeDocks([self.kernel_dock], [width], Qt.Orientation.Horizontal)

    # ---------------------------------------------------------------- tabs

    def set_tab(self, index: int) -> None:
        self.tabs.setCurrentIndex(max(0, min(index, self.tabs.count() - 1)))

    def next_tab(self) -> None:
        """The next step of the reading order (from the timing tab: the first step)."""
        self.set_tab(self._step_after(+1))

    def previous_tab(self) -> None:
        self.set_tab(self._step_after(-1))

    def _step_after(self, delta: int) -> int:
        steps = len(self.tab_pages)
        index = self.tabs.currentIndex()
        if index >= steps:
            return 0 if delta > 0 else steps - 1
        return (index + delta) % steps

    def current_tab(self) -> QWidget:
        return self.tabs.currentWidget()

    # ---------------------------------------------------------------- projector mode

    def show_keys(self) -> None:
        """Show (or hide again) the list of keys, in the current style."""
        if self.keys_dialog is not None and self.keys_dialog.isVisible():
            self.keys_dialog.close()
            return
        self.keys_dialog = KeysDialog(self.actions(), self.tab_style, self)
        self.keys_dialog.addAction(self.keys_action)
        self.keys_dialog.show()

    def toggle_projector(self) -> None:
        self.set_projector(not self.projector)

    def set_projector(self, on: bool, full_screen: bool = True) -> None:
        """Large type, high contrast, no side panels; full screen unless told otherwise."""
        if on == self.projector:
            return
        self.projector = on
        self.tab_style = Style(projector=on)
        self.projector_action.setChecked(on)
        self.leave_projector_action.setEnabled(on)
        self.menuBar().setVisible(not on)
        if on:
            self._list_was_visible = self.kernel_dock.isVisible()
            self.kernel_dock.hide()
            if full_screen:
                self._was_maximized = self.isMaximized()
                self.showFullScreen()
        else:
            self.kernel_dock.setVisible(getattr(self, "_list_was_visible", False))
            if self.isFullScreen():
                if self._was_maximized:
                    self.showMaximized()
                else:
                    self.showNormal()
        for page in self.tab_pages:
            page.set_style(self.tab_style)
        self.timing_panel.set_style(self.tab_style)
        self._apply_style()

    def _apply_style(self) -> None:
        style = self.tab_style
        c = style.colors
        tab_points = style.points("heading" if self.projector else "body")
        self.tabs.tabBar().setStyleSheet(
            f"QTabBar {{ font-size: {tab_points}pt; font-weight: bold; }}"
            f"QTabBar::tab {{ padding: {style.px(6)}px {style.px(16)}px; color: {c.secondary};"
            f" background: transparent; border: none;"
            f" border-bottom: {style.px(3)}px solid transparent; }}"
            f"QTabBar::tab:selected {{ color: {c.text}; border-bottom-color: {c.accent}; }}"
            f"QTabBar::tab:hover:!selected {{ color: {c.text}; }}")
        palette = self.reading_page.palette()
        palette.setColor(QPalette.ColorRole.Window, style.color("background"))
        palette.setColor(QPalette.ColorRole.WindowText, style.color("text"))
        self.reading_page.setPalette(palette)
        self.reading_page.setAutoFillBackground(True)
        self.statusBar().setVisible(not self.projector)
        self._place_compare_line()
        self.compare_line.setFont(style.font("body"))
        self.compare_line.setStyleSheet(
            f"#compare_line {{ background: {c.background}; color: {c.text}; "
            f"padding: {style.px(4)}px {style.px(10)}px; }}")
        self.empty_text.setFont(style.font("body"))
        self.statusBar().setFont(style.font("small"))
        self._update_compare_line()
        self._update_status()

    # ---------------------------------------------------------------- status

    def _place_compare_line(self) -> None:
        """In projector mode beside the tabs, on one line, where the window is wide enough for
        both; otherwise above the tabs, wrapped."""
        beside = self.tabs.cornerWidget(Qt.Corner.TopRightCorner) is self.compare_line
        want_beside = self.projector and self._room_beside_tabs()
        if want_beside and not beside:
            self.compare_line.setWordWrap(False)
            self.tabs.setCornerWidget(self.compare_line, Qt.Corner.TopRightCorner)
        elif not want_beside and beside:
            self.tabs.setCornerWidget(None, Qt.Corner.TopRightCorner)
            self.reading_column.insertWidget(1, self.compare_line)
            self.compare_line.setWordWrap(True)
        self.compare_line.setVisible(bool(self.picks))

    def _room_beside_tabs(self) -> bool:
        bar = self.tabs.tabBar()
        needed = sum(bar.tabSizeHint(i).width() for i in range(bar.count()))
        plain = html.unescape(re.sub(r"<[^>]+>", "", self.compare_line.text()))
        needed += QFontMetrics(self.tab_style.font("body", bold=True)).horizontalAdvance(plain)
        return needed + self.tab_style.px(24) <= self.width()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.projector:
            self._place_compare_line()

    def _update_compare_line(self) -> None:
        """'A naive (file) against B tiled (file)'; in projector mode, beside the tabs and
        without the file names."""
        if not self.picks:
            self.compare_line.setText("")
            self.compare_line.hide()
            return
        grey = self.tab_style.colors.secondary
        files = [e.file_name for e in self.picks]
        one_file = len(set(files)) == 1
        parts = []
        for letter, file_name, name in zip("AB", files, self.names, strict=False):
            tag = f"<b>{letter}</b> " if self.compare_mode else ""
            part = f"{tag}<b>{_html(name)}</b>"
            if not self.projector and not one_file:
                part += f" <span style='color:{grey}'>{_html(file_name)}</span>"
            parts.append(part)
        text = "&nbsp;&nbsp;against&nbsp;&nbsp;".join(parts)
        if one_file and not self.projector:
            text += f"&nbsp;&nbsp;<span style='color:{grey}'>{_html(files[0])}</span>"
        if self.compare_mode and not self.projector:
            text += (f"&nbsp;&nbsp;&nbsp;<span style='color:{grey}'>"
                     "(S&nbsp;swaps&nbsp;A&nbsp;and&nbsp;B)</span>")
        if not self.projector:  # a capture's GPU, driver, ncu, set, clocks, size and time
            text += provenance_html([e.source for e in self.picks],
                                    "AB" if self.compare_mode else " ", grey)
        self.compare_line.setText(text)
        self.compare_line.show()

    def status_message(self) -> str:
        """What is open, in words."""
        if not self.reports:
            return "No report open. Ctrl+O opens one; so does dropping files here."
        files = (" + ".join(r.file_name for r in self.reports) if len(self.reports) <= 2
                 else f"{len(self.reports)} files")
        total = sum(len(r.kernels) for r in self.reports)
        noun = "kernel" if total == 1 else "kernels"
        if self.compare_mode:
            what = f"comparing A {self.names[0]} with B {self.names[1]}"
        elif self.picks:
            what = f"reading {self.picks[0].kernel.label}"
        else:
            what = "no kernel picked"
        return f"{files}: {total:,} {noun}, {what}"

    def thresholds(self) -> str:
        """The thresholds the current tab judges by, in the tab's own words ('' if it has none).

        A tab states them through a `threshold_text()` function, its own or its module's.
        """
        page = self.current_tab()
        if page is None:
            return ""
        source = getattr(page, "threshold_text", None) or getattr(
            sys.modules.get(type(page).__module__), "threshold_text", None)
        return source() if callable(source) else ""

    def _update_status(self) -> None:
        self.status_text.setText(self.status_message())
        thresholds = self.thresholds()
        self.threshold_text.setText(thresholds.split(". ")[0].rstrip(".") if thresholds else "")
        self.threshold_text.setToolTip(thresholds)
        if self.reports:
            files = " + ".join(r.file_name for r in self.reports)
            self.setWindowTitle(f"{files} - ncu-reader")
        else:
            self.setWindowTitle("ncu-reader")

    # ---------------------------------------------------------------- export

    def export_dialog(self) -> None:
        if not self.picks:
            self.show_error("Nothing to export: open a report first.")
            return
        stem = "-vs-".join(self.names)
        name, chosen = QFileDialog.getSaveFileName(self, "Export", f"{stem}.png",
                                                   ";;".join(EXPORT_FILTERS.values()))
        if not name:
            return
        path = Path(name)
        if path.suffix.lower() not in EXPORT_FILTERS:
            suffix = next((s for s, f in EXPORT_FILTERS.items() if f == chosen), ".png")
            path = path.with_suffix(suffix)
        try:
            self.export(path)
        except (OSError, ValueError) as exc:
            self.show_error(f"{path}: {' '.join(str(exc).split())}")

    def export(self, path: Path | str) -> Path:
        """Write the current tab (.png, .svg) or the comparison (.csv, .md) to `path`."""
        path = Path(path)
        suffix = path.suffix.lower()
        if not self.picks:
            raise ValueError("nothing to export: open a report first")
        if suffix == ".png":
            self.export_png(path)
        elif suffix == ".svg":
            self.export_svg(path)
        elif suffix == ".csv":
            path.write_text(export.comparison_csv(self.kernels, self.names), encoding="utf-8")
        elif suffix == ".md":
            sources = [e.file_name for e in self.picks]
            path.write_text(export.comparison_markdown(self.kernels, self.names, sources),
                            encoding="utf-8")
        else:
            raise ValueError(f"cannot export as '{suffix or path.name}': "
                             "use .png, .svg, .csv or .md")
        self.statusBar().showMessage(f"Exported {path}", 5000)
        return path

    def export_png(self, path: Path) -> None:
        pictures.save_png(self.current_tab(), path)

    def export_svg(self, path: Path) -> None:
        pictures.save_svg(self.current_tab(), path, " against ".join(self.names))

    # ---------------------------------------------------------------- window events

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if _local_files(event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = _local_files(event.mimeData().urls())
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        QTimer.singleShot(0, lambda: self.open_paths(paths))

    def closeEvent(self, event: QCloseEvent) -> None:
        self.worker.cancel()
        shutdown_captures(self)
        self.timing_panel.shutdown(5_000)
        super().closeEvent(event)

    def sizeHint(self) -> QSize:
        return QSize(1280, 800)


def _local_files(urls) -> list[Path]:
    return [Path(u.toLocalFile()) for u in urls if u.isLocalFile()]


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
