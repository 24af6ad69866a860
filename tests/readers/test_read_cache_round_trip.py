"""A report answered from the cache of what was read is the report the file gives: every field of
the report and of every kernel, over every report the shipped profiles and the corpus hold."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

from viewer.core.jobs import Job
from viewer.core.model import Kernel, Metrics, Report, ReportError, Session
from viewer.readers import cache_format, read_cache, read_report

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for folder in (ROOT / "profiles", ROOT / "tests" / "data" / "corpus")
               for p in folder.rglob("*") if p.is_file() and p.suffix not in (".py", ".md"))
KEPT = "(kept from an earlier read)"


def _values(metrics: object) -> object:
    """A kernel's metrics as kept: the table of names and each value (NaN as None), or the
    mapping itself."""
    if isinstance(metrics, Metrics):
        slots, values = metrics.parts()
        return dict(slots), [None if math.isnan(v) else float(v) for v in values]
    return ("mapping", dict(metrics))  # type: ignore[call-overload]


def assert_same_kernel(a: Kernel, b: Kernel) -> None:
    assert type(a) is type(b), a.label  # a published reference's kernel stays one
    for f in dataclasses.fields(Kernel):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if f.name == "metrics":
            assert type(x) is type(y)
            assert _values(x) == _values(y), a.label
            assert dict(x) == dict(y)
        else:
            assert type(x) is type(y), (a.label, f.name)
            assert x == y, (a.label, f.name)


def assert_same(a: Report, b: Report) -> None:
    """Every field of both reports, and of every kernel, equal; their kernels share tables of
    names as the first's do."""
    for f in dataclasses.fields(Report):
        if f.name != "kernels":
            assert getattr(a, f.name) == getattr(b, f.name), f.name
            assert type(getattr(a, f.name)) is type(getattr(b, f.name)), f.name
    assert len(a.kernels) == len(b.kernels)
    for x, y in zip(a.kernels, b.kernels, strict=True):
        assert_same_kernel(x, y)
    shared = [[isinstance(x.metrics, Metrics) and isinstance(y.metrics, Metrics)
               and x.metrics.shares_names_with(y.metrics) for y in r.kernels] for r in (a, b)
              for x in r.kernels]
    half = len(shared) // 2
    assert shared[:half] == shared[half:]
    assert a.partial == b.partial


def test_the_format_knows_every_field():
    """A field added to the model is a field the cache must keep: this fails until it does."""
    assert tuple(f.name for f in dataclasses.fields(Report)) == cache_format.REPORT_FIELDS
    assert tuple(f.name for f in dataclasses.fields(Kernel)) == cache_format.KERNEL_FIELDS
    assert tuple(f.name for f in dataclasses.fields(Session)) == cache_format.SESSION_FIELDS


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_a_report_from_the_cache_is_the_report_read(path, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv(read_cache.NO_CACHE, "1")
    try:
        plain = read_report(path)
    except ReportError:
        pytest.skip("not a report")
    monkeypatch.delenv(read_cache.NO_CACHE)
    first, job = read_report(path), Job()
    kept = read_report(path, job)
    if all(type(k) is Kernel for k in plain.kernels):
        assert KEPT in job.message  # answered from the cache, not read again
    else:  # a published reference's kernels carry more than the cache keeps: read again
        assert KEPT not in job.message
    assert_same(plain, first)
    assert_same(plain, kept)
