"""A .ncu-rep whose file name is not UTF-8 (a Latin-1 name from an old archive) opens: ncu_report
refuses such a name with a SWIG TypeError, so its child opens the report through a private link,
removed after."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from viewer.readers import read_metrics, read_report
from viewer.readers.extras import read_extras

H200 = Path(__file__).resolve().parents[1] / "data" / "corpus" / "h200"


def test_a_report_named_in_latin1_opens_and_reads_more(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    links = tmp_path / "tmp"
    links.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(links))
    name = os.fsdecode(b"na\xefve.ncu-rep")
    with pytest.raises(UnicodeEncodeError):
        name.encode("utf-8")
    path = tmp_path / name
    shutil.copy(H200 / "numba-naive.ncu-rep", path)
    report = read_report(path)
    plain = read_report(H200 / "numba-naive.ncu-rep")
    assert report.source == str(path)
    assert dict(report.kernels[0].metrics) == dict(plain.kernels[0].metrics)
    assert len(read_metrics(report, [0], None)[0]) > 2000
    assert read_extras(report, [0], rules=True)[0].rules
    assert list(links.iterdir()) == []
