"""The matmul kernels on numba's CUDA simulator, the runner's launch order, the ncu command and
the command line. make test sets NUMBA_ENABLE_CUDASIM=1; sizes stay small so the simulator is
quick, and include ragged ones the tile does not divide."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import threading
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import ncu_report
import numpy as np
import pytest
from numba import config, cuda

from viewer.analysis.predict import derive
from viewer.core.jobs import Cancelled, Job
from viewer.kernels import matmul, runner
from viewer.kernels.__main__ import CHECK_DIM, SIMULATOR_CHECK_DIM
from viewer.kernels.__main__ import main as kernels_main
from viewer.kernels.ncu_command import (
    LESSON_METRICS,
    default_report,
    launch_skip,
    ncu_command,
    report_file,
)

ROOT = Path(__file__).resolve().parents[2]

needs_simulator = pytest.mark.skipif(
    not config.ENABLE_CUDASIM, reason="runs the kernels on numba's CUDA simulator"
)


def _cli_env(simulator: bool) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    if simulator:
        env["NUMBA_ENABLE_CUDASIM"] = "1"
    return env


def _run_cli(*args: str, simulator: bool, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "viewer.kernels", *args],
        cwd=ROOT, env=_cli_env(simulator), capture_output=True, text=True, timeout=timeout,
    )


@cache
def _run_simulator_cli_once(argv: tuple[str, ...]) -> subprocess.CompletedProcess:
    """argv on the simulator, run once per test run: two tests run the same `check`."""
    return subprocess.run(argv, cwd=ROOT, env=_cli_env(simulator=True), capture_output=True,
                          text=True, timeout=120)


@cache
def _has_gpu() -> bool:
    probe = subprocess.run(
        [sys.executable, "-c", "from numba import cuda; print(cuda.is_available())"],
        env=_cli_env(simulator=False), capture_output=True, text=True, timeout=120,
    )
    return probe.stdout.strip() == "True"


@needs_simulator
@pytest.mark.parametrize("dim", [16, 17])
def test_check_passes_both_kernels(dim):
    results = runner.check(dim, Job(), seed=dim)
    assert [r.kernel for r in results] == ["naive", "tiled"]
    for r in results:
        assert r.passed, r
        assert 0.0 < r.relative_error < runner.MAX_RELATIVE_ERROR


@needs_simulator
@pytest.mark.parametrize("name", ["naive", "tiled"])
def test_ragged_rectangular_shapes_write_every_element(name):
    m, n, k = 17, 33, 20
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, m * k).astype(np.float32)
    b = rng.uniform(-1, 1, k * n).astype(np.float32)
    d_c = cuda.to_device(np.full(m * n, np.nan, dtype=np.float32))
    matmul.launch(name, cuda.to_device(a), cuda.to_device(b), d_c, m, n, k)
    out = d_c.copy_to_host().reshape(m, n)
    assert not np.isnan(out).any()
    ref = a.reshape(m, k).astype(np.float64) @ b.reshape(k, n).astype(np.float64)
    assert np.linalg.norm(out - ref) / np.linalg.norm(ref) < runner.MAX_RELATIVE_ERROR


def test_grid_covers_ragged_outputs():
    assert matmul.grid_shape(33, 50) == (4, 3)
    assert matmul.grid_shape(512, 512) == (32, 32)
    assert matmul.block_shape() == (matmul.TILE_DIM, matmul.TILE_DIM)


def test_launch_refuses_sizes_beyond_the_32_bit_loop_test():
    with pytest.raises(ValueError, match="sizes must lie"):
        matmul.launch("naive", None, None, None, 16, 16, matmul.MAX_DIM + 1)
    with pytest.raises(ValueError, match="sizes must lie"):
        matmul.launch("tiled", None, None, None, 0, 16, 16)


def test_an_unwritten_element_fails_the_check():
    ref = np.arange(1.0, 5.0)
    out = ref.astype(np.float32)
    assert runner.relative_error(out, ref) == 0.0
    out[2] = np.nan
    error = runner.relative_error(out, ref)
    assert np.isnan(error)
    assert not runner.KernelCheck("naive", 2, error).passed


def test_random_inputs_are_fresh_and_not_zero():
    rng = np.random.default_rng()
    a1, b1 = runner.random_inputs(16, rng)
    a2, _ = runner.random_inputs(16, rng)
    assert a1.dtype == np.float32 and a1.shape == (256,)
    assert np.count_nonzero(a1) == a1.size and np.count_nonzero(b1) == b1.size
    assert not np.array_equal(a1, a2)


class _Event:
    """Stands in for a CUDA timing event, which the simulator lacks. `passed` answers query():
    whether the GPU had already reached the event when the host asked."""

    def __init__(self, log: list[object], passed: Iterator[bool]):
        self.log, self.passed = log, passed

    def record(self, stream=0):
        self.log.append("record")

    def query(self):
        return next(self.passed)

    def synchronize(self):
        pass


@needs_simulator
def test_the_launch_order_on_the_simulator(monkeypatch):
    """The real runner on the simulator, with stand-ins only for what the simulator lacks (timing
    events, a hold kernel that sleeps): the first timed launch is the one ncu skips to, each
    timed launch the GPU reached before it was queued is marked and the next hold is four times
    longer, and the timed launches write the output the correctness launch checked. The order
    is the same for every kernel; the naive one runs it, a quarter of the tiled one's time on the
    simulator."""
    log: list[object] = []
    real_launch = runner.launch
    # Timed launches 2 and 5: the hold had ended before the launch was queued.
    late = {1, 4}
    passed = iter([i in late for i in range(runner.TIMED_LAUNCHES)])

    def counting_launch(name, *args, **kwargs):
        log.append(f"launch {name}")
        real_launch(name, *args, **kwargs)

    monkeypatch.setattr(runner, "launch", counting_launch)
    monkeypatch.setattr(runner, "hold", lambda us, stream=0: log.append(("hold", us)))
    monkeypatch.setattr(runner.cuda, "event", lambda timing=True: _Event(log, passed),
                        raising=False)
    monkeypatch.setattr(runner.cuda, "event_elapsed_time", lambda a, b: 0.05, raising=False)
    timing = runner.run_launch_order("naive", 16, Job(), np.random.default_rng(1))

    launches = [i for i, entry in enumerate(log) if entry == "launch naive"]
    assert len(launches) == runner.LAUNCHES_PER_KERNEL
    timed = [n for n, i in enumerate(launches) if log[i - 1] == "record"
             and isinstance(log[i - 2], tuple)]
    assert timed[0] == launch_skip() and len(timed) == runner.TIMED_LAUNCHES
    assert timing.queued == tuple(i not in late for i in range(runner.TIMED_LAUNCHES))
    holds = [entry[1] for entry in log if isinstance(entry, tuple)][1:]  # [0] warms it up
    assert holds[0] >= runner.HOLD_MIN_US
    for i in range(1, runner.TIMED_LAUNCHES):
        assert holds[i] == holds[i - 1] * (4 if i - 1 in late else 1), (i, holds)
    assert len(timing.launches_ms) == len(timing.dispatch_ms) == runner.TIMED_LAUNCHES
    assert timing.timed_output_matches and timing.relative_error < runner.MAX_RELATIVE_ERROR


@needs_simulator
def test_cancel_stops_the_launch_order():
    job = Job()
    job.cancel()
    with pytest.raises(Cancelled):
        runner.run_launch_order("naive", 16, job)


def test_ncu_command_skip_and_count_come_from_the_runner():
    argv = ncu_command("naive", 512, "profiles/naive")
    assert argv[argv.index("--launch-skip") + 1] == str(
        runner.CORRECTNESS_LAUNCHES + runner.WARMUP_LAUNCHES
    )
    assert argv[argv.index("--launch-count") + 1] == "1"
    assert argv[argv.index("-k") + 1] == "regex:matmul_naive"
    assert argv[argv.index("--set") + 1] == "full"
    assert argv[argv.index("--metrics") + 1].split(",") == list(LESSON_METRICS)
    assert argv[argv.index("--clock-control") + 1] == "none"
    assert argv[argv.index("-o") + 1] == "profiles/naive"
    assert argv[-8:] == [
        "python3", "-m", "viewer.kernels", "profile-target", "--kernel", "naive", "--dim", "512"
    ]
    # Without -f ncu refuses to write over an existing report.
    assert "-f" not in argv and "--force-overwrite" not in argv


def test_ncu_command_follows_a_changed_launch_order(monkeypatch):
    monkeypatch.setattr(runner, "WARMUP_LAUNCHES", 5)
    argv = ncu_command("tiled", 256, "r")
    assert argv[argv.index("--launch-skip") + 1] == str(runner.CORRECTNESS_LAUNCHES + 5)


def test_ncu_command_refuses_an_unknown_kernel():
    with pytest.raises(ValueError, match="unknown kernel"):
        ncu_command("blocked", 512, "r")


def test_ncu_command_cli_prints_one_shell_line():
    done = _run_cli("ncu-command", "--kernel", "tiled", "--dim", "1024", "--report", "new/tiled",
                    simulator=True)
    assert done.returncode == 0, done.stderr
    assert shlex.split(done.stdout) == ncu_command("tiled", 1024, "new/tiled")


def test_ncu_command_names_a_new_report_here_by_default(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    before = default_report("naive", 256)
    assert kernels_main(["ncu-command", "--kernel", "naive", "--dim", "256"]) == 0
    after = default_report("naive", 256)
    argv = shlex.split(capsys.readouterr().out)
    report = argv[argv.index("-o") + 1]
    assert before <= report <= after  # KERNEL-DIM-YYYYmmdd-HHMMSS, taken now
    assert Path(report).parent == Path(".") and not report_file(report).exists()
    assert argv == ncu_command("naive", 256, report)


def test_default_report_and_the_file_ncu_writes():
    from datetime import datetime

    when = datetime(2026, 1, 2, 3, 4, 5)
    assert default_report("tiled", 512, when) == "tiled-512-20260102-030405"
    assert report_file("dir/naive") == Path("dir/naive.ncu-rep")
    assert report_file("dir/naive.ncu-rep") == Path("dir/naive.ncu-rep")


@pytest.mark.parametrize("name", ["profiles/naive", "profiles/tiled.ncu-rep"])
def test_ncu_command_refuses_a_report_that_exists(monkeypatch, capsys, name):
    """Run in the checkout, where the shipped reports were captured: they are not written over."""
    monkeypatch.chdir(ROOT)
    assert kernels_main(["ncu-command", "--kernel", "naive", "--report", name]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1 and str(report_file(name)) in err


@needs_simulator
def test_check_cli_on_the_simulator():
    done = _run_cli("check", "--dim", "16", simulator=True)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 2 and all(line.endswith("ok") for line in lines)
    assert done.stderr == ""  # a size the simulator runs in seconds: no word on its time


@needs_simulator
def test_check_on_the_simulator_picks_a_size_that_takes_seconds_and_says_which():
    """At the GPU's default size, 512, the simulator takes over an hour."""
    done = _run_simulator_cli_once((sys.executable, "-m", "viewer.kernels", "check"))
    assert done.returncode == 0, done.stderr
    said, *lines = done.stdout.strip().splitlines()
    assert f"size {SIMULATOR_CHECK_DIM} " in said and f"{CHECK_DIM} on a GPU" in said
    assert [line.split()[:2] for line in lines] == [["naive", str(SIMULATOR_CHECK_DIM)],
                                                     ["tiled", str(SIMULATOR_CHECK_DIM)]]
    assert all(line.endswith("ok") for line in lines)


@needs_simulator
def test_check_on_the_simulator_honours_a_large_size_and_says_how_long_it_takes():
    """The warning comes before the check starts; the process is ended once it has said it (or
    after two minutes without a word)."""
    with subprocess.Popen([sys.executable, "-m", "viewer.kernels", "check", "--dim", "512"],
                          cwd=ROOT, env=_cli_env(simulator=True), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as proc:
        limit = threading.Timer(120, proc.kill)
        limit.start()
        try:
            warning = proc.stderr.readline() if proc.stderr else ""
        finally:
            limit.cancel()
            proc.kill()
    assert "--dim 512" in warning and "minutes" in warning
    assert f"--dim {SIMULATOR_CHECK_DIM}" in warning or f"size {SIMULATOR_CHECK_DIM}" in warning


def test_check_without_a_gpu_suggests_a_command_that_finishes():
    if _has_gpu():
        pytest.skip("this machine has a CUDA GPU")
    done = _run_cli("check", simulator=False)
    assert (done.returncode, done.stdout) == (1, "")
    (line,) = done.stderr.splitlines()
    suggested = re.search(r"`([^`]+)`", line)
    assert suggested, line
    setting, *argv = shlex.split(suggested.group(1))
    assert setting == "NUMBA_ENABLE_CUDASIM=1"
    tried = _run_simulator_cli_once(tuple(argv))
    assert tried.returncode == 0, tried.stderr
    assert tried.stdout.count(" ok\n") == 2


def test_time_refuses_the_simulator_in_one_line():
    done = _run_cli("time", "--dim", "16", simulator=True)
    assert done.returncode != 0
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert "GPU" in done.stderr and "Traceback" not in done.stderr


def test_time_without_a_gpu_says_so_in_one_line():
    if _has_gpu():
        pytest.skip("this machine has a CUDA GPU")
    done = _run_cli("time", "--dim", "16", simulator=False)
    assert done.returncode != 0
    assert len(done.stderr.strip().splitlines()) == 1
    assert "no" in done.stderr and "Traceback" not in done.stderr


def test_profile_target_refuses_the_simulator_in_one_line():
    done = _run_cli("profile-target", "--kernel", "naive", "--dim", "16", simulator=True)
    assert done.returncode != 0
    assert len(done.stderr.strip().splitlines()) == 1


PROFILES = ROOT / "profiles"
PROFILE_FILES = [
    f"{kernel}.{suffix}"
    for kernel in ("naive", "tiled")
    for suffix in ("ncu-rep", "details.txt", "details.csv", "raw.csv")
]


def _metadata() -> dict:
    return json.loads((PROFILES / "metadata.json").read_text())


def test_shipped_profiles_exist():
    for name in [*PROFILE_FILES, "metadata.json"]:
        path = PROFILES / name
        assert path.is_file() and path.stat().st_size > 0, name


def test_metadata_names_the_gpu_the_report_records():
    meta = _metadata()
    report = ncu_report.load_report(str(PROFILES / "naive.ncu-rep"))
    action = report.range_by_idx(0).action_by_idx(0)
    recorded = action.metric_by_name("device__attribute_display_name").as_string()
    assert meta["gpu"]["name"] == recorded
    assert "H200" in recorded
    assert meta["clock_control"] == "none"
    assert meta["gpu"]["driver"] and meta["ncu"]


def test_metadata_commands_are_the_ncu_command_the_code_prints():
    """The shipped reports were captured with -f (since dropped: the command never overwrites);
    every other word is the command the code prints."""
    captures = [shlex.split(c) for c in _metadata()["commands"] if " profile-target " in c]
    recorded = [[word for word in argv if word != "-f"] for argv in captures]
    for kernel in ("naive", "tiled"):
        assert ncu_command(kernel, 512, f"profiles/{kernel}") in recorded
    assert _metadata()["launch_order"]["launch_skip"] == launch_skip()


def test_shipped_counters_match_the_derivation():
    p = derive(512, matmul.TILE_DIM)
    for kernel, predicted in (("naive", p.naive), ("tiled", p.tiled)):
        report = ncu_report.load_report(str(PROFILES / f"{kernel}.ncu-rep"))
        assert report.num_ranges() == 1
        action = report.range_by_idx(0).action_by_idx(0)
        assert matmul.KERNEL_FUNCTIONS[kernel] in action.name()
        requests = action.metric_by_name(LESSON_METRICS[0]).as_uint64()
        sectors = action.metric_by_name(LESSON_METRICS[1]).as_uint64()
        assert requests == predicted.global_load_requests
        assert abs(sectors - predicted.global_load_sectors) <= 0.01 * predicted.global_load_sectors
        assert action.metric_by_name("launch__grid_size").as_uint64() == p.blocks


def test_time_output_table_and_json_from_a_timing_result(capsys):
    from viewer.kernels.__main__ import _print_timing, _timing_dict

    def timing(name, ms):
        return runner.KernelTiming(
            kernel=name, dim=512, relative_error=4e-7, launches_ms=ms,
            dispatch_ms=(0.07, 0.06, 0.08), queued=(True, True, False),
            timed_output_matches=True,
        )

    result = runner.TimingResult(
        dim=512, device="NVIDIA H200",
        kernels=(timing("naive", (0.06, 0.059, 0.061)), timing("tiled", (0.042, 0.041, 0.05))),
    )
    data = _timing_dict(result)
    assert data["kernels"][0]["median_ms"] == 0.06
    assert data["kernels"][1]["launches_ms"] == (0.042, 0.041, 0.05)
    assert data["dispatch_ms"] == 0.07
    assert data["kernels"][0]["gflops"] == pytest.approx(2 * 512**3 / 0.06e-3 / 1e9)
    json.dumps(data)
    _print_timing(result)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("NVIDIA H200, 512 x 512 x 512")
    assert lines[2].split()[:2] == ["naive", "0.0600"]
    assert "1 launch(es) not queued" in lines[3]
    assert lines[-1].endswith("0.0700 ms")
