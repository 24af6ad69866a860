"""The shipped sweep (profiles/sweep/: the lesson's kernels at five sizes, captured on the H200
through the capture helper) as a series: N read from each launch, the derivation's counts exact
at every size, steps within one N, and the ratio note computed from its values."""

from __future__ import annotations

import re

import pytest

from viewer.analysis import series, series_points, series_words
from viewer.core import formatting as fmt
from viewer.core import shipped
from viewer.readers import read_report


@pytest.fixture(scope="module")
def sweep() -> series.Series:
    files = shipped.sweep()
    assert len(files) == 10, files
    return series.build([read_report(f) for f in files])


def test_n_is_read_from_each_launch_and_matches_the_file_s_name(sweep: series.Series) -> None:
    for r in sweep.rows:
        kind, size = re.fullmatch(r"(naive|tiled)-(\d+)\.ncu-rep\.gz",
                                  r.file.rsplit("/", 1)[-1]).groups()  # type: ignore[union-attr]
        assert (r.dim, kind in r.kernel.name) == (int(size), True)
    assert sorted({r.dim for r in sweep.rows}) == [128, 256, 512, 1024, 2048]


def test_the_derivation_s_counts_are_exact_at_every_size(sweep: series.Series) -> None:
    for r in sweep.rows:
        for key in (series.REQUESTS, series.SECTORS):
            assert r.values[key] == r.derived[key], (r.name, key)


def test_steps_stay_within_one_n(sweep: series.Series) -> None:
    pairs = series.step_pairs(sweep)
    assert pairs and all(sweep.rows[a].dim == sweep.rows[b].dim for a, b in pairs)
    assert all("naive" in sweep.rows[a].kernel.name and "tiled" in sweep.rows[b].kernel.name
               for a, b in pairs)
    assert len(series.steps(sweep)) == len(pairs) == 5


def test_one_kernel_over_sizes_steps_from_size_to_size(sweep: series.Series) -> None:
    naive = [r for r in sweep.rows if "naive" in r.kernel.name]
    made = series.build([read_report(f) for f in shipped.sweep() if "naive" in f.name])
    assert [r.dim for r in made.rows] == [r.dim for r in naive]
    assert series.step_pairs(made) == [(i - 1, i) for i in range(1, len(naive))]


def test_the_ratio_note_is_the_values_own(sweep: series.Series) -> None:
    [note] = series_words.ratio_note(sweep)
    points = [p for p in series_points.ratio_points(sweep) if p.pair == 0]
    sectors = {fmt.ratio(p.value) for p in points if p.key == series.SECTORS}
    durations = [p for p in points if p.key == series.DURATION]
    assert len(sectors) == 1 and f"{sectors.pop()} at every N (128 to 2048)" in note
    for p in durations:
        assert f"{fmt.ratio(p.value)} at {p.dim}" in note
    if len({fmt.ratio(p.value) for p in durations}) > 1:
        assert "that of Duration is not" in note
    assert note in series_words.notes(sweep)


def test_the_sweep_lists_each_size_s_pair_side_by_side() -> None:
    """By the size in the name, numerically (128 before 1024), then by name: the first two
    files, which the window compares, are the lesson's pair at one N."""
    names = [p.name for p in shipped.sweep()]
    assert names == [f"{kind}-{n}.ncu-rep.gz" for n in (128, 256, 512, 1024, 2048)
                     for kind in ("naive", "tiled")]


def test_with_no_file_the_series_opens_the_sweep_and_the_rest_the_pair() -> None:
    assert shipped.opened_with_no_file(series=True) == shipped.sweep()
    assert shipped.opened_with_no_file() == shipped.comparison()


def test_where_no_sweep_ships_the_series_opens_the_pair(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path) -> None:
    monkeypatch.setattr(shipped, "profiles_dir", lambda: tmp_path)
    assert shipped.sweep() == []
    assert shipped.opened_with_no_file(series=True) == shipped.comparison()
    (tmp_path / "sweep").mkdir()
    for name in ("tiled-1024.ncu-rep", "naive-1024.ncu-rep.gz", "tiled-128.ncu-rep",
                 "notes.txt", "odd.ncu-rep"):
        (tmp_path / "sweep" / name).write_bytes(b"")
    assert [p.name for p in shipped.sweep()] == [
        "odd.ncu-rep", "tiled-128.ncu-rep", "naive-1024.ncu-rep.gz", "tiled-1024.ncu-rep"]
