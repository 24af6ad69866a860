"""viewer.core.atomic_write: a file is written whole beside its target and renamed into place; an
existing file is replaced only when asked, and never half-written."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from viewer.core import atomic_write
from viewer.core.atomic_write import write_atomically, write_text_atomically


def test_a_new_file_is_written_beside_the_target_then_named(tmp_path) -> None:
    target = tmp_path / "pair.md"
    seen: list[Path] = []

    def write(temporary: Path) -> None:
        seen.append(temporary)
        assert not target.exists()  # nothing at the target while the content is written
        temporary.write_text("## a against b\n", encoding="utf-8")

    assert write_atomically(target, write) == target
    [temporary] = seen
    assert temporary.parent == tmp_path and temporary.name.startswith(".pair.md.")
    assert target.read_text(encoding="utf-8") == "## a against b\n"
    assert list(tmp_path.iterdir()) == [target]


def test_an_existing_file_is_not_replaced_unasked(tmp_path) -> None:
    target = tmp_path / "pair.csv"
    target.write_text("the lecture's copy", encoding="utf-8")
    with pytest.raises(FileExistsError) as caught:
        write_text_atomically(target, "new")
    assert caught.value.filename == str(target)
    assert target.read_text(encoding="utf-8") == "the lecture's copy"
    assert list(tmp_path.iterdir()) == [target]


def test_a_file_that_appears_while_writing_is_not_replaced(tmp_path) -> None:
    target = tmp_path / "slide.png"

    def write(temporary: Path) -> None:
        temporary.write_bytes(b"new picture")
        target.write_bytes(b"someone else's")  # another program got there first

    with pytest.raises(FileExistsError):
        write_atomically(target, write)
    assert target.read_bytes() == b"someone else's"
    assert list(tmp_path.iterdir()) == [target]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path) -> None:
    target = tmp_path / "slide.svg"
    target.write_text("<svg>old</svg>", encoding="utf-8")

    def write(temporary: Path) -> None:
        temporary.write_text("<svg>half", encoding="utf-8")
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError, match="No space"):
        write_atomically(target, write, replace=True)
    assert target.read_text(encoding="utf-8") == "<svg>old</svg>"
    assert list(tmp_path.iterdir()) == [target]


def test_replacing_keeps_the_old_files_mode(tmp_path) -> None:
    target = tmp_path / "shared.md"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    write_text_atomically(target, "new", replace=True)
    assert target.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_new_file_gets_the_umask_mode_not_a_temporary_files(tmp_path) -> None:
    old = os.umask(0o022)
    try:
        write_text_atomically(tmp_path / "new.md", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.md").stat().st_mode) == 0o644


def test_without_hard_links_it_still_refuses_to_replace(tmp_path, monkeypatch) -> None:
    """A FAT or exFAT stick refuses hard links: a check and a rename take their place."""
    def no_links(source, destination):
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(atomic_write.os, "link", no_links)
    target = tmp_path / "pair.csv"
    write_text_atomically(target, "first")
    assert target.read_text(encoding="utf-8") == "first"
    with pytest.raises(FileExistsError):
        write_text_atomically(target, "second")
    assert target.read_text(encoding="utf-8") == "first"
    assert list(tmp_path.iterdir()) == [target]
