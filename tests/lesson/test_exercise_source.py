"""Question 2 at its lines of code, on the real reports: the shipped pair (line info), the same
kernels captured without it (SASS only), and a basic capture (no source counters)."""

from __future__ import annotations

from pathlib import Path

import pytest

from viewer.analysis import source as analysis
from viewer.lesson.exercise_source import NO_LINE_INFO, load_lines
from viewer.readers.source import read_source

ROOT = Path(__file__).parents[2]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
KERNELS = ROOT / "viewer" / "kernels" / "matmul.py"


def pair(naive: Path, tiled: Path):
    return read_source(naive)[0], read_source(tiled)[0]


@pytest.fixture(scope="module")
def shipped():
    return pair(ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep")


def test_the_lines_that_issue_each_kernels_loads_with_their_counts(shipped) -> None:
    found = load_lines(*shipped, ("naive", "tiled"))
    assert found is not None
    c = analysis.compare(*shipped)
    for rows in (c.naive_global, c.tiled_global, c.tiled_shared):  # every load line is named
        assert all(str(r.line) in found.text and (r.text or "").strip() in found.text
                   for r in rows[:1] + rows[-1:])
    assert "naive's global loads (1,024 per thread) come from lines 75-82" in found.text
    assert "tiled's global loads (64 per thread) from lines 112" in found.text
    assert "its shared loads (640 per thread) from line 122 (`acc += sa[ty, q] * sb[q, tx]`)" \
        in found.text


def test_the_line_to_show_is_the_tiled_kernels_shared_load_line(shipped) -> None:
    found = load_lines(*shipped, ("naive", "tiled"))
    assert found is not None and found.row is not None
    file, _, line = found.row.rpartition(":")
    assert file.endswith("viewer/kernels/matmul.py") and found.place == f"matmul.py:{line}"
    # the report's own text of that line is this checkout's kernel source
    source_line = KERNELS.read_text().splitlines()[int(line) - 1]
    assert "sa[ty, q] * sb[q, tx]" in source_line and source_line.strip() in found.text


def test_without_line_info_the_loads_are_instructions_and_it_is_said() -> None:
    naive, tiled = pair(H200 / "numba-naive.ncu-rep", H200 / "numba-tiled.ncu-rep")
    found = load_lines(naive, tiled, ("naive", "tiled"))
    assert found is not None and found.text == NO_LINE_INFO
    shared = [i for i in tiled.instructions if i.is_shared_load and i.shared_loads]
    assert found.row in {f"0x{i.address:x}" for i in shared}


def test_a_basic_capture_says_nothing() -> None:
    kernels = read_source(H200 / "workloads-kernels-and-graph.ncu-rep")
    assert load_lines(kernels[0], kernels[1], ("a", "b")) is None


def test_predicts_requests_are_the_global_load_lines_one_request_each(shipped) -> None:
    from viewer.lesson.exercise_source import request_lines

    requests = (8_388_608.0, 524_288.0)  # the shipped pair's requests rows, as ncu prints them
    found = request_lines(*shipped, ("naive", "tiled"), requests)
    assert found is not None and found.place == "matmul.py:75"
    assert "naive's 8,388,608 requests are its warp-level global load instructions, one " \
        "request each, issued from lines 75-82" in found.text
    assert "tiled's 524,288 requests" in found.text and "112" in found.text and "116" in found.text
    apart = request_lines(*shipped, ("naive", "tiled"), (None, 1.0))
    assert apart is not None and "requests are" not in apart.text  # said only where they agree
    naive, tiled = pair(H200 / "numba-naive.ncu-rep", H200 / "numba-tiled.ncu-rep")
    assert request_lines(naive, tiled, ("naive", "tiled"), requests) is None  # no line info
