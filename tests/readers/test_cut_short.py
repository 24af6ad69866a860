"""Exports cut short at a line boundary, with their kernel headers lost, or rewritten while they
are read: each cut made here from a real file, never shown as whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from viewer.core.model import Report, ReportError
from viewer.readers import _text_lines, details_csv, details_text, read_report

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"
H200 = CORPUS / "h200"
PUBLIC = CORPUS / "ncu-public"
PROFILES = Path(__file__).resolve().parents[2] / "profiles"
MM3 = PUBLIC / "new-2025-details-3mm-multikernel-cc86.txt"
DETAILS_CSVS = [*sorted(H200.glob("numba-*.details.csv")),
                PUBLIC / "old-spelling-2020-csv-sm-pct-memory-pct-v100-hotspot.csv",
                PUBLIC / "new-2025-csv-details-with-rule-columns-base-units-copy-blocked.csv"]
WHOLE = [p for p in [*sorted(H200.glob("*.details.*")), *sorted(H200.glob("*.raw.*")),
                     *sorted(PUBLIC.glob("*.txt")), *sorted(PUBLIC.glob("*.csv")),
                     *sorted(PROFILES.glob("*.csv")), *sorted(PROFILES.glob("*.txt"))]
         if "ranges" not in p.name]


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8-sig").splitlines(keepends=True)


def cut_at(tmp_path: Path, source: Path, keep: list[str]) -> Path:
    """The first lines `keep` of `source`, written under its name in `tmp_path`."""
    cut = tmp_path / source.name
    cut.write_text("".join(keep), encoding="utf-8")
    return cut


def said(report: Report) -> None:
    assert report.cut_short, "a cut file read as whole"
    assert [n for n in report.notes if "cut short" in n] == [
        _text_lines.cut_short(why) for why in report.cut_short]


@pytest.mark.parametrize("source", WHOLE, ids=lambda p: p.name)
def test_a_whole_export_is_not_said_to_be_cut(source: Path) -> None:
    assert read_report(source).cut_short == []


@pytest.mark.parametrize("source", DETAILS_CSVS, ids=lambda p: p.name)
def test_a_details_csv_cut_at_a_line_boundary_says_cut_short(tmp_path: Path, source: Path
                                                             ) -> None:
    """Before, the half file read as a whole kernel with half its metrics, and no word."""
    whole = lines(source)
    report = read_report(cut_at(tmp_path, source, whole[: len(whole) // 2]))
    said(report)
    assert "before the Occupancy section" in report.cut_short[0]


def test_a_multi_kernel_csv_cut_inside_its_last_kernel_compares_it_with_the_one_before(
        tmp_path: Path) -> None:
    source = H200 / "workloads-kernels-and-graph.details.csv"
    whole = lines(source)
    last = max(i for i, line in enumerate(whole) if line.startswith('"2"'))
    report = read_report(cut_at(tmp_path, source, whole[: last - 3]))
    said(report)
    assert report.cut_short == ["its last kernel stops inside its GPU and Memory Workload"
                                " Distribution section (6 of the 10 metric rows the kernel"
                                " before it has there)"]


def test_a_details_text_cut_between_its_sections_says_cut_short(tmp_path: Path) -> None:
    """Before, a cut after a table's closing rule read as whole: only an open table was told."""
    source = H200 / "numba-naive.details.txt"
    whole = lines(source)
    at = next(i for i, line in enumerate(whole) if line.strip() == "Section: Occupancy")
    report = read_report(cut_at(tmp_path, source, whole[:at]))
    said(report)
    assert report.cut_short == ["its last kernel's sections stop at Launch Statistics, before the"
                                " Occupancy section that every ncu section set prints after them"]


def test_a_multi_kernel_text_cut_between_sections_of_its_last_kernel_says_so(tmp_path: Path
                                                                             ) -> None:
    whole = lines(MM3)
    third = max(i for i, line in enumerate(whole) if line.startswith("  mm3_kernel"))
    at = next(i for i, line in enumerate(whole)
              if i > third and line.strip() == "Section: GPU and Memory Workload Distribution")
    report = read_report(cut_at(tmp_path, MM3, whole[:at]))
    assert len(report.kernels) == 3
    said(report)
    assert report.cut_short == ["its last kernel's sections stop at Occupancy (the kernel before"
                                " it goes on to GPU and Memory Workload Distribution)"]


@pytest.mark.parametrize("lost", [["  mm3_kernel"], ["  mm3_kernel2", "  mm3_kernel3"]])
def test_a_details_text_without_its_kernel_headers_is_refused(tmp_path: Path, lost: list[str]
                                                              ) -> None:
    """Before, three kernels' sections merged into one kernel, the first value of each kept."""
    kept = [line for line in lines(MM3) if not line.startswith(tuple(lost))]
    with pytest.raises(ReportError, match="its section GPU Speed Of Light Throughput appears"
                       " twice under one kernel: a kernel header line is missing"):
        read_report(cut_at(tmp_path, MM3, kept))


def raw_rows(tmp_path: Path, rows: list[str]) -> Path:
    cut = tmp_path / "cut.raw.csv"
    cut.write_text("".join(rows), encoding="utf-8")
    return cut


def test_a_raw_csv_with_no_kernel_row_under_its_units_says_cut_short(tmp_path: Path) -> None:
    """Before: 'no kernel found'."""
    header, units, _row = lines(H200 / "numba-naive.raw.csv")
    with pytest.raises(ReportError, match="the file looks cut short: it holds a header and a"
                       " units row and no kernel row"):
        read_report(raw_rows(tmp_path, [header, units]))


def test_a_raw_csv_whose_last_row_lost_fields_reads_the_whole_rows_and_says_so(tmp_path: Path
                                                                               ) -> None:
    """Before, the cut row read as a kernel with its lost fields missing, and no word."""
    header, units, row = lines(H200 / "numba-naive.raw.csv")
    second = row.replace('"0"', '"1"', 1)
    cut = second[: second.index('","', len(second) // 3) + 1] + "\n"
    report = read_report(raw_rows(tmp_path, [header, units, row, cut]))
    assert len(report.kernels) == 2
    assert report.kernels[0].metrics == read_report(H200 / "numba-naive.raw.csv").kernels[0].metrics
    said(report)
    [why] = report.cut_short
    assert why.startswith("its last row has ") and why.endswith(" of the header's 2,250 fields")


def test_a_cut_noted_without_the_field_lands_in_it() -> None:
    """A reader that appends cut_short's sentence to the notes (the .ncu-rep container checks)
    records the reason too, once read_report settles it."""
    report = Report(source="x", format="ncu-rep", notes=[_text_lines.cut_short("a reason")])
    _text_lines.settle_cut_short(report)
    _text_lines.mark_cut_short(report, "a reason")
    assert (report.cut_short, len(report.notes)) == (["a reason"], 1)


# ----------------------------------------------------------------- rewritten while read


def test_a_details_text_rewritten_after_its_first_kernel_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, the kernels read before the rewrite and those after it made one report."""
    path = tmp_path / MM3.name
    path.write_bytes(MM3.read_bytes())
    line = details_text.Walk.line

    def rewriting(walk: details_text.Walk, raw: str) -> None:
        if len(walk.kernels) == 1 and raw.startswith("  mm3_kernel2"):
            path.write_text("".join(lines(MM3)[:200]), encoding="utf-8")
        line(walk, raw)

    monkeypatch.setattr(details_text.Walk, "line", rewriting)
    with pytest.raises(ReportError, match=r"was rewritten while it was being read .*: open it"
                       r" again"):
        read_report(path)


def test_a_details_csv_rewritten_while_its_rows_are_taken_in_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = H200 / "workloads-kernels-and-graph.details.csv"
    path = tmp_path / source.name
    path.write_bytes(source.read_bytes())
    add = details_csv.Builder.add

    def rewriting(builder: details_csv.Builder, chunk: object) -> None:
        if not builder.parts:
            path.write_text("".join(lines(source)[:30]), encoding="utf-8")
        add(builder, chunk)  # type: ignore[arg-type]

    monkeypatch.setattr(details_csv.Builder, "add", rewriting)
    with pytest.raises(ReportError, match="was rewritten while it was being read"):
        read_report(path)
