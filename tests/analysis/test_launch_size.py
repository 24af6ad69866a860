"""A launch's size in words: N for the lesson's matmuls, the threads of any other launch; two of
different sizes are both named, two of one size say nothing."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tests.pair_1024 import write_pair_1024
from viewer.analysis import launch_size
from viewer.core import shipped
from viewer.readers import read_report

CORPUS = Path(__file__).parents[1] / "data" / "corpus"
TORCH = CORPUS / "h200" / "torch-transformer-400.details.txt.gz"


def test_the_lesson_s_matmuls_are_sized_by_n_and_any_other_launch_by_its_threads() -> None:
    naive = read_report(shipped.comparison()[0]).kernels[0]
    assert launch_size.size(naive).text == ("at N = 512 (262,144 threads: grid 32x32x1 of "
                                            "16x16x1 blocks)")
    t4 = read_report(shipped.reference()).kernels[0]  # N from the published table
    assert launch_size.size(t4).dim == 512
    first = read_report(TORCH).kernels[0]
    assert launch_size.size(first).dim is None
    assert launch_size.size(first).text == "with 262,144 threads (grid 1024x1x1 of 256x1x1 blocks)"


def test_two_sizes_are_named_only_where_they_differ(tmp_path: Path) -> None:
    naive = read_report(shipped.comparison()[0]).kernels[0]
    tiled_1024 = read_report(write_pair_1024(tmp_path)[1]).kernels[0]
    assert launch_size.size_words([naive, naive], ["a", "b"]) == ""
    assert launch_size.size_words([naive, tiled_1024], ["matmul_naive", "matmul_tiled"]) == (
        "Sizes differ: matmul_naive at N = 512 (262,144 threads: grid 32x32x1 of 16x16x1 "
        "blocks), matmul_tiled at N = 1024 (1,048,576 threads: grid 64x64x1 of 16x16x1 blocks): "
        "request, sector and byte counts and durations grow with N, so a ratio between them is "
        "not the kernels' alone.")
    torch = read_report(TORCH).kernels
    words = launch_size.size_words(torch[:2], ["first", "second"])
    assert words.startswith("Launch sizes differ: first with 262,144 threads (grid 1024x1x1 of "
                            "256x1x1 blocks), second with 131,072 threads (grid 1024x1x1 of "
                            "128x1x1 blocks): ")
    # 3mm's first kernel launches 262,144 threads too: one size, though not the lesson's N
    mm3 = read_report(CORPUS / "ncu-public" / "new-2025-details-3mm-multikernel-cc86.txt")
    assert launch_size.size_words([naive, mm3.kernels[0]], ["a", "b"]) == ""


def test_a_launch_is_said_by_its_grid_block_and_device_and_what_a_report_lacks_is_left_out(
) -> None:
    naive = read_report(shipped.comparison()[0]).kernels[0]
    assert launch_size.launch_text(naive) == "grid 32x32x1, block 16x16x1, NVIDIA H200 (CC 9.0)"
    bare = replace(naive, grid=None, block=None, device_name=None, device_id=None, cc=None)
    assert launch_size.launch_text(bare) == ""
    assert launch_size.launch_text(replace(bare, device_id=0)) == "device 0"

