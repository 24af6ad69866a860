"""What a .ncu-rep holds beyond metric values, through the reader's child: its answer judged,
the file's stamp kept, progress and cancel as for metrics."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import ClassVar

import pytest

from viewer.core.jobs import Cancelled, Job
from viewer.core.model import ReportError
from viewer.readers import read_report
from viewer.readers.extras import Extras, MetricAbout, extras_of, read_extras

ROOT = Path(__file__).resolve().parents[2]
NAIVE = ROOT / "profiles" / "naive.ncu-rep"


def test_a_malformed_answer_is_left_out() -> None:
    extras = extras_of({
        "rules": [{"rule_identifier": "A"}, "junk"],
        "instances": {"m": {"x": [1, 2, "3"], "y": [4, None, 6]}, "n": "junk", "o": {"x": 1}},
        "about": {"a": ["byte/s", "Label", ""], "b": ["too", "short"], "c": "junk"}})
    assert extras.rules == [{"rule_identifier": "A"}]
    assert extras.instances == {"m": ((1.0,), (4.0,))}
    assert extras.about == {"a": MetricAbout("byte/s", "Label", None)}
    assert extras.about["a"].base_unit == "byte/s"
    assert extras_of({"instances": [], "about": None}) == Extras()
    assert MetricAbout("Kbyte/cycle").base_unit == "byte/cycle"


def test_progress_and_cancel_as_for_metrics() -> None:
    report = read_report(NAIVE)
    seen: list[str] = []
    read_extras(report, [0], rules=True, job=Job(lambda f, m: seen.append(m)))
    assert seen == ["reading more of naive.ncu-rep", "kernel 1 of 1"]
    job = Job(lambda f, m: None)
    job.cancel()
    with pytest.raises(Cancelled):
        read_extras(report, [0], rules=True, job=job)
    assert read_extras(report, []) == {}


def test_a_file_rewritten_since_it_was_opened_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "r.ncu-rep"
    shutil.copyfile(NAIVE, path)
    report = read_report(path)
    shutil.copyfile(ROOT / "profiles" / "tiled.ncu-rep", path)
    with pytest.raises(ReportError, match=r"r\.ncu-rep"):
        read_extras(report, [0], rules=True)


class FakeMetric:
    """An instanced metric as ncu_report's IMetric answers, without correlation ids."""

    def __init__(self, values: list[float], unit: str = "") -> None:
        self.values, self._unit = values, unit

    def num_instances(self) -> int:
        return len(self.values)

    def has_correlation_ids(self) -> bool:
        return False

    def as_double(self, i: int) -> float:
        return self.values[i]

    def unit(self) -> str:
        return self._unit


class FakeAction:
    def rule_results_as_dicts(self) -> list[dict]:
        raise RuntimeError("ncu_report cannot decode these rules")

    def metric_by_name(self, name: str) -> FakeMetric | None:
        return FakeMetric([1.0, float("nan"), 3.0], "Kbyte") if name == "m" else None


def test_a_part_ncu_report_cannot_decode_is_left_out_not_called_corrupt() -> None:
    from viewer.readers import ncu_rep_extras

    record = ncu_rep_extras.extras(FakeAction(), {"rules": True, "instances": ["m", "absent"]})
    assert record == {"instances": {"m": {"x": [0.0, 1.0, 2.0], "y": [1e3, None, 3e3]}}}
    assert extras_of(record).rules is None
    assert extras_of(record).instances == {"m": ((0.0, 2.0), (1e3, 3e3))}


class CountedMetric:
    """A plain metric as ncu_report's IMetric answers, counting what it is asked."""

    asked: ClassVar[dict[str, int]] = {}

    def __init__(self, name: str) -> None:
        self.name = name

    def _count(self, what: str) -> None:
        CountedMetric.asked[what] = CountedMetric.asked.get(what, 0) + 1

    def unit(self) -> str:
        self._count("unit")
        return "Kbyte"

    def label(self) -> str:
        self._count("label")
        return f"{self.name} label"

    def description(self) -> str:
        self._count("description")
        return f"{self.name} says"


class PlainAction:
    def metric_names(self) -> list[str]:
        return ["a", "b"]

    def metric_by_name(self, name: str) -> CountedMetric:
        return CountedMetric(name)


def test_each_metrics_words_are_asked_of_ncu_report_once_per_report() -> None:
    """A metric's unit, label and description are the metric's, not the kernel's: asked once
    for a report of many kernels (each costs ncu_report 5 to 40 us), answered alike for each."""
    from viewer.readers import ncu_rep_child, ncu_rep_extras

    class Kinds:
        ValueKind_UINT32, ValueKind_UINT64, ValueKind_FLOAT, ValueKind_DOUBLE = range(4)

    class Library:
        IMetric = Kinds

    reader = ncu_rep_child.MetricReader(Library)
    CountedMetric.asked.clear()
    records = [ncu_rep_extras.extras(PlainAction(), {"about": True}, reader.about)
               for _ in range(3)]
    assert records == [{"about": {"a": ["Kbyte", "a label", "a says"],
                                  "b": ["Kbyte", "b label", "b says"]}}] * 3
    assert CountedMetric.asked == {"unit": 2, "label": 2, "description": 2}
    assert reader.unit("a", CountedMetric("a")) == "Kbyte"
    assert CountedMetric.asked["unit"] == 2
    CountedMetric.asked.clear()
    assert ncu_rep_extras.about(PlainAction()) == records[0]["about"]
    assert CountedMetric.asked == {"unit": 2, "label": 2, "description": 2}
