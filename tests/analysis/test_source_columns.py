"""The Source view's columns as plain data, on the real reports: each row's place, the
projector's short titles and indents, sorting by a column, and the SASS grouped under its lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from viewer.analysis import source as analysis
from viewer.analysis.source_columns import (
    COLUMNS,
    PROJECTOR_HIDDEN,
    PROJECTOR_OPTIONAL,
    compact_text,
    compact_title,
    first_address,
    line_groups,
    place_text,
    reasons_text,
    sorted_rows,
)
from viewer.readers.source import read_source

ROOT = Path(__file__).parents[2]
LINES = ROOT / "profiles" / "naive.ncu-rep"
SASS_ONLY = ROOT / "tests" / "data" / "corpus" / "h200" / "numba-naive.ncu-rep"


@pytest.fixture(scope="module")
def with_lines() -> analysis.SourceTable:
    return analysis.table(read_source(LINES)[0])


@pytest.fixture(scope="module")
def sass_only() -> analysis.SourceTable:
    return analysis.table(read_source(SASS_ONLY)[0])


def test_the_projector_titles_break_a_word_a_line() -> None:
    assert compact_title("global loads / thread") == "global\nloads\n/ thread"
    assert compact_title("Stall samples") == "Stall\nsamples"
    assert compact_title("Line") == "Line"


def test_the_projector_halves_each_indent() -> None:
    assert compact_text("        x = a[i]") == "    x = a[i]"
    assert compact_text("x") == "x"


def test_what_the_projector_leaves_out_are_columns() -> None:
    titles = {c.title for c in COLUMNS}
    assert set(PROJECTOR_HIDDEN) <= titles and set(PROJECTOR_OPTIONAL) <= titles
    assert "Source" not in PROJECTOR_HIDDEN + PROJECTOR_OPTIONAL


def test_a_line_is_placed_by_its_files_name_an_instruction_by_its_address(with_lines) -> None:
    line, instruction = with_lines.lines[0], with_lines.sass[0]
    assert place_text(line) == f"{Path(line.file or '').name}:{line.line}"
    assert instruction.address is not None
    assert place_text(instruction) == f"{instruction.address:x}"


def test_the_sass_groups_under_its_lines(with_lines) -> None:
    tops, children = line_groups(with_lines)
    assert tops == list(with_lines.lines)
    assert sum(len(c) for c in children) == len(with_lines.sass)
    for top, under in zip(tops, children, strict=True):
        assert all((r.file, r.line) == (top.file, top.line) for r in under)


def test_without_lines_the_sass_stands_alone(sass_only) -> None:
    tops, children = line_groups(sass_only)
    assert tops == list(sass_only.sass) and not any(children)
    assert line_groups(None) == ([], [])


def test_offsets_count_from_the_first_instruction(with_lines) -> None:
    assert first_address(with_lines) == min(r.address for r in with_lines.sass
                                            if r.address is not None)
    assert first_address(None) == 0


def test_sorting_a_column_puts_missing_values_last(with_lines) -> None:
    rows = list(with_lines.sass)
    for number, column in enumerate(COLUMNS):
        ordered = sorted_rows(rows, number, descending=True)
        assert sorted(map(id, ordered)) == sorted(map(id, rows))
        if column.numeric:
            keys = [column.key(r) for r in ordered]
            present = [k for k in keys if k is not None]
            assert keys[:len(present)] == present and present == sorted(present, reverse=True)


def test_the_top_stall_reasons_name_ncus_chart(with_lines) -> None:
    sampled = [r for r in with_lines.lines if analysis.stall_reasons(r)]
    assert sampled
    for row in sampled:
        text = reasons_text(row, 1)
        assert text and ", " not in text and "Stall " not in text and "smsp__" not in text
    assert all(reasons_text(r) == "" for r in with_lines.lines if r not in sampled)
