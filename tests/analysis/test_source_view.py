"""The Source view's plain half on the real reports: rows and their sums, per-thread counts
against the lesson's derivation, sorting, the hottest rows, and naive against tiled."""

from __future__ import annotations

from pathlib import Path

import pytest

from viewer.analysis import predict
from viewer.analysis import source as analysis
from viewer.readers.source import INST_EXECUTED, SAMPLES

ROOT = Path(__file__).parents[2]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
REPORTS = sorted([*H200.glob("*.ncu-rep"), *(ROOT / "profiles").glob("*.ncu-rep")])


@pytest.fixture(scope="module")
def pair(source_of):
    return (source_of(ROOT / "profiles" / "naive.ncu-rep")[0],
            source_of(ROOT / "profiles" / "tiled.ncu-rep")[0])


@pytest.fixture(scope="module")
def sass_only(source_of):
    """The same kernels captured compiled without line info."""
    return (source_of(H200 / "numba-naive.ncu-rep")[0],
            source_of(H200 / "numba-tiled.ncu-rep")[0])


@pytest.fixture(scope="module")
def every(source_of):
    return {rep: source_of(rep) for rep in REPORTS}


def test_a_sass_row_per_instruction_with_its_counters(pair):
    naive, _ = pair
    t = analysis.table(naive)
    assert len(t.sass) == len(naive.instructions)
    for row, i in zip(t.sass, naive.instructions, strict=True):
        assert row.value(INST_EXECUTED) == i.value(INST_EXECUTED)
        assert row.value(analysis.GLOBAL_LOADS) == i.global_loads


def test_lines_are_the_sums_of_their_instructions(every):
    lined = [k for kernels in every.values() for k in kernels if k.has_line_info]
    if not lined:
        pytest.skip("no report here was compiled with line info yet")
    for kernel in lined:
        t = analysis.table(kernel)
        for column in analysis.COLUMNS:
            total = sum(r.value(column) or 0 for r in t.lines)
            assert total == sum(r.value(column) or 0 for r in t.sass if r.line is not None)


def test_without_line_info_there_are_no_lines_and_it_is_said(pair, sass_only):
    t = analysis.table(sass_only[0])
    assert not t.lines and any("line info" in n for n in t.notes)
    shipped = analysis.table(pair[0])
    assert shipped.lines and not any("line info" in n for n in shipped.notes)


def test_a_counter_the_report_lacks_is_missing_never_zero(every):
    basic = every[H200 / "workloads-kernels-and-graph.ncu-rep"]
    for kernel in basic:
        t = analysis.table(kernel)
        assert all(r.value(c) is None for r in t.sass for c in analysis.COLUMNS)
        assert all(r.per_thread() is None for r in t.sass)
        assert "no executed counts" in t.per_thread_note


def test_per_thread_loads_are_the_lessons_derivation(pair):
    naive, tiled = pair
    c = analysis.compare(naive, tiled)
    dim = analysis.square_dim(naive)
    assert dim is not None and c.prediction == predict.derive(dim)
    assert c.naive_global_per_thread == c.prediction.naive.global_loads_per_thread
    assert c.tiled_global_per_thread == c.prediction.tiled.global_loads_per_thread
    assert "derived__avg_thread_executed" in analysis.per_thread_note(naive)


def test_a_kernel_off_the_lessons_layout_gets_no_lesson_claim(pair, source_of):
    """matmul_naive with threadIdx.x over rows: the lesson's name, launch and loads per thread,
    but 8.5 sectors per request (ncu's own l1tex counts say so too), so its figures stand
    alone; the tiled kernel beside it is still the lesson's."""
    from viewer.analysis import memory_traffic
    from viewer.readers import read_report

    rows = H200 / "layout-naive-rows.ncu-rep"
    chart = memory_traffic.memory_chart(read_report(rows).kernels[0])
    assert chart.sectors_per_request == 8.5
    naive, tiled = source_of(rows)[0], pair[1]
    c = analysis.compare(naive, tiled)
    assert c.naive_global_per_thread == predict.derive(512).naive.global_loads_per_thread
    assert c.lesson("naive") is None and c.lesson("tiled") == predict.derive(512).tiled
    said = c.sentences
    assert said[0] == ("The naive kernel's global loads: 1,024 per thread, issued from 1 source"
                       " line.")
    assert "as the lesson derives" in said[1]
    gap = next(s for s in said if s.startswith("matmul_naive does not run at the lesson's"))
    assert "8,388,608 global load requests at 8.50 sectors per request" in gap
    assert "the lesson derives 8,388,608 at 2.00 for 512 x 512 on 16 x 16 tiles" in gap
    shipped = analysis.compare(*pair)
    assert shipped.lesson("naive") == shipped.prediction.naive
    assert not any("not run at the lesson's layout" in s for s in shipped.sentences)


def test_kernels_not_named_as_the_lessons_roles_get_no_lesson_claim(pair):
    """The pair picked tiled first: neither is in the lesson's role, so neither is called the
    naive or the tiled kernel, or set beside the lesson's counts."""
    c = analysis.compare(pair[1], pair[0])
    assert c.lesson("naive") is None and c.lesson("tiled") is None
    said = " ".join(c.sentences)
    assert "as the lesson derives" not in said and "the lesson's 1,024" not in said
    assert said.startswith("matmul_tiled's global loads: 64 per thread")
    assert "matmul_tiled is not the lesson's naive kernel (the app's matmul_naive)" in said


def test_the_tiled_shared_loads_are_explained_by_their_vector_widths(pair):
    naive, tiled = pair
    c = analysis.compare(naive, tiled)
    vector = [i.opcode for i in tiled.instructions if i.is_shared_load and i.width_bits > 32]
    assert vector, "the tiled SASS has a vector shared load"
    words = sum(g.per_thread * g.words for g in c.tiled_shared_groups)
    assert c.prediction is not None and words == c.prediction.tiled.shared_loads_per_thread
    assert c.tiled_shared_per_thread == sum(g.per_thread for g in c.tiled_shared_groups)
    text = " ".join(c.sentences)
    assert all(op in text for op in set(vector))
    assert f"{c.tiled_shared_per_thread:,.0f} per thread" in text


@pytest.mark.parametrize("lines", [True, False], ids=["source lines", "sass only"])
def test_the_load_rows_line_up_side_by_side(pair, sass_only, lines):
    naive, tiled = pair if lines else sass_only
    c = analysis.compare(naive, tiled)
    assert all(r.value(analysis.GLOBAL_LOADS) for r in c.naive_global + c.tiled_global)
    assert all(r.value(analysis.SHARED_LOADS) for r in c.tiled_shared)
    executed = sum(i.global_loads or 0 for i in naive.instructions)
    assert sum(r.value(analysis.GLOBAL_LOADS) for r in c.naive_global) == executed
    if lines:  # each row a line of the kernel's Python source
        assert all(r.line is not None and r.address is None for r in c.naive_global)
        assert all(r.file.endswith("matmul.py") for r in c.naive_global + c.tiled_shared)
    else:  # each row an instruction
        assert all("LDG" in r.text for r in c.naive_global if r.text)
        assert len(c.naive_global) == sum(i.is_global_load and bool(i.value(INST_EXECUTED))
                                          for i in naive.instructions)


def test_sorting_by_any_column_puts_missing_values_last(every, pair):
    naive, _ = pair
    rows = analysis.table(naive).sass
    for column in analysis.COLUMNS:
        ordered = [r.value(column) for r in analysis.sort_rows(rows, column)]
        assert ordered == sorted(ordered, reverse=True)
        rising = [r.value(column) for r in analysis.sort_rows(rows, column, descending=False)]
        assert rising == sorted(rising)
    basic = analysis.table(every[H200 / "workloads-ranges.ncu-rep"][0]).sass
    assert len(analysis.sort_rows(basic, SAMPLES)) == len(basic)


def test_the_hottest_rows_hold_the_most_samples(pair):
    naive, _ = pair
    rows = analysis.table(naive).sass
    top = analysis.hottest(rows, 3)
    assert len(top) == 3
    assert top[0].value(SAMPLES) == max(r.value(SAMPLES) or 0 for r in rows)


def test_the_compare_sentences_count_lines_in_words(source_of) -> None:
    h200 = ROOT / "tests" / "data" / "corpus" / "h200"
    naive, tiled = (source_of(h200 / f"numba-{k}-lineinfo.ncu-rep")[0]
                    for k in ("naive", "tiled"))
    said = " ".join(analysis.compare(naive, tiled).sentences)
    assert "from 1 source line." in said and "from 1 source lines" not in said
    assert "issued from 8 source lines." in said


def _ncus_lines(page: Path) -> dict[int, tuple[str, dict[str, float | None]]]:
    """Each source line of ncu's `--page source --csv --print-source cuda,sass` export: its
    text and its counters (None where ncu prints '-')."""
    import csv

    rows = list(csv.reader(page.read_text(encoding="utf-8").splitlines()))
    header = next(r for r in rows if r and r[0] == "Line No")
    at = {name: header.index(name) for name in
          ("# Samples", "Instructions Executed", "L2 Theoretical Sectors Global")}
    lines = {}
    for row in rows[rows.index(header) + 1:]:
        if row and row[0].isdigit():
            values = {key: None if row[i] in ("-", "") else float(row[i].replace(",", ""))
                      for key, i in (("samples", at["# Samples"]),
                                     (INST_EXECUTED, at["Instructions Executed"]),
                                     ("l2", at["L2 Theoretical Sectors Global"]))}
            lines[int(row[0])] = (row[1], values)
    return lines


@pytest.mark.parametrize("kernel", ["naive", "tiled"])
def test_each_line_equals_ncus_source_page_of_the_lines(source_of, kernel):
    """The Python lines of the line-info capture, per line, as ncu's own source page prints
    them with `--print-source cuda,sass`: the text, the warp instructions executed, the stall
    samples and the L2 theoretical sectors."""
    from viewer.readers.source import L2_SECTORS

    stem = f"numba-{kernel}-lineinfo"
    ncus = _ncus_lines(H200 / f"{stem}.source-cuda-sass.csv")
    ours = analysis.table(source_of(H200 / f"{stem}.ncu-rep")[0]).lines
    assert ours and {r.line for r in ours} == {n for n, (_, v) in ncus.items()
                                               if v[INST_EXECUTED] is not None}
    for row in ours:
        text, values = ncus[row.line]
        assert (row.text or "").strip() == text.strip(), row.line
        assert row.value(INST_EXECUTED) == values[INST_EXECUTED], row.line
        assert row.value(SAMPLES) == values["samples"], row.line
        assert row.value(L2_SECTORS) == values["l2"], row.line
