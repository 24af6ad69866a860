"""The session a report records (viewer.readers.ncu_session), against ncu 2025.3.1's own
`--page session` printout of every .ncu-rep here; a details text's warning line; garbage never
raises."""

from __future__ import annotations

import dataclasses
import random
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from viewer.analysis import metric_table
from viewer.core.model import Session, merged
from viewer.readers import ncu_session, read_report

DATA = Path(__file__).resolve().parents[1] / "data"
ROOT = DATA.parent.parent
CORPUS = DATA / "corpus" / "h200"
REPORTS = sorted(CORPUS.glob("*.ncu-rep")) + sorted((ROOT / "profiles").glob("*.ncu-rep"))
TEXTS = sorted(CORPUS.glob("*.details.txt")) + sorted((ROOT / "profiles").glob("*.details.txt"))


def printout(report: Path) -> Path:
    """ncu's `--page session` of `report`: beside it, or for the shipped pair (the corpus's
    line-info capture) in the corpus."""
    name = report.name.removesuffix(".ncu-rep") + ".session.txt"
    beside = report.with_name(name)
    return beside if beside.exists() else CORPUS / f"numba-{report.stem}-lineinfo.session.txt"


def printed(text: str) -> dict[str, str]:
    """ncu's session tables as {attribute: value}: each column is as wide as its dashes, and a
    long value goes on over the next lines at exactly that width."""
    rows: dict[str, str] = {}
    columns: list[tuple[int, int]] = []
    last = None
    for line in text.splitlines():
        if re.fullmatch(r"-+( -+)+", line):
            columns = [m.span() for m in re.finditer(r"-+", line)]
            last = None
            continue
        if len(columns) != 2 or not line.strip():
            last = None
            continue
        (a, b), (c, d) = columns
        name, value = line[a:b].strip(), line[c:d]
        if name:
            last = name
            rows[name] = value
        elif last is not None:
            rows[last] += value
    return {k: v.strip() for k, v in rows.items()}


def test_every_report_here_has_ncu_s_printout() -> None:
    assert len(REPORTS) >= 6
    assert all(printout(r).exists() for r in REPORTS)


@pytest.mark.parametrize("report", REPORTS, ids=lambda p: p.name)
def test_the_session_is_what_ncu_prints_of_it(report: Path) -> None:
    rows = printed(printout(report).read_text())
    session = ncu_session.container_session(report)
    assert session is not None
    assert session.command_line == rows["Profiler Command Line"]
    assert session.cuda_version == rows["CUDA Version"]
    assert session.ncu_version == rows["Nsight Compute Target"]
    # ncu printed the time where it ran (the H200 machine keeps UTC).
    created = datetime.strptime(rows["Created"], "%Y-%b-%d %H:%M:%S").replace(tzinfo=UTC)
    assert session.created == created.isoformat(timespec="seconds")
    named = re.search(r"--clock-control (\w+)", rows["Profiler Command Line"])
    assert session.clock_control == (named.group(1) if named else "base")


def test_the_clock_control_is_the_command_line_s_else_ncu_s_default() -> None:
    assert ncu_session.clock_control("ncu --clock-control none -o r app")[0] == "none"
    assert ncu_session.clock_control("ncu --clock-control=base -o r app")[0] == "base"
    clock, source = ncu_session.clock_control("ncu --set full -o r app")
    assert clock == ncu_session.DEFAULT_CLOCK_CONTROL == "base"
    assert "names no --clock-control" in source


def test_read_report_attaches_the_session() -> None:
    report = read_report(REPORTS[0])
    assert report.session == ncu_session.container_session(REPORTS[0])
    assert report.session is not None and report.session.clock_control is not None
    text = TEXTS[0]
    assert read_report(text).session == ncu_session.read(text, "details-text")


@pytest.mark.parametrize("text", TEXTS, ids=lambda p: p.name)
def test_a_details_text_s_warning_is_its_clock_evidence(text: Path) -> None:
    (line,) = {s.strip() for s in text.read_text().splitlines() if "fixed GPU frequencies" in s}
    session = ncu_session.read(text, "details-text")
    assert session == Session(clock_control="none", clock_source="ncu's own warning in it",
                              warning=line)


def test_an_export_without_the_warning_or_a_session_has_none(tmp_path: Path) -> None:
    text = TEXTS[0].read_text()
    bare = tmp_path / "bare.details.txt"
    bare.write_text("\n".join(s for s in text.splitlines() if "fixed GPU" not in s))
    assert ncu_session.read(bare, "details-text") is None
    assert read_report(bare).session is None
    csv = CORPUS / "numba-naive.details.csv"
    assert read_report(csv).session is None


def test_a_large_report_is_not_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Payloads and string tables are seeked over: far fewer bytes are read than the file has."""
    report = max(REPORTS, key=lambda p: p.stat().st_size)
    counted = [0]
    real_open = Path.open

    def counting_open(self: Path, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        f = real_open(self, *args, **kwargs)  # type: ignore[call-overload]
        read = f.read

        def counted_read(n: int = -1) -> bytes:
            data: bytes = read(n)
            counted[0] += len(data)
            return data

        f.read = counted_read
        return f

    monkeypatch.setattr(Path, "open", counting_open)
    assert ncu_session.container_session(report) is not None
    assert counted[0] < report.stat().st_size // 20


def _garbled(data: bytes, rng: random.Random) -> bytes:
    choice = rng.randrange(4)
    if choice == 0:
        return data[:rng.randrange(len(data))]
    out = bytearray(data)
    for _ in range(rng.randrange(1, 64)):
        i = rng.randrange(len(out))
        out[i] = rng.randrange(256) if choice == 1 else out[i] ^ (1 << rng.randrange(8))
    if choice == 3:  # flips where the session and the block framing sit
        for _ in range(8):
            i = rng.randrange(max(1, len(out) - 4096), len(out))
            out[i] ^= 0xFF
        out[rng.randrange(4, 200)] ^= 0xFF
    return bytes(out)


def test_garbage_never_raises(tmp_path: Path) -> None:
    rng = random.Random(20261201)
    sources = [p.read_bytes() for p in REPORTS if p.stat().st_size < 400_000]
    sources.append(REPORTS[0].read_bytes())
    target = tmp_path / "garbled.ncu-rep"
    absent = 0
    for trial in range(400):
        target.write_bytes(_garbled(sources[trial % len(sources)], rng))
        session = ncu_session.read(target, "ncu-rep")
        assert session is None or isinstance(session, Session)
        absent += session is None
    target.write_bytes(b"")
    assert ncu_session.read(target, "ncu-rep") is None
    target.write_bytes(b"NVR\x00" + bytes(range(256)) * 8)
    assert ncu_session.read(target, "ncu-rep") is None
    target.write_bytes(b"NVR\x00\x02\x00\x00\x00\x08\x07" + b"\xff\xff\xff\x7f" + b"\xff" * 64)
    assert ncu_session.read(target, "ncu-rep") is None
    assert ncu_session.read(tmp_path / "missing.ncu-rep", "ncu-rep") is None
    assert absent > 0  # the walk did meet damage it could not read past


def test_a_clock_difference_is_told_from_the_recorded_clock_controls() -> None:
    naive, tiled = (read_report(ROOT / "profiles" / f"{k}.ncu-rep") for k in ("naive", "tiled"))
    kernel = naive.kernels[0]
    hz = kernel.metric(metric_table.SM_FREQUENCY)
    assert hz is not None
    slower = dataclasses.replace(tiled.kernels[0], metrics=merged(
        tiled.kernels[0].metrics, {metric_table.SM_FREQUENCY: hz / 2}))

    def clock_sentence(sessions: tuple[Session | None, Session | None]) -> str:
        (found,) = [w for w in metric_table.provenance_warnings(kernel, slower, sessions)
                    if "different SM clocks" in w]
        return found

    assert naive.session is not None and tiled.session is not None
    both = clock_sentence((naive.session, tiled.session))
    assert f"both captures record --clock-control {naive.session.clock_control}" in both
    clock, _ = ncu_session.clock_control(naive.session.command_line.replace(
        f"--clock-control {naive.session.clock_control}", ""))  # type: ignore[union-attr]
    locked = dataclasses.replace(naive.session, clock_control=clock)
    assert (f"ncu's clock control differed (--clock-control {clock} and "
            f"{tiled.session.clock_control})") in clock_sentence((locked, tiled.session))
    assert "ncu's clock control or the GPU's state differed" in clock_sentence((None, None))
