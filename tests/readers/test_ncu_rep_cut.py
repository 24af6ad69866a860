"""A .ncu-rep cut short is read as far as ncu_report reads it and says so in `Report.notes`
(viewer.readers.ncu_container tells a cut container; ncu_report reads one silently)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.many_kernels import build
from tests.readers.test_ncu_container import NAIVE, blocks
from viewer.core.model import ReportError
from viewer.readers import _text_lines, ncu_container, ncu_rep, read_report

KERNELS = 12
SESSION_GONE = ("the session blocks after its results are missing, so how it was captured is "
                "unknown")


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("reports") / "many.ncu-rep", KERNELS)


def _cut(source: Path, at: int, out: Path) -> Path:
    out.write_bytes(source.read_bytes()[:at])
    return out


def test_a_whole_report_has_no_note(many: Path) -> None:
    assert len(ncu_rep.read(many).kernels) == KERNELS
    assert ncu_rep.read(many).notes == read_report(NAIVE).notes == []


def test_cut_right_after_its_results_the_lost_session_is_said(tmp_path: Path) -> None:
    """ncu_report still reads the kernel; the clock control is unknown, and the note says why."""
    results_end = next(end for _, end, results in blocks(NAIVE)[1] if results)
    report = read_report(_cut(NAIVE, results_end, tmp_path / "cut.ncu-rep"))
    assert len(report.kernels) == 1
    assert report.notes == [_text_lines.cut_short(SESSION_GONE)]
    assert report.session is not None and report.session.clock_control is None


def test_cut_at_a_block_boundary_after_half_its_results(many: Path, tmp_path: Path) -> None:
    """A whole block at the end: the container looks whole, but its session's last blocks
    are gone, so it is told; how many results were lost is not."""
    spans = [end for _, end, results in blocks(many)[1] if results]
    report = ncu_rep.read(_cut(many, spans[KERNELS // 2 - 1], tmp_path / "half.ncu-rep"))
    assert len(report.kernels) == KERNELS // 2
    assert report.notes == [_text_lines.cut_short(SESSION_GONE)]


def test_cut_inside_a_result_s_payload_the_whole_kernels_are_read(many: Path,
                                                                  tmp_path: Path) -> None:
    """ncu_report makes a nameless kernel of the cut result: it is left out, and said."""
    start, end, _ = [s for s in blocks(many)[1] if s[2]][KERNELS // 2]
    for at in (start + (end - start) // 3, end - 1):
        report = ncu_rep.read(_cut(many, at, tmp_path / "mid.ncu-rep"))
        assert len(report.kernels) == KERNELS // 2
        assert report.notes == [_text_lines.cut_short(
            f"its last block is cut short: {KERNELS // 2} of its {KERNELS // 2 + 1} results are "
            f"read; {SESSION_GONE}")]


def test_cut_inside_a_result_s_header_ncu_report_reads_nothing(many: Path,
                                                               tmp_path: Path) -> None:
    """ncu_report reads no kernel at all then: refused, as before."""
    start, _, _ = [s for s in blocks(many)[1] if s[2]][KERNELS // 2]
    path = _cut(many, start + 30, tmp_path / "header.ncu-rep")
    assert ncu_container.walk(path).end == ncu_container.CUT
    with pytest.raises(ReportError, match="no kernel found"):
        ncu_rep.read(path)


def test_a_single_kernel_cut_in_its_payload_is_still_refused(tmp_path: Path) -> None:
    """No whole kernel comes before the cut one: nothing to read."""
    start, end, _ = next(s for s in blocks(NAIVE)[1] if s[2])
    path = _cut(NAIVE, (start + end) // 2, tmp_path / "half.ncu-rep")
    with pytest.raises(ReportError, match="kernel #0 has no name"):
        ncu_rep.read(path)
