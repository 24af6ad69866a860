"""The shipped timing record against benchmarks/README.md, which it is written from: every row of
the section it names, value for value, so the two cannot drift; and the words the timing tab says
of it, a missing value shown as missing."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from viewer.analysis import timing_record as t
from viewer.core.formatting import MISSING
from viewer.core.shipped import timing_record

README = Path(__file__).resolve().parents[2] / "benchmarks" / "README.md"


def section(title: str) -> str:
    """The README's text under `## title` or `### title`, up to the next heading."""
    text = README.read_text(encoding="utf-8")
    match = re.search(rf"^#+ {re.escape(title)}\n(.*?)(?=^#+ )", text, re.S | re.M)
    assert match, f"benchmarks/README.md has no section {title!r}"
    return match.group(1)


def table_rows(text: str) -> list[list[str]]:
    """The first markdown table in `text`, without its header and rule."""
    lines = [line for line in text.splitlines() if line.startswith("|")]
    first = text.splitlines().index(lines[0])
    rows = []
    for line in text.splitlines()[first:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows[2:]


def number(cell: str) -> float:
    return float(cell.replace(",", "").rstrip("x"))


@pytest.fixture(scope="module")
def record() -> t.TimingRecord:
    return t.load_record()


def test_the_record_names_the_readme_section_it_comes_from(record) -> None:
    assert record.source == "benchmarks/README.md"
    assert record.section == "Results, 2026-11-29"
    assert record.date == "2026-11-29" and record.gpu == "NVIDIA H200"
    heading = section(record.section)
    assert heading.startswith(f"\n{record.gpu} ({record.gpu_detail}), driver {record.driver}, "
                              f"CUDA {record.cuda}")
    assert Path(README.parent.parent, record.script).is_file()
    assert record.command in README.read_text(encoding="utf-8")


def test_every_row_is_the_readmes_value_for_value(record) -> None:
    rows = table_rows(section(record.section))
    assert len(rows) == len(record.rows) == 20
    for cells, row in zip(rows, record.rows, strict=True):
        size, implementation, ms, gflops, vs, error = cells
        assert (int(size), implementation) == (row.dim, row.implementation)
        assert number(ms) == row.ms
        assert number(gflops) == row.gflops
        ratio, _, against = vs.partition(" of ")
        assert number(ratio) == row.vs_twin and against == row.vs
        assert float(error) == row.rel_error


def test_the_launch_calls_host_time_is_the_dispatch_tables(record) -> None:
    rows = table_rows(section("Dispatch, measured separately (ms)"))
    assert len(rows) == 8
    for size, kernel, host, *_ in rows:
        row = record.kernel(int(size), kernel)
        assert row is not None and row.dispatch_ms == float(host), (size, kernel)
    assert all(r.dispatch_ms is None for r in record.rows if r.kernel is None)


def test_the_record_ships_in_the_profiles_package() -> None:
    assert timing_record().name == "timing-h200.toml" and timing_record().is_file()


def test_the_tab_says_what_was_recorded_where_and_how(record) -> None:
    assert t.recorded_heading(record).startswith("Recorded on NVIDIA H200 (132 SMs")
    assert "2026-11-29: not run on this machine." in t.recorded_heading(record)
    said = t.provenance_text(record)
    assert "benchmarks/README.md, section 'Results, 2026-11-29'" in said
    assert "benchmarks/bench_kernels.py, run as `python3 benchmarks/bench_kernels.py" in said
    naive = record.kernel(512, "naive")
    assert t.recorded_cells(naive) == ("numba naive", "0.06140 ms", "4,374", "1.02x", "4.1e-07")
    cublas = record.at(512)[-1]
    assert t.recorded_cells(cublas)[3] == "0.38x of tiled"
    assert t.recorded_ratio_text(record, 512) == "naive / tiled: 1.47x"
    assert t.recorded_dispatch_text(record, 4096) == (
        "Timed without dispatch; numba's launch call took 0.1160 ms (naive) and 0.1596 ms "
        "(tiled) of host time, measured apart.")


def test_a_value_the_record_lacks_is_missing_never_zero(record, tmp_path) -> None:
    bare = t.RecordedRow(dim=512, implementation="numba naive", kernel="naive")
    assert t.recorded_cells(bare) == ("numba naive", MISSING, MISSING, MISSING, MISSING)
    lacking = replace(record, rows=(bare, record.kernel(512, "tiled")))
    assert t.recorded_ratio_text(lacking, 512) == f"naive / tiled: {MISSING}"
    assert f"{MISSING} (naive)" in t.recorded_dispatch_text(lacking, 512)
    assert t.recorded_heading(replace(record, date="")).endswith(f"{MISSING}: not run on this "
                                                                  "machine.")
    assert t.no_record_text(8192, record).startswith("Nothing was recorded at 8192")
    path = tmp_path / "bad.toml"
    path.write_text('[[row]]\ndim = 512\nimplementation = "x"\nms = "fast"\n')
    with pytest.raises(t.RecordError, match="ms must be a number"):
        t.load_record(path)
    assert t.read_record_or_none(tmp_path / "absent.toml") is None
