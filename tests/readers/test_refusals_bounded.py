"""Any damaged or hostile file, up to 4 GiB, as `python -m viewer summary --json` meets it: either a
refusal (exit 1, one line on stderr naming the file, no traceback) or the file's kernels, and
either way under REFUSE_CPU_S of CPU time and REFUSE_MIB of memory where it is refused; a file
this test cut where its format shows a cut (inside a line, inside a .ncu-rep's block) is never
shown without `cut_short` saying so.

Each input is one of the shipped reports or exports (every format) with one damage drawn by
Hypothesis: cut at any byte, blank lines, a huge line, a huge row, a hole of zeros to 4 GiB (a
sparse file), NUL and control bytes, gzip members, gzip layers. Replayable: `derandomize`. Each
run is forked from one Python that imported what a refusal imports (tests/costs.py's WarmViewer:
the same process as a cold run from the import on, its start counted in its CPU time and memory);
tests/readers/test_hostile_files.py starts the command cold.
"""

from __future__ import annotations

import gzip
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.costs import WarmViewer
from tests.readers.test_hostile_files import REFUSE_CPU_S, REFUSE_MIB

ROOT = Path(__file__).resolve().parents[2]
PROFILES = ROOT / "profiles"
SOURCES = (PROFILES / "naive.ncu-rep", PROFILES / "naive.details.csv",
           PROFILES / "naive.raw.csv", PROFILES / "naive.details.txt",
           ROOT / "tests" / "data" / "corpus" / "h200" / "numba-naive.raw.txt",
           PROFILES / "t4-reference.toml")
GIB = 1 << 30
DAMAGES = ("cut", "blank lines", "huge line", "huge row", "hole to 4 GiB", "control bytes",
           "gzip members", "gzip layers")
BOUNDED = settings(max_examples=40, deadline=None, derandomize=True,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def many(most: int) -> st.SearchStrategy[int]:
    """A count, as often the largest as a small one: what costs most is what is tried."""
    return st.one_of(st.sampled_from([most, most // 2]), st.integers(1, most))


@st.composite
def hostile(draw: st.DrawFn, how: str) -> tuple[str, bytes, int, bool]:
    """(damage `how`, the file's bytes, the size of the hole after them, whether a cut shows)."""
    source = draw(st.sampled_from(SOURCES))
    data = source.read_bytes()
    at = draw(st.integers(0, len(data)))
    if how == "cut":
        out = data[:at]
        if source.suffix == ".ncu-rep":  # its session's blocks come last: any cut shows
            return how, out, 0, 0 < at < len(data)
        return how, out, 0, source.suffix != ".toml" and bool(out) and not out.endswith(b"\n")
    if how == "blank lines":
        return how, data[:at] + b"\n" * draw(many(300_000)) + data[at:], 0, False
    if how == "huge line":
        return how, data[:at] + b"x" * draw(many(24 << 20)) + data[at:], 0, False
    if how == "huge row":
        return how, data[:at] + b',"1"' * draw(many(200_000)) + data[at:], 0, False
    if how == "hole to 4 GiB":
        return how, data[:at], draw(st.sampled_from([1 << 20, GIB, 4 * GIB - at - 1])), False
    if how == "control bytes":
        junk = bytes(draw(st.lists(st.sampled_from(b"\x00\x1b\x07\x08\x7f\xff"), min_size=1,
                                   max_size=64)))
        return how, data[:at] + junk + data[at:], 0, False
    if how == "gzip members":
        empty = gzip.compress(b"", mtime=0)
        return how, empty * draw(many(80_000)) + gzip.compress(data, mtime=0), 0, False
    layers = draw(st.one_of(st.sampled_from([8, 5]), st.integers(1, 8)))
    for _ in range(layers):
        data = gzip.compress(data, compresslevel=1, mtime=0)
    return how, data, 0, False


@pytest.fixture(scope="module")
def viewer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WarmViewer]:
    """The terminal command, forked from one Python that imported the app (tests/costs.py)."""
    warm = WarmViewer(tmp_path_factory.mktemp("warm-viewer"))
    yield warm
    warm.close()


@pytest.mark.slow
@pytest.mark.parametrize("how", DAMAGES)
@BOUNDED
@given(data=st.data())
def test_any_damaged_file_is_read_or_refused_in_bounded_cost(viewer: WarmViewer, how: str,
                                                             data: st.DataObject) -> None:
    _, content, hole, cut_shows = data.draw(hostile(how))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "damaged-report"
        with path.open("wb") as f:
            f.write(content)
            if hole:
                f.truncate(len(content) + hole)
        cost = viewer.run("summary", "--json", str(path), timeout_s=300)
    assert "Traceback" not in cost.stderr, cost.stderr
    if cost.status != 0:
        lines = cost.stderr.strip().splitlines()
        assert cost.status == 1 and len(lines) == 1, (how, cost.stderr)
        assert lines[0].startswith(f"error: {path}: "), (how, lines)
        assert cost.cpu_s < REFUSE_CPU_S, f"{how}: {cost.cpu_s:.2f} s of CPU to refuse"
        assert cost.peak_mib < REFUSE_MIB, f"{how}: {cost.peak_mib:.0f} MiB to refuse"
        return
    (doc,) = (json.loads(line) for line in cost.stdout.splitlines())
    assert doc["kernels"], how
    if cut_shows:
        assert doc["cut_short"], f"{how}: a file cut inside a line is shown as whole"
