"""The memory chart's and the memory rows' sentences, true of the report they are about: checked
on the shipped H200 pair and on exports made from it (tests/claims/ checks their percents and
their cycles over every report in the corpus)."""

from __future__ import annotations

import re
from pathlib import Path

from viewer.analysis import chart_layout as cl
from viewer.analysis import memory_traffic, memory_words
from viewer.core import metrics
from viewer.core.model import Kernel
from viewer.lesson import misreads
from viewer.readers import read_report
from viewer.terminal.summary_terminal import kernel_text

ROOT = Path(__file__).resolve().parents[2]
PROFILES = ROOT / "profiles"


def first(path: Path) -> Kernel:
    return read_report(path).kernels[0]


def test_a_shared_load_uses_l1tex_and_the_chart_says_how_much(tmp_path: Path) -> None:
    """tiled.ncu-rep: shared wavefronts are 60.99 % of L1/TEX's peak, of its 70.95 %: the
    busiest unit is busy mostly with shared traffic, so shared loads do reach L1/TEX."""
    note = cl.chart_band(first(PROFILES / "tiled.ncu-rep"), "tiled").shared_note
    assert "never reaches" not in note
    assert note.replace("\u00a0", " ") == (
        "a shared load fetches no sector from L2 or DRAM, and it does use the L1/TEX unit: "
        "shared wavefronts took 60.99 % of L1/TEX's peak per elapsed cycle, of the 70.95 % "
        "L1/TEX reached")
    # an export without the wavefront metric says nothing of it
    text = (PROFILES / "tiled.raw.csv").read_text()
    without = tmp_path / "tiled.raw.csv"
    without.write_text(text.replace(f'"{metrics.SHARED_WAVEFRONTS}"', '"renamed__away.sum"', 1))
    raw = first(without)
    assert raw.metric(metrics.SHARED_WAVEFRONTS) is None
    assert cl.chart_band(raw, "tiled").shared_note == cl.SHARED_NOTE


def over_100(tmp_path: Path) -> Path:
    """profiles/tiled.details.txt with its L2 Hit Rate printed as 101.14 %, as ncu does."""
    text = (PROFILES / "tiled.details.txt").read_text()
    changed = re.sub(r"(L2 Hit Rate +% +)95\.97", r"\g<1>101.14", text)
    assert changed != text
    path = tmp_path / "tiled-over-100.details.txt"
    path.write_text(changed)
    return path


def test_an_l2_hit_rate_over_100_percent_is_noted_wherever_it_is_shown(tmp_path: Path) -> None:
    kernel = first(over_100(tmp_path))
    assert cl.chart_band(kernel, "tiled").box("l2").lines == ("hit 101.14 %",
                                                               *cl.OVER_100_LINES)
    (found,) = [m for m in misreads.misreads(kernel) if m.kind == "hit-rate-over-100"]
    assert found.key == "l2_hit_rate_pct"  # under the memory tab's L2 Hit Rate row
    assert found.text.startswith("ncu reports lts__t_sector_hit_rate.pct at 101.14 %, above")
    words = " ".join(kernel_text(kernel).split())
    assert "L2 Hit Rate 101.14 % ncu reports lts__t_sector_hit_rate.pct at 101.14 %" in words
    shipped = first(PROFILES / "tiled.details.txt")  # 95.97 %: nothing to say
    assert cl.chart_band(shipped, "tiled").box("l2").lines == ("hit 95.97 %",)
    assert not [m for m in misreads.misreads(shipped) if m.kind == "hit-rate-over-100"]


def test_the_dram_floor_note_says_what_the_two_counters_show() -> None:
    """naive.ncu-rep: 2,104,320 B read (at least A and B), 0 B written against C's 1,048,576 B;
    ncu flushes the caches before each pass by default, so nothing says A or B was in L2."""
    note = memory_traffic.memory_chart(first(PROFILES / "naive.ncu-rep")).floor_note
    assert "already in L2" not in note and "after it ended" not in note
    assert note == ("below the floor: DRAM read 2,104,320 B against A and B's 2,097,152 B, so A "
                    "and B crossed it at least once and the caches kept most re-reads; it wrote "
                    "0 B against C's 1,048,576 B, so C was not written back to DRAM while the "
                    "kernel ran")


def test_the_floor_note_claims_no_more_precision_than_the_export_printed() -> None:
    """naive.details.csv prints the bytes read as '2.10 MB' (2,100,000 read back), half a
    percent either side of A and B's 2,097,152 B: the export cannot say 'at least once', and
    the note shows the value as printed, never as a byte count it does not hold."""
    note = memory_traffic.memory_chart(first(PROFILES / "naive.details.csv")).floor_note
    assert "2,100,000" not in note and "at least once" not in note
    assert "DRAM read 2.10 MB against A and B's 2,097,152 B" in note
    assert "about once, as far as the rounded value shows" in note
    exact = memory_traffic.memory_chart(first(PROFILES / "tiled.raw.csv")).floor_note
    assert "DRAM read 2,101,760 B against A and B's 2,097,152 B" in exact
    assert "at least once" in exact


def test_the_floor_sentence_names_the_kernel_only_in_compare_mode() -> None:
    kernel = first(PROFILES / "naive.ncu-rep")
    note = memory_traffic.memory_chart(kernel).floor_note
    assert memory_words.floor_sentence(kernel, "naive", compare=False) == f"DRAM traffic {note}."
    assert memory_words.floor_sentence(kernel, "naive", compare=True) == (
        f"naive's DRAM traffic {note}.")


def test_no_floor_sentence_where_the_problem_size_is_unknown() -> None:
    kernel = first(ROOT / "tests/data/corpus/h200/torch-transformer-400.details.txt.gz")
    assert memory_traffic.memory_chart(kernel).floor_note == ""
    assert memory_words.floor_sentence(kernel, "gemm", compare=True) == ""


def test_the_legend_says_one_scale_serves_both_kernels_only_when_two_are_shown() -> None:
    assert "one scale for both kernels" in memory_words.legend_text(compare=True)
    assert "one scale" not in memory_words.legend_text(compare=False)
    assert f"{cl.INSTRUCTIONS} from the kernel, {cl.BYTES} from L1/TEX outward" in (
        memory_words.legend_text(compare=False))
