"""The reading step a report opens on: the first it can fill, on every report of the corpus that
reads; a raw-metrics export of request and sector counts opens on the memory chart, and the
sentence names what it holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from viewer.analysis import reading_steps
from viewer.analysis.reading import READING_ORDER, value
from viewer.core.model import ReportError
from viewer.readers import read_report

CORPUS = Path(__file__).parents[1] / "data" / "corpus"
PROFILES = Path(__file__).parents[2] / "profiles"
RAW = CORPUS / "ncu-public" / "mid-2022-raw-metrics-l1tex-requests-sectors-rowsums-colsums.txt"
TITLES = ["1 Speed Of Light", "2 Memory chart", "3 Occupancy"]
FILES = sorted(p for p in [*CORPUS.rglob("*"), *PROFILES.iterdir()]
               if p.is_file() and p.suffix not in (".md", ".json", ".toml", ".py")
               and p.name != "README.md")


def _kernels(path: Path):
    try:
        return read_report(path).kernels
    except ReportError:
        return None


def test_the_raw_metrics_export_opens_on_the_memory_chart_and_says_why() -> None:
    kernels = read_report(RAW).kernels[:1]
    index, why = reading_steps.first_filled(kernels, TITLES)
    assert READING_ORDER[index] == "memory"
    assert why == ("Opened on 2 Memory chart: this report holds none of 1 Speed Of Light's "
                   "values, and holds Global load requests, Sectors moved (global loads).")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_report_opens_on_the_first_step_it_can_fill(path: Path) -> None:
    kernels = _kernels(path)
    if not kernels:
        pytest.skip("not a report the app reads")
    for shown in (kernels[:1], kernels[:2]):
        index, why = reading_steps.first_filled(shown, TITLES)
        held = [any(value(k, key) is not None for k in shown
                    for key in reading_steps.STEP_KEYS[step]) for step in READING_ORDER]
        if held[0] or not any(held):
            assert (index, why) == (0, "")
        else:
            assert index == held.index(True) and not any(held[:index])
            assert why.startswith(f"Opened on {TITLES[index]}: this report holds none of ")
