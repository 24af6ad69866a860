"""What a .ncu-rep holds beyond metric values, through the reader's child: its answer judged,
the file's stamp kept, progress and cancel as for metrics."""

from __future__ import annotations

import shutil
from pathlib import Path

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
