"""Timing over a list of sizes (viewer.kernels.sizes): the deviation and the stable flag on plain
numbers, the list's grammar, the runner's own numbers at 16 and 32 on numba's CUDA simulator
(host-clock events: tests/kernels/simulated_timing.py), cancel between sizes, and the terminal's
table. The MADE-UP launch times below are invented for the arithmetic and say so."""

from __future__ import annotations

import json
import statistics

import numpy as np
import pytest
from numba import config

from tests.kernels.simulated_timing import simulated_time_kernels
from viewer.core.jobs import Cancelled, Job
from viewer.kernels import runner
from viewer.kernels.__main__ import main as kernels_main
from viewer.kernels.runner import KernelTiming, TimingResult
from viewer.kernels.sizes import (
    STABLE_MAX,
    SizesTiming,
    as_dict,
    is_stable,
    parse_sizes,
    relative_deviation,
    time_sizes,
)
from viewer.kernels.sizes_table import table_lines


def made_up(dim: int, naive: tuple[float, ...], tiled: tuple[float, ...]) -> TimingResult:
    """MADE-UP launch times (not a measurement) for the arithmetic."""
    def kernel(name: str, launches: tuple[float, ...]) -> KernelTiming:
        n = len(launches)
        return KernelTiming(name, dim, 1e-7, launches, (0.01,) * n, (True,) * n, True)
    return TimingResult(dim, "made-up device", (kernel("naive", naive), kernel("tiled", tiled)))


STEADY = (1.0, 1.0, 1.0, 1.0)
NOISY = (1.0, 1.1, 0.9, 1.0)  # sample std 0.0816 over mean 1.0: 8.2 %


def test_the_deviation_is_the_sample_standard_deviation_over_the_mean() -> None:
    assert relative_deviation(STEADY) == 0.0
    assert relative_deviation(NOISY) == pytest.approx(np.std(NOISY, ddof=1) / np.mean(NOISY))
    assert relative_deviation((2.0, 4.0)) == pytest.approx(2**0.5 / 3)
    assert relative_deviation((5.0,)) is None
    assert relative_deviation(()) is None
    assert relative_deviation((0.0, 0.0)) is None


def test_the_flag_follows_the_deviation() -> None:
    assert STABLE_MAX == 0.02
    assert is_stable(0.0) is True
    assert is_stable(0.02) is True
    assert is_stable(0.0201) is False
    assert is_stable(None) is None
    # 1.0 and 1.0 + d: sample std d / sqrt(2), mean 1 + d / 2.
    just_under, just_over = (1.0, 1.028), (1.0, 1.03)
    assert relative_deviation(just_under) < 0.02 < relative_deviation(just_over)
    timing = SizesTiming("made-up device", ())
    assert timing.unstable() == []
    flagged = time_sizes((16, 32), Job(), lambda dim, job: made_up(
        dim, just_under if dim == 16 else just_over, STEADY))
    assert [(s.kernel, s.dim) for s in flagged.unstable()] == [("naive", 32)]
    assert [size.stable for size in flagged.sizes] == [True, False]
    one = time_sizes((16,), Job(), lambda dim, job: made_up(dim, (1.0,), STEADY))
    assert one.sizes[0].stable is None and [s.kernel for s in one.undefined()] == ["naive"]


def test_the_list_is_the_capture_helpers_grammar() -> None:
    assert parse_sizes("16,32") == (16, 32)
    assert parse_sizes("512") == (512,)
    assert parse_sizes("256, 512") == (256, 512)
    for bad, words in (("16,16", "more than once"), ("17", "multiple of the tile"),
                       ("8208", "16..8192"), (",".join(str(16 * k) for k in range(1, 10)), "8"),
                       ("16;32", "plain digits"), ("", "plain digits")):
        with pytest.raises(ValueError, match=words):
            parse_sizes(bad)


@pytest.mark.slow  # both kernels at 16 and 32 on the simulator: about 12 s on 2 cores
@pytest.mark.skipif(not config.ENABLE_CUDASIM, reason="runs the kernels on the simulator")
def test_at_16_and_32_the_values_are_the_runners_own(monkeypatch) -> None:
    monkeypatch.setattr(runner, "WARMUP_LAUNCHES", 0)
    monkeypatch.setattr(runner, "TIMED_LAUNCHES", 3)
    returned: list[TimingResult] = []

    def time_at(dim: int, job: Job) -> TimingResult:
        returned.append(simulated_time_kernels(dim, job))
        return returned[-1]

    timing = time_sizes((16, 32), Job(), time_at)
    assert timing.dims == (16, 32)
    assert [size.result for size in timing.sizes] == returned
    for size, result in zip(timing.sizes, returned, strict=True):
        for spread, kernel in zip(size.spreads, result.kernels, strict=True):
            launches = kernel.launches_ms
            assert len(launches) == 3
            assert spread.median_ms == statistics.median(launches) == kernel.median_ms
            assert (spread.min_ms, spread.max_ms) == (min(launches), max(launches))
            assert spread.deviation == pytest.approx(np.std(launches, ddof=1) / np.mean(launches))
            assert spread.stable is (spread.deviation <= 0.02)
            assert spread.passed and kernel.passed
        naive, tiled = result.kernels
        assert size.ratio == naive.median_ms / tiled.median_ms


def test_progress_is_a_share_per_size_and_cancel_stops_between_sizes() -> None:
    seen: list[tuple[float, str]] = []
    job = Job(lambda fraction, message: seen.append((fraction, message)))
    timed: list[int] = []

    def time_at(dim: int, inner: Job) -> TimingResult:
        timed.append(dim)
        inner.progress(1.0, f"at {dim}")
        return made_up(dim, STEADY, STEADY)

    time_sizes((16, 32, 48), job, time_at)
    assert timed == [16, 32, 48]
    assert seen[0] == (0.0, "size 16 (1 of 3)")
    assert (pytest.approx(1 / 3), "at 16") in seen
    assert (pytest.approx(2 / 3), "size 48 (3 of 3)") in seen
    assert seen[-1] == (1.0, "timed")

    timed.clear()
    job = Job()

    def cancel_after(dim: int, inner: Job) -> TimingResult:
        timed.append(dim)
        job.cancel()  # while the first size runs: it finishes, the next one never starts
        return made_up(dim, STEADY, STEADY)

    with pytest.raises(Cancelled):
        time_sizes((16, 32, 48), job, cancel_after)
    assert timed == [16]


def test_the_table_and_json_say_each_size() -> None:
    timing = time_sizes((16, 32), Job(), lambda dim, job: made_up(
        dim, NOISY if dim == 32 else STEADY, tuple(v / 2 for v in STEADY)))
    lines = table_lines(timing)
    assert "relative standard deviation" in lines[0] and "2%" in lines[0]
    assert lines[1].split() == ["N", "naive", "ms", "naive", "spread", "tiled", "ms", "tiled",
                                "spread", "naive/tiled", "stable"]
    assert lines[2].split() == ["16", "1", "1..1", "0.0%", "0.5", "0.5..0.5", "0.0%", "2.00x",
                                "yes"]
    assert lines[3].split() == ["32", "1", "0.9..1.1", "8.2%", "0.5", "0.5..0.5", "0.0%",
                                "2.00x", "NO", "(naive", "8.2%)"]
    assert lines[4].startswith("Over 2% relative standard deviation: naive at 32 (8.2%).")
    assert "run again, or the machine is busy" in lines[4]
    data = json.loads(json.dumps(as_dict(timing)))
    assert [s["dim"] for s in data["sizes"]] == [16, 32]
    assert data["sizes"][1]["kernels"][0]["stable"] is False
    assert data["sizes"][1]["kernels"][0]["launches_ms"] == list(NOISY)
    assert data["sizes"][0]["ratio"] == 2.0


def test_the_terminal_refuses_a_bad_list_and_the_simulator(capsys) -> None:
    assert kernels_main(["time", "--dim", "16,17"]) == 2
    assert "multiple of the tile (16), got 17" in capsys.readouterr().err
    if config.ENABLE_CUDASIM:
        assert kernels_main(["time", "--dim", "16,32"]) == 1
        assert "simulator is on" in capsys.readouterr().err


def test_the_terminal_prints_the_table_of_the_list(monkeypatch, capsys) -> None:
    from viewer.kernels import sizes

    asked: list[tuple[int, ...]] = []

    def made_up_run(dims, job, time_at=None) -> SizesTiming:
        asked.append(tuple(dims))
        return time_sizes(dims, job, lambda dim, inner: made_up(dim, NOISY, STEADY))

    monkeypatch.setattr(sizes, "time_sizes", made_up_run)
    assert kernels_main(["time", "--dim", "16,32"]) == 0
    expected = made_up_run((16, 32), Job())
    assert capsys.readouterr().out.splitlines() == table_lines(expected)
    assert kernels_main(["time", "--dim", "16,32", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(as_dict(expected)))
    assert asked[0] == asked[2] == (16, 32)
