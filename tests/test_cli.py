"""The command tree: `python -m viewer summary` (the contract other tools build on), predict and
capture's statuses, the window as the default, and the no-display fallback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from viewer import __main__ as entry
from viewer import cli
from viewer.core import shipped
from viewer.core.metrics import SUMMARY_KEYS
from viewer.terminal import summary_terminal

ROOT = Path(__file__).resolve().parent.parent
H200 = ROOT / "tests" / "data" / "corpus" / "h200"


def run_viewer(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "viewer", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env=env)


def printed_command_line(printed: str) -> str:
    """The Profiler Command Line of ncu's --page session printout: its value column goes on
    over the next lines at exactly the width of its dashes."""
    lines = printed.splitlines()
    dashes = next(line for line in lines if line.startswith("-"))
    start = dashes.index(" ") + 1
    first = next(i for i, line in enumerate(lines) if line.startswith("Profiler Command Line"))
    out = []
    for line in lines[first:]:
        if not line.strip() or (out and line[:start].strip()):
            break
        out.append(line[start:])
    return "".join(out)


def test_summary_json_contract_on_a_real_report() -> None:
    result = run_viewer("summary", str(H200 / "numba-naive.ncu-rep"), "--json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["schema"] == 4
    assert doc["format"] == "ncu-rep"
    assert doc["source"].endswith("numba-naive.ncu-rep")
    # The report's own session, as ncu's --page session printout beside it says.
    printed = (H200 / "numba-naive.session.txt").read_text()
    assert f"Nsight Compute Target {doc['ncu_version']}" in " ".join(printed.split())
    assert f"CUDA Version {doc['cuda_version']}" in " ".join(printed.split())
    assert f"--clock-control {doc['clock_control']} " in printed_command_line(printed)
    created = datetime.fromisoformat(doc["created"]).strftime("%Y-%b-%d %H:%M:%S")
    assert f"Created {created}" in " ".join(printed.split())
    (k,) = doc["kernels"]
    assert set(k) == {"index", "name", "display_name", "grid", "block", "device_id", "device_name",
                      "cc", "metrics"}
    assert (k["index"], k["name"], k["grid"], k["block"], k["cc"]) == (
        0, "matmul_naive", [32, 32, 1], [16, 16, 1], "9.0")
    assert (k["device_id"], k["device_name"]) == (0, "NVIDIA H200")
    assert tuple(k["metrics"]) == SUMMARY_KEYS
    m = k["metrics"]
    assert m["global_load_requests"] == 8_388_608
    assert m["sectors_per_request"] == pytest.approx(2.0, abs=0.01)
    assert m["duration_ns"] == pytest.approx(219_136, rel=1e-3)


def test_summary_json_keeps_missing_values_null() -> None:
    result = run_viewer("summary", str(H200 / "numba-tiled.details.txt"), "--json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    m = doc["kernels"][0]["metrics"]
    assert m["shared_load_instructions"] is None  # a details export does not show it
    # A text export holds no session; its ncu warning that clocks were not fixed says 'none'.
    assert (doc["ncu_version"], doc["cuda_version"], doc["created"]) == (None, None, None)
    assert doc["clock_control"] == "none"
    csv = json.loads(run_viewer("summary", str(H200 / "numba-tiled.details.csv"), "--json").stdout)
    assert {k: csv[k] for k in ("clock_control", "ncu_version", "cuda_version", "created")} == \
        dict.fromkeys(("clock_control", "ncu_version", "cuda_version", "created"))
    assert m["global_load_requests"] == 524_288
    assert m["l1tex_hit_rate_pct"] == pytest.approx(6.97)


def test_summary_text_reads_in_the_lessons_order_and_compares() -> None:
    result = run_viewer("summary", str(H200 / "numba-naive.details.txt"),
                        str(H200 / "numba-tiled.details.txt"))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.index("1. Speed Of Light") < out.index("2. The memory chart") < out.index(
        "3. Occupancy")
    assert "compute-bound" in out and "memory-bound" in out
    assert "Sectors moved (global loads): matmul_naive 8.00x matmul_tiled" in out


def test_bad_input_is_one_line_naming_the_file(tmp_path: Path) -> None:
    noise = tmp_path / "noise.ncu-rep"
    noise.write_bytes(os.urandom(4096))
    result = run_viewer("summary", str(noise), str(H200 / "numba-naive.details.txt"))
    assert result.returncode == 1
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 1 and str(noise) in errors[0]
    assert "Traceback" not in result.stderr
    assert "matmul_naive" in result.stdout  # the good file is still summarised


def test_no_display_prints_the_summary_instead(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    result = run_viewer(str(H200 / "numba-naive.details.txt"), env=env)
    assert result.returncode == 0, result.stderr
    assert "no display found" in result.stderr
    assert "1. Speed Of Light" in result.stdout


def test_summary_without_files_prints_the_shipped_comparison(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "viewer", "summary"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    naive, tiled = shipped.comparison()
    heads = [line for line in result.stdout.splitlines() if "(ncu-rep, 1 kernel)" in line]
    assert heads == [f"{naive}  (ncu-rep, 1 kernel)", f"{tiled}  (ncu-rep, 1 kernel)"]
    assert "Comparison: matmul_naive against matmul_tiled" in result.stdout


@pytest.mark.parametrize(
    ("argv", "files"),
    [([], []), (["a.ncu-rep"], ["a.ncu-rep"]), (["--tab", "memory", "summary"], ["summary"]),
     (["window"], ["window"])],
)
def test_no_command_named_is_the_window(argv: list[str], files: list[str]) -> None:
    args = cli.parse(argv)
    assert args.command == cli.WINDOW
    assert args.files == [Path(f) for f in files]


def test_each_command_parses_its_own_options() -> None:
    summary = cli.parse(["summary", "--json", "a.csv", "b.csv"])
    assert (summary.command, summary.files, summary.json) == (
        "summary", [Path("a.csv"), Path("b.csv")], True)
    predict = cli.parse(["predict", "--dim", "256", "--tile", "8"])
    assert (predict.command, predict.dim, predict.tile) == ("predict", 256, 8)
    capture = cli.parse(["capture", "--target", "naive", "--set", "basic"])
    assert (capture.command, capture.target, capture.set) == ("capture", "naive", "basic")
    window = cli.parse(["--projector", "--screenshot", "out.png", "x.ncu-rep"])
    assert (window.projector, window.screenshot, window.files) == (
        True, Path("out.png"), [Path("x.ncu-rep")])


@pytest.mark.parametrize(
    ("argv", "prog"),
    [(["summary", "--bogus"], "python -m viewer summary"),
     (["predict", "--bogus"], "python -m viewer predict"),
     (["capture", "--bogus"], "python -m viewer capture"),
     (["x.ncu-rep", "--bogus"], "python -m viewer"),
     (["--tab", "nope"], "python -m viewer"),
     (["capture", "--target", "all"], "python -m viewer capture")],
)
def test_a_usage_error_is_status_2_from_the_commands_own_parser(argv, prog, capsys) -> None:
    assert entry.main(argv) == 2
    err = capsys.readouterr().err
    assert f"{prog}: error: " in err
    assert err.splitlines()[0].startswith(f"usage: {prog} ")


def test_help_is_status_0_and_names_every_command(capsys) -> None:
    assert entry.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "--screenshot" in out
    assert all(f"'{command}" in out for command in cli.COMMANDS)
    assert entry.main(["predict", "-h"]) == 0
    assert "--tile" in capsys.readouterr().out


def installed_scripts() -> list[tuple[str, str]]:
    """pyproject.toml's console and GUI scripts: (name, 'module:function')."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [(name, target) for table in ("scripts", "gui-scripts")
            for name, target in project.get(table, {}).items()]


def run_script(name: str, target: str, *args: str) -> subprocess.CompletedProcess:
    """The installed script `name` (this checkout's code first on its path), or where the
    environment was installed without scripts, its entry point run with argv[0] its name."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    script = Path(sys.executable).parent / name
    if script.exists():
        argv = [str(script), *args]
    else:
        module, function = target.split(":")
        argv = [sys.executable, "-c", f"import sys; sys.argv[0] = {name!r}; "
                f"from {module} import {function}; sys.exit({function}())", *args]
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize(("name", "target"), installed_scripts())
def test_each_installed_script_names_itself_in_its_help_and_errors(name, target) -> None:
    helped = run_script(name, target, "--help")
    assert helped.returncode == 0, helped.stderr
    assert helped.stdout.startswith(f"usage: {name} ")
    assert "python -m viewer" not in helped.stdout.split("\n\n")[0]
    wrong = run_script(name, target, "--bogus")
    assert wrong.returncode == 2
    assert wrong.stderr.startswith(f"usage: {name} ")
    assert f"\n{name}: error: unrecognized arguments: --bogus" in wrong.stderr


def test_the_tree_run_as_a_script_names_its_commands_after_it() -> None:
    (target,) = [t for n, t in installed_scripts() if n == "ncu-reader"]
    helped = run_script("ncu-reader", target, "summary", "--help")
    assert helped.returncode == 0 and helped.stdout.startswith("usage: ncu-reader summary ")
    module = subprocess.run([sys.executable, "-m", "viewer", "summary", "--help"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert module.stdout.startswith("usage: python -m viewer summary ")


def test_predict_and_capture_keep_their_statuses(capsys) -> None:
    assert entry.main(["predict", "--dim", "512", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["dim"] == 512
    assert entry.main(["predict", "--dim", "500"]) == 2  # the tile does not divide the size
    assert capsys.readouterr().err.startswith("predict: ")
    assert entry.main(["capture", "--dim", "17"]) == 2  # refused before any route is looked for
    assert capsys.readouterr().err.startswith("capture: ")


def test_the_summary_script_is_the_summary_command(capsys) -> None:
    naive = str(H200 / "numba-naive.ncu-rep")
    assert cli.summary_main(["--json", naive]) == 0
    assert json.loads(capsys.readouterr().out)["source"] == naive


def test_a_reader_that_stops_reading_ends_summary_quietly(tmp_path: Path) -> None:
    """`summary | head`: no traceback, the shell's status for a closed pipe. 100 files (copies:
    one file named 100 times is read once) print more than a pipe holds, so the summary is
    still writing when the pipe closes."""
    csv = shipped.comparison()[0].with_suffix(".details.csv").read_bytes()
    copies = [tmp_path / f"naive-{i}.details.csv" for i in range(100)]
    for copy in copies:
        copy.write_bytes(csv)
    proc = subprocess.Popen([sys.executable, "-m", "viewer", "summary", "--json",
                             *map(str, copies)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(60) == 141
    assert b"Traceback" not in err


def test_summary_reads_an_export_cut_short_and_warns_of_it(tmp_path: Path) -> None:
    text = (H200 / "numba-naive.details.txt").read_text(encoding="utf-8")
    cut = tmp_path / "cut.details.txt"
    cut.write_text(text[: len(text) // 2].rstrip("\n"), encoding="utf-8")
    done = run_viewer("summary", str(cut))
    assert done.returncode == 0 and "matmul_naive" in done.stdout
    (warning,) = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert warning == f"warning: {cut}: cut short: its last line has no newline"


def half_details_csv(tmp_path: Path) -> Path:
    """The naive capture's details CSV cut at a line boundary halfway: it ends with a newline."""
    lines = (H200 / "numba-naive.details.csv").read_text(encoding="utf-8").splitlines(True)
    cut = tmp_path / "cut.details.csv"
    cut.write_text("".join(lines[: len(lines) // 2]), encoding="utf-8")
    return cut


def test_summary_json_says_why_a_file_looks_cut_short_and_stderr_says_it_once(tmp_path: Path,
                                                                              capsys) -> None:
    """Before, a details CSV cut at a line boundary summarised as whole, with no word."""
    cut = half_details_csv(tmp_path)
    assert summary_terminal.summarize([cut, H200 / "numba-tiled.details.csv"], as_json=True) == 0
    captured = capsys.readouterr()
    cut_doc, whole_doc = map(json.loads, captured.out.splitlines())
    assert (cut_doc["schema"], whole_doc["cut_short"]) == (4, [])
    [why] = cut_doc["cut_short"]
    assert "before the Occupancy section" in why
    assert captured.err == f"warning: {cut}: cut short: {why}\n"


def test_summary_by_name_says_a_cut_reports_shares_are_of_the_kernels_read(tmp_path: Path,
                                                                           capsys) -> None:
    from viewer.terminal import roofline_terminal

    cut = half_details_csv(tmp_path)
    assert roofline_terminal.print_by_name([cut], False, None) == 0
    captured = capsys.readouterr()
    assert "the shares are of the 1 kernel read, not of every kernel" in captured.out
    assert captured.err.count("cut short") == 1
    assert roofline_terminal.print_by_name([cut], True, None) == 0
    assert json.loads(capsys.readouterr().out)["cut_short"] != []


# --- source: each kernel's lines and SASS with ncu's per-instruction counters ---------------

SOURCE_FIELDS = {"inst_executed", "global_loads", "shared_loads", "l2_theoretical_sectors",
                 "samples"}


def test_source_json_gives_each_instruction_ncus_counters_as_the_source_page_prints_them(capsys):
    from viewer.readers.source import read_source

    rep = Path(shipped.profiles_dir() / "tiled.ncu-rep")
    page = Path(__file__).parent / "data" / "corpus" / "h200" / "numba-tiled-lineinfo.source.csv"
    assert cli.run_command(cli.parse(["source", str(rep), "--json"])) == 0
    printed = json.loads(capsys.readouterr().out.splitlines()[0])
    (kernel,) = printed["kernels"]
    (ncus,) = read_source(page)
    assert [int(r["address"], 16) for r in kernel["sass"]] == [
        i.address for i in ncus.instructions]
    for row, i in zip(kernel["sass"], ncus.instructions, strict=True):
        assert set(row) == {"address", "line", "text", *SOURCE_FIELDS}
        assert row["inst_executed"] == i.value("inst_executed")
        assert row["samples"] == i.value("samples")
        assert row["l2_theoretical_sectors"] == i.value("l2_theoretical_sectors")
        assert row["shared_loads"] == (i.value("inst_executed") if i.is_shared_load else 0)
        assert row["text"] == i.text


def test_source_json_is_null_where_a_basic_capture_lacks_the_counters(capsys):
    rep = Path(__file__).parent / "data" / "corpus" / "h200"
    rep = rep / "workloads-kernels-and-graph.ncu-rep"
    assert cli.run_command(cli.parse(["source", str(rep), "--json", "-k", "add"])) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [(k["index"], k["name"], k["display_name"]) for k in printed["kernels"]] == [
        (1, "add", "add(float *, const float *, int)")]
    rows = printed["kernels"][0]["sass"]
    assert rows and all(r[f] is None for r in rows for f in SOURCE_FIELDS)
    assert any("--section SourceCounters" in n for n in printed["kernels"][0]["notes"])


def test_source_table_and_an_unreadable_file(capsys, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("no report here\n")
    naive = shipped.profiles_dir() / "naive.ncu-rep"  # with line info: Python lines
    sass_only = Path(__file__).parent / "data" / "corpus" / "h200" / "numba-naive.ncu-rep"
    assert cli.run_command(cli.parse(["source", str(naive), str(sass_only), str(bad)])) == 1
    captured = capsys.readouterr()
    shipped_part, _, sass_part = captured.out.partition(str(sass_only))
    assert "matmul_naive" in shipped_part and "acc += a0 * b0" in shipped_part
    assert "matmul.py:" in shipped_part.split("hottest:")[1]
    assert "LDG" in sass_part and "hottest:" in sass_part
    assert "notes.txt" in captured.err


def _raw_value(page: Path, metric: str) -> float:
    """One metric's value in ncu's `--page raw` text."""
    import re

    found = re.search(rf"^\s+{re.escape(metric)}\s+(?:\S+\s+)?([\d,]+)$",
                      page.read_text(encoding="utf-8"), re.MULTILINE)
    assert found, metric
    return float(found.group(1).replace(",", ""))


def test_source_table_says_its_columns_are_warp_level_and_the_per_thread_figures_are(capsys):
    """The column header's line says warp level, never per thread; the per-thread line is ncu's
    thread-level count over the threads launched (the shipped naive is the line-info capture)."""
    from viewer.analysis import predict

    naive = shipped.profiles_dir() / "naive.ncu-rep"
    raw = Path(__file__).parent / "data" / "corpus" / "h200" / "numba-naive-lineinfo.raw.txt"
    assert cli.run_command(cli.parse(["source", str(naive)])) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(n for n, line in enumerate(lines) if line.split()[:2] == ["line", "warp"])
    assert lines[header - 1].startswith("  columns, warp level")
    assert "per thread" not in lines[header - 1] + lines[header]
    each = next(line for line in lines if line.startswith("  per thread, the whole kernel: "))
    threads = _raw_value(raw, "launch__thread_count")
    instructions = _raw_value(raw, "thread_inst_executed") / threads
    loads = predict.derive(512).naive.global_loads_per_thread
    assert f": {instructions:,.0f} instructions, {loads:,} global loads, 0 shared loads (" in each
    row = next(line for line in lines if "a0 = a[ra + p]" in line)
    assert "1,048,576" in row.split()  # its LDG, counted per warp: 8,192 warps x 128 steps


def source_rows(lines: list[str]) -> list[tuple[str, list[str], list[str]]]:
    """A source table's rows in the order printed: (where, its five counters, what follows);
    `where` is 'matmul.py:75' for a line, the address in hex for an instruction."""
    import re

    rows = []
    for line in lines:
        fields = line.split()
        if len(fields) >= 6 and (re.fullmatch(r"[0-9a-f]{6,}", fields[0])
                                 or re.fullmatch(r"\S+\.py:\d+", fields[0])):
            rows.append((fields[0], fields[1:6], fields[6:]))
    return rows


def _counts(row: dict) -> list[str]:
    return [f"{row[f]:,.0f}" if row[f] is not None else "-" for f in (
        "inst_executed", "global_loads", "shared_loads", "l2_theoretical_sectors", "samples")]


def _json_and_text(capsys, path: Path, *more: str) -> tuple[dict, list[str]]:
    assert cli.run_command(cli.parse(["source", str(path), "--json"])) == 0
    (kernel,) = json.loads(capsys.readouterr().out)["kernels"]
    assert cli.run_command(cli.parse(["source", str(path), *more])) == 0
    return kernel, capsys.readouterr().out.splitlines()


def test_source_text_prints_the_sass_under_the_lines_that_load(capsys) -> None:
    """Each line that issues loads (and each of the three hottest) is followed by its SASS
    instructions, each with ncu's counters as --json gives them; the others by none."""
    from viewer.terminal import source_terminal

    naive = shipped.profiles_dir() / "naive.ncu-rep"
    kernel, text = _json_and_text(capsys, naive)
    sass = {int(r["address"], 16): r for r in kernel["sass"]}
    under: dict[str, list[str]] = {}
    for where, counts, _ in source_rows(text):
        if ":" in where:
            line = where
            under[line] = []
        else:
            assert counts == _counts(sass[int(where, 16)])
            under[line].append(where)
    hottest = next(t for t in text if t.startswith("  hottest: ")).removeprefix("  hottest: ")
    hot = {part.split()[0] for part in hottest.split("; ")}
    for row in kernel["lines"]:
        where = f"{Path(row['file']).name}:{row['line']}"
        own = [f"{int(r['address'], 16):x}" for r in kernel["sass"] if r["line"] == row["line"]]
        if row["global_loads"] or row["shared_loads"] or where in hot:
            assert under[where] == own, where
        else:
            assert under[where] == [], where
    assert under["matmul.py:75"] and under["matmul.py:83"]  # a load line, a hottest one
    shown = sum(map(len, under.values()))
    assert 0 < shown < len(sass)
    assert (f"  {source_terminal.SHOWN}: {shown} of {len(sass)} instructions") in text
    _, every = _json_and_text(capsys, naive, "--all")
    assert sorted(int(w, 16) for w, _, _ in source_rows(every) if ":" not in w) == sorted(sass)


def test_source_text_without_line_info_prints_a_sass_section(capsys) -> None:
    """The instructions that load and the ten hottest, in address order, the others said as
    gaps; --all prints every one."""
    sass_only = H200 / "numba-naive.ncu-rep"
    kernel, text = _json_and_text(capsys, sass_only)
    printed = {w: counts for w, counts, _ in source_rows(text)}
    loads = [r for r in kernel["sass"] if r["global_loads"]]
    assert len(loads) == 8
    for r in loads:
        assert printed[f"{int(r['address'], 16):x}"] == _counts(r)
    assert len(loads) < len(printed) <= len(loads) + 10 < len(kernel["sass"])
    gaps = [int(t.split()[1]) for t in text if t.split()[:1] == ["..."]]
    assert sum(gaps) + len(printed) == len(kernel["sass"])
    _, every = _json_and_text(capsys, sass_only, "--all")
    assert [w for w, _, _ in source_rows(every)] == [
        f"{int(r['address'], 16):x}" for r in kernel["sass"]]


def test_source_without_files_reads_the_shipped_pair(tmp_path: Path) -> None:
    for more in ([], ["--json"]):
        done = subprocess.run([sys.executable, "-m", "viewer", "source", *more], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert done.returncode == 0, done.stderr
        if more:
            docs = [json.loads(line) for line in done.stdout.splitlines()]
            assert [d["source"] for d in docs] == [str(p) for p in shipped.comparison()]
        else:
            naive, tiled = shipped.comparison()
            assert done.stdout.startswith(f"{naive}\n") and f"\n{tiled}\n" in done.stdout


def _kernels_named(command: str, printed: str) -> list[tuple[str, int, str]]:
    """(source, index, name) of each kernel a --json printout names, in its own layout."""
    docs = [json.loads(line) for line in printed.splitlines()] if command != "lesson" else [
        json.loads(printed)]
    if command == "lesson":
        (page,) = docs
        return [(k["source"], k["index"], k["name"]) for k in page["reveal"]["kernels"].values()]
    if command in ("summary", "source"):
        return [(d["source"], k["index"], k["name"]) for d in docs for k in d["kernels"]]
    return [(d["source"], d["index"], d["name"]) for d in docs]


@pytest.mark.parametrize("command", ["summary", "roofline", "metrics", "advice", "source",
                                     "lesson"])
def test_every_json_names_a_file_source_and_a_kernel_by_index(capsys, command: str) -> None:
    """One vocabulary: the file is `source`, the kernel its `index` and `name` as summary's."""
    naive, tiled = (str(p) for p in shipped.comparison())
    assert entry.main([command, "--json", naive, tiled]) == 0
    printed = capsys.readouterr().out
    assert _kernels_named(command, printed) == [(naive, 0, "matmul_naive"),
                                                (tiled, 0, "matmul_tiled")]
    docs = [json.loads(printed)] if command == "lesson" else [
        json.loads(line) for line in printed.splitlines()]
    for doc in docs:
        outer = [doc, *doc.get("kernels", []), *(doc.get("reveal", {}).get("kernels", {})
                                                 .values())]
        assert not {"file", "files"} & {key for part in outer for key in part}


def test_source_numbers_kernels_as_summary_does_and_graph_functions_not(capsys) -> None:
    """A graph's functions are no kernel summary lists: index null; the kernels before them
    have summary's numbers."""
    mixed = H200 / "workloads-kernels-and-graph.ncu-rep"
    assert entry.main(["summary", "--json", str(mixed)]) == 0
    summary = [(k["index"], k["name"], k["display_name"])
               for k in json.loads(capsys.readouterr().out)["kernels"]]
    assert entry.main(["source", "--json", str(mixed)]) == 0
    kernels = json.loads(capsys.readouterr().out)["kernels"]
    assert [(k["index"], k["name"], k["display_name"]) for k in kernels[:2]] == summary
    assert [k["index"] for k in kernels[2:]] == [None] * 4
    assert all(k["name"].startswith("graph #") for k in kernels[2:])
