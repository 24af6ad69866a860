"""The capture run as a state machine (viewer/capture/run.py), fed what a helper does.

The event lines are the helper's own: written by viewer.capture.helper.Lines, the writer the
helper runs, into a pipe, and read back; the report's bytes are a shipped report's. Time is
given, never read, so the stop -> grace -> kill sequence is checked to the second.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from viewer.capture.events import PERMISSION, explain
from viewer.capture.helper import lines as jlines
from viewer.capture.helper import protocol as h
from viewer.capture.run import (
    CANCEL_GRACE_S,
    CANCELLED,
    CaptureCancelled,
    CaptureError,
    CloseStdin,
    Finished,
    HelperRun,
    Kill,
    Progress,
    Write,
)
from viewer.core.jobs import Cancelled

NAIVE = Path(__file__).resolve().parents[2] / "profiles" / "naive.ncu-rep"
STARTED = {"started": {"target": "naive", "dim": 512, "set": "full", "clock": "base",
                       "uid": 1000}}
CONNECTED = {"ncu": "==PROF== Connected to process 4321 (/usr/bin/python3)"}
PROFILING = {"ncu": '==PROF== Profiling "matmul_naive" - 0: 0%....50%....100% - 38 passes'}
DISCONNECTED = {"ncu": "==PROF== Disconnected from process 4321"}
VERSION = "Version 2025.3.1.0 (build 36398880) (public-release)"


def helper_lines(*events: dict[str, object]) -> bytes:
    """What the helper writes on stderr for `events`: its own writer, into a pipe."""
    read_end, write_end = os.pipe()
    lines = jlines.Lines(write_end)
    for event in events:
        final = "done" in event or "error" in event
        lines.emit(final, **event)
    lines.flush(10.0)
    assert not lines.dropped
    os.close(write_end)
    with os.fdopen(read_end, "rb") as f:
        return f.read()


def done(size: int) -> dict[str, object]:
    return {"done": {"bytes": size, "ncu_version": VERSION, "driver": "580.159.04"}}


def refusal(code: int, message: str) -> dict[str, object]:
    return {"error": message, "kind": h.KINDS[code], "exit": code}


def report(size: int = 200_000) -> bytes:
    return NAIVE.read_bytes()[:size]


def closed(run: HelperRun, code: int = 0, signal: int | None = None) -> list[object]:
    """Both pipes end and the helper exits: every action that calls for."""
    return [*run.out_closed(), *run.err_closed(), *run.exited(code, signal)]


def finished(actions: list[object]) -> Finished:
    """The one Finished, the last action."""
    assert [type(a) for a in actions].count(Finished) == 1, actions
    assert isinstance(actions[-1], Finished)
    return actions[-1]


# ---------------------------------------------------------------------------- a whole capture


def test_a_whole_report_is_written_and_finishes_with_the_done_event() -> None:
    run = HelperRun("direct")
    data = report()
    said = run.err(helper_lines(STARTED, CONNECTED, PROFILING, DISCONNECTED))
    assert said == [Progress("starting ncu: naive kernel at 512", 0.02),
                    Progress("ncu connected to the kernel program", 0.05),
                    Progress("collecting counters for matmul_naive: 0%....50%....100% "
                             "(38 passes)", 0.9),
                    Progress("ncu finished collecting; writing the report", 0.92)]
    writes = [*run.out(data[:65536]), *run.out(data[65536:])]
    assert writes == [Write(data[:65536]), Write(data[65536:])]
    assert run.err(helper_lines(done(len(data)))) == [
        Progress(f"report received ({len(data):,} bytes)", 1.0)]
    end = finished(closed(run))
    assert (end.code, end.failure) == (0, None)
    assert end.done == {"bytes": len(data), "ncu_version": VERSION, "driver": "580.159.04"}
    assert run.deadline is None


@pytest.mark.parametrize("order", ["out err exit", "exit out err", "err exit out"])
def test_the_run_ends_once_both_pipes_closed_and_the_exit_is_known(order: str) -> None:
    run = HelperRun()
    run.err(helper_lines(STARTED, done(3)))
    run.out(b"NVR")
    steps = {"out": run.out_closed, "err": run.err_closed, "exit": lambda: run.exited(0)}
    *first, last = order.split()
    for step in first:
        assert steps[step]() == []
        assert run.finished is None
    end = finished(steps[last]())
    assert end.failure is None and run.finished is end


def test_an_event_line_split_across_reads_is_one_event() -> None:
    run = HelperRun()
    lines = helper_lines(STARTED)
    assert run.err(lines[:7]) == []
    assert run.err(lines[7:]) == [Progress("starting ncu: naive kernel at 512", 0.02)]


def test_nothing_is_answered_after_the_end() -> None:
    run = HelperRun()
    run.err(helper_lines(STARTED, done(0)))
    finished(closed(run))
    assert run.out(b"late") == [] and run.err(helper_lines(CONNECTED)) == []
    assert run.stop(CANCELLED, 0.0) == [] and run.tick(1e9) == []
    assert run.exited(1) == [] and run.err_closed() == [] and run.out_closed() == []
    assert run.finished is not None and run.finished.failure is None


# ---------------------------------------------------------------------------- stop, grace, kill


def test_stop_closes_stdin_then_the_grace_period_then_a_kill() -> None:
    run = HelperRun("pkexec", grace_s=15.0)
    run.err(helper_lines(STARTED, CONNECTED))
    assert run.out(b"NVRX") == [Write(b"NVRX")]
    assert run.tick(50.0) == []  # nothing stopped: no deadline
    assert run.stop(CANCELLED, 100.0) == [CloseStdin()]
    assert run.deadline == 115.0
    assert run.out(b"after the stop") == []  # dropped, never written
    assert run.tick(114.9) == []
    assert run.tick(115.0) == [Kill()]
    assert run.deadline == 130.0
    assert run.tick(129.0) == []
    assert run.tick(130.5) == [Kill()]  # killed again: pkexec's root helper outlives a kill
    end = finished(closed(run, signal=9))
    assert isinstance(end.failure, CaptureCancelled) and isinstance(end.failure, Cancelled)
    assert end.code == -9 and end.failure.exit_code == -9
    assert str(end.failure) == "Cancelled: ncu was stopped and nothing was saved."
    assert run.deadline is None and run.tick(1e9) == []


def test_a_helper_that_obeys_the_stop_is_never_killed() -> None:
    run = HelperRun(grace_s=CANCEL_GRACE_S)
    run.err(helper_lines(STARTED))
    assert run.stop(CANCELLED, 0.0) == [CloseStdin()]
    run.err(helper_lines(refusal(h.EXIT_CANCELLED, "cancelled: ncu was stopped")))
    end = finished(closed(run, h.EXIT_CANCELLED))
    assert isinstance(end.failure, CaptureCancelled) and end.code == h.EXIT_CANCELLED
    assert run.tick(CANCEL_GRACE_S + 1.0) == []


def test_the_first_stop_is_the_one_kept() -> None:
    """The sink refused a chunk, then the person cancelled: the sink's sentence is what is said,
    and stdin is closed once."""
    run = HelperRun(grace_s=10.0)
    run.err(helper_lines(STARTED))
    full = "Could not write the report in /data: No space left on device; nothing was saved."
    assert run.stop(full, 1.0) == [CloseStdin()]
    assert run.stop(CANCELLED, 2.0) == []
    assert run.deadline == 11.0
    run.err(helper_lines(refusal(h.EXIT_CANCELLED, "cancelled: ncu was stopped")))
    end = finished(closed(run, h.EXIT_CANCELLED))
    assert type(end.failure) is CaptureError
    assert (str(end.failure), end.failure.exit_code) == (full, h.EXIT_CANCELLED)


# ---------------------------------------------------------------------------- truncated streams


def test_a_report_shorter_than_the_done_event_says_is_refused() -> None:
    run = HelperRun()
    data = report(100_000)
    run.err(helper_lines(STARTED, PROFILING))
    run.out(data[:-1])  # the stream was cut one byte short
    run.err(helper_lines(done(len(data))))
    end = finished(closed(run))
    assert end.done is None and isinstance(end.failure, CaptureError)
    assert str(end.failure) == ("The helper ended without saying the whole report was sent "
                                "(99,999 bytes arrived); nothing was saved.")


def test_an_exit_0_without_the_done_event_is_refused() -> None:
    run = HelperRun()
    run.err(helper_lines(STARTED, PROFILING))
    run.out(report(1000))
    end = finished(closed(run))
    assert end.done is None
    assert "without saying the whole report was sent (1,000 bytes arrived)" in str(end.failure)


def test_a_done_line_cut_before_its_newline_still_counts() -> None:
    run = HelperRun()
    lines = helper_lines(STARTED, done(4))
    assert lines.endswith(b"}\n")
    run.err(lines[:-1])
    run.out(b"NVRX")
    assert run.out_closed() == [] and run.exited(0) == []
    actions = run.err_closed()
    assert actions[0] == Progress("report received (4 bytes)", 1.0)
    assert finished(actions).failure is None


def test_a_done_line_cut_inside_its_json_is_no_done_event() -> None:
    run = HelperRun()
    lines = helper_lines(STARTED, done(4))
    run.err(lines[:-8])
    run.out(b"NVRX")
    end = finished(closed(run))
    assert "without saying the whole report was sent (4 bytes arrived)" in str(end.failure)


# ---------------------------------------------------------------------------- failures


def test_the_helpers_refusal_is_explained_from_its_lines() -> None:
    run = HelperRun("direct")
    run.err(helper_lines(STARTED, CONNECTED,
                         {"ncu": "==ERROR== The application returned an error code (1)."},
                         refusal(h.EXIT_NCU_FAILED, "ncu exited with status 1: ==ERROR== The "
                                 "application returned an error code (1).; its report, if "
                                 "any, was dropped")))
    end = finished(closed(run, h.EXIT_NCU_FAILED))
    assert end.code == h.EXIT_NCU_FAILED
    assert str(end.failure) == ("ncu failed, so nothing was saved (ncu exited with status 1: "
                                "==ERROR== The application returned an error code (1).; its "
                                "report, if any, was dropped).")


def test_ncus_permission_line_is_recognised_whatever_the_exit() -> None:
    run = HelperRun("direct")
    run.err(helper_lines(STARTED, {"ncu": "==ERROR== ERR_NVGPUCTRPERM - The user does not have "
                                          "permission to access NVIDIA GPU Performance Counters"}))
    end = finished(closed(run, h.EXIT_FAILED))
    assert (str(end.failure), end.code) == (PERMISSION, h.EXIT_FAILED)


def test_pkexecs_own_exit_is_worded_for_the_pkexec_route() -> None:
    run = HelperRun("pkexec")
    assert run.err(b"Error executing command as another user: Not authorized\n") == []
    end = finished(closed(run, 127))
    assert str(end.failure) == explain(127, [], "pkexec")
    assert str(end.failure).startswith("Not authorized")


def test_a_helper_killed_by_a_signal_it_was_not_sent() -> None:
    run = HelperRun()
    run.err(helper_lines(STARTED, CONNECTED))
    run.out(b"NVRX")
    end = finished(closed(run, signal=11))
    assert end.code == -11 and type(end.failure) is CaptureError
    assert str(end.failure) == "The capture helper was killed by signal 11."


def test_a_helper_that_never_started() -> None:
    run = HelperRun()
    end = finished(run.failed_to_start("/usr/bin/pkexec", "No such file or directory"))
    assert end.code is None and end.failure is not None and end.failure.exit_code is None
    assert str(end.failure) == "Could not start /usr/bin/pkexec: No such file or directory."
