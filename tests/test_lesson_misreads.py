"""Misreads caught next to the number, worded from the values and the capture records; what no
record says stays unknown and raises no warning."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from viewer.capture.provenance import Provenance, write_provenance
from viewer.core import shipped
from viewer.core.model import Report
from viewer.lesson import capture_facts, misreads
from viewer.readers import read_report

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"
P40 = CORPUS / "ncu-public" / "old-spelling-pascal-p40-gpu-speed-of-light-sol-fb-details.txt"


@pytest.fixture(scope="module")
def t4() -> Report:
    return read_report(shipped.reference())


@pytest.fixture(scope="module")
def h200() -> list[Report]:
    return [read_report(path) for path in shipped.comparison()]


def kinds(found: list[misreads.Misread]) -> list[str]:
    return [m.kind for m in found]


def test_memory_throughput_is_not_dram_bandwidth_where_l1tex_is_busiest(h200) -> None:
    (found,) = misreads.misreads(h200[0].kernels[0])
    assert (found.key, found.kind) == ("memory_throughput_pct", "memory-not-dram")
    assert found.text == ("Memory Throughput 78.58 % is the busiest memory unit against its own "
                          "peak, not DRAM bandwidth: here the busiest is L1/TEX, at 87.15 % of "
                          "its own peak, and DRAM Throughput is 0.70 %.")


def test_on_the_t4_table_the_unit_is_not_named_because_the_table_does_not_name_it(t4) -> None:
    (found,) = misreads.misreads(t4.kernels[0])
    assert "here that unit is not DRAM, and DRAM Throughput is 1.25 %" in found.text


def test_where_dram_is_the_busiest_unit_the_two_rows_agree() -> None:
    """The 2019 P40 export: SOL FB (DRAM Throughput) and Memory [%] are both 82.65."""
    (found,) = misreads.misreads(read_report(P40).kernels[0])
    assert found.kind == "memory-is-dram"
    assert found.text.startswith("Memory Throughput 82.65 % and DRAM Throughput 82.65 % agree "
                                 "here: DRAM is itself the busiest memory unit")
    assert "not DRAM bandwidth" not in found.text


def test_t4_against_h200_warns_of_different_gpus_clocks_and_ncu_versions(t4, h200) -> None:
    found = misreads.compare_misreads(t4.kernels[0], h200[0].kernels[0], t4, h200[0])
    assert kinds(found) == ["different-gpu", "different-clocks", "different-ncu"]
    gpu, clocks, ncu = (m.text for m in found)
    assert "Tesla T4 (CC 7.5)" in gpu and "NVIDIA H200 (CC 9.0)" in gpu
    assert "naive --clock-control base (the published provenance in t4-reference.toml)" in clocks
    assert "matmul_naive --clock-control none (profiles/metadata.json)" in clocks
    assert "ncu 2024.3.2" in ncu and "ncu 2025.3.1" in ncu


def test_the_shipped_pair_warns_only_of_the_request_ratio(h200) -> None:
    (found,) = misreads.compare_misreads(h200[0].kernels[0], h200[1].kernels[0], *h200)
    assert found.kind == "request-ratio" and found.key == "global_load_requests"
    assert found.text.startswith("matmul_naive issues 16.00x the global load requests of "
                                 "matmul_tiled but moves 8.00x the sectors")


def test_a_request_ratio_without_sector_counts_says_so(h200) -> None:
    naive, tiled = (r.kernels[0] for r in h200)
    bare = dataclasses.replace(tiled, metrics={k: v for k, v in tiled.metrics.items()
                                               if "sectors" not in k})
    (found,) = misreads.compare_misreads(naive, bare, *h200)
    assert "the sector count is not in this report for matmul_tiled" in found.text


def test_unknown_capture_facts_stay_unknown(h200) -> None:
    corpus = [read_report(CORPUS / "h200" / f"numba-{k}.ncu-rep") for k in ("naive", "tiled")]
    # Neither record exists: nothing is said about clocks or ncu versions.
    assert kinds(misreads.compare_misreads(corpus[0].kernels[0], corpus[1].kernels[0],
                                           *corpus)) == ["request-ratio"]
    assert capture_facts.capture_facts(corpus[0]) == capture_facts.CaptureFacts()
    # One known, one not: said to be unknown, never guessed equal.
    found = misreads.compare_misreads(h200[0].kernels[0], corpus[0].kernels[0], h200[0],
                                      corpus[0])
    assert kinds(found) == ["unknown-clocks", "unknown-ncu"]
    assert "is unknown (no record of its capture)" in found[0].text


def test_a_capture_record_beside_the_report_is_read(tmp_path: Path, h200) -> None:
    copy = tmp_path / "naive.ncu-rep"
    shutil.copy(shipped.comparison()[0], copy)
    write_provenance(copy, Provenance("NVIDIA H200", "580.1", "Version 2025.3.1.0 (build 1)",
                                      "full", "base", 512, "naive", "2026-12-01T12:00:00+00:00",
                                      "direct"))
    report = read_report(copy)
    facts = capture_facts.capture_facts(report)
    assert (facts.clock_control, facts.ncu_version) == ("base", "2025.3.1")
    found = misreads.compare_misreads(report.kernels[0], h200[1].kernels[0], report, h200[1])
    assert "different-clocks" in kinds(found) and "different-ncu" not in kinds(found)


def test_the_first_of_several_launches_is_flagged_only_as_far_as_the_record_tells(
        h200, tmp_path: Path, t4) -> None:
    naive = h200[0].kernels[0]
    launches = [dataclasses.replace(naive, index=i) for i in range(3)]
    report = Report(source=str(tmp_path / "three.ncu-rep"), format="ncu-rep", kernels=launches)
    (first,) = [m for m in misreads.misreads(launches[0], report) if m.kind == "first-launch"]
    assert "first of the 3 launches of matmul_naive" in first.text
    assert "If the capture skipped none (nothing records it)" in first.text
    assert "first-launch" not in kinds(misreads.misreads(launches[1], report))
    # The shipped pair's record says 4 launches were skipped; the T4's says the same.
    assert "first-launch" not in kinds(misreads.misreads(naive, h200[0]))
    assert "first-launch" not in kinds(misreads.misreads(t4.kernels[0], t4))
    # A record that says none were skipped: the one launch in the report is the first.
    copy = tmp_path / "t4.toml"
    copy.write_text(shipped.reference().read_text().replace("launch_skip = 4", "launch_skip = 0"))
    skipped_none = read_report(copy)
    found = misreads.misreads(skipped_none.kernels[0], skipped_none)
    assert kinds(found)[-1] == "first-launch"
    assert "the capture skipped none (the published provenance in t4.toml)" in found[-1].text


def test_profiled_durations_are_flagged_when_bare_times_are_on_offer() -> None:
    assert misreads.profiled_duration_note(False) is None
    note = misreads.profiled_duration_note(True)
    assert note is not None and note.key == "duration_ns" and "replays it" in note.text


