"""The report model: missing is missing, names are function names."""

from __future__ import annotations

import math

import pytest

from viewer.model import Kernel, ReportError, function_name


@pytest.mark.parametrize(
    ("display", "name"),
    [
        ("matmul_naive[abi:v1,cw51cXTLSUwv1sDUaKthqaNgoKmjgOR3W3Cw6igA9duC0hkwnNGiHEkYkrqQBFBTDEwC"
         "yQe21eqwcFW3UoDGjzpQEsgzrtUEAA_3d_3d](Array<float, (int)2, C, mutable, aligned>)",
         "matmul_naive"),
        ("void ns::gemm<float, 4>(float *, int)", "gemm"),
        ("mm3_kernel1(float*, float*, float*)", "mm3_kernel1"),
        ("vector_add", "vector_add"),
        ("void at::native::(anonymous namespace)::elementwise_kernel<128, 4>(int, float)",
         "elementwise_kernel"),
    ],
)
def test_function_name(display: str, name: str) -> None:
    assert function_name(display) == name


def test_missing_metric_is_none_never_zero() -> None:
    k = Kernel(0, "k", "k()", metrics={"a": 0.0, "b": math.nan})
    assert k.metric("a") == 0.0
    assert k.metric("b") is None
    assert k.metric("absent") is None


def test_report_error_is_one_line_naming_the_file() -> None:
    err = ReportError("/tmp/x.ncu-rep", "truncated\n  report")
    assert str(err) == "/tmp/x.ncu-rep: truncated report"
    assert "\n" not in str(err)
