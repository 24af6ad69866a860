"""Names that tell the kernels on screen apart (viewer.core.names)."""

from __future__ import annotations

import pytest

from viewer.core.model import Kernel
from viewer.core.names import distinct_names, kernel_names


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
