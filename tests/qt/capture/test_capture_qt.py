"""The Capture button and dialog against a fake pkexec and a fake helper (tests/fakes/: this
machine has no GPU with ncu and no administrator to type a password), and the window after each
outcome: a capture opens beside what was on screen; every failure leaves it as it was.

The routes come from viewer.capture.client.choose_route, steered by files written here: a driver
that lets only admins read counters, the fake pkexec, and an installed policy naming the fake
helper. Captures land in XDG_DATA_HOME, which each test points at its tmp_path.
"""

from __future__ import annotations

import html
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication

from tests.hostile_disk import FULL, fill_after, full_at_fsync, small_disk
from viewer.capture import provenance
from viewer.capture.client import Request, Route, choose_route, explain, run_capture
from viewer.capture.events import PERMISSION
from viewer.capture.store import ReportSink, captures_dir
from viewer.qt.capture import capture_dialog, capture_run
from viewer.qt.capture.capture_dialog import CaptureDialog
from viewer.qt.shell import capture_open
from viewer.qt.shell.capture_open import open_capture
from viewer.qt.shell.keys_dialog import key_rows
from viewer.qt.shell.main_window import MainWindow, default_tabs
from viewer.qt.views.series.series_view import SeriesView

ROOT = Path(__file__).resolve().parents[3]
FAKES = Path(__file__).resolve().parents[2] / "fakes"
FAKE_PKEXEC, FAKE_HELPER = FAKES / "pkexec", FAKES / "ncu-reader-capture"
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"
POLICY = """<?xml version="1.0" encoding="UTF-8"?>
<policyconfig><action id="io.github.ncu-reader.capture">
<defaults><allow_any>no</allow_any><allow_inactive>no</allow_inactive>
<allow_active>auth_admin</allow_active></defaults>
<annotate key="org.freedesktop.policykit.exec.path">{helper}</annotate>
</action></policyconfig>
"""


def steered_route(tmp_path: Path, admin_only: int = 1) -> Route:
    """choose_route on a made-up machine: the driver's setting, the fake pkexec, a policy."""
    machine = tmp_path / "machine"
    (machine / "actions").mkdir(parents=True)
    (machine / "params").write_text(f"ResmanDebugLevel: 4294967295\n"
                                    f"RmProfilingAdminOnly: {admin_only}\n")
    (machine / "version").write_text("Linux version 6.1.0-28-amd64 (Debian)\n")
    (machine / "status").write_text("CapEff:\t0000000000000000\nCapBnd:\t000001ffffffffff\n")
    (machine / "actions" / "io.github.ncu-reader.capture.policy").write_text(
        POLICY.format(helper=FAKE_HELPER))
    return choose_route(params=machine / "params", pkexec=FAKE_PKEXEC,
                        policy_dir=machine / "actions", proc_version=machine / "version",
                        proc_status=machine / "status", euid=1000,
                        which_ncu=lambda: "/opt/nvidia/nsight-compute/2025.3.1/ncu")


@pytest.fixture
def captures(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for name in ("FAKE_PKEXEC", "FAKE_HELPER"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path / "data" / "ncu-reader" / "captures"


@pytest.fixture
def window(qtbot, tmp_path, captures) -> MainWindow:
    """The window comparing the shipped naive and tiled reports."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, tabs=default_tabs(), record_recent=False)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    qtbot.waitExposed(win)
    with qtbot.waitSignal(win.loaded, timeout=60_000):
        win.open_paths([NAIVE, TILED])
    yield win
    win.close()
    win.worker.shutdown(30_000)


def shown(window: MainWindow) -> tuple[object, ...]:
    """What the window shows, to compare before and after."""
    return (tuple(window.paths), tuple(window.names), window.compare_line.text(),
            window.status_text.text(), tuple(tuple(k.name for k in p.kernels)
                                             for p in window.tab_pages))


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def dialog_for(window: MainWindow, route: Route) -> CaptureDialog:
    dialog = open_capture(window, window, route)
    assert dialog.isVisible()
    return dialog


# ---------------------------------------------------------------------------- the dialog


def test_the_action_has_its_key_in_the_file_menu_and_f1(window, qtbot, monkeypatch) -> None:
    action = window.capture_action
    assert action in window.menuBar().actions()[0].menu().actions()
    assert action.shortcut().toString() == "Ctrl+Shift+C"
    assert ("Capture", "Ctrl+Shift+C") in key_rows(window.actions())
    monkeypatch.setattr(capture_open, "choose_route", lambda: Route("none", reason="No."))
    qtbot.keyClick(window, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    dialogs = window.findChildren(CaptureDialog)
    assert len(dialogs) == 1 and dialogs[0].isVisible()
    window.capture_button.click()  # the status bar's button raises the same dialog
    assert window.findChildren(CaptureDialog) == dialogs
    dialogs[0].close()


def test_the_dialog_offers_the_lessons_choices(window, tmp_path) -> None:
    dialog = dialog_for(window, steered_route(tmp_path))
    assert dialog.route.kind == "pkexec"
    assert dialog.route_text.text() == ("Asks for an administrator's password (pkexec), then "
                                        "runs ncu as root.")
    assert [dialog.kernel.itemText(i) for i in range(dialog.kernel.count())] == [
        "naive", "tiled", "both (one report each)"]
    dim = dialog.dim
    assert dim.value() == (512,)
    dim.setValue(528)
    assert dim.value() == (528,)
    assert dim.fixup("500") == "496"
    assert dialog.set_box.currentText() == "full"
    assert dialog.clock.currentText() == "base"
    assert "so two captures compare" in dialog.clock_text.text()
    assert dialog.capture_button.isEnabled() and dialog.capture_button.isDefault()
    assert [r.args() for r in dialog.requests()] == [
        ["capture", "--target", "naive", "--dim", "528", "--set", "full", "--clock", "base"]]
    dialog.kernel.setCurrentIndex(2)
    (request,) = dialog.requests()  # one run, one password
    assert [r.target for r in request.reports()] == ["naive", "tiled"]
    dialog.close()


LISTS = {
    "256,512,1024": ("Acceptable", (256, 512, 1024)),
    "16,32,48,64,80,96,112,128": ("Acceptable", (16, 32, 48, 64, 80, 96, 112, 128)),
    "256,": ("Intermediate", (256,)),
    "256,512,256": ("Intermediate", (256, 512)),
    "256,24": ("Intermediate", (256, 32)),
    "0": ("Intermediate", (16,)),
    "8208": ("Intermediate", (8192,)),
    "16,32,48,64,80,96,112,128,144": ("Intermediate", (16, 32, 48, 64, 80, 96, 112, 128)),
    "256;512": ("Invalid", None),
    "abc": ("Invalid", None),
    "256 512": ("Invalid", None),
    "1" * 41: ("Invalid", None),
}


@pytest.mark.parametrize("text", list(LISTS))
def test_the_size_field_accepts_and_refuses_lists(window, tmp_path, text) -> None:
    from PySide6.QtGui import QValidator

    dialog = dialog_for(window, steered_route(tmp_path))
    state, value = LISTS[text]
    validator = dialog.dim.validator()
    assert validator.validate(text, 0)[0] == getattr(QValidator.State, state)
    if value is not None:
        dialog.dim.setText(text)
        dialog.dim.interpretText()
        assert dialog.dim.value() == value
        assert dialog.dim.hasAcceptableInput()
    dialog.close()


def test_a_list_typed_in_the_size_field_is_one_request(window, tmp_path, qtbot) -> None:
    dialog = dialog_for(window, steered_route(tmp_path))
    dialog.dim.selectAll()
    qtbot.keyClicks(dialog.dim, "256,512x,1024")  # the x is refused as typed
    assert dialog.dim.text() == "256,512,1024"
    dialog.kernel.setCurrentIndex(2)
    (request,) = dialog.requests()
    assert request.args() == ["capture", "--target", "both", "--dim", "256,512,1024", "--set",
                              "full", "--clock", "base"]
    assert len(request.reports()) == 6
    dialog.close()


def test_the_direct_route_and_no_route_are_said(window, tmp_path, qtbot) -> None:
    direct = dialog_for(window, steered_route(tmp_path, admin_only=0))
    assert direct.route_text.text() == ("Runs ncu as you: this driver lets every user read "
                                        "counters.")
    direct.close()
    root = Route("direct", str(FAKE_HELPER), reason="You are root: no password.")
    assert capture_dialog.route_sentence(root) == root.reason  # not "every user" on this driver
    none = choose_route(params=tmp_path / "no-such-params")
    dialog = dialog_for(window, none)
    assert dialog.route_text.text() == none.reason
    assert "No NVIDIA driver" in none.reason and "shipped reports" in none.reason
    assert not dialog.capture_button.isEnabled()
    assert not dialog.kernel.isEnabled()
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    assert not dialog.run.running
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()


def test_projector_mode_makes_the_dialog_legible(window, tmp_path) -> None:
    window.set_projector(True, full_screen=False)
    dialog = dialog_for(window, steered_route(tmp_path))
    assert dialog.font().pointSizeF() >= 20
    assert dialog.kernel.font().pointSizeF() >= 20
    dialog.close()


# ---------------------------------------------------------------------------- captures


def test_a_capture_opens_beside_the_report_on_screen(window, qtbot, tmp_path, captures) -> None:
    dialog = dialog_for(window, steered_route(tmp_path))
    stages: list[str] = []
    dialog.run.stage.connect(stages.append)
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        qtbot.keyClick(dialog, Qt.Key.Key_Return)  # Enter starts
    report = window.paths[1]
    assert window.paths == [NAIVE, report]
    assert report.parent == captures
    assert report.name.startswith("naive-512-full-") and report.suffix == ".ncu-rep"
    assert report.read_bytes() == NAIVE.read_bytes()
    assert files_in(captures) == [report.name, report.name + ".json"]
    assert window.compare_mode and window.names == ["naive", report.stem]
    record = provenance.read_provenance(report)
    assert record is not None
    assert (record.gpu, record.driver, record.set, record.clock, record.dim, record.route) == (
        "NVIDIA H200", "580.159.04", "full", "base", 512, "pkexec")
    line = window.compare_line.text()
    assert f"B: {provenance.describe(record)}" in line
    assert "NVIDIA H200, driver 580.159.04, ncu 2025.3.1, full set, clocks base" in line
    assert stages[0] == "Waiting for an administrator's password..."
    assert any("38 passes" in s for s in stages)


def test_a_capture_opens_as_its_run_read_it_and_the_report_on_screen_is_not_read_again(
        window, qtbot, tmp_path, captures) -> None:
    """The run read the new report for its GPU: the window shows that very Report, and keeps the
    one it was showing, rather than reading both from disk again."""
    on_screen = window.reports[0]
    dialog = dialog_for(window, steered_route(tmp_path))
    handed: list[list[capture_run.Captured]] = []
    dialog.captured.connect(handed.append)
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        dialog.start()
    (captured,) = handed[0]
    assert captured.report is not None and window.paths == [NAIVE, captured.path]
    assert window.reports[0] is on_screen
    assert window.reports[1] is captured.report
    assert [k.name for k in window.kernels] == ["matmul_naive", "matmul_naive"]


def test_the_window_and_the_terminal_record_the_same_provenance(qtbot, captures) -> None:
    """One fake helper, run by the terminal's route and by the window's: the same record, but
    for the minute it was made in."""
    route = Route("direct", str(FAKE_HELPER), (), {"FAKE_HELPER": "ok"}, "the fake helper")
    request = Request("naive", 512, "full", "base")
    terminal = provenance.read_provenance(
        run_capture(route, request, ReportSink(captures_dir(), "naive-terminal")))
    run = capture_run.CaptureRun(route)
    with qtbot.waitSignal(run.succeeded, timeout=60_000) as blocker:
        run.start([request])
    (captured,) = blocker.args[0]
    window = provenance.read_provenance(captured.path)
    run.recorder.shutdown(10_000)
    assert terminal is not None and window is not None
    assert {**asdict(terminal), "captured_utc": ""} == {**asdict(window), "captured_utc": ""}
    assert (window.gpu, window.driver, window.route) == ("NVIDIA H200", "580.159.04", "direct")


def test_a_stale_sidecar_at_the_new_name_is_not_the_captures_provenance(
        window, qtbot, tmp_path, captures, monkeypatch) -> None:
    """An old `NAME.ncu-rep.json` (a T4's) where the new report would go: the capture takes the
    next name and its own provenance; the old note is left as it was."""
    stem = "naive-512-full-20261201-120301"
    monkeypatch.setattr(capture_run, "capture_stem", lambda *args: stem)
    captures.mkdir(parents=True)
    stale = captures / f"{stem}.ncu-rep.json"
    stale.write_text('{"schema": 1, "gpu": "Tesla T4", "driver": "470.1", "ncu_version": null, '
                     '"set": "basic", "clock": "none", "dim": 256, "target": "tiled", '
                     '"captured_utc": "2020-01-01T00:00:00+00:00", "route": "direct"}')
    before = stale.read_bytes()
    dialog = dialog_for(window, steered_route(tmp_path))
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        dialog.start()
    report = window.paths[1]
    assert report == captures / f"{stem}-2.ncu-rep"
    line = window.compare_line.text()
    assert "NVIDIA H200, driver 580.159.04" in line and "T4" not in line
    assert stale.read_bytes() == before
    assert files_in(captures) == sorted([stale.name, report.name, report.name + ".json"])


def test_both_kernels_compare_the_naive_capture_with_the_tiled_one(window, qtbot, tmp_path,
                                                                   captures) -> None:
    dialog = dialog_for(window, Route("direct", str(FAKE_HELPER), (), {"FAKE_HELPER": "ok"}))
    dialog.kernel.setCurrentIndex(2)
    dialog.dim.setValue(1024)
    dialog.set_box.setCurrentText("basic")
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        dialog.capture_button.click()
    naive, tiled = window.paths
    assert naive.parent == tiled.parent == captures
    assert naive.name.startswith("naive-1024-basic-") and tiled.name.startswith("tiled-1024-")
    assert tiled.read_bytes() == TILED.read_bytes()
    assert [k.name for k in window.kernels] == ["matmul_naive", "matmul_tiled"]
    line = window.compare_line.text()
    assert line.count("run directly") == 2 and "A: Captured" in line and "B: Captured" in line


def test_a_capture_of_several_sizes_opens_on_the_series(window, qtbot, tmp_path,
                                                         captures) -> None:
    """A sweep opens every report it took, each size's naive and tiled side by side, on the
    Series view; one size stays on the tab shown."""
    dialog = dialog_for(window, Route("direct", str(FAKE_HELPER), (), {"FAKE_HELPER": "ok"}))
    dialog.kernel.setCurrentIndex(2)
    dialog.dim.setText("256,512")
    dialog.set_box.setCurrentText("basic")
    with qtbot.waitSignal(window.loaded, timeout=60_000):
        dialog.capture_button.click()
    assert [p.name.split("-")[:2] for p in window.paths] == [
        ["naive", "256"], ["tiled", "256"], ["naive", "512"], ["tiled", "512"]]
    page = window.reading.tabs.currentWidget()
    assert isinstance(page, SeriesView)
    qtbot.waitUntil(lambda: page.series is not None and len(page.series.rows) == 4)


FAILURES = {
    "dismissed": ({"FAKE_PKEXEC": "126"}, 126, "Cancelled: the password dialog was dismissed"),
    "not-authorized": ({"FAKE_PKEXEC": "127"}, 127, "Not authorized"),
    "counters": ({"FAKE_HELPER": "nvgpuctrperm"}, 5, PERMISSION),
}


@pytest.mark.parametrize("case", list(FAILURES))
def test_a_failure_is_one_line_and_the_window_keeps_what_it_showed(
        window, qtbot, tmp_path, captures, monkeypatch, capsys, case) -> None:
    env, code, words = FAILURES[case]
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    before = shown(window)
    dialog = dialog_for(window, steered_route(tmp_path))
    with qtbot.waitSignal(dialog.run.failed, timeout=30_000) as blocker:
        dialog.start()
    message = blocker.args[0]
    assert message == explain(code, [], "pkexec")  # the client's words for this exit
    assert words in message and "\n" not in message
    if case == "counters":
        assert "sudo ncu" in message and "NVreg_RestrictProfilingToAdminUsers=0" in message
    assert dialog.isVisible() and dialog.error.isVisible()
    assert dialog.error.text() == message
    assert capsys.readouterr().err == f"ncu-reader: {message}\n"
    assert dialog.capture_button.isEnabled()  # try again
    assert shown(window) == before
    assert files_in(captures) == []


def test_a_sweep_that_fails_part_way_keeps_and_names_what_finished(
        window, qtbot, tmp_path, captures, capsys) -> None:
    route = Route("direct", str(FAKE_HELPER), (), {"FAKE_HELPER": "nvgpuctrperm",
                                                   "FAKE_HELPER_AFTER": "2"}, "the fake helper")
    before = shown(window)
    dialog = dialog_for(window, route)
    dialog.kernel.setCurrentIndex(2)
    dialog.dim.setText("256,512")
    message = a_failed_run(dialog, qtbot, capsys)
    kept = sorted(p for p in captures.iterdir() if p.suffix == ".ncu-rep")
    assert [p.name.split("-")[:2] for p in kept] == [["naive", "256"], ["tiled", "256"]]
    assert PERMISSION in message and "Kept what finished: " in message
    assert all(str(p) in message for p in kept)
    assert files_in(captures) == sorted([*(p.name for p in kept),
                                         *(p.name + ".json" for p in kept)])
    assert shown(window) == before


def a_failed_run(dialog: CaptureDialog, qtbot, capsys) -> str:
    """Start the dialog's capture and wait for its failure: the one message, shown in the dialog
    and printed once; the run is over (Close, not Cancel) and may be tried again."""
    with qtbot.waitSignal(dialog.run.failed, timeout=30_000) as blocker:
        dialog.start()
    message = blocker.args[0]
    qtbot.waitUntil(lambda: not dialog.run.running, timeout=10_000)
    assert "\n" not in message
    assert dialog.isVisible() and dialog.error.isVisible() and dialog.error.text() == message
    assert capsys.readouterr().err == f"ncu-reader: {message}\n"
    assert dialog.close_button.text() == "Close" and dialog.capture_button.isEnabled()
    assert not dialog.progress.isVisible()
    return message


def test_a_full_disk_is_one_message_and_leaves_nothing(window, qtbot, tmp_path, captures,
                                                       capsys) -> None:
    """A 256 KiB tmpfs holds the captures folder; the report is four times that."""
    before = shown(window)
    with small_disk(tmp_path / "data"):
        dialog = dialog_for(window, steered_route(tmp_path))
        assert a_failed_run(dialog, qtbot, capsys) == (
            f"Could not write the report in {captures}: {FULL}; nothing was saved.")
        assert files_in(captures) == []
        assert shown(window) == before
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)  # closes: nothing runs
        assert not dialog.isVisible()


@pytest.mark.parametrize("full", ["while writing", "at the flush"])
def test_a_disk_that_fills_is_one_message_and_leaves_nothing(window, qtbot, tmp_path, captures,
                                                             capsys, monkeypatch, full) -> None:
    """ENOSPC injected at the sink's write or at its commit's fsync: it stands in for a full
    disk."""
    if full == "while writing":
        fill_after(monkeypatch, 300_000)
    else:
        full_at_fsync(monkeypatch)
    dialog = dialog_for(window, steered_route(tmp_path))
    assert a_failed_run(dialog, qtbot, capsys) == (
        f"Could not write the report in {captures}: {FULL}; nothing was saved.")
    assert files_in(captures) == []


def test_a_file_in_the_way_of_the_captures_folder_is_one_message(window, qtbot, tmp_path,
                                                                 captures, capsys) -> None:
    captures.parent.mkdir(parents=True)
    captures.write_text("mine")
    dialog = dialog_for(window, steered_route(tmp_path))
    assert a_failed_run(dialog, qtbot, capsys) == (
        f"Cannot keep captures in {captures}: {captures} is not a folder (set XDG_DATA_HOME to "
        "keep them elsewhere).")
    assert captures.read_text() == "mine"


def test_enter_in_the_size_box_corrects_the_size_and_starts(window, qtbot, tmp_path,
                                                           captures) -> None:
    missing = tmp_path / "no-such-helper"
    dialog = dialog_for(window, Route("direct", str(missing)))
    dialog.dim.setFocus()
    dialog.dim.selectAll()
    qtbot.keyClicks(dialog.dim, "1000")  # not a multiple of the tile
    with qtbot.waitSignal(dialog.run.failed, timeout=30_000) as blocker:
        qtbot.keyClick(dialog.dim, Qt.Key.Key_Return)
    assert dialog.dim.value() == (992,)
    assert blocker.args[0].startswith(f"Could not start {missing}: ")
    assert files_in(captures) == []


def test_cancel_stops_the_helper_and_writes_nothing(window, qtbot, tmp_path, captures,
                                                    monkeypatch) -> None:
    monkeypatch.setenv("FAKE_HELPER", "hang")
    before = shown(window)
    dialog = dialog_for(window, steered_route(tmp_path))
    dialog.start()
    qtbot.waitUntil(lambda: dialog.progress.value() >= 400, timeout=30_000)
    assert "Collecting counters for matmul_naive" in dialog.stage.text()
    assert dialog.progress.isVisible() and dialog.close_button.text() == "Cancel"
    pid = dialog.run.process.processId()
    assert len(files_in(captures)) == 1  # the report's first bytes, in a temporary file
    with qtbot.waitSignal(dialog.run.cancelled, timeout=30_000):
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)  # Esc cancels
    assert dialog.isVisible()
    assert dialog.stage.text() == "Cancelled: ncu was stopped and nothing was saved."
    assert dialog.run.process is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert files_in(captures) == []
    assert shown(window) == before
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)  # and closes once nothing runs
    assert not dialog.isVisible()


DEAF_HELPER = '''"""A helper that ignores the cancel: it says it started, reads its stdin to
the end (the app closing it), and sleeps on. Only a kill ends it."""
import json, sys, time
sys.stderr.write(json.dumps({"started": {"target": "naive", "dim": 512}}) + "\\n")
sys.stderr.flush()
sys.stdin.buffer.read()
time.sleep(600)
'''


def test_a_helper_that_ignores_the_cancel_is_killed_after_the_grace_period(qtbot, tmp_path,
                                                                           captures) -> None:
    deaf = tmp_path / "deaf-helper.py"
    deaf.write_text(DEAF_HELPER)
    run = capture_run.CaptureRun(Route("direct", sys.executable, (str(deaf),)), grace_ms=500)
    stages: list[str] = []
    run.stage.connect(stages.append)
    run.start([Request("naive", 512, "full", "base")])
    qtbot.waitUntil(lambda: "Starting ncu: naive kernel at 512" in stages, timeout=30_000)
    pid = run.process.processId()
    asked = time.monotonic()
    with qtbot.waitSignal(run.cancelled, timeout=30_000):
        run.cancel()
    assert time.monotonic() - asked >= 0.5  # not before the grace period
    assert stages[-1] == "Cancelled: ncu was stopped and nothing was saved."
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert files_in(captures) == []


def test_closing_the_window_stops_a_capture(window, qtbot, tmp_path, captures,
                                            monkeypatch) -> None:
    monkeypatch.setenv("FAKE_HELPER", "hang")
    dialog = dialog_for(window, steered_route(tmp_path))
    dialog.start()
    qtbot.waitUntil(lambda: dialog.progress.value() >= 400, timeout=30_000)
    pid = dialog.run.process.processId()
    window.close()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert files_in(captures) == []
    QApplication.processEvents()


def test_a_kernel_program_failing_under_ncu_says_the_programs_own_words(
        window, qtbot, tmp_path, captures, capsys) -> None:
    """The real helper from a planted install whose fake ncu runs a program that fails
    (tests/capture_install.py): the dialog shows the program's last lines, nothing is saved."""
    from tests.capture_install import plant

    install = plant(tmp_path / "install", "program_fails")
    before = shown(window)
    dialog = dialog_for(window, Route("direct", str(install.helper), (), None, "the real helper"))
    message = a_failed_run(dialog, qtbot, capsys)
    assert message.startswith("ncu failed, so nothing was saved (the kernel program failed")
    assert "No module named 'numba'" in message
    assert shown(window) == before
    assert files_in(captures) == []
    if os.environ.get("NCU_READER_SHOTS"):
        dialog.grab().save(str(Path(os.environ["NCU_READER_SHOTS"]) / "capture-ncu-failed.png"))


# ---------------------------------------------------------------------------- the check-up


@pytest.mark.parametrize("installed", [False, True], ids=["not installed", "installed"])
def test_without_a_route_the_dialog_shows_the_checkup_at_once(window, tmp_path, qtbot,
                                                              installed) -> None:
    """The check-up of a made-up machine (tests/checkup_machine.py: no driver, no ncu, no
    pkexec), with no install or a planted one that passes its trust checks: the dialog shows
    each finding, and suggests `make install-capture` only where nothing is installed."""
    from tests.checkup_machine import machine_checkup, reachable_folder

    with reachable_folder() as base:  # the helper's ncu runs as nobody where tests run as root
        run_checkup = machine_checkup(base / "machine", installed=installed)
        none = choose_route(params=tmp_path / "no-such-params")
        dialog = CaptureDialog(none, window.tab_style, window, run_checkup=run_checkup)
        dialog.show()
        qtbot.waitUntil(lambda: dialog.findings is not None, timeout=30_000)
        assert dialog.findings == run_checkup()
    shown_text = dialog.checkup_text.text()
    assert dialog.checkup_text.isVisible()
    for finding in dialog.findings:
        assert html.escape(finding.topic) in shown_text
    assert "no NVIDIA driver loaded" in shown_text
    helper = next(f for f in dialog.findings if f.topic == "capture helper")
    assert helper.ok == installed
    assert ("installed at " in shown_text) == installed
    assert ("make install-capture" in shown_text) == (not installed)
    assert dialog.check_button.isEnabled()
    dialog.close()


def test_the_dialog_shows_the_terminals_lines(window, tmp_path, qtbot) -> None:
    """The dialog's check-up is `capture --check`'s lines, the route first, word for word
    (each paragraph keeps its spaces)."""
    import io

    from PySide6.QtGui import QTextDocument

    from tests.checkup_machine import machine_checkup
    from viewer.terminal.capture_terminal import cli

    run_checkup = machine_checkup(tmp_path / "machine", admin_only=1, pkexec=True)
    dialog = CaptureDialog(choose_route(params=tmp_path / "no-such-params"), window.tab_style,
                           window, run_checkup=run_checkup)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.findings is not None, timeout=30_000)
    shown = QTextDocument()
    shown.setHtml(dialog.checkup_text.text())
    out = io.StringIO()
    cli(["--check"], out, io.StringIO(), run_checkup=run_checkup)
    said = out.getvalue().splitlines()
    assert said[0] == "no  route: none: no capture helper installed"
    assert shown.toPlainText().splitlines() == said
    dialog.close()


def test_with_a_route_the_checkup_waits_for_its_button(window, tmp_path, qtbot) -> None:
    asked = []

    def made_up_checkup():
        asked.append(1)
        from viewer.capture.checkup import Finding
        return [Finding("pkexec", "made up for the display test", False, "install it")]

    dialog = CaptureDialog(steered_route(tmp_path), window.tab_style, window,
                           run_checkup=made_up_checkup)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert not dialog.checker.busy  # nothing asked of the check-up's worker
    assert not asked and not dialog.checkup_text.isVisible()
    qtbot.mouseClick(dialog.check_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.findings is not None, timeout=10_000)
    assert asked == [1]
    assert "made up for the display test" in dialog.checkup_text.text()
    assert "what to do: install it" in dialog.checkup_text.text()
    dialog.close()
