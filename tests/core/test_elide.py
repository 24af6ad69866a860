"""Middle elision that never shows two different kernel names alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from viewer.core.elide import ELLIPSIS, differing_span, distinct_elisions, elide_middle
from viewer.readers import read_report

TORCH = Path(__file__).parents[1] / "data/corpus/h200/torch-transformer-400.details.txt.gz"
TN_64 = ("sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_"
         "aligna4_alignc4_execute_kernel__5x_cublas")
TN_32 = TN_64.replace("tilesize64x64x8", "tilesize32x32x8").replace("1x4x1", "1x2x1")
NN_64 = TN_64.replace("_tn_", "_nn_")


def torch_names() -> list[str]:
    """The function and demangled names of the real 400-kernel PyTorch capture."""
    kernels = read_report(TORCH).kernels
    return sorted({k.name for k in kernels} | {k.display_name for k in kernels})


def test_a_name_that_fits_is_left_whole() -> None:
    assert elide_middle("matmul_naive", 12) == "matmul_naive"
    assert distinct_elisions(["matmul_naive", "matmul_tiled"], 40) == ["matmul_naive",
                                                                       "matmul_tiled"]


def test_a_long_name_keeps_its_head_and_tail_within_the_width() -> None:
    short = elide_middle(TN_64, 30)
    assert len(short) <= 30 and ELLIPSIS in short
    assert short.startswith("sm80_xmma") and short.endswith("_cublas")


def test_the_tn_and_nt_gemms_a_plain_elision_shows_alike_keep_what_differs() -> None:
    assert elide_middle(TN_64, 30) == elide_middle(TN_32, 30) == elide_middle(NN_64, 30)
    shown = distinct_elisions([TN_64, TN_32, NN_64], 30)
    assert len(set(shown)) == 3 and all(len(s) <= 30 for s in shown)
    assert "tilesize6" in shown[0] and "tilesize3" in shown[1]
    assert "tn_n" in shown[0] and "nn_n" in shown[2]


def test_the_part_that_differs_spans_every_other_name() -> None:
    assert differing_span(TN_64, [TN_32, NN_64]) == (33, 47)
    assert differing_span(TN_64, []) == (0, 0)


def test_the_same_name_twice_elides_alike_and_the_order_is_kept() -> None:
    shown = distinct_elisions([TN_64, TN_32, TN_64], 30)
    assert shown[0] == shown[2] != shown[1]


def test_a_measure_in_pixels_is_honoured() -> None:
    wide = distinct_elisions([TN_64, TN_32], 300, lambda text: 10 * len(text))
    assert all(10 * len(s) <= 300 for s in wide) and wide[0] != wide[1]


@pytest.mark.parametrize("width", [6, 8, 10, 16, 24, 32, 40, 60])
def test_no_two_kernels_of_the_torch_capture_elide_alike(width: int) -> None:
    names = torch_names()
    assert len(names) >= 15 and TN_64 in names and TN_32 in names
    shown = distinct_elisions(names, width)
    assert len(set(shown)) == len(names)
    assert all(len(s) <= width for s in shown)


def test_long_words_and_elided_names_may_break_at_their_parts_and_short_words_not() -> None:
    from viewer.core.elide import BREAK, wrappable_names

    text = "the first of sm80_xmma_…_cublas in torch-transformer-400.details.txt.gz, at 1.95 GHz"
    out = wrappable_names(text)
    assert out.replace(BREAK, "") == text
    assert f"sm80_{BREAK}xmma_{BREAK}" in out and f"details.{BREAK}txt" in out
    assert "1.95" in out and f"the{BREAK}" not in out


def test_a_label_that_names_metrics_may_break_at_their_parts_and_words_not() -> None:
    from viewer.core.elide import BREAK, breakable

    metric = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
    assert breakable(metric).replace(BREAK, "") == metric
    assert f"l1tex__{BREAK}t_{BREAK}" in breakable(metric)
    assert breakable("Memory Throughput, not_a_metric") == "Memory Throughput, not_a_metric"


def test_a_progress_line_keeps_its_words_but_elides_a_mangled_name() -> None:
    from viewer.core.elide import LONGEST_SAID, short_words

    mangled = "matmul_naive[abi:v2,cw51cXTLSUwv1sDUaKthqaNgoKmjgMVuW1AiA8rAEg2UjxRKtuAI0FEA2gSVRE]"
    said = short_words(f"reading {mangled} of naive.ncu-rep")
    head, name, *tail = said.split()
    assert (head, tail) == ("reading", ["of", "naive.ncu-rep"])
    assert len(name) == LONGEST_SAID and "\u2026" in name
    assert name.startswith("matmul_naive[") and name.endswith("VRE]")
    assert short_words("reading the source counters") == "reading the source counters"
