"""Misreads caught next to the number, worded from the values and the capture records; what no
record says stays unknown and raises no warning."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from viewer.analysis import metric_table
from viewer.capture.provenance import Provenance, write_provenance
from viewer.core import shipped
from viewer.core.model import Report
from viewer.lesson import capture_facts, misreads
from viewer.readers import read_report

CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus"
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
    # L1/TEX's row is per active cycle, Memory Throughput per elapsed cycle: one scale, not two
    # percents side by side
    assert found.text == ("Memory Throughput 78.74 % is the busiest memory unit against its own "
                          "peak, not DRAM bandwidth: here the busiest is L1/TEX, at 87.13 % of "
                          "its own peak per active cycle, 78.74 % per elapsed cycle as Memory "
                          "Throughput counts (l1tex__throughput.avg.pct_of_peak_sustained_elapsed"
                          "), and DRAM Throughput is 0.70 %.")


def test_a_busiest_unit_per_elapsed_cycle_is_never_called_per_active() -> None:
    """workloads' `scale` kernel: L2 is the busiest, and its metric is lts__throughput's
    pct_of_peak_sustained_elapsed."""
    report = read_report(CORPUS / "h200" / "workloads-kernels-and-graph.details.txt")
    (found,) = misreads.misreads(report.kernels[0])
    assert "the busiest is L2, at 0.96 % of its own peak per elapsed cycle," in found.text
    assert "per active" not in found.text


def test_on_the_t4_table_the_unit_is_not_named_because_the_table_does_not_name_it(t4) -> None:
    """The table holds no per-unit rows: no unit is named as the report's, and the lesson's
    answer (L1TEX) is said as the lesson's."""
    (found,) = misreads.misreads(t4.kernels[0])
    assert ("here that unit is not DRAM (this report holds no L1/TEX or L2 throughput row to "
            "name it; the lesson, of its T4 naive kernel: \"that unit is L1TEX, not DRAM\"), "
            "and DRAM Throughput is 1.25 %") in found.text
    assert "busiest memory unit is DRAM" not in found.text


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
    assert ("naive --clock-control base (t4-reference.toml, the published provenance's "
            "clock_control)") in clocks
    session = h200[0].session  # the report's own session comes before its record
    assert session is not None
    assert (f"matmul_naive --clock-control {session.clock_control} ({h200[0].file_name}, "
            f"{session.clock_source})") in clocks
    assert "ncu 2024.3.2" in ncu and "ncu 2025.3.1" in ncu


def test_the_shipped_pair_warns_of_the_request_ratio_and_of_clocks_not_locked(h200) -> None:
    request, clocks = misreads.compare_misreads(h200[0].kernels[0], h200[1].kernels[0], *h200)
    assert request.kind == "request-ratio" and request.key == "global_load_requests"
    assert request.text.startswith("matmul_naive issues 16.00x the global load requests of "
                                   "matmul_tiled but moves 8.00x the sectors")
    # Both sessions record --clock-control none: against the rule, said where the rule is.
    assert (clocks.kind, clocks.key) == ("clocks-not-locked", misreads.DEVICE_KEY)
    for kernel, report in zip(("matmul_naive", "matmul_tiled"), h200, strict=True):
        assert report.session is not None
        assert f"--clock-control {report.session.clock_control})" in clocks.text
        assert f"{kernel} in {report.file_name}, {report.session.clock_source}" in clocks.text
    clock = h200[0].session.clock_control if h200[0].session else None
    assert clocks.text.startswith(f"Both captures ran with clocks not locked (--clock-control "
                                  f"{clock}), against the lesson's rule to lock them "
                                  f"(--clock-control {misreads.LOCKED}). --clock-control base "
                                  "pins")


def test_a_request_ratio_without_sector_counts_says_so(h200) -> None:
    naive, tiled = (r.kernels[0] for r in h200)
    bare = dataclasses.replace(tiled, metrics={k: v for k, v in tiled.metrics.items()
                                               if "sectors" not in k})
    (found,) = [m for m in misreads.compare_misreads(naive, bare, *h200)
                if m.kind == "request-ratio"]
    assert "the sector count is not in this report for matmul_tiled" in found.text


def test_the_report_s_own_session_is_read_before_any_record(h200) -> None:
    corpus = [read_report(CORPUS / "h200" / f"numba-{k}.ncu-rep") for k in ("naive", "tiled")]
    # No capture record exists for these, but each report records its session.
    assert capture_facts.capture_facts(corpus[0]) == capture_facts.CaptureFacts()
    known = misreads.known_facts(corpus[0])
    session = corpus[0].session
    assert session is not None and session.ncu_version is not None
    assert known["clock_control"].value == session.clock_control
    assert known["ncu_version"].value == capture_facts.ncu_short(session.ncu_version)
    assert known["ncu_version"].record == f"{corpus[0].file_name}, its session"
    assert kinds(misreads.compare_misreads(corpus[0].kernels[0], corpus[1].kernels[0],
                                           *corpus)) == ["request-ratio", "clocks-not-locked"]
    found = misreads.compare_misreads(h200[0].kernels[0], corpus[0].kernels[0], h200[0],
                                      corpus[0])
    assert "unknown-clocks" not in kinds(found) and "unknown-ncu" not in kinds(found)


def test_unknown_capture_facts_stay_unknown(h200) -> None:
    """A CSV export records no session, and no record is beside it: unknown, never guessed."""
    export = read_report(CORPUS / "h200" / "numba-naive.details.csv")
    assert export.session is None and misreads.known_facts(export) == {}
    found = misreads.compare_misreads(h200[0].kernels[0], export.kernels[0], h200[0], export)
    assert kinds(found) == ["unknown-clocks", "unknown-ncu"]
    assert "is unknown (neither the report nor a record of its capture says)" in found[0].text


def test_a_capture_record_beside_the_report_is_read(tmp_path: Path, h200) -> None:
    record = Provenance("NVIDIA H200", "580.1", "Version 2025.3.1.0 (build 1)", "full", "base",
                        512, "naive", "2026-12-01T12:00:00+00:00", "direct")
    export = tmp_path / "naive.details.csv"  # a file that records no session of its own
    shutil.copy(CORPUS / "h200" / "numba-naive.details.csv", export)
    write_provenance(export, record)
    report = read_report(export)
    facts = capture_facts.capture_facts(report)
    assert (facts.clock_control, facts.ncu_version) == ("base", "2025.3.1")
    assert misreads.known_facts(report)["clock_control"] == misreads.Known(
        "base", f"the capture record {export.name}.json")
    found = misreads.compare_misreads(report.kernels[0], h200[1].kernels[0], report, h200[1])
    assert "different-clocks" in kinds(found) and "different-ncu" not in kinds(found)
    # A report's own session outranks the record beside it.
    copy = tmp_path / "naive.ncu-rep"
    shutil.copy(shipped.comparison()[0], copy)
    write_provenance(copy, record)
    own = read_report(copy)
    assert own.session is not None and own.session.clock_control != record.clock
    assert misreads.known_facts(own)["clock_control"].value == own.session.clock_control


def test_under_duration_a_capture_with_clocks_not_locked_is_named(h200, t4) -> None:
    report = h200[0]
    kernel = report.kernels[0]
    (note,) = [m for m in misreads.misreads(kernel, report) if m.kind == "clocks-not-locked"]
    assert report.session is not None and note.key == "duration_ns"
    hz = kernel.metric(metric_table.SM_FREQUENCY)
    assert hz is not None
    assert note.text.startswith(
        f"This capture ran with clocks not locked (--clock-control "
        f"{report.session.clock_control}: {report.file_name}, {report.session.clock_source}), "
        "while the lesson's rule is to lock them (--clock-control base).")
    assert f"the SM clock ran at {hz / 1e9:.2f} GHz here" in note.text
    # A text export carries ncu's own warning line: it is quoted.
    text = read_report(CORPUS / "h200" / "numba-tiled.details.txt")
    assert text.session is not None and text.session.warning is not None
    (quoted,) = [m for m in misreads.misreads(text.kernels[0], text)
                 if m.kind == "clocks-not-locked"]
    assert f'ncu says so itself: "{text.session.warning}"' in quoted.text
    # Locked clocks, or none recorded: nothing is said.
    assert "clocks-not-locked" not in kinds(misreads.misreads(t4.kernels[0], t4))
    locked = dataclasses.replace(report, session=dataclasses.replace(report.session,
                                                                       clock_control="base"))
    assert "clocks-not-locked" not in kinds(misreads.misreads(kernel, locked))
    assert "clocks-not-locked" not in kinds(misreads.misreads(kernel))


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




def test_where_the_report_records_its_command_line_the_first_launch_note_says_what_it_records(
        ) -> None:
    """ncu's own command line in the .ncu-rep names no --launch-skip: the first launch was
    profiled, and the note says so rather than "nothing records it"."""
    corpus = Path(__file__).parents[1] / "data" / "corpus" / "h200"
    report = read_report(corpus / "workloads-kernels-and-graph.ncu-rep")
    assert report.session is not None and "--launch-skip" not in str(report.session.command_line)
    (first,) = [m for m in misreads.misreads(report.kernels[0], report) if m.kind == "first-launch"]
    assert "nothing records it" not in first.text
    assert "profiler command line names no --launch-skip, so the capture skipped none" in first.text
    # Several launches of one kernel in that report: the first is flagged, the later ones not.
    scale = report.kernels[0]
    again = dataclasses.replace(report, kernels=[dataclasses.replace(scale, index=i)
                                                 for i in range(3)])
    assert "first-launch" in kinds(misreads.misreads(again.kernels[0], again))
    assert "first-launch" not in kinds(misreads.misreads(again.kernels[1], again))
    # A command line that skips launches of its -k filter: past the first, nothing is said.
    skipping = dataclasses.replace(report, session=dataclasses.replace(
        report.session, command_line=report.session.command_line.replace(
            "--set basic", "--set basic -k regex:scale --launch-skip 4")))
    assert "first-launch" not in kinds(misreads.misreads(skipping.kernels[0], skipping))


def test_two_kernels_of_different_sizes_are_told_apart_by_both_sizes(h200, pair_1024) -> None:
    """The compare line under every comparison: N = 512 against N = 1024, each named."""
    larger = read_report(pair_1024[1])
    found = misreads.compare_misreads(h200[0].kernels[0], larger.kernels[0], h200[0], larger)
    (size,) = [m for m in found if m.kind == "different-size"]
    assert size.key == misreads.DEVICE_KEY and found[0] is size
    assert size.text.startswith("Sizes differ: matmul_naive at N = 512 (262,144 threads: grid "
                                "32x32x1 of 16x16x1 blocks), matmul_tiled at N = 1024")
    assert "different-size" not in kinds(misreads.compare_misreads(
        h200[0].kernels[0], h200[1].kernels[0], *h200))
