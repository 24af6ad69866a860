"""Where captures are kept: the folder, a sink that never overwrites, and the provenance note."""

from __future__ import annotations

import json
import os
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.hostile_disk import (
    FULL,
    NOBODY,
    as_nobody,
    fill_after,
    full_at_fsync,
    public_dir,
    small_disk,
)
from viewer.capture.provenance import (
    Provenance,
    describe,
    from_capture,
    gpu_name,
    read_provenance,
    sidecar,
    write_provenance,
)
from viewer.capture.store import ReportSink, SinkError, capture_stem, captures_dir

ROOT = Path(__file__).resolve().parents[2]
NAIVE = ROOT / "profiles" / "naive.ncu-rep"
STEM = "naive-512-full-20261201-120301"
REPORT = b"NVR\0" + bytes(range(256)) * 40


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# ---------------------------------------------------------------- the folder


def test_captures_dir_under_xdg_data_home_is_private(tmp_path: Path) -> None:
    folder = captures_dir({"XDG_DATA_HOME": str(tmp_path / "xdg")})
    assert folder == tmp_path / "xdg" / "ncu-reader" / "captures"
    assert folder.is_dir()
    assert mode(folder) == mode(folder.parent) == 0o700


def test_captures_dir_defaults_to_local_share(tmp_path: Path) -> None:
    for environ in ({}, {"XDG_DATA_HOME": ""}, {"XDG_DATA_HOME": "relative/path"}):
        folder = captures_dir(environ, home=tmp_path)
        assert folder == tmp_path / ".local" / "share" / "ncu-reader" / "captures"


@pytest.mark.parametrize("before", [0o755, 0o750, 0o777, 0o1777], ids=oct)
def test_an_own_open_folder_is_made_private(tmp_path: Path, before: int) -> None:
    """ncu-reader and captures, the user's own but readable or writable by others (an older
    version, a umask of 022), are tightened to 0700; what is in them stays."""
    existing = tmp_path / "ncu-reader" / "captures"
    existing.mkdir(parents=True)
    (existing / "old.ncu-rep").write_bytes(b"NVR\0mine")
    for folder in (existing, existing.parent):
        folder.chmod(before)
    assert captures_dir({"XDG_DATA_HOME": str(tmp_path)}) == existing
    assert mode(existing) == mode(existing.parent) == 0o700
    assert (existing / "old.ncu-rep").read_bytes() == b"NVR\0mine"


def test_a_folder_that_cannot_be_made_private_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A filesystem that will not change a folder's mode (injected: fchmod fails as on a share
    without modes): an open-to-all folder is refused, a merely readable one is kept."""
    existing = tmp_path / "ncu-reader" / "captures"
    existing.mkdir(parents=True, mode=0o700)
    existing.chmod(0o777)

    def fchmod(fd: int, mode: int) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "fchmod", fchmod)
    with pytest.raises(SinkError) as caught:
        captures_dir({"XDG_DATA_HOME": str(tmp_path)})
    assert str(caught.value) == (f"Cannot keep captures in {existing}: {existing} is writable "
                                 "by group or others (mode 0777) and cannot be made private"
                                 f"{ELSEWHERE}")
    with pytest.raises(SinkError, match="writable by group or others"):
        ReportSink(existing, STEM)
    assert os.listdir(existing) == []
    existing.chmod(0o755)
    assert captures_dir({"XDG_DATA_HOME": str(tmp_path)}) == existing


@pytest.mark.parametrize("linked", ["ncu-reader", "ncu-reader/captures"])
def test_a_linked_captures_folder_is_refused_and_nothing_goes_where_it_leads(
        tmp_path: Path, linked: str) -> None:
    """A link at ncu-reader or captures (planted in a shared XDG_DATA_HOME, or left there) is
    not followed: one message naming it, and the folder it leads to is left as it was."""
    data = tmp_path / "data"
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "captures").mkdir(parents=True)
    elsewhere.chmod(0o755)
    (data / linked).parent.mkdir(parents=True, exist_ok=True)
    (data / linked).symlink_to(elsewhere if linked == "ncu-reader" else elsewhere / "captures")
    captures = data / "ncu-reader" / "captures"
    with pytest.raises(SinkError) as caught:
        captures_dir({"XDG_DATA_HOME": str(data)})
    assert str(caught.value).startswith(f"Cannot keep captures in {captures}: {data / linked} "
                                        "is a link (to ")
    assert str(caught.value).endswith(f"); links are not followed to the app's own folders"
                                      f"{ELSEWHERE}")
    if linked == "ncu-reader/captures":
        with pytest.raises(SinkError, match=r"^Cannot use the captures folder .* is a link"):
            ReportSink(captures, STEM)
    assert os.listdir(elsewhere / "captures") == []
    assert mode(elsewhere) == 0o755


def test_a_link_above_the_folders_is_followed_only_when_root_or_the_user_owns_it(
        tmp_path: Path) -> None:
    """XDG_DATA_HOME through a link of the user's (a home moved to another disk, /home ->
    var/home) works, though no folder is made where a link to nothing leads; a link that
    someone else owns is not followed."""
    disk = tmp_path / "disk"
    disk.mkdir()
    (tmp_path / "share").symlink_to(disk)
    assert captures_dir({"XDG_DATA_HOME": str(tmp_path / "share")}) == \
        tmp_path / "share" / "ncu-reader" / "captures"
    assert (disk / "ncu-reader" / "captures").is_dir()
    (tmp_path / "moved").symlink_to(tmp_path / "gone")
    with pytest.raises(SinkError, match=f"{tmp_path}/gone does not exist"):
        captures_dir({"XDG_DATA_HOME": str(tmp_path / "moved")})
    assert not (tmp_path / "gone").exists()
    if os.geteuid() != 0:
        return  # only root can give a link to another user
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o1777)
    shared.chmod(0o1777)
    (shared / "data").symlink_to(tmp_path / "theirs")
    os.lchown(shared / "data", NOBODY, NOBODY)
    with pytest.raises(SinkError, match=f"{shared}/data is a link owned by nobody \\(uid "
                                        f"{NOBODY}\\), neither root nor you; it is not followed"):
        captures_dir({"XDG_DATA_HOME": str(shared / "data")})
    assert not (tmp_path / "theirs").exists()


@pytest.mark.parametrize("planted", ["ncu-reader", "ncu-reader/captures"])
@pytest.mark.parametrize("planted_mode", [0o755, 0o777], ids=oct)
def test_a_folder_another_user_planted_is_refused_and_left_as_it_is(
        tmp_path: Path, planted: str, planted_mode: int) -> None:
    """A shared XDG_DATA_HOME (sticky, writable by all) where another user (nobody) made
    ncu-reader or captures first: refused, naming it; its owner and mode stay as they were, and
    nothing is written in it."""
    if os.geteuid() != 0:
        pytest.skip("giving a folder to another user needs root")
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    (shared / planted).mkdir(parents=True)
    os.chown(shared / planted, NOBODY, NOBODY)
    (shared / planted).chmod(planted_mode)
    captures = shared / "ncu-reader" / "captures"
    with pytest.raises(SinkError) as caught:
        captures_dir({"XDG_DATA_HOME": str(shared)})
    assert str(caught.value) == (f"Cannot keep captures in {captures}: {shared / planted} is "
                                 f"owned by nobody (uid {NOBODY}), not by you{ELSEWHERE}")
    st = (shared / planted).stat()
    assert (st.st_uid, stat.S_IMODE(st.st_mode)) == (NOBODY, planted_mode)
    if planted == "ncu-reader/captures":
        with pytest.raises(SinkError, match=f"^Cannot use the captures folder {captures}: "
                                            f"{captures} is owned by nobody"):
            ReportSink(captures, STEM)
    assert sorted(p.name for p in (shared / planted).iterdir()) == \
        (["captures"] if planted == "ncu-reader" and captures.exists() else [])


@pytest.mark.parametrize("given", ["path", "open folder"])
def test_the_folder_swapped_for_a_link_while_a_report_streams_changes_nothing_elsewhere(
        tmp_path: Path, given: str) -> None:
    """The sink's folder is renamed and a link put at its path, leading to a folder with a link
    at the report's name and a file at the sidecar's: the report and its note still land in the
    folder the sink opened and checked; nothing where the link leads is written or replaced.
    The sink is given the folder's path, or the folder open_captures checked and holds open."""
    environ = {"XDG_DATA_HOME": str(tmp_path / "data")}
    if given == "path":
        captures = captures_dir(environ)
        sink = ReportSink(captures, STEM)
    else:
        from viewer.capture.store import open_captures

        folder = open_captures(environ)
        captures = folder.path
        sink = ReportSink(folder, STEM)
    sink.write(REPORT)
    moved = tmp_path / "moved"
    captures.rename(moved)
    decoy = tmp_path / "decoy"
    decoy.mkdir()
    precious = tmp_path / "precious"
    precious.write_bytes(b"the user's")
    (decoy / f"{STEM}.ncu-rep").symlink_to(precious)
    (decoy / f"{STEM}.ncu-rep.json").write_text("theirs")
    captures.symlink_to(decoy)
    path = sink.commit()
    assert path == captures / f"{STEM}.ncu-rep"  # its name; the file is where the sink wrote
    assert sink.claim is not None
    write_provenance(path, RECORD, sink.claim)
    assert sorted(os.listdir(moved)) == [f"{STEM}.ncu-rep", f"{STEM}.ncu-rep.json"]
    assert (moved / f"{STEM}.ncu-rep").read_bytes() == REPORT
    assert read_provenance(moved / f"{STEM}.ncu-rep") == RECORD
    assert sorted(os.listdir(decoy)) == [f"{STEM}.ncu-rep", f"{STEM}.ncu-rep.json"]
    assert (decoy / f"{STEM}.ncu-rep.json").read_text() == "theirs"
    assert precious.read_bytes() == b"the user's"


def test_capture_stem() -> None:
    now = datetime(2026, 12, 1, 12, 3, 1, tzinfo=UTC)
    assert capture_stem("naive", 512, "full", now) == STEM


# ---------------------------------------------------------------- the sink


def test_commit_takes_the_plain_name_and_leaves_no_temp(tmp_path: Path) -> None:
    sink = ReportSink(tmp_path, STEM)
    for i in range(0, len(REPORT), 1000):
        sink.write(REPORT[i:i + 1000])
    assert sink.size == len(REPORT)
    path = sink.commit()
    assert path == tmp_path / f"{STEM}.ncu-rep" == sink.path
    assert path.read_bytes() == REPORT
    assert sorted(os.listdir(tmp_path)) == [path.name, path.name + ".json"]  # its sidecar's too
    assert mode(path) == 0o600


def test_commit_never_overwrites(tmp_path: Path) -> None:
    original = tmp_path / f"{STEM}.ncu-rep"
    original.write_bytes(b"NVR\0the one already there")
    before = original.stat()
    sink = ReportSink(tmp_path, STEM)
    sink.write(REPORT)
    assert sink.commit() == tmp_path / f"{STEM}-2.ncu-rep"
    assert original.read_bytes() == b"NVR\0the one already there"
    assert (original.stat().st_ino, original.stat().st_mtime_ns) == (before.st_ino,
                                                                      before.st_mtime_ns)
    with ReportSink(tmp_path, STEM) as third:
        third.write(REPORT)
        assert third.commit() == tmp_path / f"{STEM}-3.ncu-rep"
    assert sorted(os.listdir(tmp_path)) == [f"{STEM}-2.ncu-rep", f"{STEM}-2.ncu-rep.json",
                                            f"{STEM}-3.ncu-rep", f"{STEM}-3.ncu-rep.json",
                                            f"{STEM}.ncu-rep"]


def test_a_link_in_the_way_is_neither_followed_nor_replaced(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_bytes(b"precious")
    folder = tmp_path / "captures"
    folder.mkdir()
    (folder / f"{STEM}.ncu-rep").symlink_to(elsewhere)
    (folder / f"{STEM}-2.ncu-rep").symlink_to(tmp_path / "dangling")
    sink = ReportSink(folder, STEM)
    sink.write(REPORT)
    assert sink.commit() == folder / f"{STEM}-3.ncu-rep"
    assert elsewhere.read_bytes() == b"precious"
    assert not (tmp_path / "dangling").exists()


STALE = json.dumps({"schema": 1, "gpu": "Tesla T4", "driver": "470.1", "ncu_version": None,
                    "set": "basic", "clock": "none", "dim": 256, "target": "tiled",
                    "captured_utc": "2020-01-01T00:00:00+00:00", "route": "direct"})


def committed(folder: Path) -> ReportSink:
    sink = ReportSink(folder, STEM)
    sink.write(REPORT)
    sink.commit()
    return sink


def test_a_stale_sidecar_is_not_taken_for_the_new_reports(tmp_path: Path) -> None:
    """A report and its sidecar take their names together: an old `NAME.ncu-rep.json` moves the
    new report on to the next free pair, and is neither read nor written."""
    stale = tmp_path / f"{STEM}.ncu-rep.json"
    stale.write_text(STALE)
    sink = committed(tmp_path)
    assert sink.path == tmp_path / f"{STEM}-2.ncu-rep"
    assert sink.claim is not None and sink.claim.path == sidecar(sink.path)
    assert read_provenance(sink.path) is None  # claimed, empty until written
    assert write_provenance(sink.path, RECORD, sink.claim) == sidecar(sink.path)
    assert read_provenance(sink.path) == RECORD
    assert stale.read_text() == STALE
    assert sorted(os.listdir(tmp_path)) == [f"{STEM}-2.ncu-rep", f"{STEM}-2.ncu-rep.json",
                                            f"{STEM}.ncu-rep.json"]


def test_the_first_pair_with_both_names_free_is_taken(tmp_path: Path) -> None:
    (tmp_path / f"{STEM}.ncu-rep").write_bytes(b"NVR\0mine")
    (tmp_path / f"{STEM}-2.ncu-rep.json").write_text(STALE)
    (tmp_path / f"{STEM}-3.ncu-rep.json").symlink_to(tmp_path / "dangling")
    (tmp_path / f"{STEM}-4.ncu-rep.json").mkdir()
    assert committed(tmp_path).path == tmp_path / f"{STEM}-5.ncu-rep"
    assert not (tmp_path / f"{STEM}-2.ncu-rep").exists()
    assert not (tmp_path / "dangling").exists()
    assert (tmp_path / f"{STEM}.ncu-rep").read_bytes() == b"NVR\0mine"


def test_a_sidecar_that_appears_after_the_report_was_linked_gives_the_name_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Someone else's sidecar lands between the report's link and the sidecar's claim: the
    report's link (the sink's own) is undone and the next pair taken."""
    real = os.link

    def link(src, dst, *args, **kwargs) -> None:
        real(src, dst, *args, **kwargs)
        if Path(dst).name == f"{STEM}.ncu-rep":
            (tmp_path / f"{STEM}.ncu-rep.json").write_text(STALE)

    monkeypatch.setattr(os, "link", link)
    assert committed(tmp_path).path == tmp_path / f"{STEM}-2.ncu-rep"
    assert sorted(os.listdir(tmp_path)) == [f"{STEM}-2.ncu-rep", f"{STEM}-2.ncu-rep.json",
                                            f"{STEM}.ncu-rep.json"]
    assert (tmp_path / f"{STEM}.ncu-rep.json").read_text() == STALE


def test_without_hard_links_the_pair_is_still_taken_together(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where links are refused (FAT sticks, some shares) the report's name is claimed empty,
    then the sidecar's, then the report is moved onto its name."""

    def refuse(*args, **kwargs) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", refuse)
    (tmp_path / f"{STEM}.ncu-rep.json").write_text(STALE)
    sink = committed(tmp_path)
    assert sink.path == tmp_path / f"{STEM}-2.ncu-rep"
    assert sink.path.read_bytes() == REPORT
    assert sorted(os.listdir(tmp_path)) == [f"{STEM}-2.ncu-rep", f"{STEM}-2.ncu-rep.json",
                                            f"{STEM}.ncu-rep.json"]


def test_a_claimed_sidecar_replaced_meanwhile_is_not_written(tmp_path: Path) -> None:
    sink = committed(tmp_path)
    assert sink.claim is not None
    sink.claim.path.unlink()
    sink.claim.path.write_text(STALE)  # not the empty file the sink made
    with pytest.raises(FileExistsError):
        write_provenance(sink.path, RECORD, sink.claim)
    assert sink.claim.path.read_text() == STALE


def test_a_provenance_that_cannot_be_written_gives_its_name_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The report is kept; its empty sidecar goes (ENOSPC at fsync stands in for a full disk)."""
    sink = committed(tmp_path)
    full_at_fsync(monkeypatch)
    with pytest.raises(OSError, match=FULL):
        write_provenance(sink.path, RECORD, sink.claim)
    assert os.listdir(tmp_path) == [sink.path.name]


def test_abort_leaves_nothing(tmp_path: Path) -> None:
    sink = ReportSink(tmp_path, STEM)
    sink.write(REPORT)
    assert len(os.listdir(tmp_path)) == 1  # the temporary file, in the same folder
    sink.abort()
    sink.abort()
    assert os.listdir(tmp_path) == []
    with pytest.raises(SinkError):
        sink.write(REPORT)
    with pytest.raises(SinkError):
        sink.commit()


def test_leaving_the_with_block_uncommitted_aborts(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), ReportSink(tmp_path, STEM) as sink:
        sink.write(REPORT)
        raise RuntimeError("the capture failed")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("chunks", [[b"PK\3\4" + bytes(100)], [], [b"NVR"], [b"NVR\1" + REPORT]])
def test_bad_magic_is_refused_at_commit(tmp_path: Path, chunks: list[bytes]) -> None:
    sink = ReportSink(tmp_path, STEM)
    for chunk in chunks:
        sink.write(chunk)
    with pytest.raises(SinkError, match="not an Nsight Compute report"):
        sink.commit()
    assert os.listdir(tmp_path) == []


def test_magic_split_across_chunks(tmp_path: Path) -> None:
    sink = ReportSink(tmp_path, STEM)
    for chunk in (b"N", b"V", b"R\0", REPORT[4:]):
        sink.write(chunk)
    assert sink.commit().read_bytes() == REPORT


def test_the_size_cap(tmp_path: Path) -> None:
    sink = ReportSink(tmp_path, STEM, cap=len(REPORT))
    sink.write(REPORT)
    with pytest.raises(SinkError, match=f"grew past {len(REPORT):,} bytes"):
        sink.write(b"x")
    sink.abort()
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("stem", ["", "../naive", "a/b", ".hidden", "naive 512", "x" * 200])
def test_stems_are_plain_names(tmp_path: Path, stem: str) -> None:
    with pytest.raises(ValueError):
        ReportSink(tmp_path, stem)
    assert os.listdir(tmp_path) == []


# ---------------------------------------------------------------- a folder or a disk that fails

ELSEWHERE = " (set XDG_DATA_HOME to keep them elsewhere)."


@pytest.mark.parametrize("in_the_way", ["ncu-reader", "ncu-reader/captures"])
def test_a_file_in_the_way_of_the_folder_is_one_message(tmp_path: Path, in_the_way: str) -> None:
    path = tmp_path / in_the_way
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("mine")
    with pytest.raises(SinkError) as caught:
        captures_dir({"XDG_DATA_HOME": str(tmp_path)})
    assert str(caught.value) == (f"Cannot keep captures in {tmp_path}/ncu-reader/captures: "
                                 f"{path} is not a folder{ELSEWHERE}")
    assert path.read_text() == "mine"


def test_a_data_home_that_is_a_file_or_a_dangling_link_is_one_message(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.write_text("mine")
    with pytest.raises(SinkError, match=f"^Cannot keep captures in {data}/ncu-reader/captures: "
                                        f"{data} is not a folder"):
        captures_dir({"XDG_DATA_HOME": str(data)})
    (tmp_path / "share").mkdir()
    (tmp_path / "share" / "ncu-reader").symlink_to(tmp_path / "gone")
    with pytest.raises(SinkError, match=f"{tmp_path}/share/ncu-reader is a link \\(to "
                                        f"{tmp_path}/gone\\); links are not followed"):
        captures_dir({"XDG_DATA_HOME": str(tmp_path / "share")})
    assert not (tmp_path / "gone").exists()


def test_a_data_home_the_user_may_not_write_is_one_message() -> None:
    """XDG_DATA_HOME=/ for an ordinary user: / is not theirs to write."""

    def attempt() -> tuple[int, str]:
        try:
            return 0, str(captures_dir({"XDG_DATA_HOME": "/"}))
        except SinkError as exc:
            return 1, str(exc)

    assert as_nobody(attempt) == (1, "Cannot keep captures in /ncu-reader/captures: cannot "
                                     f"make /ncu-reader: Permission denied{ELSEWHERE}")


def test_a_captures_folder_the_user_may_not_write_is_one_message() -> None:
    """nobody's own folder, made read-only (0500): the user's to use, but not to write in."""
    with public_dir() as base:
        folder = base / "captures"
        folder.mkdir()
        os.chown(folder, NOBODY, NOBODY)
        folder.chmod(0o500)

        def attempt() -> tuple[int, str]:
            try:
                ReportSink(folder, STEM)
                return 0, "a sink"
            except SinkError as exc:
                return 1, str(exc)

        assert as_nobody(attempt) == (1, f"Cannot write in the captures folder {folder}: "
                                         "Permission denied; nothing was saved.")
        assert os.listdir(folder) == []


def test_a_captures_folder_of_someone_else_is_one_message() -> None:
    """root's folder, as the user nobody: not theirs, so not used (not even tried)."""
    with public_dir() as folder:
        def attempt() -> tuple[int, str]:
            try:
                ReportSink(folder, STEM)
                return 0, "a sink"
            except SinkError as exc:
                return 1, str(exc)

        assert as_nobody(attempt) == (1, f"Cannot use the captures folder {folder}: {folder} is "
                                         "owned by root (uid 0), not by you; nothing was saved.")
        assert os.listdir(folder) == []


def test_a_disk_that_fills_while_writing_is_one_message_and_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk with 5,000 bytes left (injected: it stands in for a full disk)."""
    fill_after(monkeypatch, 5000)
    sink = ReportSink(tmp_path, STEM)
    sink.write(REPORT[:4000])
    with pytest.raises(SinkError) as caught:
        sink.write(REPORT[4000:])
    assert str(caught.value) == (f"Could not write the report in {tmp_path}: {FULL}; "
                                 "nothing was saved.")
    assert os.listdir(tmp_path) == []
    with pytest.raises(SinkError):
        sink.commit()
    assert os.listdir(tmp_path) == []


def test_a_disk_found_full_at_commit_is_one_message_and_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """fsync fails with ENOSPC (injected: it stands in for a full disk noticed at the flush)."""
    sink = ReportSink(tmp_path, STEM)
    sink.write(REPORT)
    full_at_fsync(monkeypatch)
    with pytest.raises(SinkError, match=f"^Could not write the report in {tmp_path}: {FULL}; "):
        sink.commit()
    assert os.listdir(tmp_path) == []
    assert sink.path is None


def test_a_real_small_disk_fills_and_is_left_empty(tmp_path: Path) -> None:
    """A 256 KiB tmpfs and a report four times that."""
    with small_disk(tmp_path / "disk") as disk:
        sink = ReportSink(disk, STEM)
        with pytest.raises(SinkError, match=f"^Could not write the report in {disk}: {FULL}; "):
            for _ in range(16):
                sink.write(REPORT[:1] + bytes(64 << 10))
        assert os.listdir(disk) == []


# ---------------------------------------------------------------- provenance

RECORD = Provenance(gpu="NVIDIA H200", driver="580.159.04",
                    ncu_version="Version 2025.3.1.0 (build 36398880) (public-release)",
                    set="full", clock="base", dim=512, target="naive",
                    captured_utc="2026-12-01T12:03:01+00:00", route="pkexec")


def test_provenance_round_trip(tmp_path: Path) -> None:
    report = tmp_path / f"{STEM}.ncu-rep"
    report.write_bytes(REPORT)
    assert write_provenance(report, RECORD) == tmp_path / f"{STEM}.ncu-rep.json"
    assert read_provenance(report) == RECORD
    assert sorted(os.listdir(tmp_path)) == [report.name, report.name + ".json"]


def test_describe_is_one_line() -> None:
    assert describe(RECORD) == ("Captured here 2026-12-01 12:03 UTC: NVIDIA H200, driver "
                                "580.159.04, ncu 2025.3.1, full set, clocks base, 512x512x512, "
                                "through pkexec")
    unknown = Provenance(None, None, None, "basic", "none", 256, "tiled",
                         "2026-12-01T13:03:01+01:00", "direct")
    assert describe(unknown) == ("Captured here 2026-12-01 12:03 UTC: unknown GPU, driver "
                                 "unknown, ncu version unknown, basic set, clocks none, "
                                 "256x256x256, run directly")


def test_provenance_is_never_overwritten(tmp_path: Path) -> None:
    report = tmp_path / "r.ncu-rep"
    sidecar(report).write_text("someone else's")
    with pytest.raises(FileExistsError):
        write_provenance(report, RECORD)
    assert sidecar(report).read_text() == "someone else's"
    assert os.listdir(tmp_path) == ["r.ncu-rep.json"]


def good() -> dict:
    return {"schema": 1, **RECORD.__dict__}


@pytest.mark.parametrize("content", [
    b"", b"not json", b"\xff\xfe\x00garbage", b"[1, 2]", b"null", b"[" * 100_000,
    json.dumps({**good(), "schema": 2}).encode(),
    json.dumps({k: v for k, v in good().items() if k != "gpu"}).encode(),
    json.dumps({**good(), "dim": "512"}).encode(),
    json.dumps({**good(), "dim": True}).encode(),
    json.dumps({**good(), "target": None}).encode(),
    json.dumps({**good(), "gpu": ["NVIDIA H200"]}).encode(),
    json.dumps({**good(), "captured_utc": "yesterday"}).encode(),
    json.dumps({**good(), "pad": "x" * 70_000}).encode(),
])
def test_garbled_provenance_reads_as_none(tmp_path: Path, content: bytes) -> None:
    report = tmp_path / "r.ncu-rep"
    sidecar(report).write_bytes(content)
    assert read_provenance(report) is None


def test_missing_or_unreadable_provenance_reads_as_none(tmp_path: Path) -> None:
    assert read_provenance(tmp_path / "r.ncu-rep") is None
    sidecar(tmp_path / "d.ncu-rep").mkdir()
    assert read_provenance(tmp_path / "d.ncu-rep") is None


def test_from_capture_takes_what_the_helper_said(tmp_path: Path) -> None:
    now = datetime(2026, 12, 1, 12, 3, 1, tzinfo=UTC)
    done = {"bytes": 1, "ncu_version": RECORD.ncu_version, "driver": "580.159.04"}
    assert from_capture("naive", 512, "full", "base", "pkexec", done, "NVIDIA H200", now) == RECORD
    bare = from_capture("naive", 512, "full", "base", "direct", {"driver": None, "ncu_version": 3},
                        "GPU", now)
    assert (bare.driver, bare.ncu_version) == (None, None)


def test_gpu_name_from_the_driver(tmp_path: Path) -> None:
    assert gpu_name(tmp_path / "absent") is None
    card = tmp_path / "0000:19:00.0"
    card.mkdir()
    (card / "information").write_text("Model: \t\t NVIDIA H200\nIRQ:   \t\t 17\n"
                                      "GPU UUID: \t GPU-0\n")
    assert gpu_name(tmp_path) == "NVIDIA H200"
