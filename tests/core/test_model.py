"""The report model: missing is missing, names are function names."""

from __future__ import annotations

import math

import pytest

from viewer.core.model import Kernel, Metrics, Report, ReportError, function_name


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
        # An unmatched bracket before the argument list (an ESC sequence in a hostile name) once
        # hid it, leaving 'long)' of the last argument as the name.
        ("matmul\x1b[2Jnaive(Array<float, 1, C>, unsigned long long)", "matmul\x1b[2Jnaive"),
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


def test_metrics_share_one_table_of_names_and_keep_missing_missing() -> None:
    a, b = Metrics.table([{"x": 1.0, "y": 0.0}, {"y": 2.0, "z": 3.0}])
    assert (dict(a), dict(b)) == ({"x": 1.0, "y": 0.0}, {"y": 2.0, "z": 3.0})
    assert a == {"x": 1.0, "y": 0.0} and len(a) == 2
    assert ("z" in a, "y" in a, a.get("z"), a.get("y")) == (False, True, None, 0.0)
    with pytest.raises(KeyError):
        a["z"]
    assert a.shares_names_with(b)  # one table for the report, one float array per kernel
    k = Kernel(0, "k", "k()", metrics=a)
    assert (k.metric("y"), k.metric("z")) == (0.0, None)


def test_what_was_not_read_is_told_apart_from_what_the_report_lacks() -> None:
    k = Kernel(0, "k", "k()", metrics={"a": 1.0}, read_names=frozenset({"a", "b"}))
    assert (k.was_read("b"), k.metric("b")) == (True, None)  # read, and not in the report
    assert (k.was_read("c"), k.metric("c")) == (False, None)  # not read yet
    assert k.unread(["a", "c", "b", "d"]) == ["c", "d"]
    assert Kernel(0, "k", "k()").was_read("anything")  # read whole


def test_a_later_read_is_taken_in_where_the_report_is_shown() -> None:
    kernels = [Kernel(i, "k", "k()", metrics=m, read_names=frozenset({"a"}), position=i)
               for i, m in enumerate(Metrics.table([{"a": 1.0}, {"a": 2.0}]))]
    report = Report("r.ncu-rep", "ncu-rep", kernels)
    assert report.partial
    report.add_metrics({1: {"b": 5.0}}, ["b", "c"])
    assert (dict(kernels[0].metrics), kernels[0].was_read("b")) == ({"a": 1.0}, False)
    assert (dict(kernels[1].metrics), kernels[1].was_read("c")) == ({"a": 2.0, "b": 5.0}, True)
    report.add_metrics({0: {"d": 7.0}, 1: {}}, None)
    assert not report.partial
    assert kernels[0].metrics == {"a": 1.0, "d": 7.0}


def test_the_device_is_an_id_and_a_name() -> None:
    assert Kernel(0, "k", "k()", device_id=0).device_label == "device 0"
    named = Kernel(0, "k", "k()", device_id=1, device_name="NVIDIA H200")
    assert named.device_label == "NVIDIA H200"
    assert Kernel(0, "k", "k()").device_label is None
