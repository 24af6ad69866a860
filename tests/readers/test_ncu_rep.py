"""The .ncu-rep reader: NVIDIA's ncu_report in a child process, its limits, and its judgement."""

from __future__ import annotations

import csv
import importlib.util
import os
import signal
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from tests.polling import wait_for
from viewer.core.jobs import Cancelled, Job
from viewer.core.metrics import KNOWN_METRICS
from viewer.core.model import ReportError
from viewer.core.units import unit_scale
from viewer.readers import _child, ncu_rep, raw_csv, read_metrics

ROOT = Path(__file__).resolve().parents[2]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
NAIVE = H200 / "numba-naive.ncu-rep"
TILED = H200 / "numba-tiled.ncu-rep"


@pytest.fixture(scope="module")
def naive():
    """The naive kernel with every numeric metric read."""
    [kernel] = ncu_rep.read(NAIVE, names=None).kernels
    return kernel


def test_naive_identity(naive) -> None:
    assert (naive.index, naive.name) == (0, "matmul_naive")
    assert naive.display_name.startswith("__main__::matmul_naive[abi:v1,cw51cXTLSUwv1sDUaKthq")
    assert naive.display_name.endswith("Array<float, (int)2, C, mutable, aligned>)")
    assert (naive.grid, naive.block) == ((32, 32, 1), (16, 16, 1))
    assert (naive.device_id, naive.device_name, naive.cc) == (0, "NVIDIA H200", "9.0")


def test_naive_exact_values_in_base_units(naive) -> None:
    m = naive.metric
    assert m("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 8_388_608
    assert m("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 16_777_216
    assert m("gpu__time_duration.sum") == 219_136  # ns
    assert m("dram__bytes_read.sum") == 2_104_064  # byte
    assert m("dram__bytes_write.sum") == 0
    assert m("gpc__cycles_elapsed.max") == 433_757
    assert m("launch__occupancy_limit_registers") == 8
    assert m("launch__registers_per_thread") == 28
    sm_pct = m("sm__throughput.avg.pct_of_peak_sustained_elapsed")
    assert sm_pct == pytest.approx(67.168014, abs=5e-7)
    assert m("dram__bytes.sum.per_second") == pytest.approx(9.601636e9, rel=1e-7)


def test_every_numeric_metric_is_kept(naive) -> None:
    assert len(naive.metrics) > 2000
    assert KNOWN_METRICS - set(naive.metrics) == {"dram__bytes.sum"}  # not in this capture
    assert naive.metric("smsp__sass_inst_executed_op_shared_ld.sum") == 0
    assert naive.metric("lts__t_sectors_srcunit_tex_op_read.sum") == 1_686_206


def test_metrics_without_a_value_are_absent(naive) -> None:
    """ncu_report answers 0 for these; the raw page prints them empty or 'no data'."""
    for name in ("SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_elapsed",
                 "sass__inst_executed_register_spilling_mem_local",
                 "device__attribute_display_name"):
        assert name not in naive.metrics


def test_by_default_only_the_metrics_the_views_use_are_read_and_the_report_says_so(naive
                                                                                  ) -> None:
    report = ncu_rep.read(NAIVE)
    [kernel] = report.kernels
    assert kernel.metrics == {k: v for k, v in naive.metrics.items() if k in KNOWN_METRICS}
    assert (kernel.grid, kernel.device_id, kernel.device_name, kernel.cc) == (
        naive.grid, naive.device_id, naive.device_name, naive.cc)
    assert report.partial and not ncu_rep.read(NAIVE, names=None).partial
    # Not read yet, against not in the report: both have no value, only one can be asked for.
    unread, absent = "smsp__inst_executed.sum", "dram__bytes.sum"
    assert naive.metric(unread) is not None and unread not in KNOWN_METRICS
    assert (kernel.metric(unread), kernel.was_read(unread)) == (None, False)
    assert (kernel.metric(absent), kernel.was_read(absent)) == (None, True)
    assert kernel.unread([absent, unread]) == [unread]


def test_more_metrics_are_read_later_in_a_child(naive) -> None:
    report = ncu_rep.read(NAIVE)
    wanted = ["smsp__inst_executed.sum", "sm__cycles_elapsed.sum", "made_up__metric.sum"]
    seen: list[str] = []
    found = read_metrics(report, [0], wanted, Job(lambda f, m: seen.append(m)))
    assert seen == ["reading more of numba-naive.ncu-rep", "kernel 1 of 1"]
    assert dict(found[0]) == {n: naive.metrics[n] for n in wanted[:2]}
    report.add_metrics(found, wanted)
    [kernel] = report.kernels
    assert kernel.metric("sm__cycles_elapsed.sum") == naive.metric("sm__cycles_elapsed.sum")
    assert kernel.was_read("made_up__metric.sum") and kernel.metric("made_up__metric.sum") is None
    assert kernel.metric("gpu__time_duration.sum") == naive.metric("gpu__time_duration.sum")
    assert report.partial
    report.add_metrics(read_metrics(report, [0]), None)
    assert not report.partial
    assert kernel.metrics == naive.metrics
    assert read_metrics(report, [0]) == {}  # nothing left to read


def test_tiled() -> None:
    [k] = ncu_rep.read(TILED).kernels
    assert k.name == "matmul_tiled"
    assert k.metric("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 524_288
    assert k.metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 2_097_152
    assert k.metric("gpu__time_duration.sum") == 47_776
    assert k.metric("smsp__sass_inst_executed_op_shared_ld.sum") == 5_242_880
    assert k.metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") == 6_297_669


@pytest.mark.parametrize(("report", "export"), [
    (NAIVE, H200 / "numba-naive.raw.csv"), (TILED, H200 / "numba-tiled.raw.csv")])
def test_every_metric_agrees_with_the_raw_page(report: Path, export: Path) -> None:
    """Same names, and the same values to the raw page's printed precision (six decimals)."""
    exact = ncu_rep.read(report, names=None).kernels[0].metrics
    raw = raw_csv.read(export).kernels[0].metrics
    assert set(exact) == set(raw)
    with export.open(newline="") as f:
        names, units, values = csv.reader(f)
    shown = {n: (v, u) for n, u, v in zip(names, units, values, strict=True)}
    # The report stores 2,614 %/byte where the raw page prints 2.614 %/Kbyte: ncu's units differ.
    differ = {"derived__pct_occupancy_per_shared_mem_size"}
    for name in set(exact) - differ:
        text, unit = shown[name]
        step = 0.5 * 10.0 ** -len(text.replace(",", "").partition(".")[2]) * unit_scale(unit)[0]
        assert exact[name] == pytest.approx(raw[name], abs=step * 1.000001, rel=1e-12), name


@pytest.fixture(scope="module")
def four_kernels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The naive and tiled result blocks twice each in one report, by the benchmark's builder."""
    spec = importlib.util.spec_from_file_location("make_big_csv",
                                                  ROOT / "benchmarks" / "make_big_csv.py")
    assert spec is not None and spec.loader is not None
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    path = tmp_path_factory.mktemp("reports") / "four.ncu-rep"
    builder.write_big_report(path, 4)
    return path


def test_many_kernels_in_launch_order(four_kernels: Path, naive) -> None:
    kernels = ncu_rep.read(four_kernels, names=None).kernels
    assert [(k.index, k.name) for k in kernels] == [
        (0, "matmul_naive"), (1, "matmul_tiled"), (2, "matmul_naive"), (3, "matmul_tiled")]
    assert kernels[2].metrics == naive.metrics
    assert kernels[3].metric("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 524_288


def test_one_child_per_slice_reads_the_same(four_kernels: Path) -> None:
    seen: list[str] = []
    size = four_kernels.stat().st_size
    sliced = ncu_rep.read(four_kernels, Job(lambda f, m: seen.append(m)), slice_bytes=size // 4,
                          names=None)
    whole = ncu_rep.read(four_kernels, slice_bytes=0, names=None)
    assert [k.metrics for k in sliced.kernels] == [k.metrics for k in whole.kernels]
    assert [k.display_name for k in sliced.kernels] == [k.display_name for k in whole.kernels]
    assert seen[1:] == [f"kernel {i} of 4" for i in range(1, 5)]


def test_progress_per_kernel() -> None:
    seen: list[tuple[float, str]] = []
    ncu_rep.read(NAIVE, Job(lambda f, m: seen.append((f, m))))
    assert seen[0] == (0.0, "opening numba-naive.ncu-rep")
    assert seen[-1] == (1.0, "kernel 1 of 1")


@pytest.fixture
def children(monkeypatch: pytest.MonkeyPatch) -> list[_child.Child]:
    """Every child the reader starts, kept to look at after the read."""
    started: list[_child.Child] = []

    class Kept(_child.Child):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            started.append(self)

    monkeypatch.setattr(ncu_rep, "Child", Kept)
    return started


def gone(pid: int) -> bool:
    """Whether process `pid` has ended (reaped, or a zombie that nobody reaps)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def test_a_job_cancelled_before_the_read_starts_no_child(children) -> None:
    job = Job()
    job.cancel()
    with pytest.raises(Cancelled):
        ncu_rep.read(NAIVE, job)
    assert children == []


def test_cancel_kills_the_child_in_the_middle_of_its_read(four_kernels: Path, children) -> None:
    """Cancelled on the first kernel the child sent, while it still decodes three more (every
    metric, one child for all): the child is killed, not left to finish, and reaped."""
    job = Job(lambda f, m: job.cancel() if m == "kernel 1 of 4" else None)
    with pytest.raises(Cancelled):
        ncu_rep.read(four_kernels, job, names=None, slice_bytes=0)
    [child] = children
    assert child.process.returncode == -signal.SIGKILL
    assert gone(child.pid)


def test_a_file_rewritten_between_slices_is_refused(four_kernels: Path, tmp_path: Path) -> None:
    """ncu writing the same file in place while a child per kernel reads it: never spliced,
    even when the new file holds the same bytes (a new modification time)."""
    path = tmp_path / "busy.ncu-rep"
    data = four_kernels.read_bytes()
    path.write_bytes(data)

    def rewrite(message: str) -> None:
        if message == "kernel 2 of 4":
            path.write_bytes(data)
            stat = path.stat()
            os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))

    with pytest.raises(ReportError, match=r"busy\.ncu-rep: was rewritten while it was being"
                       r" read \(its modification time"):
        ncu_rep.read(path, Job(lambda f, m: rewrite(m)), slice_bytes=len(data) // 4)


def test_a_file_replaced_between_slices_is_read_whole_from_the_one_opened(
        four_kernels: Path, tmp_path: Path) -> None:
    """Another file put at the path while a child per kernel reads it (ncu writing a new report
    and renaming it into place): every child reads the file that was opened, so the report is
    that file's, whole; reading more of it later is refused, the path now naming another."""
    path = tmp_path / "busy.ncu-rep"
    data = four_kernels.read_bytes()
    path.write_bytes(data)
    other = NAIVE.read_bytes()

    def replace(message: str) -> None:
        if message == "kernel 2 of 4":
            (tmp_path / "new").write_bytes(other)
            os.replace(tmp_path / "new", path)

    report = ncu_rep.read(path, Job(lambda f, m: replace(m)), slice_bytes=len(data) // 4)
    assert len(report.kernels) == 4
    with pytest.raises(ReportError, match=r"busy\.ncu-rep: was rewritten since it was opened"
                       r" \(its inode"):
        read_metrics(report, [0], ["smsp__inst_executed.sum"])


def test_more_of_a_file_rewritten_since_it_was_opened_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "naive.ncu-rep"
    path.write_bytes(NAIVE.read_bytes())
    report = ncu_rep.read(path)
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    with pytest.raises(ReportError, match="was rewritten since it was opened"):
        read_metrics(report, [0], ["smsp__inst_executed.sum"])


@pytest.mark.parametrize(("raised", "said"), [
    (MemoryError(), "busy.ncu-rep: not enough memory to read more of it"),
    (ValueError("bad slice"), "busy.ncu-rep: cannot be read (ValueError: bad slice)"),
    (ReportError("busy.ncu-rep", "was rewritten"), "busy.ncu-rep: was rewritten"),
])
def test_reading_more_fails_in_one_line_naming_the_file(raised: Exception, said: str) -> None:
    with pytest.raises(ReportError) as caught, ncu_rep.read_again_errors("busy.ncu-rep"):
        raise raised
    assert str(caught.value) == said


def test_reading_more_lets_a_cancel_through() -> None:
    with pytest.raises(Cancelled), ncu_rep.read_again_errors("busy.ncu-rep"):
        raise Cancelled()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's parent-death signal")
def test_the_child_dies_with_its_parent(tmp_path: Path) -> None:
    """The child blocks opening a named pipe (past its start-up: the parent, which never opens
    a pipe itself, is made to name one to its child); its parent is killed with SIGKILL, which
    leaves no chance to clean up: the child must end too."""
    fifo = tmp_path / "never-written.ncu-rep"
    os.mkfifo(fifo)
    parent = subprocess.Popen(
        [sys.executable, "-c", "import contextlib, sys;"
         " from viewer.readers import ncu_rep, ncu_rep_file;"
         " ncu_rep_file.child_name = contextlib.contextmanager(lambda plain: iter([sys.argv[1]]));"
         " ncu_rep.read(sys.argv[2])", str(fifo), str(NAIVE)], cwd=ROOT)
    child = None
    try:
        child = blocked_child(parent.pid)
        parent.kill()
        parent.wait()
        assert wait_for(lambda: gone(child))
    finally:
        parent.kill()
        parent.wait()
        if child is not None and not gone(child):
            os.kill(child, signal.SIGKILL)


def blocked_child(parent: int) -> int:
    """The reader's child of `parent`, once it waits to open the named pipe."""
    found: list[int] = []

    def waiting() -> bool:
        for entry in Path("/proc").iterdir():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                cmdline = (entry / "cmdline").read_bytes()
                wchan = (entry / "wchan").read_text()
            except (OSError, IndexError):
                continue
            if int(stat[1]) == parent and b"ncu_rep_child" in cmdline and wchan in (
                    "wait_for_partner", "fifo_open"):
                found.append(int(entry.name))
                return True
        return False

    assert wait_for(waiting, timeout=30), "the reader's child never waited on the named pipe"
    return found[0]


ENDLESS_LINE = "import sys\nfor _ in range(1024): sys.stdout.buffer.write(b'x' * (1 << 20))"
ENDLESS_STDERR = "import sys\nfor _ in range(1024): sys.stderr.buffer.write(b'e' * (1 << 20))"


@pytest.mark.parametrize(("program", "reason", "most"), [
    (ENDLESS_LINE, "the .ncu-rep reader sent a line longer than 32 MiB", 2 * _child.MAX_LINE_BYTES),
    (ENDLESS_STDERR, "the .ncu-rep reader wrote more than 16 MiB of diagnostics", 4 << 20),
], ids=["a 1 GiB line", "1 GiB of stderr"])
def test_a_child_flooding_its_output_is_refused_in_bounded_memory(
        monkeypatch: pytest.MonkeyPatch, children, program: str, reason: str, most: int) -> None:
    monkeypatch.setattr(ncu_rep, "CHILD", ("-c", program))
    tracemalloc.start()
    try:
        with pytest.raises(ReportError) as caught:
            ncu_rep.read(NAIVE)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(caught.value) == f"{NAIVE}: {reason}"
    assert peak < most
    assert children[0].process.returncode == -signal.SIGKILL


def test_wall_time_limit() -> None:
    with pytest.raises(ReportError, match=r"numba-naive\.ncu-rep: reading took longer than"):
        ncu_rep.read(NAIVE, timeout_s=0.05)


def test_memory_limit() -> None:
    """16 MiB of address space cannot even hold ncu_report's libraries."""
    with pytest.raises(ReportError) as caught:
        ncu_rep.read(NAIVE, memory_limit=16 << 20)
    message = str(caught.value)
    assert message.startswith(f"{NAIVE}: ")
    assert "memory" in message
    assert "\n" not in message


def test_not_a_report(tmp_path: Path) -> None:
    with pytest.raises(ReportError, match="does not start with NVR"):
        ncu_rep.read(H200 / "numba-naive.details.csv")
    with pytest.raises(ReportError, match="directory"):
        ncu_rep.read(tmp_path)


def test_cut_in_half(tmp_path: Path) -> None:
    data = NAIVE.read_bytes()
    path = tmp_path / "half.ncu-rep"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ReportError, match="kernel #0 has no name: the report looks truncated"):
        ncu_rep.read(path)


def test_random_bytes_with_the_magic(tmp_path: Path) -> None:
    path = tmp_path / "noise.ncu-rep"
    path.write_bytes(b"NVR\0" + os.urandom(100_000))
    with pytest.raises(ReportError, match="no kernel found: the report looks truncated or corrupt"):
        ncu_rep.read(path)
