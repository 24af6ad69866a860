"""Damaged real files: truncated, bit-flipped, spliced and random inputs never raise anything but
ReportError (one line, naming the file), from read_report or from any reader.

Replayable: every draw comes from Hypothesis (no true randomness), and `derandomize` seeds it from
the test itself, so each run tries the same inputs and a failure prints the input that failed."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from viewer.core.model import Report, ReportError
from viewer.readers import details_csv, ncu_rep, raw_csv, read_report

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"
H200 = CORPUS / "h200"
PUBLIC = CORPUS / "ncu-public"
DETAILS_CSVS = (
    H200 / "numba-naive.details.csv",
    PUBLIC / "old-spelling-2020-csv-sm-pct-memory-pct-v100-hotspot.csv",
    PUBLIC / "new-2025-csv-details-with-rule-columns-base-units-copy-blocked.csv",
)
RAW_CSVS = (H200 / "numba-naive.raw.csv",)
TEXTS = (H200 / "numba-naive.details.txt",
         PUBLIC / "mid-spelling-2022-multikernel-rowsums-colsums-details.txt")
NCU_REPS = (H200 / "numba-naive.ncu-rep",)

# A damaged .ncu-rep that makes ncu_report spin is refused after this long.
FUZZ_TIMEOUT_S = 20.0
FAST = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
CHILD = settings(max_examples=40, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def damaged(draw: st.DrawFn, sources: tuple[Path, ...]) -> bytes:
    """One of `sources`, truncated, bit-flipped, with a slice cut or repeated, or replaced by noise
    after its first bytes (the magic or the CSV header). Places are drawn uniformly over the file,
    so damage lands in the rows and kernels as often as in the header."""
    data = draw(st.sampled_from(sources)).read_bytes()
    rnd = draw(st.randoms(use_true_random=False))
    how = draw(st.sampled_from(["truncate", "flip", "splice", "noise"]))
    if how == "truncate":
        return data[: rnd.randrange(len(data) + 1)]
    if how == "flip":
        out = bytearray(data)
        for _ in range(draw(st.integers(1, 16))):
            out[rnd.randrange(len(out))] ^= 1 << rnd.randrange(8)
        return bytes(out)
    if how == "splice":
        a = rnd.randrange(len(data) + 1)
        b = min(len(data), a + rnd.randrange(4097))
        return data[:a] + data[a:b] * draw(st.integers(0, 3)) + data[b:]
    keep = rnd.randrange(min(len(data), 512) + 1)
    return data[:keep] + draw(st.binary(max_size=4096))


def test_the_damage_is_the_same_on_every_run() -> None:
    """What the tests below try can be tried again: two runs draw the same damaged files."""

    def run() -> list[bytes]:
        seen: list[bytes] = []

        @settings(FAST, max_examples=25)
        @given(data=damaged(TEXTS))
        def collect(data: bytes) -> None:
            seen.append(data)

        collect()
        return seen

    first = run()
    assert len(set(first)) > 1
    assert run() == first


def only_report_error(read: Callable[[Path], Report], data: bytes, name: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        try:
            report = read(path)
        except ReportError as exc:
            message = str(exc)
            assert "\n" not in message
            assert name in message
            return
        assert report.kernels
        assert [k.index for k in report.kernels] == list(range(len(report.kernels)))


@FAST
@given(data=damaged(DETAILS_CSVS + RAW_CSVS + TEXTS) | st.binary(max_size=2048))
def test_read_report_on_damaged_exports(data: bytes) -> None:
    only_report_error(read_report, data, "export.csv")


@CHILD
@given(data=damaged(NCU_REPS))
def test_read_report_on_damaged_ncu_reps(data: bytes) -> None:
    only_report_error(read_report, data, "report.ncu-rep")


@FAST
@given(data=damaged(DETAILS_CSVS))
def test_details_csv_reader(data: bytes) -> None:
    only_report_error(details_csv.read, data, "details.csv")


@FAST
@given(data=damaged(RAW_CSVS + DETAILS_CSVS[:1]))
def test_raw_csv_reader(data: bytes) -> None:
    only_report_error(raw_csv.read, data, "raw.csv")


@CHILD
@given(data=damaged(NCU_REPS))
def test_ncu_rep_reader(data: bytes) -> None:
    only_report_error(lambda p: ncu_rep.read(p, timeout_s=FUZZ_TIMEOUT_S), data, "damaged.ncu-rep")


@FAST
@given(data=damaged(TEXTS))
def test_details_text_reader(data: bytes) -> None:
    from viewer.readers import details_text

    only_report_error(details_text.read, data, "details.txt")
