"""The progress/cancel object that long plain functions take."""

from __future__ import annotations

import pytest

from viewer.core.jobs import Cancelled, Job


def test_progress_is_reported_and_clamped() -> None:
    seen: list[tuple[float, str]] = []
    job = Job(lambda f, m: seen.append((f, m)))
    job.progress(0.5, "half")
    job.progress(2.0, "over")
    assert seen == [(0.5, "half"), (1.0, "over")]


def test_a_cancelled_job_stops_at_its_next_progress() -> None:
    job = Job()
    job.cancel()
    with pytest.raises(Cancelled):
        job.progress(0.1)


def test_a_part_maps_progress_into_its_share_and_shares_cancelling() -> None:
    seen: list[float] = []
    outer = Job(lambda f, m: seen.append(f))
    part = outer.part(0.5, 0.75)
    part.progress(0.0)
    part.progress(1.0)
    assert seen == [0.5, 0.75]
    part.cancel()
    assert outer.cancelled and part.cancelled
    with pytest.raises(Cancelled):
        outer.part(0.0, 1.0).check()


def test_shares_run_at_once_report_their_mean_and_cancel_together() -> None:
    import threading

    seen: list[float] = []
    job = Job(lambda f, m: seen.append(f))
    a, b = job.shares(2)
    a.progress(1.0)
    b.progress(0.5)
    assert seen == [0.5, 0.75]
    both = [threading.Thread(target=s.progress, args=(1.0,)) for s in (a, b)]
    for t in both:
        t.start()
    for t in both:
        t.join()
    assert seen[-1] == 1.0
    b.cancel()
    assert job.cancelled and a.cancelled
    with pytest.raises(Cancelled):
        a.check()
