"""Names that tell the kernels on screen apart (viewer.core.names)."""

from __future__ import annotations

import pytest

from viewer.core.model import Kernel
from viewer.core.names import distinct_names, distinct_paths, kernel_names


def test_the_first_candidates_that_differ_are_used() -> None:
    assert distinct_names(["a", "b"], ["x", "y"]) == ["a", "b"]
    assert distinct_names(["a", "a"], ["x", "y"]) == ["x", "y"]
    assert distinct_names(["a", "a"], ["x", "x"], ["#0 a", "#1 a"]) == ["#0 a", "#1 a"]


def test_names_that_never_differ_are_lettered_in_order() -> None:
    assert distinct_names(["a", "a"], ["#0 a", "#0 a"]) == ["#0 a (A)", "#0 a (B)"]
    with pytest.raises(ValueError):
        distinct_names()


def test_kernel_names_fall_back_to_labels() -> None:
    first, second = Kernel(0, "gemm", "gemm()"), Kernel(3, "gemm", "gemm()")
    assert kernel_names([first, Kernel(1, "relu", "relu()")]) == ["gemm", "relu"]
    assert kernel_names([first, second]) == ["#0 gemm", "#3 gemm"]
    assert kernel_names([first, first]) == ["#0 gemm (A)", "#0 gemm (B)"]


def test_files_are_named_by_as_much_of_their_paths_as_tells_them_apart(tmp_path) -> None:
    assert distinct_paths(["/r/naive.ncu-rep", "/r/tiled.ncu-rep"]) == [
        "naive.ncu-rep", "tiled.ncu-rep"]
    assert distinct_paths(["profiles/naive.ncu-rep", tmp_path / "other" / "naive.ncu-rep"]) == [
        "profiles/naive.ncu-rep", "other/naive.ncu-rep"]
    assert distinct_paths(["/a/x/n.csv", "/b/x/n.csv", "/b/y/n.csv"]) == [
        "a/x/n.csv", "b/x/n.csv", "b/y/n.csv"]  # one depth for all: read as one list
    assert distinct_paths(["/r/naive.ncu-rep", "/r/naive.ncu-rep"]) == ["naive.ncu-rep"] * 2
    assert distinct_paths([]) == []
