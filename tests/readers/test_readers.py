"""read_report and sniff: the format from content, and one clear ReportError for every bad file."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from viewer.core.model import Report, ReportError
from viewer.readers import ncu_error, read_report
from viewer.readers.sniff import FORMATS, MAX_BYTES, identify, sniff

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"
H200 = CORPUS / "h200"
PUBLIC = CORPUS / "ncu-public"

# ncu's own words, as real failed captures printed them.
PERMISSION_LOG = (
    "==PROF== Connected to process 87374 (/usr/bin/python3.12)\n"
    "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU"
    " Performance Counters on the target device 0. For instructions on enabling permissions and to"
    " get more information see https://developer.nvidia.com/ERR_NVGPUCTRPERM\n"
    "==PROF== Disconnected from process 87374\n"
    "==WARNING== No kernels were profiled.\n"
)
APPLICATION_LOG = (
    "Traceback (most recent call last):\n"
    "RuntimeError: Unexpected error from cudaGetDeviceCount().\n"
    "==PROF== Disconnected from process 55916\n"
    "==ERROR== The application returned an error code (1).\n"
    "==WARNING== No kernels were profiled.\n"
)
IMPORT_LOG = "==ERROR== Could not open report file missing.ncu-rep\n"


def refusal(path: Path) -> str:
    """The message of the ReportError that read_report raises for `path`."""
    with pytest.raises(ReportError) as caught:
        read_report(path)
    message = str(caught.value)
    assert "\n" not in message
    assert path.name in message
    return message


def test_formats_are_the_six_named() -> None:
    assert set(FORMATS) == {"ncu-rep", "details-text", "details-csv", "raw-csv", "raw-text",
                            "reference"}


@pytest.mark.parametrize(("name", "fmt"), [
    ("h200/numba-naive.ncu-rep", "ncu-rep"),
    ("h200/numba-naive.details.csv", "details-csv"),
    ("h200/numba-naive.raw.csv", "raw-csv"),
    ("ncu-public/old-spelling-2020-csv-sm-pct-memory-pct-v100-hotspot.csv", "details-csv"),
    ("ncu-public/new-2025-csv-details-with-rule-columns-base-units-copy-blocked.csv",
     "details-csv"),
])
def test_sniff_judges_content(name: str, fmt: str) -> None:
    assert sniff(CORPUS / name) == fmt


@pytest.mark.parametrize(("name", "page"), [
    (f"h200/{stem}.{kind}", words) for stem in ("numba-naive", "workloads-ranges")
    for kind, words in (("session.txt", "session page"), ("source.csv", "source page"))
])
def test_session_and_source_pages_are_named_not_called_foreign(name: str, page: str) -> None:
    message = refusal(CORPUS / name)
    assert f"is ncu's {page} export" in message
    assert "not an Nsight Compute report or export" not in message
    assert identify(CORPUS / name) == page.replace(" ", "-")


@pytest.mark.parametrize(("name", "fmt"), [
    ("h200/numba-naive.ncu-rep", "ncu-rep"),
    ("h200/numba-naive.details.csv", "details-csv"),
    ("h200/numba-naive.raw.csv", "raw-csv"),
])
def test_sniff_ignores_the_file_name(tmp_path: Path, name: str, fmt: str) -> None:
    renamed = tmp_path / "report.txt"
    shutil.copy(CORPUS / name, renamed)
    assert sniff(renamed) == fmt
    assert read_report(renamed).format == fmt


@pytest.mark.parametrize("name", [
    "h200/numba-naive.ncu-rep", "h200/numba-naive.details.csv", "h200/numba-naive.raw.csv",
])
def test_read_report_reads_the_naive_kernel_in_every_format(name: str) -> None:
    report = read_report(str(CORPUS / name))
    assert isinstance(report, Report)
    assert report.source == str(CORPUS / name)
    [kernel] = report.kernels
    assert (kernel.index, kernel.name) == (0, "matmul_naive")
    assert (kernel.grid, kernel.block, kernel.cc) == ((32, 32, 1), (16, 16, 1), "9.0")
    assert kernel.metric("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum") == 8_388_608
    assert kernel.metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 16_777_216
    assert kernel.metric("gpu__time_duration.sum") == pytest.approx(219_140, abs=5)


def test_details_text_is_dispatched_to_its_reader() -> None:
    path = H200 / "numba-naive.details.txt"
    assert sniff(path) == "details-text"
    report = read_report(path)
    assert report.format == "details-text"
    assert [k.name for k in report.kernels] == ["matmul_naive"]


def test_program_output_before_the_csv_header_is_passed_over() -> None:
    path = PUBLIC / "old-spelling-2020-csv-sm-pct-memory-pct-v100-hotspot.csv"
    assert path.read_text().startswith("WG size of kernel = 16 X 16")
    assert [k.name for k in read_report(path).kernels] == ["calculate_temp"]


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.ncu-rep"
    path.write_bytes(b"")
    assert "empty" in refusal(path)


def test_directory(tmp_path: Path) -> None:
    path = tmp_path / "a-directory.ncu-rep"
    path.mkdir()
    assert "directory" in refusal(path)


def test_missing_file(tmp_path: Path) -> None:
    assert "no such file" in refusal(tmp_path / "never-written.csv")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "locked.csv"
    shutil.copy(H200 / "numba-naive.details.csv", path)
    path.chmod(0)
    assert "cannot be read" in refusal(path)


def test_truncated_ncu_rep(tmp_path: Path) -> None:
    data = (H200 / "numba-naive.ncu-rep").read_bytes()
    path = tmp_path / "half.ncu-rep"
    path.write_bytes(data[: len(data) // 2])
    assert "truncated or corrupt" in refusal(path)


def test_random_bytes_after_the_ncu_rep_magic(tmp_path: Path) -> None:
    path = tmp_path / "noise.ncu-rep"
    path.write_bytes(b"NVR\0" + os.urandom(200_000))
    message = refusal(path)
    assert "no kernel found" in message
    assert "truncated or corrupt" in message


def test_60_mb_of_noise_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "noise.bin"
    path.write_bytes(os.urandom(60_000_000))
    assert "binary" in refusal(path)  # refused by the sniffer from the file's head


@pytest.mark.parametrize(("log", "quoted"), [
    (PERMISSION_LOG, "ERR_NVGPUCTRPERM - The user does not have permission"),
    (APPLICATION_LOG, "The application returned an error code (1)."),
    (IMPORT_LOG, "Could not open report file missing.ncu-rep"),
])
def test_ncu_error_text_is_quoted(tmp_path: Path, log: str, quoted: str) -> None:
    path = tmp_path / "capture.log"
    path.write_text(log)
    message = refusal(path)
    assert quoted in message
    assert "ncu reported an error" in message


def test_sniff_quotes_ncu_error_text(tmp_path: Path) -> None:
    path = tmp_path / "capture.log"
    path.write_text(PERMISSION_LOG)
    with pytest.raises(ReportError, match="ERR_NVGPUCTRPERM - The user does not have permission"):
        sniff(path)


def test_an_error_after_profiled_kernels_does_not_hide_them(tmp_path: Path) -> None:
    path = tmp_path / "capture.txt"
    path.write_text((H200 / "numba-naive.details.txt").read_text() + APPLICATION_LOG)
    assert [k.name for k in read_report(path).kernels] == ["matmul_naive"]


def test_ncu_error_text_under_an_empty_csv_header_is_quoted(tmp_path: Path) -> None:
    header = (H200 / "numba-naive.details.csv").read_text().splitlines()[0]
    path = tmp_path / "capture.csv"
    path.write_text(PERMISSION_LOG + header + "\n")
    assert "ERR_NVGPUCTRPERM" in refusal(path)


def test_permission_error_is_quoted_before_its_consequences() -> None:
    text = "==ERROR== The application returned an error code (9).\n" + PERMISSION_LOG
    message = ncu_error.ncu_message(text)
    assert message is not None
    assert message.startswith("ERR_NVGPUCTRPERM")
    assert message.endswith("(and 1 more ncu error)")


def test_no_ncu_message_in_plain_text() -> None:
    assert ncu_error.ncu_message("Start computing the transient temperature\n") is None


def test_foreign_csv(tmp_path: Path) -> None:
    path = tmp_path / "sales.csv"
    path.write_text('"Region","Quarter","Revenue"\n"North","Q1","1,234.50"\n')
    assert "not an Nsight Compute report or export" in refusal(path)


def test_foreign_text(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text((CORPUS / "README.md").read_text().replace("Section", "Part"))
    assert "not an Nsight Compute report or export" in refusal(path)


def test_utf16_export(tmp_path: Path) -> None:
    path = tmp_path / "powershell.csv"
    path.write_bytes((H200 / "numba-naive.details.csv").read_text().encode("utf-16"))
    assert "UTF-16" in refusal(path)


def test_csv_header_with_no_rows_has_no_kernel(tmp_path: Path) -> None:
    path = tmp_path / "header-only.csv"
    path.write_text((H200 / "numba-naive.details.csv").read_text().splitlines()[0] + "\n")
    assert "no kernel found" in refusal(path)


def test_a_file_too_big_for_its_format_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.ncu-rep"
    with path.open("wb") as f:
        f.write(b"NVR\0")
        f.truncate(MAX_BYTES["ncu-rep"] + 1)  # sparse: nothing is written
    assert "too big for a ncu-rep file" in refusal(path)


def test_a_csv_too_big_for_its_format_is_refused_unread(tmp_path: Path) -> None:
    rows = (H200 / "numba-naive.details.csv").read_bytes()
    path = tmp_path / "huge.csv"
    with path.open("wb") as f:
        f.write(rows * 2)  # more text than the binary probe looks at
        f.truncate(MAX_BYTES["details-csv"] + 1)
    assert "too big for a details-csv file" in refusal(path)
