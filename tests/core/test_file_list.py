"""Each file a command names, read once (viewer.core.file_list): the same file named again, by
the same path, another spelling of it, a link or a hard link, is dropped with one line."""

from __future__ import annotations

import os
from pathlib import Path

from viewer.core.file_list import named_once


def test_a_file_named_again_is_read_once_and_said_once(tmp_path: Path) -> None:
    first, other = tmp_path / "naive.ncu-rep", tmp_path / "tiled.ncu-rep"
    first.write_bytes(b"a")
    other.write_bytes(b"b")
    assert named_once([first, other]) == ([first, other], [])
    assert named_once([first, first, other]) == (
        [first, other], [f"{first} named twice: read once"])
    assert named_once([first, other, first, first]) == (
        [first, other], [f"{first} named 3 times: read once"])


def test_another_spelling_a_link_and_a_hard_link_are_the_same_file(tmp_path: Path,
                                                                    monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "profiles").mkdir()
    report = Path("profiles/naive.ncu-rep")
    report.write_bytes(b"a")
    os.symlink(report.name, "profiles/link.ncu-rep")
    os.link(report, "hard.ncu-rep")
    spelled = Path("./profiles/../profiles/naive.ncu-rep")
    for again in (spelled, Path("profiles/link.ncu-rep"), Path("hard.ncu-rep"),
                  tmp_path / report):
        assert named_once([report, again]) == (
            [report], [f"{report} named twice (also as {again}): read once"])
    kept, said = named_once([str(report), str(report)])
    assert kept == [str(report)] and said == [f"{report} named twice: read once"]


def test_a_path_that_is_not_there_is_left_to_the_reader_once(tmp_path: Path) -> None:
    missing = tmp_path / "missing.ncu-rep"
    assert named_once([missing, missing]) == ([missing], [f"{missing} named twice: read once"])
    assert named_once([missing, tmp_path / "other.csv"]) == ([missing, tmp_path / "other.csv"],
                                                             [])
