"""A list of sizes in one run of the helper: its grammar (bounded and checked in the helper), the
argv it builds for each size, the reports it streams one after another, and the client keeping
each under a name of its own (the fake helper, tests/fakes/ncu-reader-capture, where this machine
has no ncu; the real helper with a fake ncu, tests/capture_install.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.capture_install import REPORT, events, plant
from viewer.capture.client import (
    CaptureError,
    PartlyKept,
    Request,
    RequestError,
    Route,
    Step,
    cancelled,
    run_sweep,
    settle_all,
)
from viewer.capture.helper import protocol
from viewer.capture.provenance import read_provenance
from viewer.capture.run import Finished, Sent
from viewer.capture.store import ReportSink
from viewer.core.jobs import Job
from viewer.terminal import capture_terminal

ROOT = Path(__file__).resolve().parents[2]
FAKE_HELPER = ROOT / "tests" / "fakes" / "ncu-reader-capture"
NAIVE, TILED = ROOT / "profiles" / "naive.ncu-rep", ROOT / "profiles" / "tiled.ncu-rep"


def words(target: str, dims: str) -> list[str]:
    return ["capture", "--target", target, "--dim", dims, "--set", "full", "--clock", "none"]


# ---------------------------------------------------------------------------- the grammar


def test_a_list_of_sizes_is_one_request_size_by_size() -> None:
    request = protocol.parse_request(words("both", "256,512,1024"))
    assert (request.targets, request.dims) == (("naive", "tiled"), (256, 512, 1024))
    assert [(s.target, s.dim) for s in request.shots] == [
        ("naive", 256), ("tiled", 256), ("naive", 512), ("tiled", 512), ("naive", 1024),
        ("tiled", 1024)]
    eight = ",".join(str(16 * k) for k in range(1, 9))
    assert protocol.parse_request(words("both", eight)).dims == tuple(range(16, 144, 16))
    assert protocol.parse_request(words("naive", "8192")).dims == (8192,)


REFUSED = {
    "nine sizes": ",".join(str(16 * k) for k in range(1, 10)),
    "zero": "256,0",
    "above the range": "256,8208",
    "not a multiple of the tile": "256,24",
    "below the range": "15",
    "repeated": "256,512,256",
    "empty item": "256,,512",
    "trailing comma": "256,",
    "leading comma": ",256",
    "semicolon": "256;512",
    "space": "256, 512",
    "letters": "256,abc",
    "leading zero": "256,0512",
    "sign": "256,+512",
    "huge string": "256," * 2000,
    "huge number": "1" * 39,
    "fullwidth digits": "256,５１２",
}


@pytest.mark.parametrize("dims", REFUSED.values(), ids=REFUSED.keys())
def test_a_bad_list_is_refused_by_the_helpers_grammar(dims: str) -> None:
    with pytest.raises(protocol.Refusal) as caught:
        protocol.parse_request(words("both", dims))
    assert caught.value.code == protocol.EXIT_BAD_REQUEST
    with pytest.raises(RequestError):
        Request("both", dims, "full", "none").validate()


def test_the_total_work_is_bounded() -> None:
    assert protocol.parse_request(words("both", "8192")).dims == (8192,)
    assert protocol.parse_request(words("naive", "8192,8176")).dims == (8192, 8176)
    with pytest.raises(protocol.Refusal, match="too much work"):
        protocol.parse_request(words("both", "8192,8176"))
    with pytest.raises(protocol.Refusal, match="too much work"):
        protocol.parse_request(words("naive", "8192,8176,8160"))


def test_the_time_limit_scales_with_the_reports_and_stays_bounded() -> None:
    one = protocol.parse_request(words("naive", "512"))
    three = protocol.parse_request(words("naive", "256,512,1024"))
    sixteen = protocol.parse_request(words("both", ",".join(str(16 * k) for k in range(1, 9))))
    assert one.limit_s == protocol.TIMEOUT_S
    assert three.limit_s == 3 * protocol.TIMEOUT_S
    assert sixteen.limit_s == protocol.MAX_RUN_S < 16 * protocol.TIMEOUT_S


# ---------------------------------------------------------------------------- the helper


def test_the_dry_run_builds_each_sizes_argv(tmp_path: Path) -> None:
    install = plant(tmp_path)
    done = install.run(*words("both", "256,512"), "--dry-run")
    assert done.returncode == 0, done.stderr
    argvs = [json.loads(line)["argv"] for line in done.stdout.decode().splitlines()]
    assert len(argvs) == 4
    for argv, (target, dim) in zip(argvs, [("naive", 256), ("tiled", 256), ("naive", 512),
                                           ("tiled", 512)], strict=True):
        assert argv[0] == str(install.ncu)
        assert argv[argv.index("-k") + 1] == f"regex:matmul_{target}"
        assert argv[argv.index(str(install.python)):][-4:] == ["--kernel", target, "--dim",
                                                               str(dim)]
        assert argv[argv.index("--clock-control") + 1] == "none"
        assert "256,512" not in " ".join(argv)  # one size each, never the list
    assert install.runs() == []


def test_one_run_streams_every_report_in_order(tmp_path: Path) -> None:
    install = plant(tmp_path)
    done = install.run(*words("both", "256,512"))
    assert done.returncode == 0, done.stderr
    size = REPORT.stat().st_size
    assert done.stdout == REPORT.read_bytes() * 4
    said = events(done.stderr)
    started = [e["started"] for e in said if "started" in e]
    assert [(s["target"], s["dim"], s["index"], s["count"]) for s in started] == [
        ("naive", 256, 0, 4), ("tiled", 256, 1, 4), ("naive", 512, 2, 4), ("tiled", 512, 3, 4)]
    sent = [e["sent"] for e in said if "sent" in e]
    assert sent == [{"target": t, "dim": d, "bytes": size}
                    for t, d in [("naive", 256), ("tiled", 256), ("naive", 512), ("tiled", 512)]]
    assert said[-1]["done"]["reports"] == sent and said[-1]["done"]["bytes"] == 4 * size
    runs = install.captures()
    assert [r["argv"][-3] for r in runs] == ["naive", "tiled", "naive", "tiled"]
    folders = {Path(r["argv"][r["argv"].index("-o") + 1]).parent for r in runs}
    assert len(folders) == 4 and not any(f.exists() for f in folders)


def test_a_refused_list_runs_nothing(tmp_path: Path) -> None:
    install = plant(tmp_path)
    done = install.run(*words("both", REFUSED["nine sizes"]))
    assert done.returncode == protocol.EXIT_BAD_REQUEST
    (line,) = events(done.stderr)
    assert "at most 8" in line["error"]
    assert done.stdout == b"" and install.runs() == []


# ---------------------------------------------------------------------------- the client


def fake_route() -> Route:
    return Route("direct", str(FAKE_HELPER), (), {"FAKE_HELPER": "ok"}, "the fake helper")


def test_the_client_keeps_each_report_under_its_target_and_size(tmp_path: Path) -> None:
    captures = tmp_path / "captures"
    captures.mkdir()
    (captures / "keep-me.ncu-rep").write_bytes(b"mine")
    request = Request("both", "256,512", "basic", "none")
    sink = ReportSink(captures, "both-256_512-basic", cap=protocol.MAX_REPORT_BYTES * 4)
    paths = run_sweep(fake_route(), request, sink)
    assert [p.name.split("-")[:3] for p in paths] == [
        ["naive", "256", "basic"], ["tiled", "256", "basic"], ["naive", "512", "basic"],
        ["tiled", "512", "basic"]]
    assert [p.read_bytes() for p in paths] == [NAIVE.read_bytes(), TILED.read_bytes()] * 2
    assert len({p.name for p in paths}) == 4  # same second, never the same name
    for path, (target, dim) in zip(paths, [("naive", 256), ("tiled", 256), ("naive", 512),
                                           ("tiled", 512)], strict=True):
        record = read_provenance(path)
        assert record is not None and (record.target, record.dim) == (target, dim)
    assert (captures / "keep-me.ncu-rep").read_bytes() == b"mine"
    assert sorted(p.name for p in captures.iterdir()) == sorted(
        ["keep-me.ncu-rep", *(p.name for p in paths), *(p.name + ".json" for p in paths)])


def test_a_done_event_that_does_not_list_the_reports_keeps_nothing(tmp_path: Path) -> None:
    captures = tmp_path / "captures"
    captures.mkdir()
    sink = ReportSink(captures, "both-256")
    data = NAIVE.read_bytes() + TILED.read_bytes()
    sink.write(data)
    done = {"bytes": len(data), "reports": [{"target": "tiled", "dim": 256,
                                             "bytes": TILED.stat().st_size},
                                            {"target": "naive", "dim": 256,
                                             "bytes": NAIVE.stat().st_size}]}
    with pytest.raises(CaptureError, match="which of its 2 reports"):
        settle_all(Finished(0, done, None), sink, Request("both", 256, "full", "none"))
    assert list(captures.iterdir()) == []


def test_the_terminal_prints_one_line_per_size(tmp_path: Path, capsys,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    status = capture_terminal.cli(["--target", "both", "--dim", "256,512,1024"],
                                  route_fn=fake_route)
    out, err = capsys.readouterr()
    assert status == 0, err
    assert err.splitlines()[1:] == ["  size 256 (1 of 3): naive and tiled",
                                    "  size 512 (2 of 3): naive and tiled",
                                    "  size 1024 (3 of 3): naive and tiled"]
    names = [Path(line).name.split("-")[:2] for line in out.splitlines()]
    assert names == [[t, d] for d in ("256", "512", "1024") for t in ("naive", "tiled")]


def test_the_terminal_refuses_a_bad_list_in_one_line(capsys) -> None:
    status = capture_terminal.cli(["--dim", "256,512,256"],
                                  route_fn=lambda: pytest.fail("no route for a refused list"))
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err == "capture: --dim lists 256 more than once\n"


# ------------------------------------------------------------ a run that fails part way


def failing_route(mode: str, after: int) -> Route:
    return Route("direct", str(FAKE_HELPER), (), {"FAKE_HELPER": mode,
                                                  "FAKE_HELPER_AFTER": str(after)},
                 "the fake helper")


def _captures(tmp_path: Path) -> Path:
    captures = tmp_path / "captures"
    captures.mkdir()
    (captures / "keep-me.ncu-rep").write_bytes(b"mine")
    return captures


def _left(captures: Path, kept: list[Path]) -> list[str]:
    """What the folder holds besides the planted file and the kept reports with their notes."""
    return sorted(set(p.name for p in captures.iterdir()) - {"keep-me.ncu-rep"}
                  - {p.name for p in kept} - {p.name + ".json" for p in kept})


def test_a_run_that_fails_part_way_keeps_the_reports_sent_whole(tmp_path: Path) -> None:
    captures = _captures(tmp_path)
    request = Request("both", "256,512", "basic", "none")
    sink = ReportSink(captures, "both-256_512-basic", cap=protocol.MAX_REPORT_BYTES * 4)
    with pytest.raises(PartlyKept) as caught:
        run_sweep(failing_route("nvgpuctrperm", 2), request, sink)
    assert "ERR_NVGPUCTRPERM" in str(caught.value) and not cancelled(caught.value)
    kept = [k.path for k in caught.value.kept]
    assert [p.name.split("-")[:2] for p in kept] == [["naive", "256"], ["tiled", "256"]]
    assert [p.read_bytes() for p in kept] == [NAIVE.read_bytes(), TILED.read_bytes()]
    for path, target in zip(kept, ("naive", "tiled"), strict=True):
        record = read_provenance(path)
        assert record is not None and (record.target, record.dim) == (target, 256)
    assert _left(captures, kept) == []
    assert (captures / "keep-me.ncu-rep").read_bytes() == b"mine"


def test_a_run_cancelled_part_way_keeps_what_finished_and_never_the_cut_report(
        tmp_path: Path) -> None:
    captures = _captures(tmp_path)
    request = Request("both", "256", "basic", "none")
    sink = ReportSink(captures, "both-256-basic", cap=protocol.MAX_REPORT_BYTES * 2)
    job = Job()

    def on_step(step: Step) -> None:
        if step.index == 1:
            job.cancel()

    with pytest.raises(PartlyKept) as caught:
        run_sweep(failing_route("hang", 1), request, sink, job, on_step)
    assert cancelled(caught.value)
    kept = [k.path for k in caught.value.kept]
    assert [p.read_bytes() for p in kept] == [NAIVE.read_bytes()]
    assert _left(captures, kept) == []


def test_a_run_that_fails_on_its_first_report_keeps_nothing(tmp_path: Path) -> None:
    captures = _captures(tmp_path)
    sink = ReportSink(captures, "both-256-basic", cap=protocol.MAX_REPORT_BYTES * 2)
    with pytest.raises(CaptureError) as caught:
        run_sweep(failing_route("nvgpuctrperm", 0), Request("both", "256", "basic", "none"),
                  sink)
    assert not isinstance(caught.value, PartlyKept)
    assert sorted(p.name for p in captures.iterdir()) == ["keep-me.ncu-rep"]


SENT = {
    "more bytes than arrived": [Sent("naive", 256, NAIVE.stat().st_size + 1)],
    "out of order": [Sent("tiled", 256, TILED.stat().st_size)],
    "another size": [Sent("naive", 512, NAIVE.stat().st_size)],
}


@pytest.mark.parametrize("sent", SENT.values(), ids=SENT.keys())
def test_a_sent_that_the_bytes_do_not_bear_out_keeps_nothing(tmp_path: Path,
                                                             sent: list[Sent]) -> None:
    captures = _captures(tmp_path)
    sink = ReportSink(captures, "both-256")
    sink.write(NAIVE.read_bytes())
    failure = CaptureError("the helper failed", 5)
    with pytest.raises(CaptureError) as caught:
        settle_all(Finished(5, None, failure, tuple(sent)), sink,
                   Request("both", 256, "full", "none"))
    assert caught.value is failure
    assert sorted(p.name for p in captures.iterdir()) == ["keep-me.ncu-rep"]


def test_the_terminal_names_the_reports_kept_from_a_failed_run(
        tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    status = capture_terminal.cli(["--target", "both", "--dim", "256,512"],
                                  route_fn=lambda: failing_route("nvgpuctrperm", 3))
    out, err = capsys.readouterr()
    assert status == 1
    assert "capture: kept the 3 of 4 reports that arrived whole:" in err
    names = [Path(line).name.split("-")[:2] for line in out.splitlines()]
    assert names == [["naive", "256"], ["tiled", "256"], ["naive", "512"]]
    assert all(Path(line).is_file() for line in out.splitlines())
